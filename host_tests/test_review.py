"""Post-game review (firmware/player/review.py, `othello review`): losses against the exact solver."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from othello.board import PASS, Board
from othello.game import Game
from othello.notation import square_name
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


def test_the_command_prints_a_line_a_move_then_the_summary_and_keeps_the_review_in_the_record(tmp_path):
    start, transcript = random_ending(2, 10)
    record = {"v": Variant().to_dict(), "s": start, "t": transcript, "r": None, "p": ["You", "L3"]}
    path = tmp_path / "records.json"
    path.write_text(json.dumps([record]))
    out = othello("review", str(path))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().split("\n")
    moves = lines[:-2]
    assert len(moves) == len(transcript) // 2
    board = Board.from_position(start)
    for number, line in enumerate(moves, 1):
        if board.must_pass():
            board.pass_turn()
        fields = line.split()
        square = fields[1]
        assert fields[0] == str(number) and square == transcript[2 * number - 2:2 * number]
        assert fields[2] == ("black" if board.turn == 0 else "white")
        assert fields[3] == "loss" and fields[5] == "best" and fields[7] == "exact"
        scores = exact_scores(board)
        played = board.legal_squares()[[square_name(s) for s in board.legal_squares()].index(square)]
        assert int(fields[4]) == max(scores.values()) - scores[played]
        board.play(played)
    assert lines[-2].startswith("Black (You): ") and lines[-1].startswith("White (L3): ")
    kept = json.loads(path.read_text())[0]["a"]
    assert kept
    second = othello("review", str(path))
    assert second.stdout == out.stdout


def test_the_command_refuses_bad_input_with_a_message():
    bad = othello("review", "f5d6zz")
    assert bad.returncode == 2 and "bad game" in bad.stderr and "Traceback" not in bad.stderr
    assert "--time must be" in othello("review", "f5d6", "--time", "0").stderr


def test_the_command_refuses_a_records_file_without_that_game(tmp_path):
    path = tmp_path / "records.json"
    path.write_text(json.dumps([{"v": {}, "s": None, "t": "f5", "r": None, "p": ["a", "b"]}]))
    out = othello("review", str(path), "--game", "3")
    assert out.returncode == 2 and "holds 1 record(s)" in out.stderr
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
    assert "holds 2 game(s)" in othello("review", str(path), "--game", "3").stderr
