"""othello records pull / push / check against the recording mpremote stand-in (host_tests/stubs/mpremote)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli import main
from othello.game import Game
from othello.variant import Variant
from test_review import random_ending
from ui.store import RECORDS_KEPT

REPO = Path(__file__).resolve().parent.parent
STUBS = Path(__file__).resolve().parent / "stubs"


@pytest.fixture
def board(tmp_path, monkeypatch):
    """The stand-in board's filesystem root."""
    root = tmp_path / "board"
    root.mkdir()
    monkeypatch.setenv("PATH", str(STUBS) + os.pathsep + os.environ["PATH"])
    monkeypatch.setenv("MPREMOTE_STUB_LOG", str(tmp_path / "mpremote.log"))
    monkeypatch.setenv("MPREMOTE_STUB_BOARD", str(root))
    return root


def board_file(board):
    return board / "data" / "records.json"


def game_record(seed, **changes):
    variant = changes.pop("variant", Variant())
    start, transcript = random_ending(seed, 60, variant)
    from othello.game import Game

    game = Game(variant)
    game.play_transcript(transcript)
    result = game.result()
    record = {"v": variant.to_dict(), "s": None, "t": transcript,
              "r": [result.winner, result.black, result.white, result.reason], "p": ["You", "L%d" % (seed % 8 + 1)]}
    record.update(changes)
    return record


def put_on_board(board, records):
    board_file(board).parent.mkdir(exist_ok=True)
    board_file(board).write_text(json.dumps(records))


def test_records_go_to_the_board_and_come_back_the_same(board, tmp_path, capsys):
    records = [game_record(1), game_record(2, variant=Variant(size=6, anti=True)),
               game_record(3, variant=Variant(black_hole=19, first=1))]
    put_on_board(board, records)
    pulled = tmp_path / "games.txt"
    assert main(["records", "pull", "--out", str(pulled)]) == 0
    lines = pulled.read_text().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith(records[0]["t"] + " seq=1 black=You white=L2 size=8 start=othello")
    assert "size=6" in lines[1] and "anti=yes" in lines[1] and "hole=d3" in lines[2] and "first=white" in lines[2]
    board_file(board).unlink()  # a fresh board: the games go back
    assert main(["records", "push", str(pulled)]) == 0
    assert "3 games sent" in capsys.readouterr().out
    assert json.loads(board_file(board).read_text()) == records
    assert main(["records", "push", str(pulled)]) == 0  # already there: nothing doubles
    assert "0 games sent, 3 already on the board" in capsys.readouterr().out
    assert json.loads(board_file(board).read_text()) == records


def test_a_malformed_line_is_refused_by_its_number_and_the_board_keeps_its_records(board, tmp_path, capsys):
    kept = [game_record(4)]
    put_on_board(board, kept)
    before = board_file(board).read_bytes()
    good = "# my games\n\n" + "f5d6c3 black=A white=B size=8 start=othello first=black anti=no handicap=0 hole=- from=- result=-\n"
    cases = {
        "f5d6c3 black=A white=B size=8 start=othello first=black anti=no handicap=0 hole=- from=- result=-\nf5f5\n":
            "line 2: missing",
        good + "f5d6c3 black=A white=B size=8 start=othello first=black anti=no handicap=0 hole=- from=- result=64-0\n":
            "line 4: the result 64-0 is given, but the game is not over",
        good + "f5a1 black=A white=B size=8 start=othello first=black anti=no handicap=0 hole=- from=- result=-\n":
            "line 4: move 2",
        good + "f5 colour=A\n": "line 4: 'colour=A' is not one of",
    }
    for text, reason in cases.items():
        path = tmp_path / "bad.txt"
        path.write_text(text)
        assert main(["records", "push", str(path)]) == 2
        err = capsys.readouterr().err
        assert reason in err and "Traceback" not in err, err
        assert board_file(board).read_bytes() == before
    path = tmp_path / "good.txt"
    path.write_text(good)
    assert main(["records", "check", str(path)]) == 0
    assert "1 game, all good" in capsys.readouterr().out


def test_a_push_that_would_drop_the_boards_own_games_sends_nothing(board, tmp_path, capsys):
    on_board = [game_record(seed) for seed in range(RECORDS_KEPT - 1)]
    put_on_board(board, on_board)
    before = board_file(board).read_bytes()
    from cli.records import record_line

    path = tmp_path / "new.txt"
    path.write_text("".join(record_line(game_record(seed + 100), seed) + "\n" for seed in range(2)))
    assert main(["records", "push", str(path)]) == 2
    assert "1 of its own would be dropped. Nothing was sent" in capsys.readouterr().err
    assert board_file(board).read_bytes() == before


