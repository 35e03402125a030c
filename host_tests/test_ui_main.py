"""firmware/main.py end to end in the simulator: power-up, a whole game under MicroPython, power cycles,
a broken board config, and the last-resort crash screen.

Each test runs the firmware in its own process (tools/simulator
SimulatedDevice) exactly as the Pico runs it at power-up, and sees only what
a person would: the panel's pixels, the buzzer and the files on the flash.
"""

import json
from pathlib import Path

import pytest
from ui_harness import BOARD_CONFIGS, check_reference

import hw
from othello.board import PASS
from othello.game import Game
from simulator import SimulatedDevice

BOARD = BOARD_CONFIGS / "pico_breadboard_i2c.json"


def rows(sim):
    return sim.screen_text()


def saved(sim, name):
    data = sim.flash_files().get("%s/%s" % (hw.STORAGE_ROOT, name))
    return None if data is None else json.loads(data)


def navigate(sim, steps):
    for name, count in steps:
        for _ in range(count):
            sim.tap(name)


def test_power_up_plays_and_resumes_after_a_power_cycle():
    with SimulatedDevice(BOARD) as sim:
        sim.power_on()
        sim.run_for(500)
        title = rows(sim)
        assert any("#" in row for row in title[:40])  # the title is on the glass
        navigate(sim, [("a", 1), ("down", 1), ("a", 1)])  # Two players
        sim.run_for(200)
        game = Game.from_dict(saved(sim, "game.json")["game"])
        assert game.history == []
        sim.tap("a")  # the cursor starts on the first legal move: play it
        sim.run_for(400)
        first = saved(sim, "game.json")["game"]["moves"]
        assert len(first) == 1
        before = rows(sim)
        sim.power_cycle(off_ms=1000)
        sim.run_for(500)
        navigate(sim, [("a", 1), ("a", 1)])  # leave the title, Continue
        sim.run_for(400)
        assert rows(sim)[:64] == before[:64] or saved(sim, "game.json")["game"]["moves"] == first
        assert saved(sim, "game.json")["game"]["moves"] == first


def test_a_whole_game_against_the_computer_under_micropython():
    """The firmware under MicroPython's unix port plays a game to the end; the test reads the saved game to choose moves."""
    with SimulatedDevice(BOARD, interpreter="micropython") as sim:
        sim.power_on()
        sim.run_for(300)
        navigate(sim, [("a", 1), ("a", 1), ("down", 1), ("left", 1), ("down", 1), ("a", 1)])  # Play computer, level 1, Start
        sim.run_for(300)
        data = saved(sim, "game.json")
        assert data["players"] == [None, 1]
        cursor = None
        for _ in range(70):
            data = saved(sim, "game.json")
            game = Game.from_dict(data["game"])
            if game.is_over():
                break
            if game.board.must_pass():
                sim.tap("a")  # confirm the pass notice
                sim.run_for(300)
                continue
            legal = game.board.legal_squares()
            if cursor is None:
                cursor = legal[0]  # where the cursor starts
            target = legal[-1]
            n = game.board.size
            (row, column), (to_row, to_column) = divmod(cursor, n), divmod(target, n)
            navigate(sim, [("right", (to_column - column) % n), ("down", (to_row - row) % n), ("a", 1)])
            cursor = target
            assert sim.run_until(lambda s: humans_turn_after(s, len(data["game"]["moves"])), 20000, 100)
        sim.run_for(1500)
        assert saved(sim, "game.json")["recorded"] is True
        records = saved(sim, "records.json")
        assert len(records) == 1 and records[0]["p"] == ["You", "L1"]
        replay = Game()
        replay.play_transcript(records[0]["t"])
        assert replay.is_over()
        assert "Traceback" not in sim.console


def humans_turn_after(sim, plies):
    """The computer has answered the human's move (or the game has ended, or someone must pass)."""
    game = Game.from_dict(saved(sim, "game.json")["game"])
    return len(game.history) > plies + 1 or game.is_over() or game.board.must_pass()


def test_a_broken_board_config_is_shown_on_the_screen(tmp_path):
    source = json.loads(BOARD.read_text())
    source["buttons"]["left"]["pin"] = 40
    (tmp_path / "board.json").write_text(json.dumps(source))
    with SimulatedDevice(BOARD, flash_dir=tmp_path, install_config=False) as sim:
        sim.power_on()
        sim.run_for(300)
        assert "buttons.left.pin" in sim.console
        assert sim.state == "halted"
        check_reference("config_error", rows(sim), tmp_path)


