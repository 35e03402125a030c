"""Issue 16's features on the real firmware on an emulated Pico (tools/device/pico_emulator.py): a puzzle opened and
answered and its solution stepped through, the review of an ending equal to the host's, and the records round
trip host-board-host, the pushed game reviewed on the device.

Each test drives main.py through its buttons with the simulator's script commands (tools/simulator/script.py,
as docs/screens/tour.sim) and checks what the flash kept; the same script on the simulator (the firmware
under CPython) gives the same picture. Without the firmware or the boot ROM they skip, naming what to run;
in CI (CI=true) they must run. Wall time at load 16 on the 2-core machine (2026-11-25): under 500 s for the three.
"""

import json
import os
import runpy
from pathlib import Path

import pytest

import hw
from device import pico_emulator
from cli import main
from cli.records import parse_lines, record_line
from othello.game import Game
from othello.notation import square_name
from othello.variant import Variant
from player.puzzles import read_puzzle
from player.review import REVIEW_TIME_MS, Review
from simulator import SimulatedDevice
from simulator.reading import shows
from simulator.script import run
from test_review import random_ending
from ui.records import REVIEW, score_text

pytestmark = pytest.mark.pico
MISSING = pico_emulator.available()
if MISSING and os.environ.get("CI") != "true":
    pytest.skip(MISSING, allow_module_level=True)

BOARD = "pico_breadboard_i2c"
CONFIG = pico_emulator.firmware_build.Paths().configs / (BOARD + ".json")
# The title gives way to the main menu by itself; a key pressed while the player's tables are still being
# made is not seen (docs/DEVICE_SPEED.md, Boot), so the first waits a little.
MAIN_MENU = 'until "Play computer" 10000\nwait 1000\n'


def presses(name, count=1):
    """Script lines tapping a button `count` times, spaced as a person would: the emulated Pico misses a
    tap that comes and goes while it redraws (as test_pico_emulated.navigate spaces them)."""
    return "hold %s 100\nwait 300\n" % name * count


# Up from the first line of the main menu (it wraps round), on a device with no game to continue
TO_RECORDS, TO_PUZZLES = presses("up", 4), presses("up", 3)


def saved(files, name):
    data = files.get("%s/%s" % (hw.STORAGE_ROOT, name))
    return None if data is None else json.loads(data)


def walk(start, target, size=8):
    """Script lines moving the board's cursor from `start` to `target` with the d-pad."""
    row, column = divmod(start, size)
    target_row, target_column = divmod(target, size)
    return (presses("down" if target_row > row else "up", abs(target_row - row))
            + presses("right" if target_column > column else "left", abs(target_column - column)))


def on_the_simulator(script, tmp_path, flash=None):
    """The same script on the simulator (the firmware under CPython): the pictures it wrote."""
    with SimulatedDevice(CONFIG, flash_dir=flash) as sim:
        sim.power_on()
        return run(sim, script, tmp_path / "cpython")


def test_a_puzzle_is_opened_and_answered_and_the_progress_kept(tmp_path):
    puzzle, _ = read_puzzle(0)
    board = puzzle.board()
    answer = puzzle.answers()[0]
    verdict = "%s %s" % (square_name(answer, 8), "win by %d" % puzzle.best() if puzzle.best() > 0 else
                         "loss by %d" % -puzzle.best() if puzzle.best() < 0 else "draw")
    script = (MAIN_MENU + TO_PUZZLES + presses("a") + 'until "Reset progress" 5000\n' + presses("a")
              + 'until "Best move?" 5000\nsettle\n' + walk(board.legal_squares()[0], answer) + presses("a")
              + 'until "Right!" 5000\nsettle\nshot answered.png\n'
              + presses("right", 3) + 'until "2/%d" 5000\nsettle\nshot solution.png\n' % len(puzzle.line))
    with pico_emulator.EmulatedPico(BOARD) as pico:
        pico.power_on()
        shots = run(pico, script, tmp_path / "pico")
        assert shows(pico.screen(), "Solution") and shows(pico.screen(), "#1 Easy")
        progress = saved(pico.flash_files(), "puzzles.json")
        pico.tap("a")  # the verdict again ...
        assert pico.run_until(lambda p: shows(p.screen(), verdict), 5000, 50), verdict
        pico.run_for(300)
        pico.tap("a")  # ... and on to the next puzzle
        assert pico.run_until(lambda p: shows(p.screen(), "#2 Easy"), 5000, 50)
        assert "Traceback" not in pico.console
    assert progress["s"][0] == "2" and set(progress["s"][1:]) == {"0"}
    on_simulator = on_the_simulator(script, tmp_path)
    assert [shot.read_bytes() for shot in shots] == [shot.read_bytes() for shot in on_simulator]


def pushed_games():
    """Two games for the board, newest first as its records list shows them: a short ending from a set-up
    position, and a whole random game."""
    lines = []
    for number, (start, transcript, players) in enumerate(
            (random_ending(4, 10) + (["Ann", "Bob"],), (None, random_ending(21, 60)[1], ["Cy", "Di"])), 1):
        game = Game(Variant(), None, start=start)
        game.play_transcript(transcript)
        end = game.result()
        record = {"v": Variant().to_dict(), "s": start, "t": transcript, "p": players,
                  "r": [end.winner, end.black, end.white, end.reason]}
        lines.append(record_line(record, number))
    return lines


