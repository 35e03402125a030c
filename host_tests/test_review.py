"""Post-game review (firmware/player/review.py, `othello review`): losses against the exact solver."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from othello.board import PASS, Board
from othello.game import Game
from othello.notation import parse_square, square_name
from othello.variant import Variant
from player import solve
from player.review import Review, decode

REPO = Path(__file__).resolve().parent.parent
OTHELLO = REPO / "tools" / "othello"


def random_ending(seed, empties, variant=None):
    """(start position text, transcript) of a random game from its first move to the end, cut so that
    the start has `empties` empty squares."""
    rng = random.Random(seed)
    game = Game(variant or Variant())
    board = game.board
    start = None
    while not game.is_over():
        if start is None and board.empties() <= empties:
            start = board.position()
            game = Game(board.variant, start=start)
            board = game.board
            continue
        if board.must_pass():
            game.pass_turn()
        else:
            game.play(rng.choice(board.legal_squares()))
    return start, game.transcript()


def exact_scores(board):
    """{square: exact score of playing it, from the mover's side}."""
    scores = {}
    for square in board.legal_squares():
        after = board.copy()
        after.play(square)
        scores[square] = -solve(after, table_bits=12)[0]
    return scores


@pytest.mark.parametrize("variant", [Variant(), Variant(anti=True), Variant(size=6)], ids=("8x8", "anti", "6x6"))
def test_exact_losses_match_the_solver_on_many_positions(variant):
    checked = 0
    for seed in range(12):
        start, transcript = random_ending(seed, 11, variant)
        review = Review(variant, start, transcript)
        while not review.done():
            review.step()
        board = Board.from_position(start, variant)
        for entry in review.entries:
            if entry.square == PASS:
                board.pass_turn()
                continue
            scores = exact_scores(board)
            best = max(scores.values())
            assert entry.exact, (start, transcript, entry.ply)
            assert entry.loss == best - scores[entry.square], (start, transcript, entry.ply)
            assert scores[entry.best] == best, (start, transcript, entry.ply)
            board.play(entry.square)
            checked += 1
    assert checked > 100


@pytest.mark.slow
def test_a_whole_game_is_estimated_early_and_exact_late():
    start, transcript = random_ending(5, 60)
    review = Review(Variant(), None, transcript, time_ms=2500)
    while not review.done():
        review.step()
    moves = [entry for entry in review.entries if entry.square != PASS]
    assert len(moves) == len(transcript) // 2
    assert not moves[10].exact and moves[-1].exact
    assert all(entry.loss >= 0 for entry in moves)
    board = Game(Variant()).board
    for entry in review.entries:  # every best move is legal where it is shown
        if entry.square != PASS:
            assert board.is_legal(entry.best)
            board.play(entry.square)
        else:
            board.pass_turn()


def test_a_review_kept_with_the_record_comes_back_at_once_and_a_damaged_one_is_redone():
    start, transcript = random_ending(3, 9)
    review = Review(Variant(), start, transcript)
    while not review.done():
        review.step()
    text = review.encode()
    again = Review(Variant(), start, transcript, cached=text)
    assert again.done() and again.encode() == text
    parts = text.split(",")
    damaged = ",".join(parts[:3] + ["zz9"] + parts[4:])
    partial = Review(Variant(), start, transcript, cached=damaged)
    assert len(partial.entries) == 3
    while not partial.done():
        partial.step()
    assert partial.encode() == text
    assert decode(12345, review.moves, 8) == []
    assert decode("a1x-3", review.moves, 8) == []


def test_a_stopped_step_records_nothing_and_can_be_taken_again():
    start, transcript = random_ending(4, 14)
    review = Review(Variant(), start, transcript)
    while review.board.must_pass() or len(review.board.legal_squares()) < 2:
        review.step()
    before = len(review.entries)
    assert review.step(should_stop=lambda: True) is None
    assert len(review.entries) == before
    assert review.step() is not None


def test_mistakes_and_the_largest_losses_of_each_side():
    start, transcript = random_ending(8, 10)
    review = Review(Variant(), start, transcript)
    while not review.done():
        review.step()
    for colour in (0, 1):
        worst = review.worst(colour, threshold=1, count=2)
        losses = sorted((entry.loss for entry in review.entries if entry.colour == colour and entry.loss >= 1), reverse=True)
        assert [entry.loss for entry in worst] == losses[:2]
        assert review.total_loss(colour) == sum(entry.loss for entry in review.entries if entry.colour == colour)


def othello(*args):
    return subprocess.run([sys.executable, str(OTHELLO), *args], capture_output=True, text=True, timeout=300)


def check_lines(lines, start, transcript):
    """Each line `<ply> <move> <colour> loss <N> best <square> exact|estimate`, a ply each, passes included,
    the losses the exact solver's."""
    game = Game(Variant(), start=start)
    game.play_transcript(transcript)
    plies = list(game.history)
    assert len(lines) == len(plies)
    board = Board.from_position(start)
    for ply, (line, move) in enumerate(zip(lines, plies), 1):
        fields = line.split()
        assert len(fields) == 8 and fields[0] == str(ply), line
        assert fields[2] == ("black" if move.colour == 0 else "white") and fields[3] == "loss" and fields[5] == "best"
        assert fields[7] == "exact"
        if move.square == PASS:
            assert fields[1] == fields[6] == "pass" and fields[4] == "0", line
            board.pass_turn()
            continue
        assert fields[1] == square_name(move.square)
        scores = exact_scores(board)
        assert int(fields[4]) == max(scores.values()) - scores[move.square], line
        assert scores[[s for s in scores if square_name(s) == fields[6]][0]] == max(scores.values()), line
        board.play(move.square)


def test_the_command_prints_a_line_a_ply_then_the_summary_and_keeps_the_review_in_the_record(tmp_path):
    start, transcript = random_ending(2, 10)
    record = {"v": Variant().to_dict(), "s": start, "t": transcript, "r": None, "p": ["You", "L3"]}
    path = tmp_path / "records.json"
    path.write_text(json.dumps([record]))
    out = othello("review", str(path))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().split("\n")
    assert any(" pass " in line for line in lines), "this ending has a pass"
    check_lines(lines[:-2], start, transcript)
    assert lines[-2].startswith("Black (You): ") and lines[-1].startswith("White (L3): ")
    kept = json.loads(path.read_text())[0]["a"]
    assert kept
    second = othello("review", str(path))
    assert second.stdout == out.stdout
    # Another --time is not the device's review: the record's is neither used nor replaced.
    path.write_text(json.dumps([dict(record, a="zz")]))
    assert othello("review", str(path), "--time", "5").stdout == out.stdout
    assert json.loads(path.read_text())[0]["a"] == "zz"


def test_the_summary_lists_each_sides_mistakes_and_largest_losses(tmp_path):
    start, transcript = random_ending(8, 10)
    path = tmp_path / "record.json"
    path.write_text(json.dumps({"v": {}, "s": start, "t": transcript, "r": None, "p": ["a", "b"]}))
    out = othello("review", str(path), "--mistake", "2")
    assert out.returncode == 0, out.stderr
    *lines, black, white = out.stdout.strip().split("\n")
    for colour, summary in (("black", black), ("white", white)):
        losses = [(int(line.split()[4]), line.split()[0], line.split()[1]) for line in lines
                  if line.split()[2] == colour and int(line.split()[4]) >= 2]
        assert summary.startswith("%s (%s): %d mistake" % (colour.title(), "ab"[colour == "white"], len(losses)))
        total = sum(int(line.split()[4]) for line in lines if line.split()[2] == colour)
        assert "(2 discs or more), %d disc%s lost in all" % (total, "" if total == 1 else "s") in summary, summary
        for loss, ply, square in sorted(losses, key=lambda found: -found[0])[:1]:
            assert "; largest: " in summary and "-%d exact" % loss in summary


# Under the unix port (the device's code: the viper search and solver): endings of 20 empties from the
# player's play, each reviewed with the review's budgets, and every exact loss checked against the viper
# solver run alone, from a clear table and with the whole window, on every legal move. Prints how many plies
# of each size were checked, and how many were estimates.
REVIEWS_AGAINST_THE_SOLVER = """
from othello.board import PASS, Board
from othello.variant import Variant
from player import think
from player.review import Review

def exact(solver, board):
    if board.is_game_over():
        result = board.result()
        return (result.black - result.white) * (1 if board.turn == 0 else -1)
    solver.clear_table()
    return solver.solve(board.player_discs(), board.opponent_discs())[0]

checked, estimated = {}, {}  # plies by the empty squares before them
for seed in range(GAMES):
    board = Board()
    while board.empties() > 20:
        if board.must_pass():
            board.pass_turn()
        else:
            board.play(think(board, 3 + seed % 4, rng_seed=seed * 100 + board.empties()).square)
    start = board.position()
    transcript = ""
    while not board.is_game_over():
        if board.must_pass():
            board.pass_turn()
        else:
            square = think(board, 1 + seed % 3, rng_seed=seed * 1000 + board.empties()).square
            transcript += "abcdefgh"[square % 8] + str(square // 8 + 1)
            board.play(square)
    review = Review(Variant(), start, transcript)
    while not review.done():
        review.step()
    # Made after the review: the player lets the solver's module go when it swaps in the midgame search.
    from player.endgame_viper import ViperSolver

    solver = ViperSolver(Board().geometry, 20, 12)
    board = Board.from_position(start)
    for entry in review.entries:
        if entry.square == PASS:
            board.pass_turn()
            continue
        if entry.exact:
            scores = {}
            for square in board.legal_squares():
                after = board.copy()
                after.play(square)
                scores[square] = -exact(solver, after)
            best = max(scores.values())
            assert entry.loss == best - scores[entry.square], (start, transcript, entry.ply)
            assert scores[entry.best] == best, (start, transcript, entry.ply)
            checked[board.empties()] = checked.get(board.empties(), 0) + 1
        else:
            estimated[board.empties()] = estimated.get(board.empties(), 0) + 1
        board.play(entry.square)
print(sorted(checked.items()))
print(sorted(estimated.items()))
"""


def test_exact_losses_of_games_from_play_match_the_solver_under_the_unix_port():
    from runners import micropython_runner

    out = micropython_runner.run_unix("GAMES = 16\n" + REVIEWS_AGAINST_THE_SOLVER, heap="16M")
    checked, estimated = (dict(eval(line)) for line in out.strip().splitlines()[-2:])
    print("exact", checked, "estimated", estimated)
    assert sum(checked.values()) > 200 and all(checked.get(empties, 0) >= 10 for empties in (12, 13, 14)), checked
    # The review's solver settles every position from 12 empties down and most of those of 13 and 14 (its
    # 140,000 nodes; above 14, the player's solver's reach, only a forced move is exact).
    assert not any(estimated.get(empties) for empties in range(13))
    assert estimated.get(14, 0) * 3 <= checked[14], (checked, estimated)


def test_the_command_refuses_bad_input_with_a_message(tmp_path):
    (tmp_path / "binary.txt").write_bytes(b"\xff\xfe\x00")
    (tmp_path / "empty.txt").write_text("")
    cases = {
        ("f5d6zz",): "bad game: move 3",
        ("f5d6", "--time", "0"): "argument --time: must be a number of seconds",
        ("f5d6", "--time", "inf"): "argument --time: must be a number of seconds",
        ("f5d6", "--time", "soon"): "argument --time: 'soon' is not a number of seconds",
        ("f5d6", "--game", "0"): "argument --game: must be at least 1",
        ("f5d6", "--mistake", "-1"): "argument --mistake: must be 1 to 128",
        ("",): "no game given",
        (str(tmp_path / "missing.txt"),): "missing.txt: no such file",
        (str(tmp_path),): "is a folder",
        (str(tmp_path / "binary.txt"),): "binary.txt is not UTF-8 text",
        (str(tmp_path / "empty.txt"),): "holds 0 games",
        ("f5", "--size", "6"): "bad game: move 1",
    }
    for args, message in cases.items():
        out = othello("review", *args)
        assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr, (args, out.stderr)
    start = Game(Variant()).board.position()
    (tmp_path / "start.json").write_text(json.dumps({"v": {}, "s": start, "t": "", "r": None, "p": ["a", "b"]}))
    out = othello("review", str(tmp_path / "start.json"))
    assert out.returncode == 2 and "no moves to review" in out.stderr


def test_the_command_refuses_a_records_file_without_that_game(tmp_path):
    path = tmp_path / "records.json"
    path.write_text(json.dumps([{"v": {}, "s": None, "t": "f5", "r": None, "p": ["a", "b"]}]))
    out = othello("review", str(path), "--game", "3")
    assert out.returncode == 2 and "holds 1 record:" in out.stderr
    path.write_text('[{"oops": 1}]')
    out = othello("review", str(path))
    assert out.returncode == 2 and "not a game record" in out.stderr


ON_MICROPYTHON = """
from othello.variant import Variant
from player.review import Review

review = Review(Variant(), %r, %r)
while not review.done():
    review.step()
print(review.encode())
"""


def test_micropython_reviews_an_ending_as_cpython_does(micropython):
    start, transcript = random_ending(6, 10)
    review = Review(Variant(), start, transcript)
    while not review.done():
        review.step()
    out = micropython(ON_MICROPYTHON % (start, transcript), heap="512K")
    entries = decode(out.strip(), review.moves, 8)
    assert len(entries) == len(review.entries)
    for on_micropython, entry in zip(entries, review.entries):
        # Of two moves equally best, the viper solver and the plain one may name different ones.
        assert (on_micropython.loss, on_micropython.exact) == (entry.loss, entry.exact)
        if entry.loss == 0:
            assert on_micropython.best == entry.best == entry.square


def test_the_command_reviews_a_pulled_records_line(tmp_path):
    from cli.records import record_line

    start, transcript = random_ending(2, 10)
    lines = [record_line({"v": Variant().to_dict(), "s": start, "t": transcript, "r": None, "p": ["Ann", "Bob"]}, 1),
             record_line({"v": Variant().to_dict(), "s": None, "t": "f5d6", "r": None, "p": ["C", "D"]}, 2)]
    path = tmp_path / "games.txt"
    path.write_text("\n".join(lines) + "\n")
    out = othello("review", str(path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().split("\n")[-2].startswith("Black (Ann): ")
    second = othello("review", str(path), "--game", "2")
    assert second.stdout.startswith("1 f5 black loss 0") and "White (D)" in second.stdout
    assert "holds 2 games: --game 3" in othello("review", str(path), "--game", "3").stderr


def test_a_book_position_is_judged_from_one_read_of_the_book(monkeypatch):
    """Each position the opening book holds is read once, and a book move that is not the best loses what
    the book's scores of that position say (the first read gives them all: no second judgement)."""
    from player import book
    from player.engine import engine_for
    from player.review import round_discs

    variant = Variant()
    kernel = engine_for(variant).kernel
    board = Board(variant)
    transcript = ""

    def played(board, square):
        after = board.copy()
        after.play(square)
        return after

    for ply in range(4):  # the book's best line, but for its worst move at the third ply that it plays out
        found = book.moves_for(board, kernel)
        if ply == 2:
            found = [(square, score) for square, score in found if book.moves_for(played(board, square), kernel)]
        square, score = found[-1] if ply == 2 else found[0]
        if ply == 2:
            worst, loss = square, round_discs(found[0][1] - score)
        transcript += square_name(square, 8)
        board.play(square)
    assert loss >= 1  # the line plays a book move that loses something
    reads = []
    read = book.moves_for
    monkeypatch.setattr(book, "moves_for", lambda board, kernel, path=None: reads.append(board.position())
                        or read(board, kernel, path))
    review = Review(variant, None, transcript)
    while not review.done():
        review.step()
    assert len(reads) == len(set(reads)) == 4
    third = review.entries[2]
    assert (third.square, third.loss, third.exact) == (worst, loss, False) and third.best != worst
    assert [entry.loss for entry in review.entries] == [0, 0, loss, 0]
