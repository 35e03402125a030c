"""Sessions: who plays which colour, take back and redo by whole turns, matches, and save files."""

import random

import pytest

from othello.board import PASS
from othello.match import MATCH_GAMES, MATCH_RACE
from othello.scoring import Result
from othello.variant import BLACK, WHITE, Variant
from ui import settings as choices
from ui.session import MODE_COMPUTER, MODE_DEMO, MODE_TWO, Rng, Session, rules_from_settings, variant_for


class Clock:
    def __init__(self):
        self.now = 0

    def __call__(self):
        return self.now


def new_session(mode=MODE_COMPUTER, **changes):
    values = choices.defaults(8)
    values.update(changes)
    return Session.start(values, mode, Clock(), Rng(1))


def game_with_a_pass(seed=0):
    """Moves of a random game (fixed seed) in which someone passes, with the index of the first pass."""
    rng = random.Random(seed)
    while True:
        session = new_session(MODE_TWO)
        game = session.game
        while not game.is_over():
            if game.board.must_pass():
                game.pass_turn()
            else:
                game.play(rng.choice(game.board.legal_squares()))
        plies = [move.square for move in game.history]
        if PASS in plies[:-1]:
            return plies, plies.index(PASS)


def test_colours_follow_the_menu_and_alternate_in_a_match():
    session = new_session(colour=WHITE, level=3, match=MATCH_GAMES, games=3)
    assert session.level_of(BLACK) == 3 and session.level_of(WHITE) is None
    assert (session.label(BLACK), session.label(WHITE)) == ("L3", "You")
    session.game.play_transcript("f5d6c3d3c4f4f6f3e6e7d7")  # an unfinished game is enough for the colours
    session.match.record(Result(BLACK, 40, 24))
    session.recorded = True
    session.new_game(Rng(2))
    assert session.level_of(BLACK) is None and session.level_of(WHITE) == 3
    assert session.game.history == []


def test_demo_and_two_player_labels():
    demo = new_session(MODE_DEMO, demo_black=1, demo_white=4)
    assert (demo.label(BLACK), demo.label(WHITE)) == ("L1", "L4")
    two = new_session(MODE_TWO)
    assert (two.label(BLACK), two.label(WHITE)) == ("P1", "P2")
    assert two.level_of(BLACK) is None and two.level_of(WHITE) is None


def test_take_back_against_the_computer_returns_to_the_humans_move():
    session = new_session(colour=BLACK)
    game = session.game
    game.play_transcript("f5d6c3d3")  # you f5, computer d6, you c3, computer d3
    assert session.take_back()
    assert game.transcript() == "f5d6" and game.turn == BLACK
    assert session.take_back()
    assert game.transcript() == ""
    assert not session.take_back()
    assert not session.can_take_back()
    assert session.redo()
    assert game.transcript() == "f5d6"  # your move and the computer's reply
    assert session.redo()
    assert game.transcript() == "f5d6c3d3"
    assert not session.redo()


def test_take_back_when_the_computer_moved_first():
    session = new_session(colour=WHITE)
    session.game.play_transcript("f5")
    assert not session.can_take_back()
    session.game.play_transcript("d6c3")
    assert session.take_back()
    assert session.game.transcript() == "f5"


def test_two_players_take_back_one_move_and_skip_passes():
    plies, first_pass = game_with_a_pass()
    session = new_session(MODE_TWO)
    game = session.game
    for square in plies[: first_pass + 2]:  # ... a move, the pass, and the move after it
        game.pass_turn() if square == PASS else game.play(square)
    assert session.take_back()
    assert [m.square for m in game.history] == plies[: first_pass + 1]  # the pass stays: it was forced
    assert session.take_back()
    assert [m.square for m in game.history] == plies[: first_pass - 1]  # the pass and the move before it
    assert not game.board.must_pass()
    assert session.redo()
    assert [m.square for m in game.history] == plies[: first_pass + 1]  # the move and the forced pass
    assert session.redo()
    assert [m.square for m in game.history] == plies[: first_pass + 2]


def test_finish_records_the_result_once_and_a_decided_match_restarts():
    session = new_session(MODE_TWO, match=MATCH_RACE, race=32)
    rng = random.Random(3)
    games = 0
    while not session.match.is_over():
        game = session.game
        while not game.is_over():
            if game.board.must_pass():
                game.pass_turn()
            else:
                game.play(rng.choice(game.board.legal_squares()))
        result = session.finish()
        assert session.finish() == result
        games += 1
        if not session.match.is_over():
            session.new_game(Rng(games))
    assert max(session.match.points) >= 32
    assert len(session.match.games) == games
    session.new_game(Rng(9))
    assert session.match.games == [] and session.match.points == [0, 0]


def test_random_black_hole_avoids_the_centre_and_handicap_corners():
    values = choices.defaults(8)
    values.update(hole=True, handicap=4)
    rules = rules_from_settings(values)
    rng = Rng(7)
    holes = set()
    for _ in range(200):
        variant = variant_for(rules, rng)
        holes.add(variant.black_hole)
    assert len(holes) > 30
    assert not holes & {0, 7, 56, 63, 27, 28, 35, 36}


def test_round_trip_through_the_save_file():
    session = new_session(colour=WHITE, level=5, clock=5, match=MATCH_GAMES, games=3, size=6, anti=True)
    for _ in range(3):
        session.game.play(session.game.board.legal_squares()[0])
    data = session.to_dict()
    restored = Session.from_dict(data, 8, Clock())
    assert restored.to_dict() == data
    assert restored.game.variant == Variant(size=6, anti=True)
    assert restored.game.clock.limit_ms == 5 * 60000


def test_a_set_up_position_is_kept_in_the_save_file_and_the_record():
    start = "---------------------------OX------XXX-------------------------- O"
    values = choices.defaults(8)
    session = Session.start(values, MODE_TWO, Clock(), Rng(1), start, Variant())
    assert session.game.board.position() == start
    session.game.play("f6")
    restored = Session.from_dict(session.to_dict(), 8, Clock())
    assert restored.game.board == session.game.board
    assert session.record()["s"] == start


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("game"),
        lambda d: d.update(mode="solo"),
        lambda d: d.update(players=[None, 12]),
        lambda d: d["game"].update(moves=[0, 0, 0]),
        lambda d: d["rules"].pop("clock"),
        lambda d: d["rules"].update(size=7),
        lambda d: d["rules"].update(position="XO"),
        lambda d: d["rules"].update(clock=-5),
        lambda d: d.update(rules=[1, 2]),
        lambda d: d.update(black_player=2),
        lambda d: d["match"].update(games=[[1, 0, 40, 24, "board"]]),
    ],
)
def test_a_damaged_save_file_is_refused(damage):
    data = new_session().to_dict()
    damage(data)
    with pytest.raises(ValueError):
        Session.from_dict(data, 8, Clock())
