"""The variants of ../shared/RULES.md: Reversi's empty start, parallel start, White first, Anti,
handicap, black hole, 6x6 and 10x10."""

import pytest

from engine_helpers import mask, names, setup, snapshot, variants
from othello import BLACK, WHITE, Board, Game, IllegalMoveError, Result, Variant, parse_square, square_name
from othello.perft import perft
from reference_othello import RefBoard
from reference_othello import perft as reference_perft


def legal(board):
    return [square_name(s, board.size) for s in board.legal_squares()]


# ----- Reversi: the empty centre -------------------------------------------------


def test_reversi_starts_empty_and_the_first_four_moves_fill_the_centre_without_flipping():
    board = Board(Variant(start="empty"))
    assert board.black == board.white == 0
    assert board.in_placement_phase()
    assert sorted(legal(board)) == ["d4", "d5", "e4", "e5"]
    for square, colour in (("d4", BLACK), ("e5", WHITE), ("e4", BLACK), ("d5", WHITE)):
        assert board.turn == colour
        assert board.flips_for(parse_square(square)) == 0
        move = board.play(parse_square(square))
        assert move.flipped == 0
    assert not board.in_placement_phase()
    # Black d4 e4, White d5 e5: the parallel arrangement, chosen by the players
    assert names(board.black) == ["d4", "e4"] and names(board.white) == ["d5", "e5"]
    assert board.turn == BLACK
    assert sorted(legal(board)) == ["c6", "d6", "e6", "f6"]


def test_reversi_placement_can_give_the_diagonal_start():
    game = Game(Variant(start="empty"))
    game.play_transcript("e4d4d5e5")
    assert game.board.key() == Board().key()


def test_reversi_placement_rejects_squares_off_the_centre_and_changes_nothing():
    board = Board(Variant(start="empty"))
    board.play(parse_square("d4"))
    before = snapshot(board)
    with pytest.raises(IllegalMoveError, match="c3: the first four discs go on the centre squares"):
        board.play(parse_square("c3"))
    with pytest.raises(IllegalMoveError, match="d4 is occupied"):
        board.play(parse_square("d4"))
    assert snapshot(board) == before


def test_reversi_with_white_first_and_take_back_through_the_placement():
    game = Game(Variant(start="empty", first=WHITE))
    assert game.turn == WHITE
    game.play_transcript("d4e4")
    assert names(game.board.white) == ["d4"] and names(game.board.black) == ["e4"]
    game.take_back()
    game.take_back()
    assert game.board.black == game.board.white == 0 and game.turn == WHITE


def test_parallel_start():
    board = Board(Variant(start="parallel"))
    assert names(board.black) == ["d4", "e4"] and names(board.white) == ["d5", "e5"]
    assert sorted(legal(board)) == ["c6", "d6", "e6", "f6"]
    reference = RefBoard.from_position(board.position())
    assert reference_perft(reference, 4) == perft(board.geometry, board.player_discs(), board.opponent_discs(), 4)


def test_white_moves_first():
    board = Board(Variant(first=WHITE))
    assert board.turn == WHITE
    assert sorted(legal(board)) == ["c5", "d6", "e3", "f4"]
    board.play(parse_square("e3"))
    assert board.turn == BLACK


# ----- Anti-Othello ---------------------------------------------------------------


def test_anti_othello_the_player_with_fewer_discs_wins():
    board = Board(Variant(anti=True))
    board.set_discs(mask("a1 b1 c1"), mask("h8"), BLACK)
    assert board.is_game_over()
    assert board.result() == Result(WHITE, 63, 1)  # 3 v 1: White wins, empties on Black's side
    board.set_discs(mask("a1"), mask("h8"), BLACK)
    assert board.result() == Result(None, 32, 32)


# ----- handicap ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "count, corners", [(1, ["a1"]), (2, ["a1", "h8"]), (3, ["a1", "h1", "h8"]), (4, ["a1", "a8", "h1", "h8"])]
)
def test_handicap_corners_go_to_the_weaker_player_before_the_first_move(count, corners):
    board = Board(Variant(handicap=count))
    assert names(board.black) == sorted(["d5", "e4"] + corners)
    assert names(board.white) == ["d4", "e5"]
    assert board.turn == BLACK
    white_gets = Board(Variant(handicap=count, handicap_to=WHITE))
    assert names(white_gets.white) == sorted(["d4", "e5"] + corners)


def test_handicap_corners_count_and_anchor_lines():
    board = Board(Variant(handicap=4))
    assert board.count(BLACK) == 6 and board.count(WHITE) == 2
    board.set_discs(board.black, board.white | mask("b1"), BLACK)
    assert names(board.flips_for(parse_square("c1"))) == ["b1"]  # closed by the a1 corner


@pytest.mark.parametrize("bad", [dict(handicap=5), dict(handicap=-1), dict(handicap_to=2)])
def test_bad_handicaps_are_refused(bad):
    with pytest.raises(ValueError):
        Variant(**bad)


# ----- black hole -----------------------------------------------------------------------


