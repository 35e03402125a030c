"""The engine against the square-by-square reference (reference_othello.py) on many random positions.

Two kinds: random disc patterns (anything, reachable or not) and random
playouts, on every board size, with and without a black hole. Compared:
legal moves of both sides, the flips of every square, pass and end
detection, the position after every legal move, and the result.
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from othello import BLACK, WHITE, Board, Variant, square_name
from othello.geometry import squares_of
from reference_othello import RefBoard, name

COLOUR_CHARS = "XO"


def centre(size):
    half = size // 2
    return {(r, c) for r in (half - 1, half) for c in (half - 1, half)}


@st.composite
def variants(draw):
    size = draw(st.sampled_from([6, 8, 10]))
    hole = None
    if draw(st.booleans()):
        row, column = draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1))
        if (row, column) not in centre(size):
            hole = row * size + column
    return Variant(size=size, black_hole=hole, anti=draw(st.booleans()))


@st.composite
def patterns(draw):
    """A board with random discs (density varies from sparse to nearly full) and a side to move."""
    variant = draw(variants())
    board = Board(variant)
    density = draw(st.sampled_from([0.15, 0.4, 0.7, 0.95]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    black = white = 0
    for square in squares_of(board.geometry.playable):
        roll = rng.random()
        if roll < density / 2:
            black |= 1 << square
        elif roll < density:
            white |= 1 << square
    board.set_discs(black, white, draw(st.sampled_from([BLACK, WHITE])))
    return board


def compare(board, reference):
    """Assert that Board and RefBoard agree on everything about this position."""
    n = board.size
    assert board.position() == reference.position()
    mover = COLOUR_CHARS[board.turn]
    other = COLOUR_CHARS[1 - board.turn]
    assert {square_name(s, n) for s in board.legal_squares()} == {name(r, c) for r, c in reference.legal_moves(mover)}
    assert {square_name(s, n) for s in squares_of(board.moves_for(1 - board.turn))} == {
        name(r, c) for r, c in reference.legal_moves(other)
    }
    geometry = board.geometry
    for row in range(n):
        for column in range(n):
            flipped = geometry.flips(board.player_discs(), board.opponent_discs(), row * n + column)
            expected = {name(r, c) for r, c in reference.flips(row, column, mover)} if reference.cells[row][column] == "." else set()
            assert {square_name(s, n) for s in squares_of(flipped)} == expected, name(row, column)
    assert board.must_pass() == reference.must_pass()
    assert board.is_game_over() == reference.is_over()
    result = board.result()
    if reference.is_over():
        winner, black, white = reference.result(board.variant.anti)
        assert (result.winner, result.black, result.white) == ({"X": BLACK, "O": WHITE, None: None}[winner], black, white)
    else:
        assert result is None


@settings(max_examples=400, deadline=None)
@given(patterns())
def test_random_patterns_agree_with_the_reference(board):
    reference = RefBoard.from_position(board.position())
    compare(board, reference)
    for square in board.legal_squares():
        after = board.copy()
        after.play(square)
        n = board.size
        assert after.position() == reference.play(square // n, square % n).position()


@settings(max_examples=30, deadline=None)
@given(variants(), st.integers(0, 2**32))
def test_random_games_agree_with_the_reference_at_every_ply(variant, seed):
    rng = random.Random(seed)
    board = Board(variant)
    reference = RefBoard.from_position(board.position())
    while True:
        compare(board, reference)
        if board.is_game_over():
            break
        squares = board.legal_squares()
        if not squares:
            board.pass_turn()
            reference = reference.passed()
            continue
        square = rng.choice(squares)
        move = board.play(square)
        reference = reference.play(square // board.size, square % board.size)
        if rng.random() < 0.1:  # undo must give back exactly what was there
            board.undo(move)
            board.play(square)
    assert board.result() is not None
