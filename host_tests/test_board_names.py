"""Every entry point names a board config the same way (tools/device/firmware_build.py board_config): a file stem in
board_configs/, that stem with .json, or a JSON file's path. An unknown name lists the configs; a broken
file is one line naming the file and what is wrong with it; never a traceback. Run as the user runs them:
make, tools/sim, tools/device/pico_emulator.py, each in its own process."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CONFIGS = sorted(path.stem for path in (REPO / "board_configs").glob("*.json"))
GOOD = json.loads((REPO / "board_configs" / "pico_breadboard_i2c.json").read_text())


def run(argv, timeout=120):
    result = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=timeout)
    return result.returncode, result.stdout + result.stderr


def make(*args):
    # make's recipes with this interpreter (STAMP= : the venv exists already, as the test's own).
    return run(["make", "-s", "--no-print-directory", "PY=" + sys.executable, "STAMP=", *args])


@pytest.fixture
def broken_configs(tmp_path):
    """{kind: path} of a config cut short, and one with a button on a pin the Pico does not have."""
    truncated = tmp_path / "zz_truncated.json"
    truncated.write_text(json.dumps(GOOD, indent=2)[:40])
    badpin = dict(GOOD, buttons=dict(GOOD["buttons"], a={"pin": 40, "pull": "up", "active": "low"}))
    wrong = tmp_path / "zz_badpin.json"
    wrong.write_text(json.dumps(badpin))
    return {"truncated": truncated, "badpin": wrong}


def assert_one_clear_line(output, *words):
    assert "Traceback" not in output and "Errno" not in output, output
    lines = [line for line in output.splitlines() if line.strip() and not line.startswith("make")]
    assert len(lines) == 1, output
    for word in words:
        assert word in lines[0], output


def entry_points(board):
    """The commands a user names a board with, each as argv."""
    return {
        "make play": ["make", "-s", "--no-print-directory", "PY=" + sys.executable, "STAMP=", "play",
                      "BOARD=%s" % board, "SIM=--headless /dev/null"],
        "make bench-device": ["make", "-s", "--no-print-directory", "PY=" + sys.executable, "STAMP=", "NODE_STAMP=",
                              "bench-device", "PORT=emulated", "BOARD=%s" % board],
        "tools/sim --pico": [sys.executable, str(REPO / "tools" / "sim"), "--pico", "--board", str(board),
                             "--headless", "/dev/null"],
        "pico_emulator boot": [sys.executable, str(REPO / "tools" / "device" / "pico_emulator.py"), "boot", "--board", str(board)],
    }


@pytest.mark.parametrize("entry", list(entry_points("x")))
def test_an_unknown_board_lists_the_configs(entry):
    status, output = run(entry_points("nonexistent")[entry])
    assert status == 2
    assert_one_clear_line(output, "no board config called 'nonexistent'", ", ".join(CONFIGS))


@pytest.mark.parametrize("entry", list(entry_points("x")))
@pytest.mark.parametrize("kind, words", [("truncated", ("not valid JSON", "line ", "column ")),
                                         ("badpin", ("buttons.a.pin: 40 is not a GPIO",))])
def test_a_broken_config_is_one_line_naming_the_file(entry, kind, words, broken_configs):
    path = broken_configs[kind]
    status, output = run(entry_points(path)[entry])
    assert status == 2
    assert_one_clear_line(output, "board config %s is not usable" % path, *words)


@pytest.mark.parametrize("board", ["pico_breadboard_i2c", "pico_breadboard_i2c.json",
                                   "board_configs/pico_breadboard_i2c.json"])
def test_make_play_takes_a_stem_a_file_name_or_a_path(board, tmp_path):
    script = tmp_path / "menu.txt"
    script.write_text("wait 100\n")
    status, output = make("play", "BOARD=%s" % board, "SIM=--headless %s --out %s" % (script, tmp_path))
    assert status == 0, output
