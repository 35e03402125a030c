"""Storage on the flash: atomic replacement, and a power cut at any step leaving the old file or the new."""

import json
from pathlib import Path

import pytest

import hw
from runners import micropython_runner
import simulator
from hw.storage import Storage, error_words

REPO = Path(__file__).resolve().parent.parent
CONFIG = hw.load_config(json.loads((REPO / "board_configs" / "pico_breadboard_i2c.json").read_text()))
OLD = b"old " * 150  # 600 bytes: three chunks of flash writes
NEW = b"new!" * 175  # 700 bytes


def storage_on(flash_dir):
    board = simulator.LocalBoard(CONFIG, flash_dir)
    return hw.open_device(CONFIG).storage, board


def test_read_write_remove_and_names(tmp_path):
    storage, board = storage_on(tmp_path)
    assert storage.read("settings.json") is None and storage.names() == []
    storage.write_atomic("settings.json", b"{}")
    storage.write_atomic("game.json", OLD)
    storage.write_atomic("game.json", NEW)
    assert storage.read("game.json") == NEW
    assert storage.names() == ["game.json", "settings.json"]
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == ["game.json", "settings.json"]
    assert storage.remove("settings.json") and not storage.remove("settings.json")
    steps = [op for _, op, path in board.hardware.flash_log if path.startswith("data/game.json")]
    assert steps[-6:] == ["create", "write", "write", "write", "close", "rename"]


@pytest.mark.parametrize("name", ["", "a/b", ".hidden", "x.tmp"])
def test_names_that_could_escape_or_clash_are_refused(tmp_path, name):
    storage, _ = storage_on(tmp_path)
    with pytest.raises(ValueError):
        storage.write_atomic(name, b"x")


def test_a_stray_temporary_file_is_cleared_at_start(tmp_path):
    storage, _ = storage_on(tmp_path)
    storage.write_atomic("game.json", OLD)
    (tmp_path / "data" / "game.json.tmp").write_bytes(NEW[:300])
    storage, _ = storage_on(tmp_path)
    assert storage.names() == ["game.json"] and not (tmp_path / "data" / "game.json.tmp").exists()
    assert storage.read("game.json") == OLD


@pytest.mark.parametrize("step", range(1, 8))
def test_power_cut_at_any_step_leaves_old_or_new(tmp_path, step):
    storage, board = storage_on(tmp_path)
    storage.write_atomic("game.json", OLD)
    board.cut_power_at_flash_step(step)
    import machine

    if step <= 6:  # create, three writes, close, rename
        with pytest.raises(machine.PowerCut):
            storage.write_atomic("game.json", NEW)
        with pytest.raises(machine.PowerCut):  # nothing reaches the flash once the power is gone
            storage.write_atomic("other", b"x")
    else:
        storage.write_atomic("game.json", NEW)
    storage, _ = storage_on(tmp_path)  # power back: the firmware starts again
    assert storage.read("game.json") == (NEW if step > 6 else OLD)
    assert storage.names() == ["game.json"]


def test_storage_under_micropython(tmp_path):
    """The same module on MicroPython's own os and open (the unix port, on a host directory)."""
    code = (
        "from hw.storage import Storage\n"
        "def main():\n"
        "    s = Storage(%r)\n"
        "    print(s.read('a'), s.names())\n"
        "    s.write_atomic('a', b'one')\n"
        "    s.write_atomic('a', b'two')\n"
        "    s.write_atomic('b', b'')\n"
        "    print(s.read('a'), s.read('b'), s.names(), s.remove('b'), s.remove('b'))\n"
        "main()\n"
    ) % str(tmp_path / "data")
    assert micropython_runner.run("unix", code).splitlines() == ["None []", "b'two' b'' ['a', 'b'] True False"]


def _unusable_storage_code(root):
    return (
        "from hw.storage import Storage\n"
        "s = Storage(%r)\n"
        "print(s.problem)\n"
        "try:\n"
        "    s.write_atomic('a', b'one')\n"
        "except OSError as error:\n"
        "    print('refused', error.args[0])\n"
    ) % root


def test_a_storage_that_cannot_be_opened_says_why_instead_of_raising(tmp_path):
    (tmp_path / "data").write_text("a file where the folder should be")
    storage = Storage(str(tmp_path / "data"))
    assert storage.problem == "%s is a file, not a folder" % (tmp_path / "data")
    with pytest.raises(OSError):
        storage.write_atomic("a", b"one")
    lines = micropython_runner.run("unix", _unusable_storage_code(str(tmp_path / "data"))).splitlines()
    assert lines == [storage.problem, "refused 20"], "the same words under MicroPython"


@pytest.mark.parametrize(
    "error, words",
    [(OSError(28, "No space left"), "flash full"), (OSError(21, "Is a directory"), "a folder"), (OSError(71, "Protocol"), "error 71")],
)
def test_flash_errors_in_words_that_fit_the_screen(error, words):
    assert error_words(error) == words
