"""Computer-player commands: solve, analyse, match.

    othello solve "--X--X--OOXXXX--OOXXOX--XOXOOXO-XOOOOXO-XOOOXXOOXOOOOXO-XXXXXXX- X"
    othello analyse f5d6c3d3c4 --level 6
    othello analyse "<position>" --nodes 50000 --all
    othello analyse "<position>" --time 5 --json
    othello match --black 8 --white pos4 --games 40 --seed 1

POS is a position (64-character format and side to move, 36 or 100 characters
for the other sizes) or a transcript from the start; the variant options of
`othello show` apply. Players for `match`: a level number 1..8, `random`,
`greedy` (most discs flipped now), `posK`, a K-ply alpha-beta search on the
classic square table (e.g. pos4; the player's search, with its Multi-ProbCut
from 5 plies), or `mobK`, the same search on the square table plus 5 points
(a corner is 100) per move of mobility difference (e.g. mob4, a stronger
yardstick). Long work reports its progress on stderr from
its first second; --json puts one JSON object on stdout instead of text.
"""

import argparse
import json
import math
import multiprocessing
import os
import random
import signal
import sys
import time
from pathlib import Path

from cli.engine import CommandError, add_variant_options, describe, failing, load, number
from cli.values import COUNT, DEFAULT_JOBS, JOBS, LEVEL, seconds, whole_number
from othello.board import PASS, Board
from othello.compat import popcount
from othello.kernel import Kernel
from othello.kernels import make_kernel
from othello.notation import counted, parse_square, square_name
from othello.variant import BLACK, COLOUR_NAMES, WHITE, Variant
from player import LEVELS, Level, solve, think
from player.engine import MAX_PLY, MAX_TIME_MS, SOLVE_SHARE, decide, engine_for
from player.evaluation import DISC, POSITIONAL_VALUES, SquareEvaluator
from player.levels import PLAIN_SOLVE_PERCENT, on_board
from player.search import INFINITY, NO_LIMIT, Searcher, SearchStopped, TranspositionTable
from runners.player_process import PlayerProcess

OPENINGS_FILE = Path(__file__).resolve().parents[1] / "match" / "match_openings.txt"
NO_DEADLINE_MS = MAX_TIME_MS
SOLVE_TABLE_BITS = 20  # the host can afford a big table (9 MB)
PROGRESS_S = 1.0  # seconds between progress lines on stderr
# The plain solver on this 2-core machine: 14 empties in about a second, 18 in 20 s to 2 min, each
# empty square more about 4 times as long.
SOLVE_SLOW_EMPTIES = 16  # from here a solve says it may take minutes
SOLVE_REACH_EMPTIES = 20  # beyond this a solve without --time or --nodes would run for hours or more
MAX_POS_DEPTH = 10  # pos10 plays a game in 1 to 2.5 minutes on this 2-core PC; each ply more about twice as long (pos8: 28 s)
MOBILITY_POINTS = 5  # mobK: square-table points (a corner is 100) per move more than the opponent has
MAX_GAMES = 100000
EXAMPLE_POSITION = "--X--X--OOXXXX--OOXXOX--XOXOOXO-XOOOOXO-XOOOXXOOXOOOOXO-XXXXXXX- X"
TOP = LEVELS[-1]


