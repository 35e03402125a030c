"""Endgame puzzles: the shipped set re-verified by the exact solver, its format, the builder, the screen."""

import io
import json
from pathlib import Path

import pytest

from othello.board import PASS, Board
from othello.scoring import disc_difference
from player import solve
from player.puzzles import (DIFFICULTIES, HEADER, MAX_LINE, MAX_MOVES, RECORD, Puzzle, PuzzleError, PuzzleSet,
                            difficulty_of, difficulty_starts, encode, header, puzzles_path, read_puzzle)

SHIPPED = puzzles_path()


def shipped():
    with open(SHIPPED, "rb") as file:
        puzzles = PuzzleSet(file)
        return [puzzles.read(index) for index in range(puzzles.count)]


def test_the_set_has_300_puzzles_from_easy_to_hard_easiest_first():
    puzzles = shipped()
    assert len(puzzles) >= 300
    empties = [puzzle.empties() for puzzle in puzzles]
    assert empties == sorted(empties)
    assert min(empties) == 6 and max(empties) >= 16
    counts = [sum(1 for e in empties if difficulty_of(e) == d) for d in range(len(DIFFICULTIES))]
    assert all(count >= 30 for count in counts), counts
    starts = difficulty_starts(SHIPPED)
    assert starts == [0, counts[0], counts[0] + counts[1], len(puzzles)]
    assert len({(p.black, p.white, p.turn) for p in puzzles}) == len(puzzles)


# Every stored score solved again by the viper solver under MicroPython's unix port, with a window just
# around it: a result strictly inside (score - 1, score + 1) is exact; then each position of the solution
# line after its first move, with a window around the score best play keeps there. The builder proved each
# with the plain solver before storing it; test_fastpath_endgame proves the two solvers equal.
SOLVE_EVERY_SCORE = """
from othello.board import PASS, Board
from player.endgame_viper import ViperSolver
from player.puzzles import PuzzleSet

def proved(solver, board, score):
    solver.clear_table()  # each score proved on its own, as by a fresh solver
    return solver.solve(board.player_discs(), board.opponent_discs(), False, score - 1, score + 1)[0]

solver = ViperSolver(Board().geometry, 16, 14)
with open(%r, "rb") as file:
    puzzles = PuzzleSet(file)
    for index in range(puzzles.count):
        puzzle = puzzles.read(index)
        board = puzzle.board()
        for square, score in puzzle.scores:
            after = board.copy()
            after.play(square)
            print(index, square, -proved(solver, after, -score))
        value = puzzle.best()
        for ply, square in enumerate(puzzle.line):
            if square == PASS:
                board.pass_turn()
            else:
                board.play(square)
            value = -value
            if ply and not board.is_game_over():
                print(index, "line", ply, proved(solver, board, value))
"""


def line_scores(puzzle):
    """What SOLVE_EVERY_SCORE prints for the solution line if it is best play, checked here to be legal
    from an answer to the end of the game, with the puzzle's result."""
    board = puzzle.board()
    assert puzzle.line[0] in puzzle.answers(), puzzle.index
    value = puzzle.best()
    expected = []
    for ply, square in enumerate(puzzle.line):
        assert not board.is_game_over(), puzzle.index
        if square == PASS:
            assert board.must_pass(), puzzle.index
            board.pass_turn()
        else:
            assert board.is_legal(square), (puzzle.index, ply)
            board.play(square)
        value = -value
        if ply and not board.is_game_over():
            expected.append("%d line %d %d" % (puzzle.index, ply, value))
    assert board.is_game_over() and disc_difference(board.result(), board.turn) == value, puzzle.index
    return expected


def solved_again():
    """SOLVE_EVERY_SCORE's output on the unix port. Solving every score again takes minutes, so its output is
    kept in build/cache/, keyed by everything it depends on: the set, the firmware's rules and player (the
    solver and what it imports), the script and the interpreter. A change to any of them solves again."""
    from runners import build_cache, micropython_runner

    firmware = micropython_runner.FIRMWARE
    code = SOLVE_EVERY_SCORE % str(SHIPPED)
    key = build_cache.key_of(Path(SHIPPED), firmware / "othello", firmware / "player", code,
                             Path(micropython_runner.unix_binary()))

    def solve_every_score(out):
        (out / "solved.txt").write_text(micropython_runner.run_unix(code, heap="8M"))

    return (build_cache.directory("puzzle-solves", key, solve_every_score) / "solved.txt").read_text()