def test_black_hole_blocks_its_square_and_breaks_lines():
    hole = parse_square("c1")
    board = Board(Variant(black_hole=hole))
    board.set_discs(mask("d1"), mask("b1 e1"), WHITE)
    before = snapshot(board)
    with pytest.raises(IllegalMoveError, match="c1 is the black hole"):
        board.play(hole)  # it would flank d1 between b1 and e1 on a plain board
    assert snapshot(board) == before
    assert not board.legal_moves() >> hole & 1
    # Black a1 - b1 White - c1 hole - d1 Black: the hole breaks the line
    board.set_discs(mask("d1"), mask("b1"), BLACK)
    assert board.flips_for(parse_square("a1")) == 0
    plain = Board()
    plain.set_discs(mask("c1 d1"), mask("b1"), BLACK)  # with a disc there instead, a1 flips b1
    assert names(plain.flips_for(parse_square("a1"))) == ["b1"]


def test_black_hole_never_holds_a_disc_and_shows_in_the_position():
    board = Board(Variant(black_hole=parse_square("c3")))
    with pytest.raises(ValueError, match="black hole"):
        board.set_discs(mask("c3"), 0, BLACK)
    text = board.position()
    assert text[parse_square("c3")] == "#"
    again = Board.from_position(text)
    assert again.variant.black_hole == parse_square("c3") and again == board
    assert board.empties() == 59


def test_black_hole_games_agree_with_the_reference():
    board = Board(Variant(black_hole=parse_square("e3")))
    reference = RefBoard.from_position(board.position())
    assert reference_perft(reference, 5) == perft(board.geometry, board.player_discs(), board.opponent_discs(), 5)


@pytest.mark.parametrize("square", ["d4", "e5", "a1"])
def test_black_hole_cannot_be_a_centre_or_handicap_square(square):
    with pytest.raises(ValueError, match="black hole cannot be"):
        Variant(black_hole=parse_square(square), handicap=1)


# ----- board sizes ------------------------------------------------------------------------


def test_6x6_mini_othello():
    board = Board(Variant(size=6))
    assert names(board.black, 6) == ["c4", "d3"] and names(board.white, 6) == ["c3", "d4"]
    assert sorted(legal(board)) == ["b3", "c2", "d5", "e4"]
    assert board.position() == "--------------OX----XO-------------- X"
    assert board.empties() == 32


@pytest.mark.parametrize("depth", range(1, 8))
def test_6x6_perft_matches_the_reference(depth):
    board = Board(Variant(size=6))
    expected = reference_perft(RefBoard.from_position(board.position()), depth)
    assert perft(board.geometry, board.player_discs(), board.opponent_discs(), depth) == expected


def test_6x6_game_plays_to_the_end_and_scores_to_36():
    game = Game(Variant(size=6))
    while not game.is_over():
        squares = game.board.legal_squares()
        if squares:
            game.play(squares[len(squares) // 2])
        else:
            game.pass_turn()
    result = game.result()
    assert result.black + result.white == 36


def test_10x10_grand_othello_and_its_square_names():
    board = Board(Variant(size=10))
    assert names(board.black, 10) == ["e6", "f5"] and names(board.white, 10) == ["e5", "f6"]
    assert sorted(legal(board)) == ["d5", "e4", "f7", "g6"]
    assert parse_square("a10", 10) == 90 and parse_square("j10", 10) == 99 and parse_square("j1", 10) == 9
    assert square_name(99, 10) == "j10"
    with pytest.raises(ValueError, match="off the board"):
        parse_square("a11", 10)
    with pytest.raises(ValueError, match="not a square name"):
        parse_square("j10")  # no column j on 8x8


def test_10x10_long_lines_and_the_last_row():
    board = setup(black="a10", white="a2 a3 a4 a5 a6 a7 a8 a9", variant=Variant(size=10))
    assert names(board.flips_for(parse_square("a1", 10)), 10) == sorted("a2 a3 a4 a5 a6 a7 a8 a9".split())
    board = setup(black="b1", white="c1 d1 e1 f1 g1 h1 i1", variant=Variant(size=10))
    assert names(board.flips_for(parse_square("j1", 10)), 10) == sorted("c1 d1 e1 f1 g1 h1 i1".split())
    board = setup(black="a1", white="b2 c3 d4 e5 f6 g7 h8 i9", variant=Variant(size=10))
    move = board.play(parse_square("j10", 10))
    assert names(move.flipped, 10) == sorted("b2 c3 d4 e5 f6 g7 h8 i9".split())


def test_10x10_perft_matches_the_reference():
    board = Board(Variant(size=10))
    expected = reference_perft(RefBoard.from_position(board.position()), 4)
    assert perft(board.geometry, board.player_discs(), board.opponent_discs(), 4) == expected


# ----- the Variant object -------------------------------------------------------------


@pytest.mark.parametrize("variant", variants(), ids=lambda v: v.describe())
def test_variant_round_trips_and_describes_itself(variant):
    assert Variant.from_dict(variant.to_dict()) == variant
    assert variant.describe().startswith("%dx%d" % (variant.size, variant.size))


@pytest.mark.parametrize(
    "bad, message",
    [
        (dict(size=7), "board size"),
        (dict(start="random"), "start must be"),
        (dict(first=3), "colours"),
        (dict(black_hole=64), "off the board"),
    ],
)
def test_bad_variants_are_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        Variant(**bad)


def test_variant_from_dict_names_an_unknown_field():
    with pytest.raises(ValueError, match="unknown variant field 'colour'"):
        Variant.from_dict({"size": 8, "colour": 1})
