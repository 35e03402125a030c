"""Game (../shared/RULES.md, "Clock", "Correcting a mistake"): history, take back and redo, clocks,
time loss, saving and loading."""

import json

import pytest

from engine_helpers import game_snapshot, mask, variants
from othello import BLACK, PASS, WHITE, Board, Game, IllegalMoveError, Move, Result, Variant, parse_square
from othello.game import History
from othello.scoring import END_TIME, time_loss_result

MINUTE = 60 * 1000


class FakeClock:
    """A millisecond tick counter that moves only when the test says so."""

    def __init__(self):
        self.ms = 1000

    def __call__(self):
        return self.ms

    def advance(self, ms):
        self.ms += ms


# ----- playing and history -------------------------------------------------------------


def test_moves_are_recorded_in_order():
    game = Game()
    game.play_transcript("f5d6c3")
    assert [m.square for m in game.history] == [parse_square(s) for s in ("f5", "d6", "c3")]
    assert [m.colour for m in game.history] == [BLACK, WHITE, BLACK]
    assert game.last_move().square == parse_square("c3")
    assert game.moves_played() == [parse_square(s) for s in ("f5", "d6", "c3")]


def test_the_history_packs_each_ply_and_gives_the_same_moves_back():
    game = Game()
    played = []
    while not game.is_over():
        board = game.board
        played.append(game.pass_turn() if board.must_pass() else game.play(board.legal_squares()[0]))
    history = game.history
    assert len(history) == len(played) > 16
    assert list(history) == played and history == played and history[-1] == played[-1]
    assert history.squares() == [move.square for move in played]
    assert len(history.blocks) == (len(played) + 15) // 16  # 16 plies of 10 bytes a block on 8x8
    assert all(len(block) == 16 * history.record for block in history.blocks)
    with pytest.raises(IndexError):
        history[len(played)]
    assert history.pop() == played[-1] and len(history) == len(played) - 1
    assert history != played and history != None  # noqa: E711 (a History is a list of moves, nothing else)


def test_the_history_keeps_passes_and_wide_masks_across_its_blocks():
    history = History(100)  # 10x10: 13-byte masks
    plies = [Move(PASS if ply % 3 == 0 else ply, (1 << 99 | 1 << ply) if ply % 3 else 0, ply % 2) for ply in range(40)]
    for move in plies:
        history.append(move)
    assert list(history) == plies and history[-1] == plies[-1] and history[17] == plies[17]
    assert len(history.blocks) == 3 and history.passes == 14
    assert history.squares() == [move.square for move in plies]
    while len(history) > 15:
        assert history.pop() == plies[len(history)]
    assert history.passes == 5 and list(history) == plies[:15]


def test_the_move_count_leaves_passes_out_and_follows_take_back_and_redo():
    game = Game()
    game.board.set_discs(mask("a1"), mask("b1"), WHITE)
    game.pass_turn()
    assert game.move_count() == 0 and len(game.history) == 1
    game.play("c1")
    assert game.move_count() == 1 == len(game.moves_played())
    game.take_back()
    game.take_back()
    assert game.move_count() == 0 and len(game.history) == 0
    game.redo()
    game.redo()
    assert game.move_count() == 1 and len(game.history) == 2


def test_an_illegal_move_leaves_the_game_exactly_as_it_was():
    game = Game(clock_ms=MINUTE, now=FakeClock())
    game.play_transcript("f5d6")
    game.take_back()
    before = game_snapshot(game)
    for bad, message in (("d4", "d4 is occupied"), ("a1", "a1 flips nothing"), ("z9", "not a square name"), (99, "off the")):
        with pytest.raises(ValueError, match=message):
            game.play(bad)
        assert game_snapshot(game) == before
    with pytest.raises(IllegalMoveError, match="cannot pass"):
        game.pass_turn()
    assert game_snapshot(game) == before


