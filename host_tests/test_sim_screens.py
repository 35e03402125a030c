"""What the player reads on the screen, through tools/sim --headless: the variant in a game, results as
won/lost/draw, the Cytron board's keys, the tour's screenshots exactly as committed."""

import json
import subprocess
import sys
from pathlib import Path

import pytest


REPO = Path(__file__).resolve().parent.parent
BOARD = REPO / "board_configs" / "pico_breadboard_i2c.json"
SCREENS = REPO / "docs" / "screens"


def _headless(tmp_path, script, files=None, board=BOARD):
    """tools/sim --headless running `script`, its flash holding `files` in data/ (name: JSON-able data)."""
    flash = tmp_path / "flash"
    (flash / "data").mkdir(parents=True)
    for name, data in (files or {}).items():
        (flash / "data" / name).write_text(json.dumps(data))
    path = tmp_path / "script.sim"
    path.write_text(script)
    done = subprocess.run(
        [sys.executable, str(REPO / "tools" / "sim"), "--headless", str(path), "--flash", str(flash),
         "--out", str(tmp_path / "out"), "--board", str(board)],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("settings, tag", [({}, "Anti"), ({"size": 6}, "6x6 Anti"), ({"clock": 5}, "Anti")])
def test_an_anti_othello_game_says_so(tmp_path, settings, tag):
    _headless(tmp_path, 'until "Two players"\npress down\npress a\nuntil "P1 to move"\nuntil "%s"\n' % tag,
              {"settings.json": dict(settings, anti=True)})


def test_the_records_give_the_result_for_the_player(tmp_path):
    anti = {"size": 8, "start": "othello", "first": 0, "anti": True, "handicap": 0, "handicap_to": 0, "black_hole": None}
    records = [
        {"v": anti, "s": None, "t": "f5d6", "r": [1, 27, 9, 0], "p": ["You", "L3"]},  # more discs, and lost: Anti
        {"v": anti, "s": None, "t": "f5d6", "r": [0, 20, 44, 0], "p": ["L2", "You"]},
        {"v": anti, "s": None, "t": "f5d6", "r": [None, 32, 32, 0], "p": ["P1", "P2"]},
        {"v": anti, "s": None, "t": "f5d6", "r": [1, 40, 24, 0], "p": ["P1", "P2"]},
    ]
    script = 'until "Two players"\npress down 9\npress a\n'
    script += "".join('until "%s"\n' % text for text in ("lost 27-9", "lost 44-20", "draw 32-32", "P2 24-40"))
    _headless(tmp_path, script, {"records.json": records})


def test_wake_taps_only_a_dimmed_screen_and_that_tap_only_wakes_it(tmp_path):
    """The script's `wake`: on a lit screen nothing happens; once the settings' idle time (60 s) has dimmed
    it, a tap that the app takes as a wake-up alone: the main menu's cursor stays where it was."""
    _headless(tmp_path, 'until "Play computer"\nsettle\nwake down\nsettle\nshot awake.png\nwait 61000\n'
                        'shot dimmed.png\nwake down\nsettle\nshot woken.png\n')
    out = tmp_path / "out"
    assert (out / "woken.png").read_bytes() == (out / "awake.png").read_bytes()
    assert (out / "dimmed.png").read_bytes() != (out / "awake.png").read_bytes()


@pytest.mark.slow
def test_the_tour_makes_the_committed_screenshots_byte_for_byte(tmp_path):
    """README's commands (tools/sim --interpreter micropython --headless docs/screens/<script>.sim --out
    docs/screens, for tour.sim and each other script there), into a temporary directory: together they make
    every committed picture (under the unix port, the review's judgements are the device's)."""
    written = []
    for script in sorted(SCREENS.glob("*.sim")):
        done = subprocess.run(
            [sys.executable, str(REPO / "tools" / "sim"), "--interpreter", "micropython", "--headless", str(script),
             "--out", str(tmp_path)],
            capture_output=True, text=True, timeout=600,
        )
        assert done.returncode == 0, (script.name, done.stderr)
        written += [Path(line).name for line in done.stdout.split()]
    written.sort()
    committed = sorted(path.name for path in SCREENS.iterdir() if path.suffix in (".png", ".gif"))
    assert written == committed
    differ = [name for name in written if (tmp_path / name).read_bytes() != (SCREENS / name).read_bytes()]
    assert not differ, "run the tour again (README) and review: %s" % ", ".join(differ)


def test_the_cytron_boards_record_names_its_three_keys_and_opens_at_the_last_move(tmp_path):
    _headless(tmp_path, """
until "Two players"
press right
press a
until "P1 to move"
press a
settle
press a
settle
hold a 900
until "Resume"
press right 3
until "Game record"
press a
until "Move 2/2"
until "<> step"
until "hold A:"
until " back"
""", board=REPO / "board_configs" / "cytron_maker_pi_pico_grove_oled.json")
