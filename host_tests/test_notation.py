"""Notation (../shared/RULES.md, "Board and notation"): square names, positions, transcripts, and their errors."""

import pytest

from engine_helpers import names, snapshot, variants
from othello import BLACK, WHITE, Board, Game, IllegalMoveError, NotationError, Variant, parse_square, square_name
from othello.notation import (
    counted,
    format_position,
    format_transcript,
    is_position_text,
    parse_position,
    split_transcript,
)

START = "---------------------------OX------XO--------------------------- X"


# ----- squares ------------------------------------------------------------------------


@pytest.mark.parametrize("size", [6, 8, 10])
def test_every_square_name_round_trips(size):
    for square in range(size * size):
        name = square_name(square, size)
        assert parse_square(name, size) == square
        assert parse_square(name.upper(), size) == square


@pytest.mark.parametrize(
    "text, size, message",
    [
        ("i1", 8, "'i1' is not a square name"),
        ("a9", 8, "'a9' is off the board: rows go from 1 to 8"),
        ("a0", 8, "off the board"),
        ("g1", 6, "not a square name"),
        ("a11", 10, "off the board: rows go from 1 to 10"),
        ("", 8, "not a square name"),
        ("5f", 8, "not a square name"),
        ("f", 8, "not a square name"),
    ],
)
def test_bad_square_names(text, size, message):
    with pytest.raises(NotationError, match=message):
        parse_square(text, size)


# ----- positions --------------------------------------------------------------------------


def test_the_start_in_the_64_character_format():
    assert Board().position() == START
    black, white, turn, size, hole = parse_position(START)
    assert (names(black), names(white), turn, size, hole) == (["d5", "e4"], ["d4", "e5"], BLACK, 8, None)


def test_side_to_move_is_part_of_the_position():
    board = Board()
    board.play(parse_square("f5"))
    assert board.position().endswith(" O")
    assert Board.from_position(board.position()) == board
    assert Board.from_position(START.replace(" X", " O")).turn == WHITE


def test_positions_accept_lower_case_and_other_common_spellings():
    text = START.replace("X", "x").replace("O", "o").replace("-", ".")
    assert Board.from_position(text) == Board()
    assert Board.from_position(START.replace("X", "B").replace("O", "W")[:-1] + "b") == Board()
    assert Board.from_position("  " + START + "\n") == Board()
    assert Board.from_position(START.replace(" X", "\tx")) == Board()