def test_take_back_and_redo_walk_the_history():
    game = Game()
    game.play_transcript("f5d6c3d3c4")
    positions = []
    for _ in range(5):
        positions.append(game.board.position())
        assert game.take_back() is not None
    assert game.board.position() == Game().board.position()
    assert game.take_back() is None  # nothing before the start
    for expected in reversed(positions):
        game.redo()
        assert game.board.position() == expected
    assert game.redo() is None
    assert game.transcript() == "f5d6c3d3c4"


def test_a_new_move_after_take_back_drops_the_redo_line():
    game = Game()
    game.play_transcript("f5d6c3")
    game.take_back()
    game.play("c5")
    assert game.redo() is None
    assert game.transcript() == "f5d6c5"


def test_take_back_undoes_a_pass_as_its_own_ply():
    game = Game()
    game.board.set_discs(mask("a1"), mask("b1"), WHITE)
    game.pass_turn()
    game.play("c1")
    assert game.is_over()
    assert game.take_back().square == parse_square("c1")
    assert game.take_back().is_pass()
    assert game.turn == WHITE and game.board.must_pass()
    game.redo()
    game.redo()
    assert game.is_over() and game.result() == Result(BLACK, 64, 0)


def test_no_moves_after_the_end():
    game = Game()
    game.board.set_discs(mask("a1"), mask("b1"), BLACK)
    game.play("c1")
    assert game.is_over()
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.play("d1")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.play_transcript("d1")


def test_a_whole_game_to_its_result():
    game = Game()
    while not game.is_over():
        squares = game.board.legal_squares()
        if squares:
            game.play(squares[0])
        else:
            game.pass_turn()
    result = game.result()
    assert result.black + result.white == 64
    assert result == game.board.result()
    replay = Game()
    replay.play_transcript(game.transcript())
    assert replay.board == game.board and replay.result() == result


# ----- the clock -------------------------------------------------------------------------


def test_only_the_side_to_move_uses_time_and_it_is_charged_after_the_move():
    now = FakeClock()
    game = Game(clock_ms=MINUTE, now=now)
    now.advance(5000)
    assert game.clock.left_ms(BLACK, now()) == MINUTE - 5000
    assert game.clock.left_ms(WHITE, now()) == MINUTE
    game.play("f5")
    now.advance(2000)
    assert game.clock.remaining[BLACK] == MINUTE - 5000
    assert game.clock.left_ms(WHITE, now()) == MINUTE - 2000
    assert game.check_time() is None


def test_running_out_of_time_with_fewer_discs_scores_discs_plus_empties_for_the_winner():
    now = FakeClock()
    game = Game(clock_ms=MINUTE, now=now)
    game.play_transcript("f5d6c3d3c4")  # White to move with 3 discs against 6
    now.advance(MINUTE + 1)
    assert game.check_time() == WHITE
    assert game.is_over()
    assert game.result() == Result(BLACK, 6 + 55, 3, END_TIME)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.play("f4")
    assert game.take_back() is None  # a lost game stays lost


def test_running_out_of_time_with_more_discs_is_recorded_33_31():
    now = FakeClock()
    game = Game(clock_ms=MINUTE, now=now)
    board = game.board
    board.set_discs(board.black | mask("a1 h8"), board.white, BLACK)  # Black to move, 4 discs to 2
    now.advance(MINUTE)
    assert game.check_time() == BLACK
    assert game.result() == Result(WHITE, 31, 33, END_TIME)


def test_time_loss_scores_on_other_boards():
    assert time_loss_result(BLACK, 10, 5, 21) == Result(WHITE, 17, 19, END_TIME)  # 6x6: 19-17
    assert time_loss_result(WHITE, 10, 5, 21) == Result(BLACK, 31, 5, END_TIME)
    assert time_loss_result(BLACK, 3, 3, 58) == Result(WHITE, 3, 61, END_TIME)  # equal: not "more"


def test_the_clock_stops_when_the_game_ends():
    now = FakeClock()
    game = Game(clock_ms=MINUTE, now=now)
    game.board.set_discs(mask("a1"), mask("b1"), BLACK)
    game.play("c1")
    now.advance(10 * MINUTE)
    assert game.check_time() is None
    assert game.result() == Result(BLACK, 64, 0)


