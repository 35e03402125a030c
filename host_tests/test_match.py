"""Match play (../shared/RULES.md, "Match play"): one game, N games by disc difference, a race."""

import json

import pytest

from othello import BLACK, MATCH_GAMES, MATCH_RACE, MATCH_SINGLE, WHITE, Game, Match, Result
from othello.scoring import END_TIME, disc_difference


def test_a_single_game_match():
    match = Match(MATCH_SINGLE)
    assert not match.is_over() and match.black_player() == 0
    assert match.record(Result(BLACK, 40, 24)) == 0
    assert match.is_over() and match.winner() == 0 and match.points == [16, 0]


def test_fixed_number_of_games_scores_the_disc_difference_and_alternates_colours():
    match = Match(MATCH_GAMES, 3)
    # game 1: player 0 has Black; White wins 40-24 -> player 1 scores 16 (the sheet's example)
    assert match.record(Result(WHITE, 24, 40)) == 1
    assert match.points == [0, 16]
    # game 2: player 1 has Black and wins 33-31 on time -> 2 more for player 1
    assert match.black_player() == 1
    assert match.record(Result(BLACK, 33, 31, END_TIME)) == 1
    # game 3: player 0 has Black again; a draw scores nothing
    assert match.black_player() == 0
    assert match.record(Result(None, 32, 32)) is None
    assert match.points == [0, 18] and match.is_over() and match.winner() == 1
    assert match.standing() == "P1 0 - P2 18 (game 3/3)"
    with pytest.raises(ValueError, match="already decided"):
        match.record(Result(BLACK, 64, 0))


def test_a_drawn_match_has_no_winner():
    match = Match(MATCH_GAMES, 2)
    match.record(Result(BLACK, 40, 24))  # player 0 +16
    match.record(Result(BLACK, 40, 24))  # player 1 had Black: +16
    assert match.is_over() and match.winner() is None


def test_a_race_to_a_target_ends_as_soon_as_it_is_reached():
    match = Match(MATCH_RACE, 100)
    games = 0
    while not match.is_over():
        # the player with Black always wins 50-14 (36 points)
        match.record(Result(BLACK, 50, 14))
        games += 1
    assert games == 5  # 36, 36 / 72, 72 / 108: player 0 gets there first
    assert match.points == [108, 72] and match.winner() == 0
    assert match.standing() == "P1 108 - P2 72 (race to 100)"


def test_match_results_come_from_real_games():
    match = Match(MATCH_GAMES, 2)
    for _ in range(2):
        game = Game()
        while not game.is_over():
            squares = game.board.legal_squares()
            game.play(squares[-1]) if squares else game.pass_turn()
        result = game.result()
        black_player = match.black_player()
        before = list(match.points)
        match.record(result)
        scorer_gain = disc_difference(result, BLACK)
        if scorer_gain > 0:
            assert match.points[black_player] - before[black_player] == scorer_gain
        elif scorer_gain < 0:
            assert match.points[1 - black_player] - before[1 - black_player] == -scorer_gain
    assert match.is_over()


def test_match_round_trip():
    match = Match(MATCH_RACE, 50, first_black=1)
    match.record(Result(WHITE, 20, 44))
    again = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    assert again.points == match.points and again.black_player() == match.black_player()
    assert again.to_dict() == match.to_dict()


@pytest.mark.parametrize(
    "args, message",
    [(("league", 3), "match mode"), ((MATCH_GAMES, 0), "positive whole number"), ((MATCH_RACE, 2.5), "positive whole number")],
)
def test_bad_matches_are_refused(args, message):
    with pytest.raises(ValueError, match=message):
        Match(*args)


@pytest.mark.parametrize(
    "data, message",
    [
        ({}, "incomplete"),
        ({"mode": MATCH_GAMES, "target": 3}, "incomplete"),
        ({"mode": MATCH_GAMES, "target": 3, "games": [[1, BLACK, 40, 24, "board"]]}, "colours out of turn"),
        ({"mode": MATCH_SINGLE, "target": 1, "games": [[0, 0, 40, 24, "board"], [1, 0, 40, 24, "board"]]}, "already decided"),
    ],
)
def test_corrupt_saved_matches_are_refused(data, message):
    with pytest.raises(ValueError, match=message):
        Match.from_dict(data)