@pytest.mark.slow
def test_every_answer_and_solution_line_is_verified_by_the_exact_solver():
    """Each move's score is proved with a window just around it, each puzzle lists every legal move, a
    puzzle claiming a unique answer has one, and the solution line is best play to the end."""
    puzzles = shipped()
    expected = []
    for puzzle in puzzles:
        board = puzzle.board()
        assert sorted(square for square, _ in puzzle.scores) == board.legal_squares(), puzzle.index
        answers = puzzle.answers()
        assert puzzle.unique == (len(answers) == 1), puzzle.index
        assert len(answers) <= 2 and len(answers) < len(puzzle.scores)
        expected += ["%d %d %d" % (puzzle.index, square, score) for square, score in puzzle.scores]
        expected += line_scores(puzzle)
    solved = solved_again().split("\n")[:-1]
    wrong = [(want, got) for want, got in zip(expected, solved) if want != got]
    assert not wrong and len(solved) == len(expected), (wrong[:5], len(solved), len(expected))


def test_a_puzzle_round_trips_through_its_bytes():
    board = Board.from_position("OOOOOO--OOOOOOX-OXOOOXX-OOOOXOX-OOOXOXXXOOOXOOX-OOOXXXO-OOOOOOOO O")
    puzzle = Puzzle(0, board.black, board.white, board.turn, True, [(6, 22), (7, -38), (55, 42)], [55, PASS, 7, 6])
    data = header(1) + encode(puzzle)
    assert len(data) == HEADER + RECORD
    back = PuzzleSet(io.BytesIO(data)).read(0)
    assert (back.black, back.white, back.turn, back.unique, back.scores, back.line) == (
        puzzle.black, puzzle.white, puzzle.turn, True, puzzle.scores, puzzle.line)
    assert back.board() == board
    assert back.answers() == [55] and back.is_answer(55) and not back.is_answer(6)
    with pytest.raises(ValueError):
        back.score_of(0)
    with pytest.raises(ValueError):
        encode(Puzzle(0, 1, 2, 0, True, [(n, 0) for n in range(MAX_MOVES + 1)], [0]))
    with pytest.raises(ValueError):
        encode(Puzzle(0, 1, 2, 0, True, [(0, 0)], [0] * (MAX_LINE + 1)))


def test_damaged_files_are_refused_with_a_reason():
    with pytest.raises(PuzzleError, match="not a puzzle file"):
        PuzzleSet(io.BytesIO(b"PK\x03\x04"))
    with pytest.raises(PuzzleError, match="not a puzzle file"):  # the first format, before solution lines
        PuzzleSet(io.BytesIO(b"OPZ1\x01\x00" + bytes(48)))
    truncated = PuzzleSet(io.BytesIO(header(2) + bytes(RECORD + 5)))
    with pytest.raises(PuzzleError, match="damaged"):
        truncated.read(0)
    no_line = bytearray(encode(Puzzle(0, 1, 2, 0, True, [(0, 0)], [0])))
    no_line[RECORD - MAX_LINE - 1] = 0
    with pytest.raises(PuzzleError, match="puzzle 1 is damaged"):
        PuzzleSet(io.BytesIO(header(1) + no_line)).read(0)
    with pytest.raises(PuzzleError, match="ends inside puzzle 2"):
        truncated.read(1)
    with pytest.raises(IndexError):
        truncated.read(2)


