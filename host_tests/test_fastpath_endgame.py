"""The viper endgame solver (player/endgame_viper.py) against the plain solver and a brute force.

The positions and the plain solver's answers (player.solver.solve, the
reference) are made here under CPython; the viper solver runs under the
MicroPython unix port (host_tests/mpy/fastpath_endgame.py). Scores must be
equal; a best move may differ when two moves score the same, so the viper
solver's move is checked by solving the position after it. A 6x6 position is
solved as the player solves it, inside the 8x8 board (othello.geometry.Embedding),
against the plain solver on the 6x6 board itself.
"""

import random

import pytest

from runners import micropython_runner
from othello.board import PASS, Board
from othello.geometry import Embedding
from othello.variant import Variant
from player.solver import solve

MPY = micropython_runner.REPO / "host_tests" / "mpy"


def unix(code):
    return micropython_runner.run_unix(code, path=(MPY,))


def random_board(rng, empties, variant):
    """A position reached by random play with `empties` empty squares, the game not over."""
    while True:
        board = Board(variant)
        while board.empties() > empties and not board.is_game_over():
            squares = board.legal_squares()
            if squares:
                board.play(rng.choice(squares))
            else:
                board.pass_turn()
        if board.empties() == empties and not board.is_game_over():
            return board


def on_bit_board(board):
    """(blocked, player, opponent) of the board on the viper solver's 8x8 bit board: a 6x6 board inside it."""
    if board.size == 8:
        return board.geometry.blocked, board.player_discs(), board.opponent_discs()
    embedding = Embedding(board.size, board.geometry.blocked)
    return embedding.geometry.blocked, embedding.mask(board.player_discs()), embedding.mask(board.opponent_discs())


def board_square(board, square):
    """The board's square of a square of the viper solver's bit board."""
    return square if board.size == 8 or square == PASS else Embedding(board.size).board_square(square)


def make_cases():
    """(board, anti) pairs: Othello and Anti-Othello, with and without a black hole, 4 to 12 empties, some passes.

    Holes on an edge (f1, h5) check the stability cut-off, which must not take a run of discs broken by the
    hole for stable."""
    rng = random.Random(20261122)
    cases = []
    for empties in (4, 6, 8, 9, 10):
        for anti, hole in ((False, None), (True, None), (False, 18), (True, 18), (False, 5), (True, 39)):
            for _ in range(3):
                cases.append((random_board(rng, empties, Variant(anti=anti, black_hole=hole)), anti))
    for empties, anti in ((11, False), (11, True), (12, False), (12, True)):
        cases.append((random_board(rng, empties, Variant(anti=anti)), anti))
    passes = 0
    while passes < 4:
        board = random_board(rng, rng.choice((5, 7, 9)), Variant())
        if board.must_pass():
            cases.append((board, False))
            passes += 1
    # 6x6, solved inside the 8x8 board as the player solves it
    for empties in (4, 7, 10, 12):
        for anti, hole in ((False, None), (True, None), (False, 8), (True, 27)):
            for _ in range(2):
                cases.append((random_board(rng, empties, Variant(size=6, anti=anti, black_hole=hole)), anti))
    passes = 0
    while passes < 2:
        board = random_board(rng, rng.choice((5, 7, 9)), Variant(size=6))
        if board.must_pass():
            cases.append((board, False))
            passes += 1
    return cases


@pytest.fixture(scope="module")
def solved():
    """Each case with the plain solver's score and the viper solver's (score, square)."""
    cases = make_cases()
    lines = ["(%d, %d, %d, %r)" % (on_bit_board(b) + (anti,)) for b, anti in cases]
    out = unix("import fastpath_endgame\nfastpath_endgame.solve_all([%s])\n" % ", ".join(lines))
    viper = {}
    for line in out.split("\n"):
        if line.startswith("case "):
            _, index, score, square, exact_square = line.split()
            viper[int(index)] = (int(score), int(square), int(exact_square))
    assert len(viper) == len(cases), out
    return [(board, anti, solve(board)[0], (viper[i][0], board_square(board, viper[i][1]), board_square(board, viper[i][2])))
            for i, (board, anti) in enumerate(cases)]


def test_viper_scores_equal_the_plain_solver(solved):
    wrong = [(b.position(), anti, plain, fast) for b, anti, plain, fast in solved if fast[0] != plain]
    assert not wrong, wrong


def test_viper_best_moves_reach_the_best_score(solved):
    """Of moves that score the same, the viper solver may choose another than the plain one: each is checked
    by solving the position after it. solve_exact (null windows, the player's) and solve (one window) both."""
    for board, anti, plain, (score, *squares) in solved:
        for square in squares:
            if board.must_pass():
                assert square == PASS, board.position()
                continue
            assert board.is_legal(square), (board.position(), square)
            after = board.copy()
            after.play(square)
            assert -solve(after)[0] == plain, (board.position(), square)


