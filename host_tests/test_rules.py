"""Every rule of ../shared/RULES.md ("A move", "Passing and the end", scoring), with the rule sheets' worked examples."""

import pytest

from engine_helpers import names, setup, snapshot
from othello import BLACK, WHITE, Board, IllegalMoveError, Result, parse_square, square_name
from othello.scoring import board_result
from reference_othello import RefBoard, name


def flips(board, square_name_):
    return names(board.flips_for(parse_square(square_name_, board.size)), board.size)


def legal(board):
    return [square_name(s, board.size) for s in board.legal_squares()]


# ----- board and start ----------------------------------------------------------


def test_start_position_and_black_moves_first():
    board = Board()
    assert names(board.black) == ["d5", "e4"]
    assert names(board.white) == ["d4", "e5"]
    assert board.turn == BLACK
    assert board.position() == "---------------------------OX------XO--------------------------- X"
    assert legal(board) == ["d3", "c4", "f5", "e6"]


def test_a1_is_top_left_and_h8_bottom_right():
    board = Board()
    assert parse_square("a1") == 0 and parse_square("h1") == 7
    assert parse_square("a8") == 56 and parse_square("h8") == 63
    rows = board.ascii(marks=False).splitlines()
    assert rows[0].split() == list("abcdefgh")
    assert rows[4].split() == ["4", ".", ".", ".", "O", "X", ".", ".", "."]


# ----- a move ------------------------------------------------------------------------


def test_a_move_places_a_disc_and_flips_the_outflanked_line():
    board = Board()
    move = board.play(parse_square("f5"))
    assert names(move.flipped) == ["e5"]
    assert names(board.black) == ["d5", "e4", "e5", "f5"]
    assert names(board.white) == ["d4"]
    assert board.turn == WHITE


def test_the_english_sheets_outflanking_example_one_row_of_three():
    # White A . B B B ? : White's disc B closes the row of three Black discs.
    board = setup(black="b1 c1 d1", white="a1", turn=WHITE)
    assert flips(board, "e1") == ["b1", "c1", "d1"]


def test_figures_2_and_3_flip_lines_in_three_directions_at_once():
    # Figure 2 with the disc placed on c7 taken off again: White to play c7.
    board = setup(black="c4 f4 c5 e5 c6 d6 d7", white="c3 g3 e7", turn=WHITE)
    move = board.play(parse_square("c7"))
    assert names(move.flipped) == ["c4", "c5", "c6", "d6", "d7", "e5", "f4"]
    assert names(board.white) == sorted("c3 g3 c4 f4 c5 e5 c6 d6 c7 d7 e7".split())


def test_figure_4_no_skipping_over_your_own_disc():
    # Row 7: a7 empty, b7 W, c7 B, d7 W, e7 W, f7 B. Black a7 flips b7 ONLY.
    board = setup(black="c7 f7", white="b7 d7 e7", turn=BLACK)
    move = board.play(parse_square("a7"))
    assert names(move.flipped) == ["b7"]
    assert names(board.white) == ["d7", "e7"]


def test_figures_5_and_6_no_chain_reaction():
    # Black a2 flips a3 and a4; b4 and c4 now sit between a4 and d4 but stay White.
    board = setup(black="d4 a5", white="a3 a4 b4 c4", turn=BLACK)
    move = board.play(parse_square("a2"))
    assert names(move.flipped) == ["a3", "a4"]
    assert names(board.white) == ["b4", "c4"]
    assert names(board.black) == ["a2", "a3", "a4", "a5", "d4"]


def test_flipping_in_all_eight_directions():
    # Norwegian sheet, figs 8-9: one disc captures in eight directions.
    white = "c3 d3 e3 c4 e4 c5 d5 e5"
    black = "b2 d2 f2 b4 f4 b6 d6 f6"
    board = setup(black=black, white=white)
    move = board.play(parse_square("d4"))
    assert names(move.flipped) == sorted(white.split())
    assert board.white == 0


