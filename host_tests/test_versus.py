"""tools/match/versus.py (this tree against another revision's firmware), tools/runners/player_worker.py and tools/device/replay.py."""

import json
import subprocess

import pytest

from device import replay
from match import versus
from othello.board import Board
from othello.notation import square_name
from othello.variant import Variant
from player.book import canonical
from player.levels import LEVELS, PLAIN_SOLVE_PERCENT
from runners.player_process import PlayerProcess

REPO = versus.REPO
OLD_TOP_LEVEL = "d2c6081"  # issue 13's yardstick: the top level before the viper search
# 12 empties, Black to move, from a level 5 game: level 8 solves from 14 empties.
ENDGAME = "X-O--X--OXOXX--XOOXXXXXXOXOXXXOXOXOOXOOX-OXXXXOXO-XXXX--XXXXXXX- X"
OPENING = "-------------------X-------XX-----OXOOO---OO------O-O----------- X"


def has_commit(revision):
    return subprocess.run(["git", "cat-file", "-e", revision + "^{commit}"], cwd=str(REPO),
                          capture_output=True).returncode == 0


def run_versus(capsys, *arguments):
    status = versus.main(list(arguments))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def replayed(board_text, moves, variant=None):
    """The board after playing `moves` (the match's words, passes included) from `board_text`."""
    board = Board.from_position(board_text, variant)
    for move in moves.split():
        if move == "pass":
            board.pass_turn()
        else:
            board.play(move)
    return board


@pytest.mark.slow
@pytest.mark.parametrize("revision", ["HEAD", OLD_TOP_LEVEL])
def test_a_short_match_against_a_revision_plays_whole_games_and_replays_exactly(capsys, revision):
    if not has_commit(revision):
        pytest.skip("%s is not in this clone's history" % revision)
    arguments = [revision, "--games", "2", "--nodes", "300", "--rev-nodes", "200", "--solver-nodes", "3000",
                 "--rev-solver-nodes", "3000", "--json"]
    status, out, err = run_versus(capsys, *arguments)
    assert status == 0, err
    summary = json.loads(out)
    assert summary["games"] == 2 and len(summary["results"]) == 2
    assert summary["wins"] + summary["draws"] + summary["losses"] == 2
    assert summary["this_tree"]["midgame_nodes"] == 300 and summary["revision_side"]["midgame_nodes"] == 200
    first, second = summary["results"]
    assert first["opening"] == second["opening"]  # one opening, once with either colour
    assert first["black"] == "this tree" and second["white"] == "this tree"
    for game in summary["results"]:
        board = replayed(game["opening"], game["moves"])
        assert board.is_game_over()
        result = board.result()  # the scores as a score sheet writes them: a game's empty squares go to the winner
        assert (result.black, result.white) == (game["black_discs"], game["white_discs"])
    assert "game 1" in err and "game 2" in err  # progress on stderr
    # Node budgets, no deadline: the same games again.
    again = json.loads(run_versus(capsys, *arguments)[1])
    assert [game["moves"] for game in again["results"]] == [game["moves"] for game in summary["results"]]


@pytest.mark.slow
@pytest.mark.parametrize("anti", [False, True])
def test_a_6x6_match_scores_each_game_by_its_rules(capsys, anti):
    """6x6 games from random openings; in Anti-Othello the side with fewer discs wins the game's point."""
    arguments = ["HEAD", "--size", "6", "--games", "4", "--nodes", "300", "--rev-nodes", "300", "--solver-nodes",
                 "2000", "--rev-solver-nodes", "2000", "--json"] + (["--anti"] if anti else [])
    status, out, err = run_versus(capsys, *arguments)
    assert status == 0, err
    summary = json.loads(out)
    assert summary["variant"] == Variant(size=6, anti=anti).describe() and len(summary["results"]) == 4
    for game in summary["results"]:
        board = replayed(game["opening"], game["moves"], Variant(size=6, anti=anti))
        assert board.is_game_over() and len(game["opening"].split()[0]) == 36
        ours = game["black_discs"] if game["black"] == "this tree" else game["white_discs"]
        theirs = game["white_discs"] if game["black"] == "this tree" else game["black_discs"]
        if ours == theirs:
            assert game["score"] == 0.5
        else:
            assert game["score"] == float((ours < theirs) if anti else (ours > theirs))


def test_the_positions_from_the_start_are_every_one_once_up_to_mirror_images():
    # The counts of distinct Othello openings up to symmetry, plies 1-4.
    assert [len(versus.start_positions(plies, 1)) for plies in range(1, 5)] == [1, 3, 14, 60]
    positions = versus.start_positions(3, 1)
    keys = set()
    for text in positions:
        board = Board.from_position(text)
        assert bin(board.player_discs() | board.opponent_discs()).count("1") == 4 + 3
        keys.add(canonical(board.player_discs(), board.opponent_discs(), 8)[:2])
    assert len(keys) == len(positions)  # no two are mirror images of each other
    assert versus.start_positions(3, 1) == positions  # the seed decides the order
    assert sorted(versus.start_positions(3, 2)) == sorted(positions)