@pytest.mark.parametrize("variant", variants(), ids=lambda v: v.describe())
def test_positions_round_trip_on_every_board(variant):
    game = Game(variant)
    while not game.is_over() and len(game.history) < 12:
        squares = game.board.legal_squares()
        game.play(squares[len(squares) // 3]) if squares else game.pass_turn()
    text = game.board.position()
    assert len(text.split()[0]) == variant.size ** 2
    again = Board.from_position(text)
    assert again.key() == game.board.key()
    assert again.variant.black_hole == variant.black_hole


@pytest.mark.parametrize(
    "text, message",
    [
        (START[:10] + "Z" + START[11:], r"unexpected 'Z' at c2 \(character 11\): use X, O, - or #"),
        (START[:63] + "?" + START[64:], r"unexpected '\?' at h8 \(character 64\)"),
        (START[:-2], "got 1 part"),
        (START + " extra", "got 3 part"),
        (START[:-1] + "Y", "side to move must be X or O, not 'Y'"),
        (START[1:], "a position has 36, 64 or 100 squares, not 63"),
        ("#" + START[1:9] + "#" + START[10:], r"second black hole at b2 \(character 10\)"),
        ("", "got 0 part"),
    ],
)
def test_malformed_positions_name_what_and_where(text, message):
    with pytest.raises(NotationError, match=message):
        parse_position(text)
    with pytest.raises(ValueError, match=message):
        Board.from_position(text)


def test_a_position_for_another_board_is_refused():
    with pytest.raises(ValueError, match="position is for a 8x8 board, not for 6x6"):
        Board.from_position(START, Variant(size=6))
    with pytest.raises(ValueError, match="with a hole at c3"):
        Board.from_position(Board(Variant(black_hole=parse_square("c3"))).position(), Variant())


def test_format_position_marks_the_hole():
    assert format_position(0, 0, WHITE, 6, hole=0) == "#" + "-" * 35 + " O"


def test_is_position_text_tells_positions_from_transcripts():
    assert is_position_text(START)
    assert is_position_text("x")
    assert is_position_text("B" * 64 + " W")
    assert not is_position_text("f5d6C3")
    assert not is_position_text("f5 d6 c3")
    assert not is_position_text("")


# ----- transcripts -----------------------------------------------------------------------


def test_transcripts_read_any_case_and_spaces_and_write_lower_case():
    assert split_transcript("f5d6c3") == split_transcript("F5D6C3") == split_transcript(" f5 D6\nc3 ")
    assert [square_name(s) for s in split_transcript("f5D6c3")] == ["f5", "d6", "c3"]
    game = Game()
    game.play_transcript("F5D6C3D3C4")
    assert game.transcript() == "f5d6c3d3c4"
    assert format_transcript([parse_square("a1"), parse_square("h8")]) == "a1h8"


def test_10x10_transcripts_with_row_ten():
    squares = split_transcript("a10j10b1J10a1", 10)
    assert [square_name(s, 10) for s in squares] == ["a10", "j10", "b1", "j10", "a1"]
    assert format_transcript(squares, 10) == "a10j10b1j10a1"
    game = Game(Variant(size=10))
    game.play_transcript("f7g7h7")
    assert game.transcript() == "f7g7h7"


@pytest.mark.parametrize(
    "text, size, message",
    [
        ("f5d6z3", 8, r"move 3: 'z' at character 5 is not a column letter"),
        ("f5 d6 z3", 8, r"move 3: 'z' at character 7 is not a column letter"),
        ("f5d6c9", 8, r"move 3 at character 5: 'c9' is off the board"),
        ("f5d", 8, r"move 2 at character 3: 'd' is not a square name"),
        ("f5-d6", 8, r"move 2: '-' at character 3"),
        ("e2g5", 6, r"move 2: 'g' at character 3 is not a column letter \(a to f\)"),
        ("a11", 10, r"move 2: '1' at character 3 is not a column letter"),
    ],
)
def test_malformed_transcripts_name_the_move_and_character(text, size, message):
    with pytest.raises(NotationError, match=message):
        split_transcript(text, size)


def test_a_transcript_with_an_illegal_move_names_it_and_changes_nothing():
    game = Game()
    game.play_transcript("f5d6")
    before = snapshot(game.board), list(game.history), game.transcript()
    with pytest.raises(IllegalMoveError, match="move 3: a1 flips nothing for Black"):
        game.play_transcript("c3d3a1")
    with pytest.raises(IllegalMoveError, match="move 1: d6 is occupied"):
        game.play_transcript("d6")
    with pytest.raises(NotationError, match="move 2"):
        game.play_transcript("c3x3")
    assert (snapshot(game.board), list(game.history), game.transcript()) == before


def test_transcripts_leave_passes_out_and_loading_puts_them_back():
    # A game with a forced pass: the transcript has no pass in it.
    game = Game()
    game.board.set_discs(1 << parse_square("a1"), 1 << parse_square("b1"), WHITE)
    game.pass_turn()
    game.play("c1")
    assert game.transcript() == "c1"
    assert [m.is_pass() for m in game.history] == [True, False]
    replay = Game()
    replay.board.set_discs(1 << parse_square("a1"), 1 << parse_square("b1"), WHITE)
    replay.play_transcript("c1")
    assert [m.is_pass() for m in replay.history] == [True, False]
    assert replay.board == game.board


def test_a_count_has_its_noun_in_the_right_number():
    assert [counted(n, "game") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert [counted(n, "empty", "empties") for n in (1, 5)] == ["1 empty", "5 empties"]