@pytest.mark.parametrize(
    "direction, black, white, square, flipped",
    [
        ("east", "g1", "d1 e1 f1", "c1", "d1 e1 f1"),
        ("west", "a1", "b1 c1", "d1", "b1 c1"),
        ("south", "a8", "a2 a3 a4 a5 a6 a7", "a1", "a2 a3 a4 a5 a6 a7"),
        ("north", "h1", "h2 h3", "h4", "h2 h3"),
        ("south-east", "h8", "b2 c3 d4 e5 f6 g7", "a1", "b2 c3 d4 e5 f6 g7"),
        ("north-west", "c6", "d7", "e8", "d7"),
        ("south-west", "a8", "b7 c6", "d5", "b7 c6"),
        ("north-east", "h1", "g2 f3 e4", "d5", "e4 f3 g2"),
    ],
)
def test_each_direction_on_its_own(direction, black, white, square, flipped):
    board = setup(black=black, white=white)
    assert flips(board, square) == sorted(flipped.split()), direction
    assert square in legal(board)


@pytest.mark.parametrize(
    "black, white, square, why",
    [
        ("e1", "c1 d1", "a1", "an empty square breaks the line (b1)"),
        ("", "b1 c1", "a1", "a line that runs into the edge"),
        ("a3", "h2", "g2", "runs east off h2 and must not wrap onto a3"),
        ("h1", "a2", "b2", "runs west off a2 and must not wrap onto h1"),
        ("a2", "h2", "g3", "north-east diagonal does not wrap"),
        ("h3", "a5", "b6", "north-west diagonal does not wrap"),
        ("a1", "", "b1", "nothing to outflank next to it"),
    ],
)
def test_lines_that_are_not_outflanked(black, white, square, why):
    board = setup(black=black, white=white)
    assert board.flips_for(parse_square(square)) == 0, why
    assert square not in legal(board), why