def register(subparsers):
    solve_parser = subparsers.add_parser(
        "solve",
        help="exact result of a position under perfect play",
        description="Solve POS exactly: the WOF score for the side to move under perfect play (disc "
        "difference, empty squares to the winner; in Anti-Othello a positive score is a win by fewer "
        "discs) and one best move. The last line is `score <N> move <square>` (`move pass` when the side "
        "to move must pass, `move none` when the game is over). Progress goes to stderr every second. "
        "Positions of more than %d empty squares are refused unless --time or --nodes limits the "
        "attempt; exit status 1 when a limit stops the solver." % SOLVE_REACH_EMPTIES,
        epilog='example: othello solve "%s" (Black wins by 14, under a second)' % EXAMPLE_POSITION,
    )
    solve_parser.add_argument("position", nargs="+", metavar="POS")
    solve_parser.add_argument("--time", type=seconds(), metavar="S", help="give up after S seconds")
    solve_parser.add_argument("--nodes", type=COUNT, metavar="N", help="give up after N nodes")
    solve_parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    add_variant_options(solve_parser)
    solve_parser.set_defaults(func=run_solve)

    analyse_parser = subparsers.add_parser(
        "analyse",
        help="the computer player's move and evaluation for a position",
        description="Search POS as the computer player does and print the best move, its evaluation in "
        "discs (exact when solved), the depth reached, the nodes searched (the endgame solver's and the "
        "midgame search's) and the time taken. A level searches with two budgets: from its solving point "
        "(level %d: %d empties) the exact solver runs first with its own nodes, and if it does not finish "
        "the midgame search gets %d%% of its nodes. --nodes, --solver-nodes, --time "
        "and --depth replace the level's budgets; progress goes to stderr every second."
        % (TOP.number, TOP.exact, 100 - SOLVE_SHARE),
    )
    analyse_parser.add_argument("position", nargs="+", metavar="POS")
    analyse_parser.add_argument("--level", type=LEVEL, metavar="L", help="play as level L (1-%d; default %d): its "
                                "evaluation, errors, book, solving point and budgets" % (len(LEVELS), len(LEVELS)))
    analyse_parser.add_argument("--nodes", type=COUNT, metavar="N", help="the midgame search's node budget instead "
                                "of the level's (level %d: %d in the late midgame to %d in the opening, where the "
                                "Pico searches faster); the search gets all N, also after a solve that did not "
                                "finish" % (TOP.number, TOP.nodes, TOP.midgame_nodes(60)))
    analyse_parser.add_argument("--solver-nodes", type=COUNT, metavar="N", help="the exact solver's node budget "
                                "instead of the level's (level %d: %d)" % (TOP.number, TOP.solve_nodes))
    analyse_parser.add_argument("--time", type=seconds(), metavar="S", help="search for S seconds, without node "
                                "budgets unless given: the solver up to %d%%%% of S, then the midgame search" % SOLVE_SHARE)
    analyse_parser.add_argument("--depth", type=whole_number(1, MAX_PLY // 2), metavar="D", help="search the "
                                "midgame D plies deep (1-%d), without a node budget unless --nodes" % (MAX_PLY // 2))
    analyse_parser.add_argument("--all", action="store_true", help="also score every legal move: the position "
                                "after each is searched with the same budgets (with --time S, the moves share "
                                "another S)")
    analyse_parser.add_argument("--seed", type=whole_number(), default=0, help="seed for the weaker levels' errors")
    analyse_parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    add_variant_options(analyse_parser)
    analyse_parser.set_defaults(func=run_analyse)

    match_parser = subparsers.add_parser(
        "match",
        help="play games between levels or baseline players",
        description="Play GAMES games between two players, alternating colours over a set of openings "
        "(balanced ones unless --openings random; each opening twice, once with either colour). Players: "
        "a level 1-%d, random, greedy, "
        "posK (a K-ply search on the classic square table, K 1-%d) or mobK (the same search on the square "
        "table plus %d points a move of mobility difference). Levels play with their node budgets "
        "and no deadline, so a match replays the same games on any machine. Progress goes to stderr (each "
        "game, and a game still running every few seconds); the summary is from the side of --black's "
        "player." % (len(LEVELS), MAX_POS_DEPTH, MOBILITY_POINTS),
    )
    match_parser.add_argument("--black", required=True, type=player_spec, metavar="A",
                              help="first player (Black in game 1)")
    match_parser.add_argument("--white", required=True, type=player_spec, metavar="B",
                              help="second player (White in game 1)")
    match_parser.add_argument("--games", type=whole_number(1, MAX_GAMES), default=20, metavar="N",
                              help="games to play (1-%d, default 20)" % MAX_GAMES)
    match_parser.add_argument("--seed", type=whole_number(), default=1, metavar="S",
                              help="seed for openings and the levels' errors")
    match_parser.add_argument("--jobs", type=JOBS, default=DEFAULT_JOBS, metavar="N",
                              help="worker processes (default: one per CPU)")
    match_parser.add_argument("--openings", choices=("balanced", "random"), default="balanced",
                              help="balanced: the book openings of tools/match/match_openings.txt (8x8 Othello only; "
                              "the other variants always start from random plies); random: seeded random plies "
                              "from the start (6 on 8x8), each played with both colours")
    match_parser.add_argument("--size", type=int, choices=(6, 8, 10), default=8, help="board size (default 8)")
    match_parser.add_argument("--anti", action="store_true", help="Anti-Othello: fewer discs wins")
    match_parser.add_argument("--json", action="store_true", help="print one JSON object (summary and every "
                              "game) instead of text")
    match_parser.add_argument("--interpreter", choices=("cpython", "unix"), default="cpython",
                              help="where the levels think: cpython (the plain search and solver, default) or unix "
                              "(MicroPython's unix port: the viper search and solver the Pico runs, many times "
                              "faster; 8x8 and 6x6)")
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
    bench_parser.add_argument("--nodes", type=COUNT, default=4000, help="search nodes per midgame position")
    bench_parser.add_argument("--limit", type=seconds(), default=10.0, help="stop solving after a size takes this long")
    bench_parser.add_argument("--seed", type=whole_number(), default=3, help="seed of the self-play game")
    bench_parser.set_defaults(func=run_player_bench)


class Ticker:
    """A should_stop callback that never stops but writes report(seconds so far) to stderr every PROGRESS_S."""

    def __init__(self, report):
        self.report = report
        self.started = time.monotonic()
        self.next = self.started + PROGRESS_S
        self.written = False

    def __call__(self):
        now = time.monotonic()
        if now >= self.next:
            self.next = now + PROGRESS_S
            self.write(self.report(now - self.started))
        return False

    def write(self, line):
        self.written = True
        sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def finish(self, report):
        """The last line, report(seconds), when progress was shown: what the work ended with."""
        if self.written:
            self.write(report(time.monotonic() - self.started))


def move_text(square, size):
    if square is None:
        return "none"
    return "pass" if square == PASS else square_name(square, size)


def side_name(board):
    return COLOUR_NAMES[board.turn]


def load_position(args):
    """The board of the POS words; an empty POS (an unset "$POSITION") is refused, not taken as the start."""
    text = " ".join(args.position)
    if not text.strip():
        raise CommandError('POS is empty: give a position (64 squares, then X or O for the side to move) or a '
                           'transcript such as f5d6c3, e.g. othello %s "%s"' % (args.command, EXAMPLE_POSITION))
    board, _ = load(text, args)
    if not board.in_placement_phase() and board.count(BLACK) + board.count(WHITE) == 0:
        raise CommandError("the position has no discs: a game starts with four in the centre (e.g. othello %s "
                           "\"%s\")" % (args.command, EXAMPLE_POSITION))
    return board


# ----- solve ---------------------------------------------------------------------


@failing
def run_solve(args):
    board = load_position(args)
    if board.in_placement_phase():
        raise CommandError("the solver starts once the four centre discs are placed")
    empties = board.empties()
    limited = args.time is not None or args.nodes is not None
    if empties > SOLVE_REACH_EMPTIES and not limited and not board.is_game_over():
        raise CommandError(
            "%d empty squares is far beyond the exact solver: %d empties take from 20 s to minutes on a small "
            "PC, and each empty square more about 4 times as long. Give --time S or --nodes N to try within a "
            "limit, or ask `othello analyse` for the computer player's estimate" % (empties, SOLVE_REACH_EMPTIES - 2))
    if not args.json:
        print(describe(board))
    if empties >= SOLVE_SLOW_EMPTIES and not board.is_game_over():
        sys.stderr.write("solve: %d empties may take %s; progress every second\n" % (
            empties, "until the limit" if limited else "minutes"))
    searcher = Searcher(make_kernel(board.geometry, 2 * empties + 2), TranspositionTable(SOLVE_TABLE_BITS),
                        board.variant.anti)
    progress = Ticker(lambda elapsed: solve_progress(searcher, board.size, elapsed))
    started = time.monotonic()
    try:
        score, square = solve(board, node_limit=args.nodes,
                              time_limit_ms=None if args.time is None else max(1, int(args.time * 1000)),
                              should_stop=progress, searcher=searcher)
    except SearchStopped:
        return report_unsolved(args, board, searcher, time.monotonic() - started)
    elapsed = time.monotonic() - started
    verdict = "win" if score > 0 else "loss" if score < 0 else "draw"
    if args.json:
        print(json.dumps(dict(position_fields(board), solved=True, score=score, result=verdict,
                              move=None if square is None else move_text(square, board.size),
                              nodes=searcher.nodes, seconds=round(elapsed, 3))))
        return 0
    print("%s to move: %s with perfect play (%s, %s nodes, %.2f s)" % (
        side_name(board), verdict + (" by %d" % abs(score) if score else ""), counted(empties, "empty", "empties"),
        number(searcher.nodes), elapsed))
    print("score %d move %s" % (score, move_text(square, board.size)))
    return 0


OUTCOME_WORDS = {1: "win", 0: "draw", -1: "loss"}


def solve_progress(searcher, size, elapsed):
    if searcher.outcome is None:
        stage = "win, draw or loss?"
    else:
        stage = "%s proven (%s), now the margin" % (OUTCOME_WORDS[searcher.outcome],
                                                   move_text(searcher.outcome_square, size))
    done = ""
    if searcher.root_count:
        done = ", %d/%d moves done" % (searcher.completed_moves, searcher.root_count)
    return "solve: %.0f s, %s nodes (%s/s): %s%s" % (
        elapsed, number(searcher.nodes), number(int(searcher.nodes / max(elapsed, 1e-3))), stage, done)


def report_unsolved(args, board, searcher, elapsed):
    """A limit stopped the solver: say what it found, exit status 1."""
    outcome = searcher.outcome
    known = None if outcome is None else OUTCOME_WORDS[outcome]
    if args.json:
        print(json.dumps(dict(position_fields(board), solved=False, result=known,
                              move=None if known is None else move_text(searcher.outcome_square, board.size),
                              nodes=searcher.nodes, seconds=round(elapsed, 3))))
    else:
        limits = []
        if args.time is not None:
            limits.append("--time %g" % args.time)
        if args.nodes is not None:
            limits.append("--nodes %d" % args.nodes)
        found = "" if known is None else "; %s to move: a %s, with %s (the margin is not known)" % (
            side_name(board), known, move_text(searcher.outcome_square, board.size))
        sys.stderr.write("othello solve: not solved within %s (%s nodes, %.1f s)%s\n" % (
            " and ".join(limits), number(searcher.nodes), elapsed, found))
    return 1


def position_fields(board):
    return {"position": board.position(), "side_to_move": side_name(board).lower(), "empties": board.empties()}


# ----- analyse -------------------------------------------------------------------


LEVEL_FIELDS = ("number", "name", "time_ms", "nodes", "max_depth", "exact", "solve_nodes", "style", "noise", "book")


def changed(level, **changes):
    """A copy of `level` with some of its settings changed."""
    settings = dict((name, getattr(level, name)) for name in LEVEL_FIELDS)
    settings.update(changes)
    return Level(**settings)


class Budgets:
    """What an analysis searches with: the level as it plays on the board (perhaps deeper), the node limits and
    the deadline."""

    def __init__(self, args, variant):
        base = on_board(LEVELS[(args.level or len(LEVELS)) - 1], variant)
        self.level = base
        if args.depth is not None:
            self.level = changed(base, max_depth=args.depth)
        self.nodes = args.nodes
        self.solver_nodes = args.solver_nodes
        self.time_ms = NO_DEADLINE_MS if args.time is None else max(1, int(args.time * 1000))
        if args.time is not None or args.depth is not None:
            self.nodes = NO_LIMIT if self.nodes is None else self.nodes
        if args.time is not None and self.solver_nodes is None:
            self.solver_nodes = NO_LIMIT

    def decide(self, board, seed, should_stop=None, level=None, time_ms=None):
        level = level or self.level
        solver_nodes = self.solver_nodes
        if self.nodes is not None and solver_nodes is None:
            # --nodes is the midgame's alone (engine.decide would apply it to the solver too): the solver
            # keeps the level's budget as the engine gives it, on CPython, to the plain solver
            solver_nodes = level.solve_nodes * PLAIN_SOLVE_PERCENT // 100
        return decide(board, level, should_stop, None, self.nodes, self.time_ms if time_ms is None else time_ms,
                      seed, self.level.number, solver_nodes)

    def fields(self):
        level = self.level
        return {
            "level": level.number,
            "midgame_nodes": level.nodes if self.nodes is None else (None if self.nodes == NO_LIMIT else self.nodes),
            "midgame_nodes_after_unfinished_solve": (level.nodes * (100 - SOLVE_SHARE) // 100 if self.nodes is None
                                                     else None if self.nodes == NO_LIMIT else self.nodes),
            "solver_from_empties": level.exact,
            "solver_nodes": level.solve_nodes if self.solver_nodes is None else (
                None if self.solver_nodes == NO_LIMIT else self.solver_nodes),
            "max_depth": min(level.max_depth, MAX_PLY // 2),
            "seconds": None if self.time_ms == NO_DEADLINE_MS else self.time_ms / 1000,
        }

    def describe(self):
        f = self.fields()
        midgame = "no node limit" if f["midgame_nodes"] is None else "%s nodes" % number(f["midgame_nodes"])
        if self.nodes is None and f["solver_from_empties"]:
            midgame += " (%s after a solve that does not finish)" % number(f["midgame_nodes_after_unfinished_solve"])
        solver = "no node limit" if f["solver_nodes"] is None else "%s nodes" % number(f["solver_nodes"])
        text = "%s: midgame %s to depth %d, solver from %d empties with %s" % (
            self.level.describe(), midgame, f["max_depth"], f["solver_from_empties"], solver)
        if f["seconds"] is not None:
            text += ", %g s" % f["seconds"]
        return text


@failing
def run_analyse(args):
    board = load_position(args)
    if board.is_game_over():
        raise CommandError("the game is over")
    budgets = Budgets(args, board.variant)
    searcher = engine_for(board.variant).searcher  # the one decide() searches with
    progress = Ticker(lambda elapsed: analyse_progress(searcher, board.size, elapsed))
    if not args.json:
        print(describe(board))
    decision = budgets.decide(board, args.seed, progress)
    moves = every_move(board, budgets, args.seed, progress) if args.all else None
    # The progress lines (the search's best so far) end with the answer, not a guess it was replaced by.
    progress.finish(lambda elapsed: "analyse: %.0f s, done: best %s %s" % (
        elapsed, decision.move_name(), evaluation_text(decision.score, decision_kind(decision))))
    if args.json:
        result = dict(position_fields(board), move=decision.move_name(), score=decision.score,
                      kind=decision_kind(decision), depth=decision.depth, nodes=decision.nodes,
                      solver_nodes=decision.solver_nodes, midgame_nodes=decision.nodes - decision.solver_nodes,
                      time_ms=decision.elapsed_ms, budgets=budgets.fields())
        if moves is not None:
            result["moves"] = moves
        print(json.dumps(result))
        return 0
    print("best %s   eval %s   depth %d   nodes %s (solver %s, midgame %s)   time %d ms" % (
        decision.move_name(), evaluation_text(decision.score, decision_kind(decision)), decision.depth,
        number(decision.nodes),
        number(decision.solver_nodes), number(decision.nodes - decision.solver_nodes), decision.elapsed_ms))
    print("budgets: %s" % budgets.describe())
    if moves is not None:
        print("every move, for %s (the position after it searched with the same budgets):" % side_name(board))
        for move in moves:
            print("  %-4s %-30s depth %2d  nodes %s" % (
                move["move"], evaluation_text(move["score"], move["kind"]), move["depth"], number(move["nodes"])))
    print(decision.describe())
    return 0


def decision_kind(decision):
    """exact, book, proven (the solver proved a win but not its margin: the score is 1) or estimate."""
    if decision.exact:
        return "exact"
    if decision.book:
        return "book"
    if decision.nodes and decision.solver_nodes == decision.nodes:
        return "proven"
    return "estimate"


def evaluation_text(score, kind):
    if kind == "proven":
        return "%s, margin not known" % ("win" if score > 0 else "loss")
    return "%+.2f discs (%s)" % (score, kind)


def analyse_progress(searcher, size, elapsed):
    if searcher.iteration_depth == 0:
        stage = "solving %d empties" % searcher.root_empties
        best = searcher.best_score
    else:
        stage = "depth %d" % searcher.iteration_depth
        best = searcher.best_score / DISC
    done = ""
    if searcher.root_count:
        done = ", best so far %s %+.2f (%d/%d moves done)" % (
            move_text(searcher.best_square, size), best, searcher.completed_moves, searcher.root_count)
    return "analyse: %.0f s, %s, %s nodes%s" % (elapsed, stage, number(searcher.nodes), done)


def every_move(board, budgets, seed, progress):
    """Each legal move with its score for the side to move, best first: the book's own score for a move
    the book lists for this position (the score the best move is given), else the position after it
    searched as the level searches (without its errors), or its final result when the game ends there.

    `progress` (a Ticker) then tells which move is being scored, not the replies' best so far."""
    level = budgets.level
    # The reply is one ply below: searched a ply less deep, each line ends as deep as the root search's.
    calm = changed(level, max_depth=max(1, level.max_depth - 1), noise=0.0, book=None if level.book is None else 0.0)
    squares = board.legal_squares() or [PASS]
    engine = engine_for(board.variant)
    book = engine.book_for(board) if level.book is not None and board.legal_moves() else None
    in_book = dict(book.moves_for(board, engine.kernel)) if book is not None else {}
    time_ms = None if budgets.time_ms == NO_DEADLINE_MS else max(1, budgets.time_ms // len(squares))
    moves = []
    searcher = engine.searcher
    for number_done, square in enumerate(squares):
        name = move_text(square, board.size)
        progress.report = lambda elapsed: "analyse: %.0f s, scoring every move: %s (%d/%d), %s nodes" % (
            elapsed, name, number_done + 1, len(squares), number(searcher.nodes))
        if square in in_book:
            moves.append({"move": name, "score": in_book[square], "kind": "book", "depth": 0, "nodes": 0})
            continue
        after = board.copy()
        if square == PASS:
            after.pass_turn()
        else:
            after.play(square)
        if after.is_game_over():
            score, _ = solve(after)
            moves.append({"move": name, "score": -score, "kind": "exact", "depth": 1, "nodes": 0})
            continue
        reply = budgets.decide(after, seed, progress, calm, time_ms)
        # + 0.0: a reply scored 0 is a move scored 0, not -0.0
        moves.append({"move": name, "score": -reply.score + 0.0, "kind": decision_kind(reply),
                      "depth": reply.depth + 1, "nodes": reply.nodes})
    # A proven loss of unknown margin may be worse than any loss whose margin is known: it goes last.
    moves.sort(key=lambda move: (move["kind"] == "proven" and move["score"] < 0, -move["score"]))
    return moves


# ----- baseline players and match ----------------------------------------------------


class Player:
    """A match participant: choose(board, seed) -> square (or PASS)."""

    def __init__(self, spec, interpreter="cpython"):
        self.spec = spec
        self.interpreter = interpreter
        self.process = None  # the unix port's player process, made at the first move
        text = spec.strip().lower()
        self.level = None
        self.depth = None
        if text.isdigit():
            self.level = int(text)
            if not 1 <= self.level <= len(LEVELS):
                raise CommandError("level %s is not 1 to %d" % (spec, len(LEVELS)))
        elif text[:3] in ("pos", "mob") and text[3:].isdigit():
            self.depth = int(text[3:])
            if not 1 <= self.depth <= MAX_POS_DEPTH:
                raise CommandError("%s: %sK searches K plies, K 1 to %d (deeper would take many minutes a game)" % (
                    spec, text[:3], MAX_POS_DEPTH))
        elif text not in ("random", "greedy"):
            raise CommandError("unknown player %r: use a level 1-%d, random, greedy, posK or mobK" % (
                spec, len(LEVELS)))
        self.kind = text
        self._searchers = {}

    def choose(self, board, seed):
        if not board.legal_moves():
            return PASS
        if self.level is not None and self.interpreter == "unix":
            if self.process is None:
                self.process = PlayerProcess(interpreter="unix")
            move = self.process.think(board.position(), seed, self.level, anti=board.variant.anti)[0]
            return PASS if move == "pass" else parse_square(move, board.size)
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
        return self._fixed_depth(board)

    def _fixed_depth(self, board):
        """posK, mobK: a fixed-depth alpha-beta search on their evaluation (no book, no solver, no time limit)."""
        key = (board.size, board.variant.blocked_mask(), board.variant.anti)
        searcher = self._searchers.get(key)
        if searcher is None:
            searcher = Searcher(Kernel(board.geometry, self.depth + 40), TranspositionTable(14), board.variant.anti)
            squares = SquareEvaluator(board.size, POSITIONAL_VALUES, DISC // 4, board.variant.anti)
            searcher.evaluator = squares if self.kind.startswith("pos") else MobilityEvaluator(squares)
            self._searchers[key] = searcher
        searcher.set_root(board.player_discs(), board.opponent_discs())
        searcher.start()
        searcher.search_root(self.depth, -INFINITY, INFINITY)
        return searcher.best_square


class MobilityEvaluator:
    """mobK's evaluation: the square table plus MOBILITY_POINTS per legal move more than the opponent has.

    Mobility counts the same way in Anti-Othello: having moves to choose from keeps one out of forced
    captures there too, while the square table's sign is turned round.
    """

    def __init__(self, squares):
        self.squares = squares
        self.per_move = MOBILITY_POINTS * DISC // 4  # the square table's points are a quarter disc

    def evaluate(self, kernel, ply, empties=None):
        return self.squares.evaluate(kernel, ply) + self.per_move * (
            kernel.mobility(ply) - kernel.opponent_mobility(ply))


def player_spec(text):
    """argparse type of --black and --white: the text, once it names a player."""
    try:
        Player(text)
    except CommandError as error:
        raise argparse.ArgumentTypeError(str(error))
    return text


def openings(variant, count, seed, balanced=True):
    """`count` opening positions: the balanced list for standard 8x8 (if `balanced`), else seeded random plies.

    Random openings are distinct as long as new ones turn up; a small board has few, and a long match
    then plays them again in the same order.
    """
    if balanced and variant.is_standard() and OPENINGS_FILE.exists():
        texts = [line.split("#")[0].strip() for line in OPENINGS_FILE.read_text().splitlines()]
        texts = [t for t in texts if t]
        rng = random.Random(seed)
        rng.shuffle(texts)
        return [texts[i % len(texts)] for i in range(count)]
    rng = random.Random(seed)
    plies = {6: 4, 8: 6, 10: 8}[variant.size]
    found = []
    seen = set()
    misses = 0
    while len(found) < count and misses < 200:
        board = Board(variant)
        for _ in range(plies):
            moves = board.legal_squares()
            if not moves:
                break
            board.play(rng.choice(moves))
        if not board.is_game_over() and board.position() not in seen:
            seen.add(board.position())
            found.append(board.position())
            misses = 0
        else:
            misses += 1
    return [found[i % len(found)] for i in range(count)]


_players = {}
GAME_PROGRESS_S = 5.0  # a game still running says so this often (from its worker process)


def play_one(job):
    """One game of a match (in a worker process): returns (index, first player's colour, winner, black, white)."""
    index, first_spec, second_spec, opening, variant_dict, seed, interpreter = job
    variant = Variant.from_dict(variant_dict)
    players = []
    for spec in (first_spec, second_spec):
        if (spec, interpreter) not in _players:
            _players[(spec, interpreter)] = Player(spec, interpreter)
        players.append(_players[(spec, interpreter)])
    first_colour = BLACK if index % 2 == 0 else WHITE
    board = Board.from_position(opening, variant)
    ply = 0
    started = last = time.monotonic()
    while not board.is_game_over():
        mover = players[0] if board.turn == first_colour else players[1]
        square = mover.choose(board, seed * 7919 + index * 131 + ply)
        if square == PASS:
            board.pass_turn()
        else:
            board.play(square)
        ply += 1
        now = time.monotonic()
        if now - last >= GAME_PROGRESS_S:
            last = now
            sys.stderr.write("game %d: %s played, %s left, %.0f s\n" % (
                index + 1, counted(ply, "ply", "plies"), counted(board.empties(), "empty", "empties"), now - started))
            sys.stderr.flush()
    result = board.result()
    return index, first_colour, result.winner, result.black, result.white


def elo_from(results):
    """(score fraction, Elo difference, its 95% error) from per-game scores 1, 0.5, 0."""
    n = len(results)
    p = sum(results) / n
    variance = sum((r - p) ** 2 for r in results) / max(1, n - 1)
    error = 1.96 * math.sqrt(variance / n)
    clipped = min(max(p, 0.5 / n), 1 - 0.5 / n)  # a clean sweep is reported at half a game from it
    elo = -400 * math.log10(1 / clipped - 1) + 0.0  # (+ 0.0: an even score is 0, not -0)
    slope = 400 / math.log(10) / (clipped * (1 - clipped))
    return p, elo, slope * error


@failing
def run_match(args):
    first, second = Player(args.black), Player(args.white)
    variant = Variant(size=args.size, anti=args.anti)
    if args.interpreter == "unix" and variant.size == 10:
        raise CommandError("--interpreter unix plays 8x8 and 6x6 boards only (10x10 has no viper search, and the "
                           "player process reads 64 or 36 squares): leave it out for %s" % variant.describe())
    starts = openings(variant, (args.games + 1) // 2, args.seed, args.openings == "balanced")
    jobs = [(i, first.spec, second.spec, starts[i // 2], variant.to_dict(), args.seed, args.interpreter)
            for i in range(args.games)]
    tally = MatchTally(starts, first.spec, second.spec)
    started = time.monotonic()
    workers = min(args.jobs, args.games)
    sys.stderr.write("match: %s vs %s, %d game%s on %d process%s\n" % (
        first.spec, second.spec, args.games, "" if args.games == 1 else "s", workers, "" if workers == 1 else "es"))
    # The workers ignore Ctrl-C (the terminal sends it to them too): the parent alone stops the match, and
    # reports the games finished so far.
    pool = multiprocessing.Pool(workers, initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN))
    try:
        for done, game in enumerate(pool.imap_unordered(play_one, jobs), 1):
            mine, theirs = tally.add(*game)
            sys.stderr.write("game %d (%d/%d done): %s as %s %d-%d   (+%d =%d -%d, %.0f s)\n" % (
                game[0] + 1, done, args.games, first.spec, "Black" if game[1] == BLACK else "White", mine, theirs,
                tally.wins, tally.draws, tally.losses, time.monotonic() - started))
    except KeyboardInterrupt:
        pool.terminate()
        pool.join()
        if tally.games:
            report_match(args, variant, tally, interrupted=True)
        raise
    pool.close()
    pool.join()
    report_match(args, variant, tally)
    return 0


class MatchTally:
    """The finished games of a match, from the first player's side."""

    def __init__(self, starts, first, second):
        self.starts = starts
        self.first = first
        self.second = second
        self.wins = self.draws = self.losses = 0
        self.margins = []
        self.scores = []
        self.games = []

    def add(self, index, colour, winner, black, white):
        """Count one game (play_one's result); returns (first player's discs, the other's)."""
        mine, theirs = (black, white) if colour == BLACK else (white, black)
        if winner is None:
            self.draws += 1
            self.scores.append(0.5)
        elif winner == colour:
            self.wins += 1
            self.scores.append(1.0)
        else:
            self.losses += 1
            self.scores.append(0.0)
        self.margins.append(mine - theirs)
        self.games.append({"game": index + 1, "opening": self.starts[index // 2],
                           "black": self.first if colour == BLACK else self.second,
                           "white": self.second if colour == BLACK else self.first,
                           "black_discs": black, "white_discs": white,
                           "winner": None if winner is None else COLOUR_NAMES[winner].lower(),
                           "first_player_score": self.scores[-1]})
        return mine, theirs


def report_match(args, variant, tally, interrupted=False):
    """The match's result on stdout: of every game, or of the games finished when it was interrupted."""
    first, second = args.black, args.white
    p, elo, error = elo_from(tally.scores)
    average = sum(tally.margins) / len(tally.margins)
    played = len(tally.games)
    if args.json:
        tally.games.sort(key=lambda game: game["game"])
        result = {
            "first": first, "second": second, "games": args.games, "variant": variant.describe(),
            "seed": args.seed, "openings": args.openings if variant.is_standard() else "random",
            "wins": tally.wins, "draws": tally.draws, "losses": tally.losses, "score": p,
            "average_disc_difference": average, "elo": elo, "elo_error_95": None if p in (0.0, 1.0) else error,
            "results": tally.games}
        if interrupted:
            result.update(interrupted=True, games_played=played)
        print(json.dumps(result))
        return
    games = counted(args.games, "game") if not interrupted else "%d of %s (interrupted)" % (
        played, counted(args.games, "game"))
    print("%s vs %s, %s (%s, %s openings), seed %d" % (
        first, second, games, variant.describe(),
        "balanced" if args.openings == "balanced" and variant.is_standard() else "random", args.seed))
    print("wins %d  draws %d  losses %d  score %.1f%%" % (tally.wins, tally.draws, tally.losses, 100 * p))
    print("average disc difference %+.1f%s" % (average, " (fewer discs wins Anti-Othello)" if args.anti else ""))
    if p in (0.0, 1.0):
        # every game the same: the Elo estimate is only a bound (counted as if half a game went the other way)
        print("Elo difference %+.0f or %s (every game %s)" % (elo, "more" if p else "less", "won" if p else "lost"))
    else:
        print("Elo difference %+.0f +/- %.0f (95%%)" % (elo, error))
    sys.stdout.flush()


# ----- player-bench -------------------------------------------------------------------

SPEED_SCRIPT = Path(__file__).resolve().parent / "player_speed.py"


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
    from runners import micropython_runner

    try:
        return micropython_runner.run(interpreter, code, timeout=3600)
    except micropython_runner.MicroPythonError as error:
        raise CommandError(str(error))


def speed_run(interpreter, midgame, nodes, endgame, solvers, limit):
    code = "MIDGAME = %r\nMIDGAME_NODES = %d\nENDGAME = %r\nSOLVE_LIMIT_S = %r\nSOLVERS = %r\n" % (
        midgame, nodes, endgame, limit, solvers) + SPEED_SCRIPT.read_text()
    return [line.split() for line in run_speed_script(interpreter, code).splitlines()]


@failing
def run_player_bench(args):
    midgame, endgame = bench_positions(args.seed)
    interpreters = ("cpython", "unix", "wasm") if args.interpreter == "all" else (args.interpreter,)
    for interpreter in interpreters:
        sys.stderr.write("running on %s ...\n" % interpreter)
        print("== %s" % interpreter)
        for parts in speed_run(interpreter, midgame, args.nodes, [], (), args.limit):
            if parts[0] == "search":
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
