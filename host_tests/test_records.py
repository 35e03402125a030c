"""othello records pull / push / check against the recording mpremote stand-in (host_tests/stubs/mpremote)."""

import json
import os
from pathlib import Path

import pytest

from cli import main
from othello.variant import Variant
from test_review import random_ending
from ui.store import RECORDS_KEPT

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
    assert "1 games, all good" in capsys.readouterr().out


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


def test_pull_as_ggf_for_other_programs(board, capsys):
    records = [game_record(6), game_record(7, variant=Variant(black_hole=19))]
    put_on_board(board, records)
    assert main(["records", "pull", "--ggf"]) == 0
    captured = capsys.readouterr()
    games = captured.out.splitlines()
    assert len(games) == 1 and "black hole" in captured.err
    game = games[0]
    assert game.startswith("(;GM[Othello]PC[Pocket Othello]PB[You]PW[L7]RE[")
    start = "-" * 27 + "O*" + "-" * 6 + "*O" + "-" * 27
    assert "TY[8]BO[8 %s *]" % start in game and game.endswith(";)")
    moves = [part[:part.index("]")] for part in game.split("]", 7)[-1].split("[")[1:]]
    played = [move for move in moves if move != "PA"]
    assert "".join(played).lower() == records[0]["t"]
    black, white = records[0]["r"][1], records[0]["r"][2]
    assert "RE[%+d.000]" % (black - white) in game
