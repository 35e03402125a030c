"""Computer-player commands: solve, analyse, match.

    othello solve "--OOOOO-XXOOOX--XXXOOOO-XXXXOXOOXXXOXOO--XXXXOO---XOXX-----OOOO- X"
    othello analyse f5d6c3d3c4 --level 6
    othello analyse "<position>" --nodes 50000
    othello match --black 8 --white pos4 --games 40 --seed 1

POS is a position (64-character format and side to move, 36 or 100 characters
for the other sizes) or a transcript from the start; the variant options of
`othello show` apply. Players for `match`: a level number 1..8, `random`,
`greedy` (most discs flipped now) or `posK`, a K-ply alpha-beta search on the
classic square table (e.g. pos4).
"""

import math
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path

from cli.engine import CommandError, add_variant_options, describe, failing, load
from othello.board import PASS, Board
from othello.compat import popcount
from othello.notation import square_name
from othello.variant import BLACK, WHITE, Variant
from player import LEVELS, solve, think
from player.engine import MAX_TIME_MS
from player.evaluation import DISC, POSITIONAL_VALUES, SquareEvaluator
from player.search import INFINITY, Searcher, SearchStopped, TranspositionTable
from othello.kernel import Kernel

OPENINGS_FILE = Path(__file__).resolve().parent.parent / "match_openings.txt"
NO_DEADLINE_MS = MAX_TIME_MS
SOLVE_TABLE_BITS = 20  # the host can afford a big table (9 MB)


def register(subparsers):
    solve_parser = subparsers.add_parser(
        "solve",
        help="exact result of a position under perfect play",
        description="Solve POS exactly: the WOF score for the side to move under perfect play (disc "
        "difference, empty squares to the winner; in Anti-Othello a positive score is a win by fewer "
        "discs) and one best move. The last line is `score <N> move <square>` (`move pass` when the side "
        "to move must pass, `move none` when the game is over).",
    )
    solve_parser.add_argument("position", nargs="+", metavar="POS")
    solve_parser.add_argument("--time", type=float, metavar="S", help="give up after S seconds")
    solve_parser.add_argument("--nodes", type=int, metavar="N", help="give up after N nodes")
    add_variant_options(solve_parser)
    solve_parser.set_defaults(func=run_solve)

    analyse_parser = subparsers.add_parser(
        "analyse",
        help="the computer player's move and evaluation for a position",
        description="Search POS as the computer player does and print the best move, its evaluation in "
        "discs (exact when solved), the depth reached, the nodes searched and the time taken.",
    )
    analyse_parser.add_argument("position", nargs="+", metavar="POS")
    budget = analyse_parser.add_mutually_exclusive_group()
    budget.add_argument("--level", type=int, metavar="L", help="play as level L (1-%d; default %d)" % (len(LEVELS), len(LEVELS)))
    budget.add_argument("--nodes", type=int, metavar="N", help="top level with N search nodes")
    budget.add_argument("--time", type=float, metavar="S", help="top level with S seconds")
    analyse_parser.add_argument("--seed", type=int, default=0, help="seed for the weaker levels' errors")
    add_variant_options(analyse_parser)
    analyse_parser.set_defaults(func=run_analyse)

    match_parser = subparsers.add_parser(
        "match",
        help="play games between levels or baseline players",
        description="Play GAMES games between two players, alternating colours over a set of balanced "
        "openings (each opening twice, once with either colour). Players: a level 1-%d, random, greedy, "
        "or posK (a K-ply search on the classic square table). Levels play with their node budgets and no "
        "deadline, so a match replays the same games on any machine. Progress goes to stderr; the summary "
        "is from the side of --black's player." % len(LEVELS),
    )
    match_parser.add_argument("--black", required=True, metavar="A", help="first player (Black in game 1)")
    match_parser.add_argument("--white", required=True, metavar="B", help="second player (White in game 1)")
    match_parser.add_argument("--games", type=int, default=20, metavar="N")
    match_parser.add_argument("--seed", type=int, default=1, metavar="S", help="seed for openings and the levels' errors")
    match_parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N", help="worker processes")
    match_parser.add_argument("--size", type=int, choices=(6, 8, 10), default=8, help="board size (default 8)")
    match_parser.add_argument("--anti", action="store_true", help="Anti-Othello: fewer discs wins")
    match_parser.set_defaults(func=run_match)

    bench_parser = subparsers.add_parser(
        "player-bench",
        help="speed of the computer player's search and solver",
        description="Nodes per second of the midgame search (plain kernel, trained evaluation, the "
        "device's 2**11-entry table) and the time to solve endgames of growing size exactly, on CPython "
        "and the MicroPython interpreters. The positions come from a fixed self-play game. Each solve "
        "starts with an empty table; the solver sizes stop at the first one over --limit seconds.",
    )
    bench_parser.add_argument("--interpreter", choices=("cpython", "unix", "wasm", "all"), default="all")
    bench_parser.add_argument("--nodes", type=int, default=4000, help="search nodes per midgame position")
    bench_parser.add_argument("--limit", type=float, default=10.0, help="stop solving after a size takes this long")
    bench_parser.add_argument("--seed", type=int, default=3, help="seed of the self-play game")
    bench_parser.set_defaults(func=run_player_bench)


