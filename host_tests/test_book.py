"""The opening book (issue 14): tools/training/build_book.py on a tiny configuration, and player/book.py reading its file."""

import hashlib
import os
import signal
import subprocess
import sys
import time

import pytest

from training import build_book
from engine_helpers import image_mask
from training.training_boards import symmetry_maps
from othello import Board
from othello.kernel import Kernel
from othello.notation import split_transcript
from player import book as book_module
from player.engine import Random
from player.evaluation import DISC, PatternEvaluator
from player.search import Searcher, TranspositionTable

NAMED = "c4e3f6e6f5 Tiger\nc4c3d3c5b2 X-square opening\n"
TINY = ["--depth", "2", "--plies", "5", "--deviation", "1", "--spread", "2", "--named-plies", "2",
        "--table-bits", "12", "--jobs", "2"]


def tiny_command(directory):
    return TINY + ["--named", str(directory / "named.txt"), "--cache", str(directory / "cache"),
                   "--out", str(directory / "book8.bin")]


@pytest.fixture(scope="module")
def tiny_book(tmp_path_factory):
    """A book built by the tool in its smallest useful form: (directory, the tool's report on stdout)."""
    directory = tmp_path_factory.mktemp("book")
    (directory / "named.txt").write_text(NAMED)
    matches = build_book.TOOLS / "match" / "match_openings.txt"
    before = matches.read_bytes()
    done = subprocess.run([sys.executable, str(build_book.HERE / "build_book.py")] + tiny_command(directory),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    # the balanced openings every strength match plays are a fixed set: a book build leaves them alone
    assert matches.read_bytes() == before
    return directory, done.stdout


def played(moves):
    board = Board()
    for square in split_transcript(moves):
        board.play(square)
    return board


def plain_scores(board, depth):
    """Every root move's score in half discs from the plain search (CPython) at `depth`, margin --keep."""
    searcher = Searcher(Kernel(board.geometry, 64), TranspositionTable(12))
    searcher.evaluator = PatternEvaluator(8)
    searcher.set_root(board.player_discs(), board.opponent_discs())
    searcher.start()
    assert searcher.iterate(depth, 4 * DISC) == depth
    return {searcher.root_moves[i]: round(2 * searcher.root_scores[i] / DISC) / 2 for i in range(searcher.root_count)}


def test_the_tiny_book_covers_its_lines_with_the_searches_scores(tiny_book):
    directory, report = tiny_book
    path = str(directory / "book8.bin")
    assert "wrote %s:" % path in report and "positions by ply: 0: 1, 1: 1" in report
    kernel = Kernel(Board().geometry)
    # every position of both named openings, the X-square blunder included, and the best line after each end
    for line in NAMED.splitlines():
        squares = split_transcript(line.split()[0])
        board = Board()
        for count in range(len(squares) + 1):
            found = book_module.moves_for(board, kernel, path)
            assert found, "%s after %d moves" % (line, count)
            assert all(board.is_legal(square) for square, _ in found)
            assert [score for _, score in found] == sorted((score for _, score in found), reverse=True)
            assert found[-1][1] >= found[0][1] - 4 and len(found) <= 4
            if count < len(squares):
                board.play(squares[count])
        board.play(found[0][0])
        assert book_module.moves_for(board, kernel, path), "%s: the best reply to its end" % line
        board.play(book_module.moves_for(board, kernel, path)[0][0])
        assert not book_module.moves_for(board, kernel, path), "--named-plies 2 ends there"
    # the scores are the player's own search at --depth (the viper search on the unix port equals the plain one)
    for moves in ("", "f5", "f5d6", "c4e3f6e6f5", "c4c3d3c5b2"):
        board = played(moves)
        found = book_module.moves_for(board, kernel, path)
        expected = plain_scores(board, 2)
        assert found[0][1] == max(expected.values())
        assert all(expected[square] == score for square, score in found), moves
    assert book_module.deepest(8, path) == 4 + len("c4e3f6e6f5") // 2 + 2 - 1


def test_the_same_command_reuses_the_searches_and_writes_the_same_file(tiny_book, tmp_path):
    directory, report = tiny_book
    for name in ("named.txt",):
        (tmp_path / name).write_bytes((directory / name).read_bytes())
    (tmp_path / "cache").mkdir()
    [cache] = (directory / "cache").glob("searches-*.txt")
    lines = cache.read_text().splitlines(keepends=True)
    # an interruption: three searches lost, the last one cut in the middle of its line
    (tmp_path / "cache" / cache.name).write_text("".join(lines[:-3]) + lines[-3][:20])
    done = subprocess.run([sys.executable, str(build_book.HERE / "build_book.py")] + tiny_command(tmp_path),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "this run 3 in" in done.stdout
    assert (tmp_path / "book8.bin").read_bytes() == (directory / "book8.bin").read_bytes()
    remade = (tmp_path / "cache" / cache.name).read_text().splitlines()
    assert sorted(remade) == sorted(line.rstrip("\n") for line in lines)
    # nothing left to search: the book is made again from the cache alone, without MicroPython
    assert build_book.main(tiny_command(tmp_path)) == 0


def test_a_node_budget_stops_the_deepening_before_an_iteration_it_cannot_finish(tmp_path):
    (tmp_path / "named.txt").write_text("")
    command = ["--depth", "9", "--nodes", "30000", "--plies", "2", "--table-bits", "12", "--jobs", "1",
               "--named", str(tmp_path / "named.txt"), "--cache", str(tmp_path / "cache"),
               "--out", str(tmp_path / "book8.bin")]
    assert build_book.main(command) == 0
    [cache] = (tmp_path / "cache").glob("searches-*.txt")
    results = dict(build_book.parse_result(line.split()[1:]) for line in cache.read_text().splitlines())
    kernel = Kernel(Board().geometry)
    for moves in ("", "f5"):
        board = played(moves)
        result = results[build_book.canonical_key(board)]
        # shallower than --depth, and no iteration begun and cut by the budget (it would end at exactly 30000)
        assert 5 <= result.depth < 9 and result.nodes < 30000
        expected = plain_scores(board, result.depth)
        assert all(expected[square] == score for square, score in book_module.moves_for(board, kernel, str(
            tmp_path / "book8.bin")))


def test_ctrl_c_keeps_the_finished_searches_and_the_same_command_goes_on(tmp_path):
    """Ctrl-C at a terminal (SIGINT to the whole process group): the workers end, finished searches stay."""
    (tmp_path / "named.txt").write_text("")
    # 75 searches of about 60 ms each: the signal comes a few searches in, at the test's 50 ms polls, with
    # most still to do (at depth 5 and 9 plies, 28 searches of 5 ms, a loaded machine once saw all done first)
    command = [sys.executable, str(build_book.HERE / "build_book.py"), "--depth", "8", "--plies", "12",
               "--table-bits", "12", "--jobs", "1", "--named", str(tmp_path / "named.txt"),
               "--cache", str(tmp_path / "cache"), "--out", str(tmp_path / "book8.bin")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)

    def searched():
        return [line for path in (tmp_path / "cache").glob("searches-*.txt") for line in path.read_text().splitlines()]

    deadline = time.monotonic() + 120
    while len(searched()) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "interrupted: the finished searches are kept in %s; run the same command to go on" % (
        tmp_path / "cache") in err
    kept = searched()
    assert len(kept) >= 3 and not (tmp_path / "book8.bin").exists()
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert searched()[:len(kept)] == kept and len(searched()) > len(kept)
    assert "this run %d in" % (len(searched()) - len(kept)) in done.stdout


@pytest.mark.parametrize("text, message", [
    ("c4e3f6e6f5 Tiger\nc4e3d3 Nonsense\n", "named.txt line 2 (Nonsense): move 3, d3, is not legal there"),
    ("c4e3f6e6f5 Tiger\nc4e3z9 Typo\n", "named.txt line 2: move 3: 'z' at character 5 is not a column letter"),
])
def test_bad_named_openings_are_named(tmp_path, capsys, text, message):
    (tmp_path / "named.txt").write_text(text)
    assert build_book.main(tiny_command(tmp_path)) == 1
    assert message in capsys.readouterr().err
    assert not (tmp_path / "book8.bin").exists()


def test_bad_values_are_refused(capsys):
    with pytest.raises(SystemExit):
        build_book.main(["--keep", "2", "--spread", "3"])
    assert "--spread must be from 0 to --keep (2), not 3" in capsys.readouterr().err


# ----- reading the file --------------------------------------------------------------------


def test_symmetric_positions_find_the_same_moves_turned(tiny_book):
    directory, _ = tiny_book
    path = str(directory / "book8.bin")
    kernel = Kernel(Board().geometry)
    board = played("c4e3f6e6f5")  # the Tiger
    found = book_module.moves_for(board, kernel, path)
    for table in symmetry_maps(8):
        image = Board()
        image.set_discs(image_mask(board.black, table), image_mask(board.white, table), board.turn)
        assert book_module.moves_for(image, kernel, path) == [(table[square], score) for square, score in found]


def test_damaged_or_foreign_book_files_are_refused_by_name(tiny_book, tmp_path):
    directory, _ = tiny_book
    data = (directory / "book8.bin").read_bytes()
    kernel = Kernel(Board().geometry)
    for name, damaged, message in (("cut.bin", data[:-7], "is damaged: %d bytes where its header promises %d" % (
            len(data) - 7, len(data))), ("long.bin", data + b"\0", "is damaged"),
            ("foreign.bin", b"PK\3\4" + data[4:], "is not a version 1 opening book for 8x8"),
            ("short.bin", data[:5], "is not a version 1 opening book for 8x8")):
        bad = tmp_path / name
        bad.write_bytes(damaged)
        with pytest.raises(ValueError, match=name + " " + message):
            book_module.moves_for(Board(), kernel, str(bad))
        with pytest.raises(ValueError, match=name):
            book_module.deepest(8, str(bad))
    assert book_module.moves_for(Board(), kernel, str(tmp_path / "missing.bin")) == []
    assert book_module.deepest(8, str(tmp_path / "missing.bin")) == 0


def test_weak_levels_choose_among_the_book_moves_within_their_spread(tiny_book):
    directory, _ = tiny_book
    path = str(directory / "book8.bin")
    kernel = Kernel(Board().geometry)
    board = played("c4e3f6e6f5")
    found = book_module.moves_for(board, kernel, path)
    near = [move for move in found if move[1] >= found[0][1] - 3]
    assert len(near) > 1, "the position chosen for this test has several moves within 3 discs"
    choices = {book_module.lookup(board, kernel, 3.0, Random(seed), path) for seed in range(40)}
    assert choices == set(near)
    # a top level plays the book's first best move whatever the chance, also where another scores the same
    assert {book_module.lookup(board, kernel, 0.0, Random(seed), path) for seed in range(20)} == {found[0]}
    # a reply the book does not play out leaves it
    for square in board.legal_squares():
        child = board.copy()
        child.play(square)
        if not book_module.moves_for(child, kernel, path):
            assert book_module.lookup(child, kernel, 3.0, Random(1), path) is None
            break
    else:
        raise AssertionError("every reply to the Tiger is in the tiny book")


def test_the_device_lookup_benchmark_runs_on_the_unix_port():
    from device import bench
    from runners import micropython_runner

    output = micropython_runner.run_unix(bench.workload_code("book"))
    lines = [line.split() for line in output.splitlines()]
    assert lines[0][0] == "import" and lines[1][0] == "book" and lines[1][1].endswith("firmware/player/book8.bin")
    lookups = [line for line in lines if line[0] == "lookup"]
    assert [line[1:3] for line in lookups[:2]] == [["start", "0"], ["start", "1"]]
    summary = [line for line in lines if line[0] == "summary"][0]
    hits, misses = int(summary[1]), int(summary[4])
    assert hits == sum(line[3] != "0" for line in lookups) > 0 and hits + misses == len(lookups)
