#!/usr/bin/env python3
"""Build the endgame puzzles (firmware/player/puzzles.bin) from the player's self-play games.

    .venv/bin/python tools/training/build_puzzles.py --seed 1 --jobs 2

The games are played and the positions solved under MicroPython's unix
port (tools/training/puzzle_worker.py: the viper search and the viper solver, the
player's own code, many times faster than CPython). Each game is played by
two levels of the computer player chosen with the seed. From each game at
most one position is taken for each level of difficulty still short of
puzzles (player/puzzles.py DIFFICULTIES): the first, in an order of its
empty-square counts the seed shuffles, that makes a puzzle. Every legal
move there is solved exactly, and the solution line is made: the first
answer, then the solver's best move in each position to the end. A
position is a puzzle when
- the side to move has 2 to MAX_MOVES moves (HARD_MOVES for a hard one);
- one move only keeps the best result (the puzzle claims a unique answer),
  or two do out of four or more;
- the answer matters: every other move does at least MARGIN discs worse;
- it is not decided by a landslide: the mover does not win by more than
  LANDSLIDE discs whatever it plays, nor lose by more whatever it plays.
Every score a chosen puzzle stores is then proved on the host by the plain
solver under CPython (player.solve, a window just around it), a second
solver's word on each: the viper solver once gave a wrong exact score now
and then (26 for a position whose score is 22, with a 2**16-entry table,
until f2812ca folded its table's hash). A score the plain solver does not
prove is solved again in full, and the puzzle is kept only if its claims
still hold. Each move of the solution line is proved the same way (the
score after it is the one before, from the other side), and a puzzle whose
line fails is left out. The same seed builds the same file, whatever
the number of jobs.
"""

import argparse
import multiprocessing
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOOLS = HERE.parent
REPO = TOOLS.parent
sys.path[:0] = [str(REPO / "firmware"), str(TOOLS)]

from runners import micropython_runner  # noqa: E402
from othello.board import PASS, Board  # noqa: E402
from othello.scoring import disc_difference  # noqa: E402
from player import solve  # noqa: E402
from player.puzzles import DIFFICULTIES, MAX_LINE, MAX_MOVES, Puzzle, encode, header  # noqa: E402

OUT = REPO / "firmware" / "player" / "puzzles.bin"
WORKER = HERE / "puzzle_worker.py"
COUNTS = (160, 110, 30)  # easy, medium, hard: 300 in all
# The empties the builder takes for each difficulty, and the most legal moves of a hard puzzle: the plain
# solver's proofs of a hard puzzle's scores take seconds each at 16 empties, 4 to 10 times more at 17-18.
EMPTIES_TAKEN = ((6, 8), (9, 14), (16, 16))
HARD_MOVES = 8
MARGIN = 4  # discs: a wrong move costs at least this much
LANDSLIDE = 20  # discs: beyond a 42-22 result whatever is played, the position is decided
SELF_PLAY_LEVELS = (4, 5, 6, 7)
SOLVER_TABLE_BITS = 16  # cleared before each solve (puzzle_worker.exact_score)
PROOF_TABLE_BITS = 14
GAMES_PER_RUN = 4  # games a MicroPython process plays before reporting


def worker_code(jobs):
    most_moves = tuple(HARD_MOVES if d == len(DIFFICULTIES) - 1 else MAX_MOVES for d in range(len(DIFFICULTIES)))
    settings = dict(JOBS=jobs, EMPTIES_TAKEN=EMPTIES_TAKEN, MOST_MOVES=most_moves, SELF_PLAY_LEVELS=SELF_PLAY_LEVELS,
                    MARGIN=MARGIN, LANDSLIDE=LANDSLIDE, SOLVER_EMPTIES=max(most for _, most in EMPTIES_TAKEN),
                    SOLVER_TABLE_BITS=SOLVER_TABLE_BITS)
    return "".join("%s = %r\n" % item for item in sorted(settings.items())) + WORKER.read_text()


def run_games(jobs):
    """{seed: {difficulty: Puzzle}} of the games `jobs` [(seed, wanted difficulties)], played by the worker."""
    output = micropython_runner.run_unix(worker_code(jobs), heap="64M", timeout=3600)
    found = {seed: {} for seed, _ in jobs}
    for line in output.splitlines():
        words = line.split()
        if words[:1] == ["puzzle"]:
            seed, difficulty, black, white, turn, unique = words[1:7]
            scores = [tuple(int(n) for n in move.split(":")) for move in words[7].split(",")]
            line = [int(square) for square in words[8].split(",")]
            found[int(seed)][int(difficulty)] = Puzzle(0, int(black, 16), int(white, 16), int(turn), unique == "1",
                                                       scores, line)
    if set(int(line.split()[1]) for line in output.splitlines() if line.startswith("game ")) != set(found):
        raise micropython_runner.MicroPythonError("the puzzle worker stopped early:\n" + output[-2000:])
    return found


def plain_scores(puzzle):
    """The puzzle's scores proved by the plain solver: each one a window just around it proves (a result
    strictly inside the window is exact), any other solved in full."""
    board = Board()
    board.set_discs(puzzle.black, puzzle.white, puzzle.turn)
    scores = []
    for square, score in puzzle.scores:
        after = board.copy()
        after.play(square)
        found, _ = solve(after, -score - 1, -score + 1, table_bits=PROOF_TABLE_BITS)
        if found != -score:
            found, _ = solve(after, table_bits=PROOF_TABLE_BITS)
        scores.append((square, -found))
    return scores