# ----- solve ---------------------------------------------------------------------


@failing
def run_solve(args):
    board, _ = load(" ".join(args.position), args)
    if board.in_placement_phase():
        raise CommandError("the solver starts once the four centre discs are placed")
    print(describe(board))
    started = time.monotonic()
    try:
        score, square = solve(board, node_limit=args.nodes,
                              time_limit_ms=None if args.time is None else int(args.time * 1000),
                              table_bits=SOLVE_TABLE_BITS)
    except SearchStopped:
        raise CommandError("not solved within the limit given")
    elapsed = time.monotonic() - started
    if square is None:
        move = "none"
    elif square == PASS:
        move = "pass"
    else:
        move = square_name(square, board.size)
    verdict = "win" if score > 0 else "loss" if score < 0 else "draw"
    print("%s to move: %s by %d with perfect play (%d empties, %.2f s)" % (
        "Black" if board.turn == BLACK else "White", verdict, abs(score), board.empties(), elapsed))
    print("score %d move %s" % (score, move))
    return 0


# ----- analyse -------------------------------------------------------------------


@failing
def run_analyse(args):
    board, _ = load(" ".join(args.position), args)
    if board.is_game_over():
        raise CommandError("the game is over")
    level = args.level or len(LEVELS)
    if not 1 <= level <= len(LEVELS):
        raise CommandError("--level must be 1 to %d, not %d" % (len(LEVELS), level))
    nodes = time_ms = None
    if args.nodes is not None:
        nodes, time_ms = args.nodes, NO_DEADLINE_MS
    elif args.time is not None:
        nodes, time_ms = 1 << 29, min(int(args.time * 1000), MAX_TIME_MS)
    else:
        time_ms = NO_DEADLINE_MS  # the level's node budget, as in a match
    print(describe(board))
    decision = think(board, level, node_limit=nodes, time_limit_ms=time_ms, rng_seed=args.seed)
    kind = "exact" if decision.exact else "book" if decision.book else "estimate"
    print("best %s   eval %+.2f discs (%s)   depth %d   nodes %d   time %d ms   (%s)" % (
        decision.move_name(), decision.score, kind, decision.depth, decision.nodes, decision.elapsed_ms,
        LEVELS[level - 1].describe() if args.nodes is None and args.time is None else "level %d budget replaced" % level))
    print(decision.describe())
    return 0


# ----- baseline players and match ----------------------------------------------------


