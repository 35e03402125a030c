#!/usr/bin/env python3
"""Build the endgame puzzles (firmware/player/puzzles.bin) from the player's self-play games.

    .venv/bin/python tools/build_puzzles.py --seed 1 --jobs 2

Each game is played by two levels of the computer player chosen with the
seed (their node budgets and seeded errors make it the same game on every
machine). From each game one position is taken for each level of
difficulty still short of puzzles (player/puzzles.py DIFFICULTIES), at a
number of empty squares the seed picks; every legal move there is solved
exactly (player.solve). A position is a puzzle when the side to move has
2 to MAX_MOVES moves (HARD_MOVES for a hard one) and either one move only
keeps the best result (the puzzle claims a unique answer) or two do out of
four or more. The same seed builds the same file.
"""

import argparse
import multiprocessing
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "firmware")]

from othello.game import Game  # noqa: E402
from player import solve, think  # noqa: E402
from player.engine import MAX_TIME_MS  # noqa: E402
from player.puzzles import DIFFICULTIES, MAX_MOVES, Puzzle, encode, header  # noqa: E402

OUT = REPO / "firmware" / "player" / "puzzles.bin"
COUNTS = (170, 100, 30)  # easy, medium, hard: 300 in all
# The empties the builder takes for each difficulty, and the most legal moves of a hard puzzle: each empty
# square more multiplies the time to solve a move by 2 to 3, and a hard position takes ~10 s of CPython.
EMPTIES_TAKEN = ((6, 8), (9, 13), (16, 16))
HARD_MOVES = 8
SELF_PLAY_LEVELS = (4, 5, 6, 7)
SOLVE_TABLE_BITS = 18


def self_play(seed):
    """The positions of one self-play game: {empties: board}, the side to move having a move."""
    rng = random.Random(seed)
    levels = (rng.choice(SELF_PLAY_LEVELS), rng.choice(SELF_PLAY_LEVELS))
    game = Game()
    positions = {}
    ply = 0
    while not game.is_over():
        board = game.board
        if board.must_pass():
            game.pass_turn()
            continue
        positions.setdefault(board.empties(), board.copy())
        decision = think(board.copy(), levels[board.turn], time_limit_ms=MAX_TIME_MS, rng_seed=seed * 1000 + ply)
        game.play(decision.square)
        ply += 1
    return positions


def exact_scores(board):
    """[(square, exact score of playing it for the side to move)] for every legal move."""
    scores = []
    for square in board.legal_squares():
        after = board.copy()
        after.play(square)
        scores.append((square, -solve(after, table_bits=SOLVE_TABLE_BITS)[0]))
    return scores


def as_puzzle(board, most_moves=MAX_MOVES):
    """The Puzzle of `board`, or None when it does not make one."""
    moves = len(board.legal_squares())
    if not 2 <= moves <= most_moves:
        return None
    scores = exact_scores(board)
    best = max(score for _, score in scores)
    answers = sum(1 for _, score in scores if score == best)
    if answers == 1 or (answers == 2 and moves >= 4):
        return Puzzle(0, board.black, board.white, board.turn, answers == 1, scores)
    return None


def candidates(job):
    """The puzzles one game gives: {difficulty: Puzzle}, for the difficulties in `wanted`."""
    seed, wanted = job
    rng = random.Random(seed * 7 + 1)
    positions = self_play(seed)
    found = {}
    for difficulty in wanted:
        empties = rng.randint(*EMPTIES_TAKEN[difficulty])
        board = positions.get(empties)
        if board is not None:
            puzzle = as_puzzle(board, HARD_MOVES if difficulty == len(DIFFICULTIES) - 1 else MAX_MOVES)
            if puzzle is not None:
                found[difficulty] = puzzle
    return found


def build(seed, counts, jobs, log=sys.stderr):
    chosen = [[] for _ in DIFFICULTIES]
    seen = set()
    game = 0
    started = time.monotonic()
    with multiprocessing.Pool(jobs) as pool:
        while any(len(chosen[d]) < counts[d] for d in range(len(DIFFICULTIES))):
            wanted = [d for d in range(len(DIFFICULTIES)) if len(chosen[d]) < counts[d]]
            batch = [(seed * 100000 + game + i, wanted) for i in range(4 * jobs)]
            game += len(batch)
            for found in pool.map(candidates, batch):
                for difficulty, puzzle in sorted(found.items()):
                    key = (puzzle.black, puzzle.white, puzzle.turn)
                    if key not in seen and len(chosen[difficulty]) < counts[difficulty]:
                        seen.add(key)
                        chosen[difficulty].append(puzzle)
            log.write("%d games, puzzles %s, %.0f s\n" % (game, [len(c) for c in chosen], time.monotonic() - started))
    puzzles = [puzzle for group in chosen for puzzle in sorted(group, key=lambda p: (p.empties(), p.black, p.white))]
    return puzzles


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--counts", type=int, nargs=3, default=COUNTS, metavar=("EASY", "MEDIUM", "HARD"))
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if args.jobs < 1 or min(args.counts) < 0 or sum(args.counts) > 0xFFFF:
        parser.error("--jobs must be at least 1 and --counts 0 or more, at most 65535 in all")
    puzzles = build(args.seed, args.counts, args.jobs)
    args.out.write_bytes(header(len(puzzles)) + b"".join(encode(puzzle) for puzzle in puzzles))
    print("%d puzzles (%s) in %s, %d bytes" % (
        len(puzzles), ", ".join("%s %d" % (d[0], n) for d, n in zip(DIFFICULTIES, args.counts)), args.out,
        args.out.stat().st_size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