def main_with(tmp_path, patch):
    """A copy of main.py that runs `patch` (source) first: the file to give SimulatedDevice(app=...)."""
    main = Path(hw.__file__).resolve().parent.parent / "main.py"
    broken = tmp_path / "broken_main.py"
    broken.write_text(patch + main.read_text())
    return broken


def error_log(sim):
    return sim.flash_files()["%s/error.log" % hw.STORAGE_ROOT].decode()


def check_a_key_restarts(sim):
    sim.tap("b")
    sim.run_for(200)
    assert sim.resets == 1


def check_crash_screen(tmp_path, patch, reference, logged):
    """main.py with `patch` run first powers up to main.py's crash screen (`reference`), logs `logged`, and
    a key restarts the device."""
    with SimulatedDevice(BOARD, app=main_with(tmp_path, patch)) as sim:
        sim.power_on()
        sim.run_for(500)
        check_reference(reference, rows(sim), tmp_path)
        assert logged in error_log(sim)
        check_a_key_restarts(sim)


def test_a_crash_outside_the_app_is_shown_logged_and_restarts(tmp_path):
    check_crash_screen(
        tmp_path,
        "import ui.app\n"
        "class Broken(ui.app.App):\n"
        "    def __init__(self, *args):\n"
        "        raise MemoryError('memory allocation failed, allocating 8192 bytes')\n"
        "ui.app.App = Broken\n",
        "fatal",
        "MemoryError: memory allocation failed",
    )


@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_an_error_with_no_room_left_for_the_crash_screen_reaches_main_py_as_itself(tmp_path, interpreter):
    # The App's crash screen needs a log line and the menus' code; when the heap has no room for them the
    # error goes on to main.py's crash screen, which runs with the App's heap given back. It used to be a
    # MemoryError from inside App.fail that got there, and error.log never said where the trouble was.
    broken = main_with(
        tmp_path,
        "import ui.app\n"
        "import ui.store\n"
        "logged = []\n"
        "real_append_log = ui.store.Store.append_log\n"
        "def append_log(store, text):\n"
        "    logged.append(text)\n"
        "    if len(logged) == 1:  # the App's, in its full heap\n"
        "        raise MemoryError('memory allocation failed, allocating 616 bytes')\n"
        "    real_append_log(store, text)\n"
        "def lost(app):\n"
        "    raise RuntimeError('the search lost its way')\n"
        "ui.store.Store.append_log = append_log\n"
        "ui.app.App.loop_once = lost\n",
    )
    with SimulatedDevice(BOARD, app=broken, interpreter=interpreter) as sim:
        sim.power_on()
        sim.run_for(500)
        log = error_log(sim)
        assert log.endswith("RuntimeError: the search lost its way\n") and "in lost" in log, log
        check_a_key_restarts(sim)


def test_a_player_that_cannot_start_is_shown_on_the_screen_not_left_at_the_console(tmp_path):
    # main.py prepares the player before it opens the display; a failure there (a damaged weight file,
    # say) must still reach the crash screen and error.log once the display is open.
    check_crash_screen(
        tmp_path,
        "import player\n"
        "def damaged(variant):\n"
        "    raise ValueError('eval8.bin is not a version 1 evaluation file')\n"
        "player.prepare = damaged\n",
        "fatal_player",
        "ValueError: eval8.bin is not a version 1 evaluation file",
    )


@pytest.mark.parametrize("step", [1, 2])
def test_a_power_cut_while_saving_keeps_a_playable_game(step):
    with SimulatedDevice(BOARD) as sim:
        sim.power_on()
        sim.run_for(300)
        navigate(sim, [("a", 1), ("down", 1), ("a", 1)])  # Two players
        sim.run_for(300)
        sim.tap("a")
        sim.run_for(400)
        sim.cut_power_at_flash_step(step)
        sim.tap("left")
        sim.tap("a")  # the second move: its save is cut
        sim.run_for(400)
        assert sim.state == "cut"
        sim.power_on()
        sim.run_for(500)
        moves = saved(sim, "game.json")["game"]["moves"]
        assert len(moves) in (1, 2) and PASS not in moves
        navigate(sim, [("a", 1), ("a", 1)])  # Continue
        sim.run_for(300)
        assert "Traceback" not in sim.console