@pytest.mark.slow
def test_the_review_on_the_pico_is_the_hosts_estimates_and_all(tmp_path, capsys):
    """A 17-empty ending reviewed on the emulated Pico by tools/cli/review_worker.py (player/review.py, as the
    review screen computes it) and on the host by `othello review` (the unix port): the same best move,
    loss and exactness for every ply, the midgame search's estimates as well as the solver's exact losses."""
    from cli.review import WORKER

    start, transcript = random_ending(7, 17)  # 3 plies estimated, then exact losses
    path = tmp_path / "record.json"
    path.write_text(json.dumps({"v": Variant().to_dict(), "s": start, "t": transcript, "r": None, "p": ["a", "b"]}))
    assert main(["review", str(path)]) == 0
    capsys.readouterr()
    on_host = json.loads(path.read_text())[REVIEW]
    settings = dict(VARIANT=Variant().to_dict(), START=start, TRANSCRIPT=transcript, TIME_MS=REVIEW_TIME_MS,
                    CACHED=None)
    # and afterwards, whether the last judgements (exact, from 16 empties) had the viper solver: its code must
    # find room in the heap the review's searches left (the plain one counts its nodes its own way)
    code = ("".join("%s = %r\n" % item for item in sorted(settings.items())) + WORKER.read_text()
            + "from player.engine import _engine\nprint('viper_solver', _engine[0].fast_solver is not None)\n")
    with pico_emulator.EmulatedPico(BOARD, main=False) as pico:
        pico.enter_raw_repl()
        output = pico.run_script(code)
    on_device = ",".join(line.strip()[4:] for line in output.splitlines() if line.startswith("ply "))
    assert "done" in output and on_device == on_host, (on_device, on_host)
    assert "~" in on_host and "x" in on_host  # estimates and exact losses
    assert "viper_solver True" in output, output


def test_the_review_solves_with_the_viper_solver_after_its_searches_on_the_pico():
    """Judgements one after another on the emulated Pico (player/review.py): each 12- or 14-empty position
    solved exactly with the viper solver, whose code must find room where the review's midgame search and
    the evaluation's buffer were (one block of 31 KB often did not: the plain solver then took seconds)."""
    endgames = runpy.run_path(str(Path(__file__).parent / "mpy" / "fastpath_positions.py"))["ENDGAMES"]
    positions = endgames[12][:2] + endgames[14][:2]
    code = ("from othello.board import Board\nfrom player.engine import _engine\n"
            "from player.review import judge, review_level\nlevel = review_level()\n"
            "for text in %r:\n"
            "    exact = judge(Board.from_position(text), level)[2]\n"
            "    print('judged', exact, _engine[0].fast_solver is not None)\n" % (positions,))
    with pico_emulator.EmulatedPico(BOARD, main=False) as pico:
        pico.enter_raw_repl()
        output = pico.run_script(code)
    assert output.count("judged True True") == len(positions), output


@pytest.mark.slow
def test_records_go_to_the_pico_are_reviewed_there_and_come_back_the_same(tmp_path, capsys):
    flash = tmp_path / "flash"  # the folder `tools/sim --pico --flash` keeps the emulated Pico's flash in
    games = tmp_path / "games.txt"
    lines = pushed_games()
    games.write_text("".join(line + "\n" for line in lines))
    emulated = ["--port", "emulated", "--flash", str(flash)]
    assert main(["records", "push", str(games)] + emulated) == 0
    assert "2 games sent, 0 already on the board" in capsys.readouterr().out

    short = parse_lines(lines[0])[0]
    host_review = Review(Variant(), short["s"], short["t"])
    while not host_review.done():
        host_review.step()
    result = score_text(short)
    script = (MAIN_MENU + TO_RECORDS + presses("a") + 'until "Clear records" 5000\nsettle\nshot records.png\n'
              + presses("a") + 'until "Play from" 5000\n' + presses("down") + presses("a")
              + 'until "%s" 30000\nsettle\nshot reviewed.png\n' % (result[0].upper() + result[1:])
              + presses("b") + 'until "Clear records" 5000\n')
    with pico_emulator.EmulatedPico(BOARD, keep=flash / "pico_flash.bin") as pico:
        pico.power_on()
        shots = run(pico, script, tmp_path / "pico")
        assert [shows(pico.screen(), title) for title in ("1 Ann-Bob", "2 Cy-Di")] == [True, True]
        records = saved(pico.flash_files(), "records.json")
        assert "Traceback" not in pico.console
        on_board = pico.flash_files()["%s/records.json" % hw.STORAGE_ROOT]
    # The device's review, kept with the record when its screen closed, is the host's: every loss exact.
    assert records[0]["t"] == short["t"] and records[0][REVIEW] == host_review.encode()
    assert all(entry.exact for entry in host_review.entries)

    bad = tmp_path / "bad.txt"  # refused by its line number before the board is reached: nothing changes there
    bad.write_text(lines[0] + "\n# a comment\n" + lines[1].replace("result=", "result=1") + "\n")
    assert main(["records", "push", str(bad)] + emulated) == 2
    assert "line 3: " in capsys.readouterr().err
    pulled = tmp_path / "pulled.txt"
    assert main(["records", "pull", "--out", str(pulled)] + emulated) == 0
    back = pulled.read_text().splitlines()
    assert back == lines  # the same transcripts and facts, in the same order
    with pico_emulator.EmulatedPico(BOARD, keep=flash / "pico_flash.bin", main=False) as pico:
        assert pico.flash_files()["%s/records.json" % hw.STORAGE_ROOT] == on_board  # the pull changed nothing

    simulator_flash = tmp_path / "sim_flash" / hw.STORAGE_ROOT
    simulator_flash.mkdir(parents=True)
    (simulator_flash / "records.json").write_bytes(json.dumps(parse_lines("\n".join(lines))).encode())
    for shot, expected in zip(shots, on_the_simulator(script, tmp_path, simulator_flash.parent)):
        assert shot.read_bytes() == expected.read_bytes(), shot.name
