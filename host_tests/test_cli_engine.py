"""tools/othello perft, show and bench (tools/cli/engine.py)."""

import subprocess
import sys
from pathlib import Path

import pytest

from cli import main
from cli.engine import bench_tables, split
from othello import Board, Variant
from reference_othello import RefBoard
from reference_othello import perft as reference_perft

OTHELLO = str(Path(__file__).resolve().parent.parent / "tools" / "othello")
START = "---------------------------OX------XO--------------------------- X"


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# ----- perft ------------------------------------------------------------------------------


@pytest.mark.parametrize("depth, count", [(0, 1), (1, 4), (5, 1396), (7, 55092)])
def test_perft_prints_the_count_last(capsys, depth, count):
    status, out, _ = run(capsys, "perft", str(depth), "--jobs", "1")
    assert status == 0 and out.splitlines()[-1] == str(count)


def test_perft_9_in_parallel_is_3005288():
    done = subprocess.run([sys.executable, OTHELLO, "perft", "9", "--jobs", "2"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "3005288"
    assert "3005288 leaves in" in done.stderr


def test_perft_from_a_position_or_a_transcript(capsys):
    board = Board()
    board.play("f5")
    _, from_position, _ = run(capsys, "perft", "3", "--position", board.position())
    _, from_transcript, _ = run(capsys, "perft", "3", "--position", "f5")
    assert from_position == from_transcript and from_position.splitlines()[-1] == "61"  # a quarter of perft 4: the openings are symmetric


def test_perft_divide_lists_each_root_move(capsys):
    status, out, _ = run(capsys, "perft", "4", "--divide")
    lines = out.splitlines()
    assert lines == ["d3 61", "c4 61", "f5 61", "e6 61", "244"]


def test_parallel_split_adds_up():
    board = Board()
    root = (board.player_discs(), board.opponent_discs())
    tasks, finished = split(board.geometry, root, 5, 30)
    assert finished == [] and len(tasks) >= 30
    assert {task[0] for task in tasks} == set(board.legal_squares())
    assert all(task[3] == 2 for task in tasks)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["perft", "3", "--position", "f5z4"], "bad transcript: move 2: 'z' at character 3"),
        (["perft", "3", "--position", START[:-1] + "Q"], "bad position: side to move must be X or O"),
        (["perft", "3", "--start", "empty"], "perft counts flipping moves"),
    ],
)
def test_perft_errors(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert message in err


def test_perft_on_other_boards(capsys):
    _, out, _ = run(capsys, "perft", "5", "--size", "6", "--hole", "b2")
    board = Board(Variant(size=6, black_hole=7))
    assert int(out.splitlines()[-1]) == reference_perft(RefBoard.from_position(board.position()), 5)


# ----- show -------------------------------------------------------------------------------


def test_show_a_transcript(capsys):
    status, out, _ = run(capsys, "show", "f5d6C3")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split() == list("abcdefgh")
    assert lines[3] == " 3 . . X * . * . ."
    assert "Black (X) 5   White (O) 2   empty 57" in out
    assert "White to move: 4 legal (*): d3 f3 f4 g5" in out
    assert "Transcript: f5d6c3 (3 moves)" in out
    assert "Position: ------------------X--------XX------OXX-----O-------------------- O" in out


def test_show_a_position_detects_the_format(capsys):
    _, out, _ = run(capsys, "show", START)
    assert "Black to move: 4 legal (*): d3 c4 f5 e6" in out and "Transcript" not in out


def test_show_pass_end_and_variants(capsys):
    _, out, _ = run(capsys, "show", "XO" + "-" * 62 + " O")
    assert "White to move: no legal move, must pass" in out
    _, out, _ = run(capsys, "show", "X" + "-" * 63 + " O")
    assert "Game over: Black wins 64-0" in out
    _, out, _ = run(capsys, "show", "X" + "-" * 62 + "O X", "--anti")
    assert "Game over: draw 32-32" in out and "anti" in out
    _, out, _ = run(capsys, "show", "", "--start", "empty", "--white-first")
    assert "White to move (placing the centre discs): 4 legal" in out
    _, out, _ = run(capsys, "show", "g6", "--size", "10", "--hole", "j10")
    assert out.splitlines()[10].startswith("10 ") and out.splitlines()[10].endswith("#")
    assert "Variant: 10x10 Othello hole j10" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["show", "f5d6c9"], "bad transcript: move 3 at character 5: 'c9' is off the board"),
        (["show", "f5a1"], "bad transcript: move 2: a1 flips nothing for White"),
        (["show", START[:20] + "?" + START[21:]], "bad position: unexpected '?' at e3 (character 21)"),
        (["show", START, "--size", "6"], "bad position: position is for a 8x8 board, not for 6x6"),
        (["show", START, "--handicap", "2"], "use them with a transcript"),
        (["show", "f5", "--hole", "d4"], "the black hole cannot be a centre square"),
        (["show", "f5", "--hole", "z9"], "'z9' is not a square name"),
    ],
)
def test_show_errors(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert message in err


def test_every_command_has_help():
    for command in ("perft", "show", "bench", "solve", "analyse", "match", "player-bench", "check-config"):
        done = subprocess.run([sys.executable, OTHELLO, command, "--help"], capture_output=True, text=True)
        assert done.returncode == 0 and "usage: othello " + command in done.stdout


# ----- bench -------------------------------------------------------------------------------


def test_bench_on_cpython_prints_two_tables(capsys):
    status, out, _ = run(capsys, "bench", "--seconds", "0.02")
    assert status == 0
    movegen, perft_table = out.split("\n\n")
    header, row = movegen.splitlines()
    assert header.split()[:4] == ["move", "generation", "moves/s", "flips/s"]
    cells = row.split()
    assert cells[0] == "cpython" and int(cells[1].replace(",", "")) > 0
    assert cells[4:] == ["-", "-", "-"]  # no gc.mem_alloc on CPython
    header, row = perft_table.splitlines()
    assert row.split()[:3] == ["cpython", "plain", "8"]


def test_bench_tables_layout():
    figures = {"moves_per_s": 1234, "bytes_per_generated": 99, "perft_depth": 5}
    figures.update({"perft_plain_leaves": 1396, "perft_plain_leaves_per_s": 5000, "perft_viper_leaves": 1396})
    movegen, perft_table = bench_tables([("wasm", figures)]).split("\n\n")
    lines = movegen.splitlines()
    assert lines[1].split() == ["wasm", "1,234", "-", "-", "-", "-", "99"]
    assert len({len(line) for line in lines}) == 1
    lines = perft_table.splitlines()
    assert [line.split()[:4] for line in lines[1:]] == [["wasm", "plain", "5", "5,000"], ["wasm", "viper", "5", "-"]]