# ----- saving and loading ----------------------------------------------------------------


def played(variant=None, clock=None, plies=14, back=3):
    game = Game(variant, clock_ms=clock, now=FakeClock())
    for _ in range(plies):
        if game.is_over():
            break
        squares = game.board.legal_squares()
        game.play(squares[len(squares) // 2]) if squares else game.pass_turn()
    for _ in range(back):
        game.take_back()
    return game


@pytest.mark.parametrize("variant", variants(), ids=lambda v: v.describe())
def test_to_dict_from_dict_round_trip(variant):
    game = played(variant)
    data = json.loads(json.dumps(game.to_dict()))  # as a save file stores it
    again = Game.from_dict(data)
    assert game_snapshot(again) == game_snapshot(game)
    again.redo()
    game.redo()
    assert again.board == game.board


def test_round_trip_keeps_the_clock_and_a_time_loss():
    now = FakeClock()
    game = Game(clock_ms=MINUTE, now=now)
    game.play_transcript("f5d6c3")
    now.advance(7000)
    game.play("d3")
    again = Game.from_dict(game.to_dict(), now=now)
    assert again.clock.remaining == game.clock.remaining and again.clock.running == BLACK
    now.advance(MINUTE)
    game.check_time()
    lost = Game.from_dict(game.to_dict(), now=now)
    assert lost.is_over() and lost.result() == game.result() and lost.result().reason == END_TIME


def corrupt_cases():
    good = played(clock=MINUTE).to_dict()

    def changed(**fields):
        data = json.loads(json.dumps(good))
        for key, value in fields.items():
            if value is None:
                del data[key]
            else:
                data[key] = value
        return data

    return [
        ({}, "incomplete"),
        ([], "incomplete"),
        (changed(variant=None), "incomplete"),
        (changed(moves=None), "incomplete"),
        (changed(variant={"size": 7}), "board size"),
        (changed(variant={"size": 8, "colour": 1}), "unknown variant field"),
        (changed(moves=[parse_square("a1")]), "does not replay: a1 flips nothing"),
        (changed(moves=[parse_square("f5"), parse_square("f5")]), "does not replay: f5 is occupied"),
        (changed(moves=[PASS]), "does not replay: Black has a legal move and cannot pass"),
        (changed(moves="f5d6"), "does not replay"),
        (changed(moves=[1.5]), "incomplete"),
        (changed(future=[0]), "does not replay"),
        (changed(future=["x"]), "bad redo square 'x'"),
        (changed(clock={"limit_ms": MINUTE}), "incomplete"),
        (changed(time_loss=BLACK), "time loss that cannot have happened")  # White is to move,
    ]


@pytest.mark.parametrize("data, message", corrupt_cases())
def test_corrupt_saved_games_are_refused(data, message):
    with pytest.raises(ValueError, match=message):
        Game.from_dict(data)


def test_variant_and_moves_of_a_reversi_game_survive_a_save():
    game = Game(Variant(start="empty", first=WHITE))
    game.play_transcript("d4e4d5e5")
    again = Game.from_dict(game.to_dict())
    assert again.board == game.board and again.variant == game.variant


def test_a_game_from_a_set_up_position_keeps_it_through_a_save():
    board = Board()
    board.set_discs(board.black | mask("a1"), board.white | mask("h8"), WHITE)
    game = Game(start=board.position())
    assert game.board == board and game.turn == WHITE
    game.play_transcript("e3")
    again = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert game_snapshot(again) == game_snapshot(game)
    while game.take_back():
        pass
    assert game.board == board


@pytest.mark.parametrize(
    "start, message",
    [("not a position", "does not replay"), (Board(Variant(size=6)).position(), "position is for a 6x6 board")],
)
def test_a_saved_game_with_a_bad_start_is_refused(start, message):
    data = Game().to_dict()
    data["start"] = start
    with pytest.raises(ValueError, match=message):
        Game.from_dict(data)
