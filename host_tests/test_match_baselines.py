"""The match baselines posK and mobK (tools/cli/player.py) and the match's choice of openings."""

import json

import pytest

from cli import main, player
from othello import Board
from othello.kernel import Kernel
from othello.variant import Variant
from player.evaluation import DISC, POSITIONAL_VALUES, SquareEvaluator

# A middle game position (Black to move) with moves of very different mobility.
MIDGAME = "--------" "--XO----" "--XXO---" "-OXXXO--" "--OXXX--" "---O----" "--------" "-------- X"


def square_points(board, colour_discs, other_discs):
    """The classic table's points of one side minus the other's, counted square by square."""
    table = POSITIONAL_VALUES
    total = 0
    for square in range(64):
        row, column = divmod(square, 8)
        a, b = min(row, 7 - row, 3), min(column, 7 - column, 3)
        value = table[min(a, b)][max(a, b)]
        total += value * ((colour_discs >> square & 1) - (other_discs >> square & 1))
    return total


def mobility_value(board):
    """mobK's evaluation of `board` for the side to move, from the board's own rules (in 1/16 disc)."""
    mine = len(board.legal_squares())
    squares, side = board.position().split()
    theirs = len(Board.from_position(squares + (" O" if side == "X" else " X")).legal_squares())
    points = square_points(board, board.player_discs(), board.opponent_discs()) + 5 * (mine - theirs)
    return points * DISC // 4


def test_mobility_evaluation_is_the_square_table_plus_five_points_a_move():
    board = Board.from_position(MIDGAME)
    kernel = Kernel(board.geometry)
    kernel.set_root(board.player_discs(), board.opponent_discs())
    squares = SquareEvaluator(8, POSITIONAL_VALUES, DISC // 4)
    evaluator = player.MobilityEvaluator(squares)
    assert evaluator.evaluate(kernel, 0) == mobility_value(board)
    assert evaluator.evaluate(kernel, 0) != squares.evaluate(kernel, 0)  # the mobility term is not zero here


@pytest.mark.parametrize("spec", ["mob1", "pos1"])
def test_one_ply_baselines_take_the_move_their_evaluation_likes_best(spec):
    board = Board.from_position(MIDGAME)
    scores = {}
    for square in board.legal_squares():
        after = board.copy()
        after.play(square)
        value = mobility_value(after) if spec == "mob1" else square_points(
            after, after.player_discs(), after.opponent_discs()) * DISC // 4
        scores[square] = -value
    best = max(scores.values())
    assert player.Player(spec).choose(board, 0) in [square for square, score in scores.items() if score == best]


def test_mobility_changes_the_choice_somewhere():
    """mob2 and pos2 are different players: over a few random positions they choose differently."""
    differ = 0
    for start in player.openings(Variant(), 12, 5, balanced=False):
        board = Board.from_position(start)
        differ += player.Player("mob2").choose(board, 0) != player.Player("pos2").choose(board, 0)
    assert differ > 0


@pytest.mark.parametrize("spec, message", [
    ("mob0", "mob0: mobK searches K plies, K 1 to 10"),
    ("mob11", "mob11: mobK searches K plies, K 1 to 10"),
    ("mobx", "unknown player 'mobx': use a level 1-8, random, greedy, posK or mobK"),
])
def test_bad_mobility_players_are_refused(capsys, spec, message):
    with pytest.raises(SystemExit) as stop:
        main(["match", "--black", spec, "--white", "1"])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_random_openings_are_not_the_balanced_ones():
    balanced = set(player.openings(Variant(), 10, 1))
    random_starts = player.openings(Variant(), 10, 1, balanced=False)
    assert len(set(random_starts)) == 10 and not balanced & set(random_starts)
    assert all(Board.from_position(start).empties() == 60 - 6 for start in random_starts)


def test_match_of_mobility_baseline_from_random_openings(capfd):
    status = main(["match", "--black", "mob2", "--white", "pos1", "--games", "2", "--jobs", "1",
                   "--openings", "random", "--json"])
    out, err = capfd.readouterr()
    result = json.loads(out)
    assert status == 0
    assert result["openings"] == "random" and result["first"] == "mob2"
    assert result["wins"] + result["draws"] + result["losses"] == 2
    assert result["results"][0]["opening"] not in set(player.openings(Variant(), 50, 1))


def test_levels_think_on_the_unix_port_as_the_device_does(capfd):
    """--interpreter unix: the levels are player processes on MicroPython's unix port (the viper search and
    solver, the device's code): the games end, a second run plays the same games, and the process answers
    a position with a legal move."""
    from runners.player_process import PlayerProcess

    arguments = ["match", "--black", "3", "--white", "pos1", "--games", "2", "--jobs", "1", "--json",
                 "--interpreter", "unix"]
    assert main(arguments) == 0
    result = json.loads(capfd.readouterr()[0])
    assert result["wins"] + result["draws"] + result["losses"] == 2
    assert main(arguments) == 0
    assert json.loads(capfd.readouterr()[0])["results"] == result["results"]
    game = result["results"][0]  # level 3 is Black in the first game: its first move is the process's
    board = Board.from_position(game["opening"])
    with PlayerProcess(interpreter="unix") as process:
        move = process.think(board.position(), 1 * 7919 + 0 * 131 + 0, 3)[0]
    assert move in [player.square_name(square) for square in board.legal_squares()]


def test_the_unix_port_plays_8x8_and_6x6_boards_only(capfd):
    assert main(["match", "--black", "8", "--white", "pos1", "--games", "2", "--size", "10", "--interpreter",
                 "unix"]) == 2
    assert "--interpreter unix plays 8x8 and 6x6 boards only" in capfd.readouterr().err
    for variant, options in ((Variant(anti=True), ["--anti"]), (Variant(size=6, anti=True), ["--size", "6", "--anti"]),
                             (Variant(size=6), ["--size", "6"])):
        assert main(["match", "--black", "2", "--white", "pos1", "--games", "2", "--interpreter", "unix",
                     "--jobs", "1", "--json"] + options) == 0
        result = json.loads(capfd.readouterr()[0])
        assert result["variant"] == variant.describe() and len(result["results"]) == 2
        for game in result["results"]:  # each game played to its end on the variant's board
            assert Board.from_position(game["opening"], variant).size == variant.size
            assert 0 < game["black_discs"] + game["white_discs"] <= variant.size ** 2