@pytest.mark.slow
def test_a_match_from_the_start_plays_each_position_once_with_either_colour_from_the_book(capsys):
    status, out, err = run_versus(capsys, "HEAD", "--from-start", "2", "--games", "6", "--nodes", "300",
                                  "--rev-nodes", "300", "--solver-nodes", "3000", "--rev-solver-nodes", "3000",
                                  "--json")
    assert status == 0, err
    summary = json.loads(out)
    assert summary["from_start"] == 2
    openings = [game["opening"] for game in summary["results"]]
    assert sorted(openings) == sorted(versus.start_positions(2, 1) * 2)
    # The top level plays the book's first moves there, on both sides.
    assert summary["this_tree"]["moves"]["book"] > 0 and summary["revision_side"]["moves"]["book"] > 0


def test_versus_refuses_bad_input_with_a_clear_message(capsys):
    status, _, err = run_versus(capsys, "no-such-revision-xyz", "--games", "2")
    assert status == 2 and "not a commit" in err and "Traceback" not in err
    with pytest.raises(SystemExit):
        versus.main(["HEAD", "--games", "0"])
    assert "1 to 200, not 0" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        versus.main(["HEAD", "--games", "201"])
    assert "1 to 200" in capsys.readouterr().err
    status, _, err = run_versus(capsys, "HEAD", "--from-start", "4", "--games", "121")
    assert status == 2 and "60 positions are 4 plies from the start: at most 120 games" in err
    status, _, err = run_versus(capsys, "HEAD", "--from-start", "2", "--size", "6")
    assert status == 2 and "--from-start is for 8x8 Othello" in err
    with pytest.raises(SystemExit):
        versus.main(["HEAD", "--from-start", "7"])
    assert "1 to 6, not 7" in capsys.readouterr().err


@pytest.mark.parametrize("interpreter", ["unix", "cpython"])
def test_the_worker_gives_the_solver_its_budget_and_the_search_the_rest(interpreter):
    with PlayerProcess(interpreter=interpreter) as player:
        # A solve cut short by its budget leaves the move to the midgame search with 30% of its nodes. The
        # budget is the level's, as player.levels documents: the viper solver (unix) stops at the first
        # node it enters from there (a node of seven empty squares counts up to 12,279 more within itself,
        # as on the device), the plain solver (CPython), which counts its nodes its own way, gets
        # PLAIN_SOLVE_PERCENT of it.
        _, _, nodes, solver_nodes, exact, _, _ = player.think(ENDGAME, 1, 8, nodes=1000, solver_nodes=50)
        expected = 50 if interpreter == "unix" else 50 * PLAIN_SOLVE_PERCENT // 100
        beyond = 12280 if interpreter == "unix" else 0
        assert not exact and expected <= solver_nodes <= expected + beyond and nodes - solver_nodes == 300
        # The level's own budgets solve it; the solver clears its table before each solve, so the
        # cut-short solve above leaves nothing that changes this one.
        move, depth, nodes, solver_nodes, exact, book, score = player.think(ENDGAME, 1, 8)
        assert exact and solver_nodes == nodes > 0 and depth == 12
        # A bad request is answered with an error, and the worker goes on.
        player.process.stdin.write("think nonsense\n")
        player.process.stdin.flush()
        assert player.process.stdout.readline().startswith("error ")
        assert player.think(ENDGAME, 1, 8)[0] == move


def test_replay_check_finds_equal_and_different_moves(tmp_path, capsys):
    # The device's moves as the unix port's viper code plays them, logged as tools/device/workloads/replay.py does.
    with PlayerProcess(interpreter="unix") as device:
        solved = device.think(ENDGAME, 7, 8)
        midgame = device.think(OPENING, 8, 5)
    squares, side = ENDGAME.split()
    lines = ["move 8 0 0 %s %s 7 %s %d %d %d 900 1 0" % (squares, side, solved[0], solved[1], solved[2], solved[3])]
    opening = OPENING.split()
    lines.append("move 5 0 0 %s %s 8 %s %d %d %d 410 0 %d" % (opening[0], opening[1], midgame[0], midgame[1],
                                                             midgame[2], midgame[3], midgame[5]))
    # The same position with a move the host does not play, 500 ms: over the level's 400 ms + 50.
    other = "a1" if midgame[0] != "a1" else "h8"
    lines.append("move 5 0 1 %s %s 8 %s 3 1500 0 500 0 0" % (opening[0], opening[1], other))
    # A solved move the host does not play: the check gives the exact result of both.
    board = Board.from_position(ENDGAME)
    another = next(name for name in (square_name(square) for square in board.legal_squares()) if name != solved[0])
    lines.append("move 8 0 1 %s %s 7 %s 12 100 100 50 1 0" % (squares, side, another))
    # Solves that did not finish, the win proven: one ended by the level's solver budget, one by the deadline.
    budget = LEVELS[7].solve_nodes
    lines.append("move 8 0 2 %s %s 7 %s 12 %d %d 1500 0 0" % (squares, side, another, budget, budget))
    lines.append("move 8 0 3 %s %s 7 %s 12 900 900 1760 0 0" % (squares, side, another))
    log = tmp_path / "device.log"
    log.write_text("\n".join(lines) + "\n")
    assert replay.main(["check", str(log), "--json"]) == 0
    levels = {row["level"]: row for row in json.loads(capsys.readouterr().out)["levels"]}
    assert levels[8]["moves"] == 4 and levels[8]["equal"] == 1
    assert [differ["device_how"] for differ in levels[8]["differ"]] == ["solved", "proven", "proven"]
    assert levels[8]["differ"][0]["why"].startswith("both solved")
    assert levels[8]["differ"][1]["why"].startswith("the device's solve ended on its node budget")
    assert levels[8]["differ"][2]["why"].startswith("the device's solve was stopped by its deadline")
    assert levels[8]["device_ended_by_deadline"] == 1
    assert levels[5]["moves"] == 2 and levels[5]["equal"] == 1
    differ = levels[5]["differ"][0]
    assert differ["device"] == other and differ["device_how"] == "search to deadline"
    assert "deadline" in differ["why"]
    assert levels[5]["worst_ms"] == 500 and levels[5]["over_time_plus_50"] == 1