def test_the_builder_makes_the_same_set_from_the_same_seed(tmp_path):
    from training import build_puzzles

    first, second = tmp_path / "a.bin", tmp_path / "b.bin"
    for out, jobs in ((first, "1"), (second, "2")):  # the batches differ with the jobs: the set does not
        assert build_puzzles.main(["--seed", "7", "--counts", "3", "2", "0", "--jobs", jobs, "--out", str(out)]) == 0
    assert first.read_bytes() == second.read_bytes()
    puzzles = PuzzleSet(io.BytesIO(first.read_bytes()))
    assert puzzles.count == 5
    assert [difficulty_of(puzzles.read(i).empties()) for i in range(5)] == [0, 0, 0, 1, 1]
    for index in range(5):  # the filter: the answer matters, no landslide; the scores proved by the plain solver
        puzzle = puzzles.read(index)
        assert build_puzzles.claims_hold(puzzle.scores, MAX_MOVES), index
        scores = [score for _, score in puzzle.scores]
        assert puzzle.best() - max(score for score in scores if score < puzzle.best()) >= build_puzzles.MARGIN
        assert min(scores) <= build_puzzles.LANDSLIDE and puzzle.best() >= -build_puzzles.LANDSLIDE
        assert build_puzzles.prove(puzzle) == (puzzle.scores, True)
        line_scores(puzzle)
    wrong = puzzles.read(0)
    line = wrong.line
    for bad in ([square for square, _ in wrong.scores if not wrong.is_answer(square)][:1] + line[1:],  # no answer
                line[:-1]):  # stops before the end
        wrong.line = bad
        assert not build_puzzles.line_holds(wrong)


ON_MICROPYTHON = """
from player.puzzles import read_puzzle
for index in %r:
    puzzle, count = read_puzzle(index)
    print(index, count, puzzle.black, puzzle.white, puzzle.turn, puzzle.unique, puzzle.scores, puzzle.answers(),
          puzzle.line)
"""


def test_micropython_reads_the_set_as_cpython_does(micropython):
    indexes = [0, 150, 299]
    expected = []
    for index in indexes:
        puzzle, count = read_puzzle(index)
        expected.append("%d %d %d %d %d %s %s %s %s" % (index, count, puzzle.black, puzzle.white, puzzle.turn,
                                                        puzzle.unique, puzzle.scores, puzzle.answers(), puzzle.line))
    out = micropython(ON_MICROPYTHON % indexes, heap="256K")
    assert out.strip().split("\n") == expected


# ----- the puzzle screen ---------------------------------------------------------------------------------


def go_to(driver, square):
    """Walk the cursor onto `square` with the d-pad."""
    size = driver.screen.board.size
    row, column = divmod(driver.screen.cursor, size)
    target_row, target_column = divmod(square, size)
    driver.press("down" if target_row > row else "up", abs(target_row - row))
    driver.press("right" if target_column > column else "left", abs(target_column - column))
    assert driver.screen.cursor == square


def open_puzzles(driver):
    driver.press("a")
    driver.menu_to("Puzzles")
    return driver.screen


def progress(driver):
    return json.loads(driver.device.storage.read("puzzles.json"))["s"]