def test_cases_cover_passes_holes_anti_and_6x6(solved):
    assert sum(1 for b, _, _, _ in solved if b.must_pass()) >= 6
    assert sum(1 for b, _, _, _ in solved if b.size == 6) >= 30
    assert sum(1 for b, _, _, _ in solved if b.geometry.blocked) >= 20
    assert sum(1 for _, anti, _, _ in solved if anti) >= 20
    assert max(b.empties() for b, _, _, _ in solved) == 12


def test_viper_solver_equals_brute_force():
    """Independent of the plain solver: minimax without pruning, on small endgames."""
    rng = random.Random(7)
    cases = []
    for empties in (1, 2, 3, 5, 6):
        for size, anti, hole in ((8, False, None), (8, True, None), (8, False, 63), (8, True, 0), (6, False, None),
                                 (6, True, 35)):
            board = random_board(rng, empties, Variant(size=size, anti=anti, black_hole=hole))
            cases.append("(%d, %d, %d, %r)" % (on_bit_board(board) + (anti,)))
    out = unix("import fastpath_endgame\nfastpath_endgame.against_brute_force([%s])\n" % ", ".join(cases))
    assert "brute force ok %d" % len(cases) in out


def test_finished_games_with_empty_squares_left():
    """One or two empty squares and one side's discs everywhere else: mostly nobody can move and the empty
    squares go to the winner (a lone disc on e5 can take the a1-e5 diagonal by a1)."""
    full = (1 << 64) - 1
    cases = []
    for empties in ((0, 1), (0,), (62, 63)):
        mask = sum(1 << square for square in empties)
        for lone in (None, 36):  # a lone opponent disc that nobody can flip, or none
            opponent = 0 if lone is None else 1 << lone
            for anti in (False, True):
                cases.append("(0, %d, %d, %r)" % (full & ~mask & ~opponent, opponent, anti))
                cases.append("(0, %d, %d, %r)" % (opponent, full & ~mask & ~opponent, anti))
    out = unix("import fastpath_endgame\nfastpath_endgame.against_brute_force([%s])\n" % ", ".join(cases))
    assert "brute force ok %d" % len(cases) in out


def test_node_limit_and_should_stop_stop_a_solve():
    board = random_board(random.Random(3), 16, Variant())
    out = unix("import fastpath_endgame\nfastpath_endgame.limits(%d, %d)\n" % (board.player_discs(), board.opponent_discs()))
    assert "limits ok" in out


def test_solve_exact_keeps_its_node_limit_and_what_it_proved():
    """The player's solve: a node limit across its null-window solves; cut after win or loss was proven, it says
    so, with a winning move."""
    rng = random.Random(5)
    done = 0
    while done < 2:
        board = random_board(rng, 14, Variant())
        out = unix("import fastpath_endgame\nfastpath_endgame.exact_limits(%d, %d)\n" % (
            board.player_discs(), board.opponent_discs()))
        if "exact limits ok 0 " in out:
            continue  # a draw is proven by the first solve: nothing to cut between
        assert "exact limits ok" in out, out
        done += 1


def test_solver_allocation_does_not_grow_with_nodes():
    board = random_board(random.Random(3), 18, Variant())
    out = unix("import fastpath_endgame\nfastpath_endgame.allocation(%d, %d, 1000, 20000)\n" % (
        board.player_discs(), board.opponent_discs()))
    small, large = map(int, out.split("allocated")[1].split())
    assert large <= small, "1,000 nodes allocated %d bytes, 20,000 nodes %d" % (small, large)


def test_bad_input_is_refused():
    out = unix(
        "from othello.geometry import geometry\n"
        "from player.endgame_viper import ViperSolver\n"
        "s = ViperSolver(geometry(8))\n"
        "for args in ((3, 1), (1 << 70, 0), (1, 2)):\n"
        "    try:\n"
        "        s.solve(*args)\n"
        "        print('accepted', args)\n"
        "    except ValueError as e:\n"
        "        print('refused:', e)\n"
        "try:\n"
        "    ViperSolver(geometry(6))\n"
        "except ValueError as e:\n"
        "    print('refused:', e)\n"
    )
    assert out.count("refused:") == 4, out
    assert "discs overlap" in out and "empty squares" in out and "8x8" in out


# Found by the puzzle builder: a disc on square 31 or 63 of either colour once gave the same slot and lock
# (a product's top bit depends on its word's top bit alone), so with a large table the solver took another
# position's bounds and answered 26 here.
COLLIDING = "-OOOOO----OXOXX-XXOOOOXO-XOXXXO-OXXXOOOOOXXOXXOXOXOOOX-----OO-X- O"


def test_the_table_size_does_not_change_a_score():
    board = Board.from_position(COLLIDING)
    plain = solve(board)[0]
    out = unix(
        "from othello.geometry import geometry\n"
        "from player.endgame_viper import ViperSolver\n"
        "for bits in (9, 12, 16):\n"
        "    print('bits', bits, ViperSolver(geometry(8), 24, bits).solve(%d, %d)[0])\n" % (
            board.player_discs(), board.opponent_discs()))
    scores = [int(line.split()[2]) for line in out.split("\n") if line.startswith("bits ")]
    assert scores == [plain] * 3, out