def prove(puzzle):
    """(the puzzle's scores proved by the plain solver, whether its solution line holds)."""
    return plain_scores(puzzle), line_holds(puzzle)


def line_holds(puzzle):
    """Whether the puzzle's solution line is best play: it starts with an answer, each move keeps the score
    (proved by the plain solver with a window just around it), and the game's end is the puzzle's result."""
    board = Board()
    board.set_discs(puzzle.black, puzzle.white, puzzle.turn)
    line = puzzle.line
    if not 0 < len(line) <= MAX_LINE or line[0] not in puzzle.answers():
        return False
    value = puzzle.best()  # for the side to move on `board`
    for ply, square in enumerate(line):
        if board.is_game_over():
            return False
        if square == PASS:
            if not board.must_pass():
                return False
            board.pass_turn()
        else:
            if not board.is_legal(square):
                return False
            board.play(square)
            # The first move's score is among the proved ones; every later one is proved here.
            if ply and not board.is_game_over() and solve(board, -value - 1, -value + 1,
                                                          table_bits=PROOF_TABLE_BITS)[0] != -value:
                return False
        value = -value
    return board.is_game_over() and disc_difference(board.result(), board.turn) == value


def claims_hold(scores, most_moves):
    """The builder's rules for a puzzle (tools/training/puzzle_worker.py puzzle_scores), on its proved scores."""
    values = [score for _, score in scores]
    best = max(values)
    answers = values.count(best)
    if not 2 <= len(values) <= most_moves or not (answers == 1 or (answers == 2 and len(values) >= 4)):
        return False
    best_wrong = max(score for score in values if score < best)
    return best - best_wrong >= MARGIN and min(values) <= LANDSLIDE and best >= -LANDSLIDE


def build(seed, counts, jobs, log=sys.stderr):
    chosen = [[] for _ in DIFFICULTIES]
    seen = set()
    game = 0
    started = time.monotonic()
    corrected = dropped = 0
    with ThreadPoolExecutor(jobs) as pool, multiprocessing.Pool(jobs) as provers:
        while any(len(chosen[d]) < counts[d] for d in range(len(DIFFICULTIES))):
            wanted = [d for d in range(len(DIFFICULTIES)) if len(chosen[d]) < counts[d]]
            seeds = [seed * 100000 + game + i for i in range(GAMES_PER_RUN * jobs)]
            game += len(seeds)
            runs = [[(s, wanted) for s in seeds[i:i + GAMES_PER_RUN]] for i in range(0, len(seeds), GAMES_PER_RUN)]
            results = {}
            for found in pool.map(run_games, runs):
                results.update(found)
            candidates = [(difficulty, puzzle) for game_seed in seeds  # in the seeds' order
                          for difficulty, puzzle in sorted(results[game_seed].items())]
            proved = provers.map(prove, [puzzle for _, puzzle in candidates])
            for (difficulty, puzzle), (scores, line_proved) in zip(candidates, proved):
                if scores != puzzle.scores:
                    corrected += 1
                    most = HARD_MOVES if difficulty == len(DIFFICULTIES) - 1 else MAX_MOVES
                    if not claims_hold(scores, most):
                        dropped += 1
                        continue
                    best = max(score for _, score in scores)
                    puzzle.scores = scores
                    puzzle.unique = sum(1 for _, score in scores if score == best) == 1
                if not line_proved:  # checked against the worker's best score: wrong too if that one was
                    dropped += 1
                    continue
                key = (puzzle.black, puzzle.white, puzzle.turn)
                if key not in seen and len(chosen[difficulty]) < counts[difficulty]:
                    seen.add(key)
                    chosen[difficulty].append(puzzle)
            log.write("%d games, puzzles %s, %d corrected by the plain solver, %d dropped, %.0f s\n" % (
                game, [len(c) for c in chosen], corrected, dropped, time.monotonic() - started))
    return [puzzle for group in chosen for puzzle in sorted(group, key=lambda p: (p.empties(), p.black, p.white))]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--counts", type=int, nargs=3, default=COUNTS, metavar=("EASY", "MEDIUM", "HARD"))
    parser.add_argument("--jobs", type=int, default=1, help="MicroPython processes at once")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if args.jobs < 1 or min(args.counts) < 0 or sum(args.counts) > 0xFFFF:
        parser.error("--jobs must be at least 1 and --counts 0 or more, at most 65535 in all")
    if args.out.is_dir() or not args.out.parent.is_dir():  # said now, not after the games
        parser.error("--out %s: %s" % (args.out, "a folder" if args.out.is_dir() else "no folder " + str(args.out.parent)))
    try:
        puzzles = build(args.seed, args.counts, args.jobs)
    except micropython_runner.MicroPythonError as error:
        print("build_puzzles: %s" % error, file=sys.stderr)
        return 1
    args.out.write_bytes(header(len(puzzles)) + b"".join(encode(puzzle) for puzzle in puzzles))
    print("%d puzzles (%s) in %s, %d bytes" % (
        len(puzzles), ", ".join("%s %d" % (d[0], n) for d, n in zip(DIFFICULTIES, args.counts)), args.out,
        args.out.stat().st_size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