class Player:
    """A match participant: choose(board, seed) -> square (or PASS)."""

    def __init__(self, spec):
        self.spec = spec
        text = spec.strip().lower()
        self.level = None
        self.depth = None
        if text.isdigit():
            self.level = int(text)
            if not 1 <= self.level <= len(LEVELS):
                raise CommandError("level %s is not 1 to %d" % (spec, len(LEVELS)))
        elif text.startswith("pos") and text[3:].isdigit() and int(text[3:]) >= 1:
            self.depth = int(text[3:])
        elif text not in ("random", "greedy"):
            raise CommandError("unknown player %r: use a level 1-%d, random, greedy or posK" % (spec, len(LEVELS)))
        self.kind = text
        self._searchers = {}

    def choose(self, board, seed):
        if not board.legal_moves():
            return PASS
        if self.level is not None:
            return think(board, self.level, time_limit_ms=NO_DEADLINE_MS, rng_seed=seed).square
        rng = random.Random(seed)
        moves = board.legal_squares()
        if self.kind == "random" or board.in_placement_phase():
            return rng.choice(moves)
        if self.kind == "greedy":
            flips = [popcount(board.flips_for(square)) for square in moves]
            most = max(flips)
            return rng.choice([square for square, count in zip(moves, flips) if count == most])
        return self._positional(board)

    def _positional(self, board):
        """A fixed-depth alpha-beta search on the square table (no book, no solver, no time limit)."""
        key = (board.size, board.variant.blocked_mask(), board.variant.anti)
        searcher = self._searchers.get(key)
        if searcher is None:
            searcher = Searcher(Kernel(board.geometry, self.depth + 40), TranspositionTable(14), board.variant.anti)
            searcher.evaluator = SquareEvaluator(board.size, POSITIONAL_VALUES, DISC // 4, board.variant.anti)
            self._searchers[key] = searcher
        searcher.set_root(board.player_discs(), board.opponent_discs())
        searcher.start()
        searcher.search_root(self.depth, -INFINITY, INFINITY)
        return searcher.best_square


def openings(variant, count, seed):
    """`count` opening positions: the balanced list for standard 8x8, else seeded random plies from the start."""
    if variant.is_standard() and OPENINGS_FILE.exists():
        texts = [line.split("#")[0].strip() for line in OPENINGS_FILE.read_text().splitlines()]
        texts = [t for t in texts if t]
        rng = random.Random(seed)
        rng.shuffle(texts)
        return [texts[i % len(texts)] for i in range(count)]
    rng = random.Random(seed)
    plies = {6: 4, 8: 6, 10: 8}[variant.size]
    found = []
    while len(found) < count:
        board = Board(variant)
        for _ in range(plies):
            moves = board.legal_squares()
            if not moves:
                break
            board.play(rng.choice(moves))
        if not board.is_game_over() and board.position() not in found:
            found.append(board.position())
    return found


_players = {}


def play_one(job):
    """One game of a match (in a worker process): returns (index, first player's colour, result fields, transcript)."""
    index, first_spec, second_spec, opening, variant_dict, seed = job
    variant = Variant.from_dict(variant_dict)
    players = []
    for spec in (first_spec, second_spec):
        if spec not in _players:
            _players[spec] = Player(spec)
        players.append(_players[spec])
    first_colour = BLACK if index % 2 == 0 else WHITE
    board = Board.from_position(opening, variant)
    ply = 0
    while not board.is_game_over():
        mover = players[0] if board.turn == first_colour else players[1]
        square = mover.choose(board, seed * 7919 + index * 131 + ply)
        if square == PASS:
            board.pass_turn()
        else:
            board.play(square)
        ply += 1
    result = board.result()
    return index, first_colour, result.winner, result.black, result.white


def elo_from(results):
    """(score fraction, Elo difference, its 95% error) from per-game scores 1, 0.5, 0."""
    n = len(results)
    p = sum(results) / n
    variance = sum((r - p) ** 2 for r in results) / max(1, n - 1)
    error = 1.96 * math.sqrt(variance / n)
    clipped = min(max(p, 0.5 / n), 1 - 0.5 / n)  # a clean sweep is reported at half a game from it
    elo = -400 * math.log10(1 / clipped - 1)
    slope = 400 / math.log(10) / (clipped * (1 - clipped))
    return p, elo, slope * error


@failing
def run_match(args):
    first, second = Player(args.black), Player(args.white)
    if args.games < 1:
        raise CommandError("--games must be at least 1")
    variant = Variant(size=args.size, anti=args.anti)
    starts = openings(variant, (args.games + 1) // 2, args.seed)
    jobs = [(i, first.spec, second.spec, starts[i // 2], variant.to_dict(), args.seed) for i in range(args.games)]
    wins = draws = losses = 0
    margins = []
    scores = []
    started = time.monotonic()
    workers = max(1, min(args.jobs, args.games))
    with multiprocessing.Pool(workers) as pool:
        for done, (index, colour, winner, black, white) in enumerate(pool.imap_unordered(play_one, jobs), 1):
            mine, theirs = (black, white) if colour == BLACK else (white, black)
            if winner is None:
                draws += 1
                scores.append(0.5)
            elif winner == colour:
                wins += 1
                scores.append(1.0)
            else:
                losses += 1
                scores.append(0.0)
            margins.append(mine - theirs)
            sys.stderr.write("game %d/%d: %s as %s %d-%d   (+%d =%d -%d, %.0f s)\n" % (
                done, args.games, first.spec, "Black" if colour == BLACK else "White", mine, theirs,
                wins, draws, losses, time.monotonic() - started))
    p, elo, error = elo_from(scores)
    print("%s vs %s, %d games (%s), seed %d" % (first.spec, second.spec, args.games, variant.describe(), args.seed))
    print("wins %d  draws %d  losses %d  score %.1f%%" % (wins, draws, losses, 100 * p))
    print("average disc difference %+.1f%s" % (
        sum(margins) / len(margins), " (fewer discs wins Anti-Othello)" if args.anti else ""))
    if p in (0.0, 1.0):
        # every game the same: the Elo estimate is only a bound (counted as if half a game went the other way)
        print("Elo difference %+.0f or %s (every game %s)" % (elo, "more" if p else "less", "won" if p else "lost"))
    else:
        print("Elo difference %+.0f +/- %.0f (95%%)" % (elo, error))
    return 0


# ----- player-bench -------------------------------------------------------------------

SPEED_SCRIPT = Path(__file__).resolve().parent.parent / "player_speed.py"


def bench_positions(seed):
    """Midgame positions every 6 plies and one endgame position per number of empties, from one game.

    The game is level 6 against itself from a balanced opening (the seed picks it), so the endgame is
    close, as endgames worth solving are.
    """
    board = Board.from_position(openings(Variant(), 1, seed)[0])
    midgame, endgame = [], []
    ply = 0
    while not board.is_game_over():
        if 10 <= ply <= 40 and ply % 6 == 4 and board.legal_moves():
            midgame.append(board.position())
        if 6 <= board.empties() <= 26 and board.legal_moves() and all(e != board.empties() for e, _ in endgame):
            endgame.append((board.empties(), board.position()))
        if not board.legal_moves():
            board.pass_turn()
        else:
            board.play(think(board, 6, time_limit_ms=NO_DEADLINE_MS, rng_seed=seed + ply).square)
        ply += 1
    endgame.sort()
    return midgame, endgame


def run_speed_script(interpreter, code):
    if interpreter == "cpython":
        import subprocess

        firmware = Path(__file__).resolve().parent.parent.parent / "firmware"
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=dict(os.environ, PYTHONPATH=str(firmware)))
        if done.returncode:
            raise CommandError("CPython run failed:\n" + done.stdout + done.stderr)
        return done.stdout
    import micropython_runner

    try:
        return micropython_runner.run(interpreter, code, timeout=3600)
    except micropython_runner.MicroPythonError as error:
        raise CommandError(str(error))


def speed_run(interpreter, midgame, nodes, endgame, solvers, limit):
    code = "MIDGAME = %r\nMIDGAME_NODES = %d\nENDGAME = %r\nSOLVE_LIMIT_S = %r\nSOLVERS = %r\nREPLAY = %r\n" % (
        midgame, nodes, endgame, limit, solvers, interpreter == "unix" and bool(midgame)) + SPEED_SCRIPT.read_text()
    return [line.split() for line in run_speed_script(interpreter, code).splitlines()]


@failing
def run_player_bench(args):
    midgame, endgame = bench_positions(args.seed)
    interpreters = ("cpython", "unix", "wasm") if args.interpreter == "all" else (args.interpreter,)
    for interpreter in interpreters:
        sys.stderr.write("running on %s ...\n" % interpreter)
        print("== %s" % interpreter)
        for parts in speed_run(interpreter, midgame, args.nodes, [], (), args.limit):
            if parts[0] == "replay":
                print_device_estimate(int(parts[1]), int(parts[2]), dict(
                    (name, int(count)) for name, count in (item.split("=") for item in parts[3:])))
            elif parts[0] == "search":
                nodes, ms = int(parts[1]), int(parts[2])
                print("search: %d nodes in %d ms = %.0f nodes/s" % (nodes, ms, 1000.0 * nodes / max(ms, 1)))
        # Each solve in a fresh interpreter, so each starts with an empty table as on a device just switched on.
        for kind in ("plain", "viper") if interpreter == "unix" else ("plain",):
            within = {3: 0, 10: 0}  # largest size so far with it and every smaller one inside the time
            failed = set()
            for empties, position in endgame:
                try:
                    parts = speed_run(interpreter, [], 0, [(empties, position)], (kind,), args.limit)
                except CommandError as error:
                    if "MemoryError" not in str(error):
                        raise
                    print("solve %-5s %2d empties: out of heap" % (kind, empties))
                    break
                solved = [p for p in parts if p[0] == "solve"]
                if not solved:
                    break  # no such solver here
                ms, nodes, score = int(solved[0][3]), int(solved[0][4]), int(solved[0][5])
                print("solve %-5s %2d empties: %8d ms %9d nodes (%.0f nodes/s) score %+d" % (
                    kind, empties, ms, nodes, 1000.0 * nodes / max(ms, 1), score))
                for seconds in within:
                    if ms > seconds * 1000:
                        failed.add(seconds)
                    elif seconds not in failed:
                        within[seconds] = empties
                if ms > args.limit * 1000:
                    break
            for seconds, empties in sorted(within.items()):
                if empties:
                    print("largest solved by the %s solver within %d s: %d empties (every smaller size too)" % (
                        kind, seconds, empties))
    return 0


# Pico estimate for the search on the viper kernel (docs/BENCHMARKS.md, "Computer player"):
# plain Python with small ints runs about this many times slower on the Pico than on the unix
# port (PICO_FACTS: a 10,000-step loop, 45.9 ms on the Pico),
PICO_PYTHON_FACTOR = 150
# and the bit work of each kernel call, in viper on the Pico, in microseconds: the call itself is
# already in the replay. Legal moves ~5 us (PICO_FACTS: ~340,000 perft leaves/s, each one mask of
# legal moves and a count), a move's flips ~5 us; features() is two legal-move masks, two neighbour
# masks, four edge gathers and three counts.
PICO_VIPER_WORK_US = {"generate": 10, "features": 25, "play": 5, "mobility": 5, "opponent_mobility": 5,
                      "pass_move": 1, "hash": 3, "lock": 3, "empties": 2, "discs": 2, "opponent_discs": 2}


def print_device_estimate(nodes, replay_us, calls):
    overhead = replay_us / nodes
    work = sum(PICO_VIPER_WORK_US[name] * count for name, count in calls.items()) / nodes
    per_node = PICO_PYTHON_FACTOR * overhead + work
    print("replay: %d nodes, the search without kernel work %.1f us/node; kernel calls per node: %s" % (
        nodes, overhead, ", ".join("%s %.2f" % (name, count / nodes) for name, count in sorted(calls.items()))))
    print("Pico estimate with the viper kernel: %d x %.1f us + %.0f us of viper work = %.0f us/node = %.0f nodes/s" % (
        PICO_PYTHON_FACTOR, overhead, work, per_node, 1e6 / per_node))
