"""Perft (othello/perft.py) against the published counts and the reference implementation."""

import random

import pytest

from othello import PASS, Board, Variant
from othello.geometry import geometry
from othello.kernels import make_kernel
from othello.perft import children, count_leaves, perft
from reference_othello import RefBoard
from reference_othello import perft as reference_perft

# Leaves from the Othello start, as published with the usual conventions (a pass is a ply).
START_COUNTS = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]


def root(board):
    return board.geometry, board.player_discs(), board.opponent_discs()


@pytest.mark.parametrize("depth", range(0, 9))
def test_perft_from_the_start(depth):
    assert perft(*root(Board()), depth) == START_COUNTS[depth]


def test_one_kernel_serves_many_counts():
    board = Board()
    kernel = make_kernel(board.geometry, 6)
    assert [perft(*root(board), d, kernel) for d in range(7)] == START_COUNTS[:7]
    with pytest.raises(ValueError, match="holds 6 plies"):
        perft(*root(board), 7, kernel)
    with pytest.raises(ValueError, match="depth"):
        perft(*root(board), -1)


def endgame_boards(count, seed, variant=None, plies=(40, 58)):
    """Boards from random playouts stopped late, where passes and early ends happen."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = Board(variant)
        stop = rng.randrange(*plies)
        for _ in range(stop):
            if board.is_game_over():
                break
            squares = board.legal_squares()
            board.play(rng.choice(squares)) if squares else board.pass_turn()
        boards.append(board)
    return boards


def walk(reference, depth):
    """(leaves, forced passes, finished games) that the reference meets within `depth` plies."""
    if depth == 0:
        return 1, 0, 0
    moves = reference.legal_moves()
    if not moves:
        if reference.is_over():
            return 1, 0, 1
        leaves, passes, ends = walk(reference.passed(), depth - 1)
        return leaves, passes + 1, ends
    total = [0, 0, 0]
    for r, c in moves:
        for i, n in enumerate(walk(reference.play(r, c), depth - 1)):
            total[i] += n
    return tuple(total)


def test_perft_through_passes_and_finished_games_matches_the_reference():
    passes = ends = 0
    for board in endgame_boards(30, seed=7):
        reference = RefBoard.from_position(board.position())
        for depth in (1, 2, 3):
            assert perft(*root(board), depth) == reference_perft(reference, depth), board.position()
        leaves, p, e = walk(reference, 4)
        assert perft(*root(board), 4) == leaves, board.position()
        passes, ends = passes + p, ends + e
    assert passes > 0 and ends > 0  # the sample exercises both


def test_a_forced_pass_is_one_ply_and_a_finished_game_one_leaf():
    board = Board.from_position("X" + "O" + "-" * 62 + " O")  # White cannot move; Black plays c1 and wipes White out
    assert board.must_pass()
    g, player, opponent = root(board)
    assert children(g, player, opponent) == [(PASS, opponent, player)]
    assert perft(g, player, opponent, 1) == 1  # the pass
    assert perft(g, player, opponent, 2) == 1  # then c1
    assert perft(g, player, opponent, 5) == 1  # and the game is over after it
    over = Board.from_position("X" + "-" * 63 + " O")
    assert over.is_game_over()
    assert children(*root(over)) == []
    assert perft(*root(over), 0) == 1 and perft(*root(over), 3) == 1


def test_children_split_the_count():
    for board in [Board()] + endgame_boards(10, seed=3, plies=(20, 50)):
        g, player, opponent = root(board)
        below = children(g, player, opponent)
        squares = [square for square, _, _ in below]
        if board.must_pass():
            assert squares == [PASS]
        elif not board.is_game_over():
            assert squares == board.legal_squares()
        for square, child_player, child_opponent in below:
            after = board.copy()
            after.pass_turn() if square == PASS else after.play(square)
            assert (child_player, child_opponent) == (after.player_discs(), after.opponent_discs())
        if below:
            assert sum(perft(g, p, o, 3) for _, p, o in below) == perft(g, player, opponent, 4)


@pytest.mark.parametrize(
    "variant, depth",
    [
        (Variant(size=6), 6),
        (Variant(size=6, black_hole=7), 5),
        (Variant(size=10), 4),
        (Variant(size=10, black_hole=23), 4),
        (Variant(start="parallel"), 5),
        (Variant(black_hole=18), 5),
    ],
    ids=lambda v: v.describe() if isinstance(v, Variant) else str(v),
)
def test_perft_on_other_boards_matches_the_reference(variant, depth):
    board = Board(variant)
    assert perft(*root(board), depth) == reference_perft(RefBoard.from_position(board.position()), depth)


def test_6x6_endgames_match_the_reference():
    for board in endgame_boards(15, seed=11, variant=Variant(size=6), plies=(16, 30)):
        reference = RefBoard.from_position(board.position())
        assert perft(*root(board), 4) == reference_perft(reference, 4), board.position()


def test_count_leaves_works_from_any_ply_of_a_kernel():
    board = Board()
    kernel = make_kernel(geometry(8), 10)
    kernel.set_root(board.player_discs(), board.opponent_discs())
    kernel.generate(0)
    kernel.play(0, kernel.move_list[0])  # ply 1: after d3
    assert count_leaves(kernel, 1, 5) == START_COUNTS[6] // 4  # the four openings are symmetric