def test_a_right_and_a_wrong_answer_with_their_exact_results_and_the_progress_kept(tmp_path):
    from ui_harness import BoardDriver, check_reference

    driver = BoardDriver()
    menu = open_puzzles(driver)
    starts = difficulty_starts(SHIPPED)
    assert [item.label for item in menu.items] == ["Easy", "Medium", "Hard", "Reset progress"]
    assert menu.items[0].value() == "0/%d" % starts[1]
    driver.menu_to("Easy")
    screen = driver.screen
    puzzle = screen.puzzle
    assert puzzle.index == 0
    check_reference("puzzle", driver.rows(), tmp_path)
    go_to(driver, puzzle.answers()[0])
    driver.press("a")
    lines = screen.verdict_lines()
    assert lines[0] == "Right!"
    assert puzzle.best() == puzzle.score_of(puzzle.answers()[0])
    check_reference("puzzle_right", driver.rows(), tmp_path)
    assert progress(driver)[0] == "2"
    driver.press("a")  # the next puzzle
    puzzle = screen.puzzle
    assert puzzle.index == 1
    wrong = next(square for square, score in puzzle.scores if score < puzzle.best())
    go_to(driver, wrong)
    driver.press("a")
    lines = screen.verdict_lines()
    assert lines[0] == "Not the best"
    from othello.notation import square_name
    from ui.puzzle import result_text

    assert lines[1] == "%s %s" % (square_name(wrong), result_text(puzzle.score_of(wrong)))
    assert lines[2].endswith(result_text(puzzle.best()))
    assert progress(driver)[:2] == "21"
    assert lines[-1] == "<> solution"
    driver.press("right")  # the verdict gives way to the board, then the solution line step by step
    assert not screen.show_verdict and not screen.solution.history
    driver.press("right", 2)
    expected = puzzle.board()
    for square in puzzle.line[:2]:
        expected.play(square) if square != PASS else expected.pass_turn()
    assert screen.solution.board == expected
    second = "pass" if puzzle.line[1] == PASS else square_name(puzzle.line[1])
    assert screen.solution_lines()[1:3] == ["Solution", "2/%d" % len(puzzle.line)]
    assert screen.solution_lines()[3].endswith(" " + second)
    check_reference("puzzle_solution", driver.rows(), tmp_path)
    driver.press("down")  # to the end: the result of best play
    result = screen.solution.board.result()
    assert screen.solution_lines()[4] == "%d-%d" % (result.black, result.white)
    assert disc_difference(result, puzzle.board().turn) == puzzle.best()
    driver.press("up")
    assert not screen.solution.history
    driver.press("a")  # the verdict again, then on
    assert screen.show_verdict
    driver.press("b")
    assert driver.screen.items[0].value() == "1/%d" % starts[1]
    driver.menu_to("Easy")  # the first not tried
    assert driver.screen.puzzle.index == 2


def test_an_illegal_square_is_refused_and_damaged_progress_is_reported(tmp_path):
    from test_ui_app import write_flash
    from ui_harness import BoardDriver

    write_flash(tmp_path, "puzzles.json", b'{"s": "2x"}')
    driver = BoardDriver(flash_dir=tmp_path)
    open_puzzles(driver)
    assert " ".join(driver.app.notice) == "puzzles.json damaged: progress lost"
    driver.menu_to("Hard")
    screen = driver.screen
    assert difficulty_of(screen.puzzle.empties()) == 2
    occupied = next(square for square in range(64) if (screen.puzzle.black >> square) & 1)
    go_to(driver, occupied)
    driver.press("a")
    assert screen.answer is None and driver.app.notice


# The puzzles from the main menu after power-up, in the 192K on the 32-bit build.
PUZZLES_IN_192K = """
import gc
from othello.compat import COLLECT_EVERY, collect_every

collect_every(COLLECT_EVERY)
import player
from othello.variant import Variant

player.prepare(Variant())
from ui_fakes import Driver, FakeDevice

d = Driver(FakeDevice())
d.press("a")
d.menu_to("Puzzles")
d.menu_to("Hard")
peak = 0
for _ in range(5):
    d.press("a")  # answer on the first legal move ...
    gc.collect()
    peak = max(peak, gc.mem_alloc())
    d.press("a")  # ... and on to the next puzzle
print(type(d.screen).__name__, d.screen.puzzle.index, peak)
"""


def test_the_puzzles_fit_192k_on_the_32_bit_build(bytecode_firmware):
    """Five hard puzzles answered: 130 KB live at the peak today (printed)."""
    from runners import micropython_runner

    out = micropython_runner.run_wasm(PUZZLES_IN_192K, heap="192K", firmware=bytecode_firmware,
                                      path=(Path(__file__).resolve().parent,)).split()
    print("peak live", out[-1])
    assert out[0] == "PuzzleScreen", out


def test_a_solution_line_that_does_not_play_is_not_offered():
    from ui.puzzle import solution_game

    puzzle = read_puzzle(0)[0]
    board = puzzle.board()
    game = solution_game(board, puzzle.line)
    assert not game.history and len(game.future) == len(puzzle.line)
    occupied = next(square for square in range(64) if (puzzle.black | puzzle.white) >> square & 1)
    for damaged in ([occupied], [200], puzzle.line + [puzzle.line[-1]], [PASS]):
        assert solution_game(board, damaged) is None, damaged