def test_pushed_games_replay_and_review_on_the_device(board, tmp_path):
    from cli.records import record_line
    from test_ui_app import write_flash
    from ui_harness import BoardDriver

    start, transcript = random_ending(2, 10)
    line = record_line({"v": Variant().to_dict(), "s": start, "t": transcript, "r": None, "p": ["Ann", "Bob"]}, 1)
    path = tmp_path / "games.txt"
    path.write_text(line + "\n")
    assert main(["records", "push", str(path)]) == 0
    write_flash(tmp_path / "flash", "records.json", board_file(board).read_bytes())
    driver = BoardDriver(flash_dir=tmp_path / "flash")
    driver.press("a")
    driver.menu_to("Records")
    assert driver.screen.items[0].label == "1 Ann-Bob"
    driver.press("a")
    driver.menu_to("Review")
    assert type(driver.screen).__name__ == "ReviewScreen"


def test_a_damaged_record_on_the_board_is_left_out_with_a_warning(board, capsys):
    put_on_board(board, [game_record(5), {"v": 3}])
    assert main(["records", "pull"]) == 0
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 1
    assert "record 2 is damaged" in captured.err


def test_no_board_is_a_clear_error(board, monkeypatch, capsys):
    monkeypatch.setenv("MPREMOTE_STUB_NO_BOARD", "1")
    assert main(["records", "pull"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def othello_process(*argv, **env):
    """The real tools/othello process, with `env` added to this one's environment."""
    return subprocess.run([sys.executable, str(REPO / "tools" / "othello"), *argv], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, **env))


def test_no_board_advises_the_port_option_this_tool_takes(board, tmp_path):
    done = othello_process("records", "pull", "--out", str(tmp_path / "x.txt"), MPREMOTE_STUB_NO_BOARD="1")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "no MicroPython board found on USB" in done.stderr
    assert "Name the port by adding --port /dev/ttyACM0 (Windows: --port COM3) to the command." in done.stderr
    assert "PORT=" not in done.stderr and "make command" not in done.stderr


def test_one_game_is_counted_in_the_singular(board, tmp_path):
    path = tmp_path / "one.txt"
    path.write_text("f5d6c3 black=A white=B size=8 start=othello first=black anti=no handicap=0 hole=- from=- result=-\n")
    checked = othello_process("records", "check", str(path))
    assert checked.returncode == 0 and checked.stdout == "1 game, all good\n"
    pushed = othello_process("records", "push", str(path))
    assert pushed.returncode == 0 and pushed.stdout == "1 game sent, 0 already on the board\n", pushed.stderr
    pulled = othello_process("records", "pull", "--out", str(tmp_path / "back.txt"))
    assert pulled.returncode == 0 and pulled.stdout == "1 game to %s\n" % (tmp_path / "back.txt"), pulled.stderr


def parse_ggf(text):
    """The games of a GGF text, read as the format says (skatgame.net/mburo/ggsa/ggf), not as cli.records
    writes it: each game between `(;` and `;)`, properties NAME[value] in any order and spacing, the moves
    B[..] and W[..] in order. [({property: value}, [(colour letter, move)])]."""
    games = []
    for body in re.findall(r"\(;(.*?);\)", text, re.S):
        properties, moves = {}, []
        for name, value in re.findall(r"([A-Z]+)\[([^\]]*)\]", body):
            if name in ("B", "W"):
                moves.append((name, value.split("/")[0]))  # a move may carry /evaluation/time
            else:
                assert name not in properties, name
                properties[name] = value
        games.append((properties, moves))
    return games


def replay_ggf(properties, moves):
    """(the start position, the Game) a GGF game describes, played on our rules engine from its BO start."""
    from othello.notation import parse_square

    words = properties["BO"].split()
    size = int(words[0])
    rows, to_move = words[1:-1], words[-1]
    assert len(rows) == size and all(len(row) == size for row in rows), properties["BO"]
    cells = "".join(rows).replace("*", "X")
    game_type = properties["TY"]
    variant = Variant(size=size, anti=game_type.endswith("a"))
    assert game_type.rstrip("a") == str(size)
    start = "%s %s" % (cells, "X" if to_move == "*" else "O")
    game = Game(variant, None, start=start)
    for colour, move in moves:
        assert "BW".index(colour) == game.board.turn, (colour, move)
        if move.upper() == "PA":
            assert game.board.must_pass()
            game.pass_turn()
        else:
            game.play(parse_square(move.lower(), size))
    return Game(variant, None, start=start).board.position(), game


def test_pull_as_ggf_for_other_programs(board, capsys):
    from othello.scoring import END_TIME

    timed = game_record(8)
    timed["t"] = timed["t"][:20]
    timed["r"] = [1, 9, 13, END_TIME]
    records = [game_record(6), game_record(7, variant=Variant(black_hole=19)),
               game_record(9, variant=Variant(size=6, anti=True)), timed]
    start, transcript = random_ending(3, 12)  # from a set-up position, passes and all
    ending = Game(Variant(), None, start=start)
    ending.play_transcript(transcript)
    end = ending.result()
    records.append({"v": Variant().to_dict(), "s": start, "t": transcript, "p": ["A[1]", "B"],
                    "r": [end.winner, end.black, end.white, end.reason]})
    put_on_board(board, records)
    assert main(["records", "pull", "--ggf"]) == 0
    captured = capsys.readouterr()
    assert "game 2 has a black hole" in captured.err
    games = parse_ggf(captured.out)
    assert len(games) == len(captured.out.splitlines()) == 4
    for (properties, moves), record in zip(games, records[:1] + records[2:]):
        assert properties["GM"] == "Othello"
        # what NBoard's GGF reader requires of a game (it refuses one without any of these)
        assert {"GM", "PC", "DT", "PB", "PW", "RB", "RW", "TI", "TY", "RE", "BO"} <= set(properties), properties
        assert re.fullmatch(r"\d{4}\.\d\d\.\d\d_\d\d:\d\d:\d\d\.UTC", properties["DT"]), properties["DT"]
        assert float(properties["RB"]) == float(properties["RW"]) == 0
        assert (properties["PB"], properties["PW"]) == tuple(name.replace("[", "(").replace("]", ")")
                                                             for name in record["p"])
        start, game = replay_ggf(properties, moves)
        assert start == Game(Variant.from_dict(record["v"]), None, start=record["s"]).board.position()
        assert game.transcript() == record["t"]
        black, white, reason = record["r"][1], record["r"][2], record["r"][3]
        assert properties["RE"] == "%+d.000%s" % (black - white, ":t" if reason == END_TIME else "")
        if reason != END_TIME:
            result = game.result()
            assert (result.black, result.white) == (black, white)
    assert any(move == "PA" for _, moves in games for _, move in moves), "no pass was exported"
    assert games[1][0]["TY"] == "6a" and games[0][0]["TY"] == "8"


def test_a_damaged_records_file_on_the_board_is_named_and_left_as_it_is(board, tmp_path, capsys):
    from cli.records import record_line

    path = tmp_path / "games.txt"
    path.write_text(record_line(game_record(10), 1) + "\n")
    board_file(board).parent.mkdir()
    for content, reason in ((b"\xff\xfe\x00[", "is damaged (not JSON)"), (b'{"t": "f5"}', "not a list of games"),
                            (b"[1, 2", "is damaged (not JSON)")):
        board_file(board).write_bytes(content)
        for action in (["pull"], ["push", str(path)]):
            assert main(["records"] + action) == 2
            err = capsys.readouterr().err
            assert reason in err and "Clear records" in err and "Traceback" not in err, err
            assert board_file(board).read_bytes() == content
    board_file(board).unlink()
    board_file(board).mkdir()  # a folder where the file should be
    assert main(["records", "pull"]) == 2
    assert "cannot be read (Is a directory)" in capsys.readouterr().err


def test_a_push_keeps_the_boards_damaged_records_and_sends_a_repeated_game_once(board, tmp_path, capsys):
    from cli.records import record_line

    kept = [game_record(11), {"v": 3}, "junk"]
    put_on_board(board, kept)
    new = game_record(12)
    path = tmp_path / "games.txt"
    path.write_text("".join(record_line(record, 1) + "\n" for record in (new, new, kept[0])))
    assert main(["records", "push", str(path)]) == 0
    assert "1 game sent, 1 already on the board, 1 repeated in the file" in capsys.readouterr().out
    assert json.loads(board_file(board).read_text()) == [new] + kept  # nothing of the board's lost


def test_more_games_than_the_board_keeps_are_refused(board, tmp_path, capsys):
    from cli.records import record_line

    path = tmp_path / "games.txt"
    path.write_text("".join(record_line(game_record(seed + 20), seed) + "\n" for seed in range(RECORDS_KEPT + 1)))
    assert main(["records", "push", str(path)]) == 2
    assert "%d games would be new. Nothing was sent" % (RECORDS_KEPT + 1) in capsys.readouterr().err
    assert not board_file(board).exists()


def test_a_file_that_is_not_text_is_refused_by_check_and_push(tmp_path, capsys):
    path = tmp_path / "games.txt"
    path.write_bytes(b"\xff\xfe\x00")
    for action in ("check", "push"):
        assert main(["records", action, str(path)]) == 2
        assert "games.txt is not UTF-8 text" in capsys.readouterr().err
    assert main(["records", "check", str(tmp_path / "none.txt")]) == 2
    assert "none.txt: no such file" in capsys.readouterr().err


def test_a_pull_refuses_where_it_cannot_write_before_it_reaches_the_board(board, tmp_path, capsys):
    cases = {("--out", str(tmp_path / "none" / "games.txt")): "no folder",
             ("--out", str(tmp_path)): "it is a folder",
             ("games.txt",): "pull takes no FILE"}
    for args, message in cases.items():
        assert main(["records", "pull", *args]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, err
    assert not (tmp_path / "mpremote.log").exists()  # the board was not reached