def test_the_czech_sheets_example_position():
    # Black c4 c5 d4 e3 e4 f5, White d3 d5 d6 e5 f6, White to move.
    board = setup(black="c4 c5 d4 e3 e4 f5", white="d3 d5 d6 e5 f6", turn=WHITE)
    assert sorted(legal(board)) == sorted("b3 b4 b5 c3 e2 f3 f4 g5 g6".split())
    assert flips(board, "e2") == ["e3", "e4"]  # the column of two
    assert flips(board, "b3") == ["c4"]  # diagonally
    assert flips(board, "c3") == ["d4"]  # diagonally
    # "Try for yourself which discs flip on f3, b4 or f4", and the three others:
    reference = RefBoard.from_position(board.position())
    for square in ("f3", "b4", "f4", "b5", "g5", "g6"):
        row, column = (parse_square(square) // 8, parse_square(square) % 8)
        expected = sorted(name(r, c) for r, c in reference.flips(row, column, "O"))
        assert flips(board, square) == expected
    assert flips(board, "f3") == ["e3", "e4"]
    assert flips(board, "f4") == ["f5"]
    assert flips(board, "b4") == ["c5"]


def test_flipping_is_compulsory_in_every_direction():
    board = setup(black="a3 c3", white="a2 b2", turn=BLACK)
    move = board.play(parse_square("a1"))
    assert names(move.flipped) == ["a2", "b2"]


def test_a_disc_is_never_moved_and_can_flip_many_times():
    board = Board()
    for square in ("f5", "f6", "e6", "f4"):
        before = board.discs[0] | board.discs[1]
        board.play(parse_square(square))
        assert (board.discs[0] | board.discs[1]) == before | (1 << parse_square(square))
    # e5 was White, flipped by f5, back by f6 ...: still on e5
    assert (board.discs[0] | board.discs[1]) >> parse_square("e5") & 1


def test_discs_are_shared_a_colour_can_have_more_than_half():
    board = setup(black=" ".join(square_name(s) for s in range(40)), white="a6", turn=BLACK)
    assert board.count(BLACK) == 40
    board.play(parse_square("a7"))
    assert board.count(BLACK) == 42 and board.count(WHITE) == 0


# ----- illegal moves change nothing ---------------------------------------------------


@pytest.mark.parametrize(
    "square, message",
    [("d4", "d4 is occupied"), ("a1", "a1 flips nothing for Black"), (64, "off the 8x8 board"), (-5, "off the 8x8 board")],
)
def test_an_illegal_move_names_the_square_and_changes_nothing(square, message):
    board = Board()
    board.play(parse_square("f5"))
    board.play(parse_square("d6"))
    before = snapshot(board)
    with pytest.raises(IllegalMoveError, match=message):
        board.play(square)
    assert snapshot(board) == before


def test_a_square_name_that_is_not_one_changes_nothing():
    board = Board()
    before = snapshot(board)
    with pytest.raises(ValueError, match="'k9' is not a square name"):
        board.play("k9")
    assert snapshot(board) == before


def test_set_discs_rejects_bad_positions_and_keeps_the_old_one():
    board = Board()
    before = snapshot(board)
    with pytest.raises(ValueError, match="a1 holds both colours"):
        board.set_discs(1, 1, BLACK)
    with pytest.raises(ValueError, match="outside the 8x8 board"):
        board.set_discs(1 << 64, 0, BLACK)
    with pytest.raises(ValueError, match="turn"):
        board.set_discs(1, 2, 7)
    assert snapshot(board) == before


def test_undo_restores_the_position_exactly():
    board = Board()
    start = snapshot(board)
    moves = [board.play(parse_square(s)) for s in ("f5", "d6", "c3", "d3", "c4")]
    for move in reversed(moves):
        board.undo(move)
    assert snapshot(board) == start


def test_undo_of_a_move_that_was_not_the_last_is_refused():
    board = Board()
    first = board.play(parse_square("f5"))
    board.play(parse_square("d6"))
    before = snapshot(board)
    with pytest.raises(ValueError, match="not the last one"):
        board.undo(first)
    assert snapshot(board) == before


# ----- passing and the end ---------------------------------------------------------


def forced_pass_board():
    # White to move has nothing; Black can still play c1.
    return setup(black="a1", white="b1", turn=WHITE)


def test_a_player_without_a_move_passes_and_the_opponent_moves_again():
    board = forced_pass_board()
    assert board.legal_moves() == 0
    assert board.must_pass() and not board.is_game_over()
    with pytest.raises(IllegalMoveError, match="White has no legal move and must pass"):
        board.play(parse_square("c1"))
    move = board.pass_turn()
    assert move.is_pass() and board.turn == BLACK
    assert legal(board) == ["c1"]
    board.undo(move)
    assert board.turn == WHITE


def test_passing_by_choice_is_not_allowed():
    board = Board()
    before = snapshot(board)
    with pytest.raises(IllegalMoveError, match="Black has a legal move and cannot pass"):
        board.pass_turn()
    assert snapshot(board) == before


def test_the_game_ends_when_the_board_is_full():
    cells = ["X"] * 63 + ["-"]
    cells[62] = "O"
    board = Board.from_position("".join(cells) + " X")  # Black h8 flips g8 and fills the board
    board.play(parse_square("h8"))
    assert board.empties() == 0 and board.is_game_over()
    assert board.result() == Result(BLACK, 64, 0)


def test_the_game_ends_when_a_colour_is_wiped_out():
    board = setup(black="a1", white="b1")
    board.play(parse_square("c1"))
    assert board.white == 0 and board.is_game_over()
    assert board.result() == Result(BLACK, 64, 0)  # 3 discs and the 61 empties
    with pytest.raises(IllegalMoveError, match="the game is over"):
        board.pass_turn()


def test_the_game_ends_when_both_players_are_blocked():
    board = setup(black="a1 b1", white="h8")
    assert board.is_game_over() and not board.must_pass()
    assert board.result() == Result(BLACK, 63, 1)
    assert Board().result() is None


# ----- scoring -------------------------------------------------------------------------


def test_wof_scoring_gives_the_empties_to_the_winner():
    assert board_result(40, 20, 4) == Result(BLACK, 44, 20)
    assert board_result(13, 30, 21) == Result(WHITE, 13, 51)
    assert board_result(64, 0, 0) == Result(BLACK, 64, 0)


def test_a_draw_splits_the_empties_evenly():
    assert board_result(30, 30, 4) == Result(None, 32, 32)
    board = setup(black="a1", white="h8")
    assert board.is_game_over()
    assert board.result() == Result(None, 32, 32)


def test_scores_always_add_up_to_the_squares():
    for black, white in ((1, 1), (5, 9), (33, 0), (20, 20), (31, 32)):
        result = board_result(black, white, 64 - black - white)
        assert result.black + result.white == 64


def test_anti_othello_fewer_discs_wins():
    assert board_result(20, 44, 0, anti=True) == Result(BLACK, 20, 44)
    assert board_result(44, 20, 0, anti=True) == Result(WHITE, 44, 20)
    # empties widen the winner's margin: they go on the loser's side of the sheet
    assert board_result(10, 30, 24, anti=True) == Result(BLACK, 10, 54)
    assert board_result(30, 30, 4, anti=True) == Result(None, 32, 32)