def test_replay_refuses_a_damaged_log(tmp_path, capsys):
    log = tmp_path / "device.log"
    log.write_text("move 8 0 0 not enough words\n")
    assert replay.main(["check", str(log)]) == 2
    err = capsys.readouterr().err
    assert "line 1" in err and "Traceback" not in err
    assert replay.main(["check", str(tmp_path / "missing.log")]) == 2
    assert "no log" in capsys.readouterr().err


def test_replay_rates_gives_the_midgame_speed_by_empties(tmp_path, capsys):
    from player.levels import _MIDGAME_RATES, _SEARCH_OVERHEAD_MS as SEARCH_OVERHEAD_MS  # private: a name on the device costs heap

    def line(level, empties, nodes, solver_nodes, ms, book=0, mhz=125):
        return "move %d 0 0 %s X 1 d3 8 %d %d %d 0 %d %d" % (level, "-" * empties + "X" * (64 - empties), nodes,
                                                               solver_nodes, ms, book, mhz)

    log = tmp_path / "device.log"
    log.write_text("\n".join([
        line(8, 50, 43000, 0, 1600), line(8, 50, 43000, 0, 1500),  # the slower of the two counts
        line(8, 20, 60000, 0, 1200, mhz=200),  # at 200 MHz: 1,200 ms there are 1,920 ms of 125 MHz cycles
        line(8, 50, 0, 0, 30, book=1), line(8, 14, 9000, 9000, 400), line(4, 30, 500, 0, 200),  # not counted
    ]) + "\n")
    assert replay.main(["rates", str(log)]) == 0
    rows, bands = {}, {}
    for text in capsys.readouterr().out.splitlines():
        words = text.split()
        if words and words[0].isdigit():
            rows[int(words[0])] = words
        elif words and words[0][0].isdigit():  # a band of the levels' rates: "48-63"
            bands[int(words[0].split("-")[0])] = words
    slowest = 43000 * 1000 / (1600 - SEARCH_OVERHEAD_MS)
    assert rows[50] == ["50", "2", "%.0f" % slowest, "64%"]  # 1,600 ms of level 8's 2,500
    assert rows[20][:3] == ["20", "1", "%.0f" % (60000 * 1000 / (1920 - SEARCH_OVERHEAD_MS))]
    assert set(rows) == {50, 20}
    rate_from_48 = dict(_MIDGAME_RATES)[48]
    under_by = "%.1f%%" % (100 - 100 * rate_from_48 / slowest)
    assert bands[48] == ["48-63", "2", "%.0f" % slowest, str(rate_from_48), under_by]
    assert len(bands) == 2
    log.write_text(line(8, 50, 0, 0, 30, book=1) + "\n")
    assert replay.main(["rates", str(log)]) == 2
    assert "no midgame searches" in capsys.readouterr().err


def test_the_device_script_logs_a_game_that_the_host_replays(tmp_path, capsys):
    from runners import micropython_runner

    settings = "LEVEL_NUMBERS = [1]\nOPENINGS = [%r]\nSEED = 3\nMHZ = 125\n" % OPENING
    output = micropython_runner.run_unix(settings + replay.DEVICE_SCRIPT.read_text())
    log = tmp_path / "device.log"
    log.write_text(output)
    moves = replay.read_log(log)
    board = Board.from_position(OPENING)
    for move in moves:  # the logged positions are the game's, one after another
        assert move.position == board.position() and move.seed == 300000 + 1000 + move.ply
        board.pass_turn() if move.move == "pass" else board.play(move.move)
    assert board.is_game_over() and output.split()[-1] == "done"
    assert replay.main(["check", str(log), "--json"]) == 0
    (level,) = json.loads(capsys.readouterr().out)["levels"]
    assert level["level"] == 1 and level["moves"] == len(moves) == level["equal"]
