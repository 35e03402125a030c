#!/usr/bin/env python3
"""The firmware of this tree against the firmware of another git revision, each at its device-time budget.

    .venv/bin/python tools/match/versus.py d2c6081 --games 200            issue 13's strength target: today's top level against d2c6081's
    .venv/bin/python tools/match/versus.py d2c6081 --games 2 --nodes 500 --rev-nodes 200 --solver-nodes 1000 --rev-solver-nodes 1000

The revision's `firmware/` is exported with `git archive` into build/versus/<commit>/ (once). Each side is
its own player process (tools/runners/player_worker.py): MicroPython's unix port by default, so each runs its own
code as the Pico runs it (the viper kernel, search and solver where that firmware has them), or CPython
(--interpreter cpython: the plain search and solver). Neither side has a deadline: a device's time is
stood for by node budgets, so a match replays the same games on any machine.

- The midgame search: this tree's level searches its own node budget (--nodes, default: the level's in
  firmware/player/levels.py, its budget where the Pico searches slowest; either grows with the empty squares
  as on the device, Level.midgame_nodes); the revision's level gets --rev-nodes, the nodes it reached in its
  time on the device (as that revision's own engine uses a budget). d2c6081's top level reached about 2,300 of
  its 3,500-node budget in its 2.5 s on the emulated Pico (716-990 nodes/s measured, the deadline ending every
  search at 65-80% of the budget: docs/DEVICE_SPEED.md), hence the default.
- The endgame: each side solves from its level's empties as its own firmware does. This tree's solver
  has its level's own node budget (solve_nodes in firmware/player/levels.py: level 8, 134,750 viper solver
  nodes, which fit in 70% of its time on the Pico; the plain solver on CPython gets PLAIN_SOLVE_PERCENT of
  it) and clears its table before each solve, as on the device. The revision's viper solver had no node
  budget on the device, only 70% of the level's time (player.engine.SOLVE_SHARE), and kept its table from
  one solve to the next: it gets the nodes that time buys at that solver's rate on the emulated Pico
  (REV_SOLVER_NODES_PER_S) in all for a move: level 8, 1.75 s, 44,625 nodes. --solver-nodes and
  --rev-solver-nodes replace them (0: no cap beyond what the firmware itself sets). A solve that does not
  finish leaves the move to the midgame search with 30% of its budget, as the device's deadline does.
- Openings: the balanced ones of tools/match/match_openings.txt in the order `othello match --seed S` plays
  them, each twice, once with either colour (this tree is Black in odd-numbered games); with --size 6 or
  --anti, seeded random openings as `othello match` plays those variants. The balanced openings start 6-8
  plies in, where the opening book rarely reaches: --from-start P plays instead the positions P plies from
  the start (one of each set of mirror images, in a seeded order), where the book decides the first moves,
  to measure one book against another (docs/TRAINING.md).

Progress goes to stderr; the summary (from this tree's side) or, with --json, one JSON object to stdout.
"""

import argparse
import io
import json
import os
import queue
import random
import shutil
import subprocess
import sys
import tarfile
import threading
import time
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1]
REPO = TOOLS.parent
for _path in (str(TOOLS), str(REPO / "firmware")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from cli.player import elo_from, openings  # noqa: E402
from cli.values import COUNT, LEVEL, whole_number  # noqa: E402
from othello.board import Board, IllegalMoveError  # noqa: E402
from othello.variant import BLACK, WHITE, Variant  # noqa: E402
from player.book import canonical  # noqa: E402
from player.engine import SOLVE_SHARE  # noqa: E402
from player.levels import LEVELS  # noqa: E402
from runners.player_process import PlayerProcess, WorkerError  # noqa: E402

EXPORTS = REPO / "build" / "versus"
# d2c6081's viper solver on the emulated Pico: 25,492 nodes/s on eight 14-empty positions from play,
# 26,805 on 12 empties (tools/device/bench.py endgame, docs/DEVICE_SPEED.md).
REV_SOLVER_NODES_PER_S = 25500
# d2c6081's top level on the emulated Pico: 716-990 midgame nodes/s, so about 2,300 nodes in 2.5 s.
REV_TOP_LEVEL_NODES = 2300
PROGRESS_S = 30.0  # a line on stderr at least this often while games run
MAX_GAMES = 200  # each balanced opening twice
MAX_FROM_START = 6  # plies: 1,773 positions


class VersusError(Exception):
    """A clear reason the match cannot be played."""


def rev_solver_nodes(level):
    """The revision's viper solver nodes in the time `level` gives its solve on the device."""
    return level.time_ms * SOLVE_SHARE // 100 * REV_SOLVER_NODES_PER_S // 1000


def export(revision):
    """The firmware/ of `revision`, exported once into build/versus/<commit>/firmware: its path and commit."""
    found = subprocess.run(["git", "rev-parse", "--verify", "--quiet", revision + "^{commit}"], cwd=str(REPO),
                           capture_output=True, text=True)
    if found.returncode != 0:
        raise VersusError("%r is not a commit of this repository (git rev-parse)" % revision)
    commit = found.stdout.strip()
    target = EXPORTS / commit
    firmware = target / "firmware"
    if firmware.is_dir():
        return firmware, commit
    archive = subprocess.run(["git", "archive", "--format=tar", commit, "firmware"], cwd=str(REPO),
                             capture_output=True)
    if archive.returncode != 0:
        raise VersusError("git archive %s firmware failed: %s" % (commit[:12], archive.stderr.decode().strip()))
    # This process's own scratch place, renamed into place whole: two matches started side by side (the
    # test suite's parallel workers) export the same commit without removing each other's files.
    scratch = EXPORTS / ("%s.partial-%d" % (commit, os.getpid()))
    if scratch.exists():
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(scratch, filter="data")
    try:
        scratch.rename(target)
    except OSError:  # the other one was first: its export is the same files
        shutil.rmtree(scratch)
    return firmware, commit


class Side:
    """One player of the match: a firmware tree, its level and budgets, and what its moves were."""

    def __init__(self, name, firmware, level, nodes, solver_nodes):
        self.name = name
        self.firmware = firmware
        self.level = level
        self.nodes = nodes
        self.solver_nodes = solver_nodes or None
        self.counts = {"moves": 0, "book": 0, "forced": 0, "searched": 0, "solves": 0, "solved": 0,
                       "proven": 0, "unsolved": 0}
        self.midgame_nodes = 0
        self.lock = threading.Lock()

    def record(self, depth, nodes, solver_nodes, exact, book):
        with self.lock:
            counts = self.counts
            counts["moves"] += 1
            if book:
                counts["book"] += 1
            elif nodes == 0:
                counts["forced"] += 1
            else:
                if solver_nodes:
                    counts["solves"] += 1
                    if exact and solver_nodes == nodes:
                        counts["solved"] += 1
                    elif solver_nodes == nodes:
                        counts["proven"] += 1
                    else:
                        counts["unsolved"] += 1
                if nodes > solver_nodes:
                    counts["searched"] += 1
                    self.midgame_nodes += nodes - solver_nodes

    def fields(self):
        return {"firmware": self.name, "level": self.level, "midgame_nodes": self.nodes,
                "solver_nodes": self.solver_nodes, "moves": dict(self.counts),
                "midgame_nodes_average": self.midgame_nodes // max(1, self.counts["searched"])}

    def describe(self):
        counts = self.counts
        return ("%s: level %d, %d midgame nodes, solver %s; %d moves: %d book, %d forced, %d searched "
                "(%d nodes on average), %d solves: %d exact, %d win/draw proven, %d not finished" % (
                    self.name, self.level, self.nodes, "no cap beyond the firmware's" if self.solver_nodes is None else
                    "%d nodes a move" % self.solver_nodes, counts["moves"], counts["book"], counts["forced"],
                    counts["searched"], self.midgame_nodes // max(1, counts["searched"]), counts["solves"],
                    counts["solved"], counts["proven"], counts["unsolved"]))


def start_positions(plies, seed):
    """The positions `plies` plies from the standard 8x8 start, one of each set of mirror images (the first
    found of its set), in an order shuffled by `seed`."""
    boards = [Board()]
    for _ in range(plies):
        found = {}
        for board in boards:
            for square in board.legal_squares():
                child = board.copy()
                child.play(square)
                if child.must_pass():
                    child.pass_turn()
                found.setdefault(canonical(child.player_discs(), child.opponent_discs(), 8)[:2], child)
        boards = list(found.values())
    positions = [board.position() for board in boards]
    random.Random(seed).shuffle(positions)
    return positions


def play_game(index, opening, sides, processes, seed, variant):
    """Game `index` from `opening`: this tree is Black in even-numbered ones. Returns its record."""
    ours_colour = BLACK if index % 2 == 0 else WHITE
    board = Board.from_position(opening, variant)
    moves = []
    ply = 0
    while not board.is_game_over():
        if not board.legal_moves():
            board.pass_turn()
            moves.append("pass")
            ply += 1
            continue
        which = 0 if board.turn == ours_colour else 1
        side = sides[which]
        answer = processes[which].think(board.position(), seed * 7919 + index * 131 + ply, side.level, side.nodes,
                                        side.solver_nodes, variant.anti)
        move, depth, nodes, solver_nodes, exact, book, _ = answer
        try:
            board.play(move)
        except (IllegalMoveError, ValueError) as error:
            raise VersusError("game %d: %s played %s in %s: %s" % (index + 1, side.name, move, board.position(),
                                                                   error))
        side.record(depth, nodes, solver_nodes, exact, book)
        moves.append(move)
        ply += 1
    result = board.result()  # its winner: in Anti-Othello the side with fewer discs
    ours, theirs = (result.black, result.white) if ours_colour == BLACK else (result.white, result.black)
    score = 0.5 if result.winner is None else 1.0 if result.winner == ours_colour else 0.0
    return {"game": index + 1, "opening": opening, "black": sides[0 if ours_colour == BLACK else 1].name,
            "white": sides[1 if ours_colour == BLACK else 0].name, "black_discs": result.black,
            "white_discs": result.white, "score": score, "disc_difference": ours - theirs, "moves": " ".join(moves)}


def run(args):
    level = LEVELS[args.level - 1]
    rev_firmware, commit = export(args.revision)
    rev_level = args.rev_level or args.level
    ours = Side("this tree", REPO / "firmware", args.level, args.nodes or level.nodes,
                level.solve_nodes if args.solver_nodes is None else args.solver_nodes)
    theirs = Side(commit[:7], rev_firmware, rev_level, args.rev_nodes,
                  rev_solver_nodes(LEVELS[rev_level - 1]) if args.rev_solver_nodes is None
                  else args.rev_solver_nodes)
    sides = (ours, theirs)
    variant = Variant(size=args.size, anti=args.anti)
    if args.from_start is None:
        starts = openings(variant, (args.games + 1) // 2, args.seed)
    elif not variant.is_standard():
        raise VersusError("--from-start is for 8x8 Othello, whose opening book it measures")
    else:
        starts = start_positions(args.from_start, args.seed)
        if args.games > 2 * len(starts):
            raise VersusError("%d positions are %d plies from the start: at most %d games, each twice" % (
                len(starts), args.from_start, 2 * len(starts)))
    jobs = queue.Queue()
    for index in range(args.games):
        jobs.put(index)
    results = []
    failures = []
    done_lock = threading.Lock()
    started = time.monotonic()
    workers = min(args.jobs, args.games)
    sys.stderr.write("versus: %s against %s, %d games, %d at a time on %s\n  %s\n  %s\n" % (
        ours.name, commit[:12], args.games, workers, args.interpreter, ours.describe(), theirs.describe()))

    def worker():
        try:
            with PlayerProcess(ours.firmware, args.interpreter) as mine, \
                    PlayerProcess(theirs.firmware, args.interpreter) as other:
                while not failures:
                    try:
                        index = jobs.get_nowait()
                    except queue.Empty:
                        return
                    game = play_game(index, starts[index // 2], sides, (mine, other), args.seed, variant)
                    with done_lock:
                        results.append(game)
                        score = sum(g["score"] for g in results)
                        sys.stderr.write("game %d (%d/%d done): this tree as %s %d-%d   (score %.1f of %d, %.0f s)\n"
                                         % (game["game"], len(results), args.games,
                                            "Black" if index % 2 == 0 else "White",
                                            game["black_discs"] if index % 2 == 0 else game["white_discs"],
                                            game["white_discs"] if index % 2 == 0 else game["black_discs"],
                                            score, len(results), time.monotonic() - started))
                        sys.stderr.flush()
        except (VersusError, WorkerError) as error:
            failures.append(error)

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(workers)]
    for thread in threads:
        thread.start()
    last = time.monotonic()
    while any(thread.is_alive() for thread in threads):
        for thread in threads:
            thread.join(1.0)
        if time.monotonic() - last >= PROGRESS_S:
            last = time.monotonic()
            with done_lock:
                sys.stderr.write("versus: %d/%d games done, %.0f s\n" % (len(results), args.games, last - started))
    if failures:
        raise failures[0]
    results.sort(key=lambda game: game["game"])
    scores = [game["score"] for game in results]
    wins = scores.count(1.0)
    draws = scores.count(0.5)
    losses = scores.count(0.0)
    p, elo, error = elo_from(scores)
    average = sum(game["disc_difference"] for game in results) / len(results)
    elapsed = time.monotonic() - started
    if args.json:
        print(json.dumps({"revision": commit, "variant": variant.describe(), "games": args.games,
                          "from_start": args.from_start, "seed": args.seed,
                          "interpreter": args.interpreter, "this_tree": ours.fields(), "revision_side": theirs.fields(),
                          "wins": wins, "draws": draws, "losses": losses, "score": p,
                          "average_disc_difference": average, "elo": elo,
                          "elo_error_95": None if p in (0.0, 1.0) else error, "seconds": round(elapsed),
                          "results": results}))
        return 0
    print("this tree against %s, %d games of %s (%s, seed %d, %s), %.0f s" % (
        commit[:12], args.games, variant.describe(),
        "openings %d plies from the start" % args.from_start if args.from_start else
        "balanced openings" if variant.is_standard() else "random openings", args.seed,
        args.interpreter, elapsed))
    print("  " + ours.describe())
    print("  " + theirs.describe())
    print("wins %d  draws %d  losses %d  score %.1f%%" % (wins, draws, losses, 100 * p))
    print("average disc difference %+.1f%s" % (average, " (fewer discs wins)" if variant.anti else ""))
    if p in (0.0, 1.0):
        print("Elo difference %+.0f or %s (every game %s)" % (elo, "more" if p else "less", "won" if p else "lost"))
    else:
        print("Elo difference %+.0f +/- %.0f (95%%)" % (elo, error))
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n", 2)[2])
    parser.add_argument("revision", metavar="REV", help="the other side's git revision (e.g. d2c6081)")
    parser.add_argument("--games", type=whole_number(1, MAX_GAMES, "each of the 100 balanced openings twice"), default=20, metavar="N", help="games (1-%d, default 20)"
                        % MAX_GAMES)
    parser.add_argument("--level", type=LEVEL, default=len(LEVELS), metavar="L",
                        help="this tree's level (default %d)" % len(LEVELS))
    parser.add_argument("--nodes", type=COUNT, metavar="N", help="this tree's midgame node budget where "
                        "the Pico searches slowest, grown with the empties as the level's is (default: its "
                        "level's, %d at level %d)" % (LEVELS[-1].nodes, len(LEVELS)))
    parser.add_argument("--solver-nodes", type=whole_number(0), metavar="N", help="this tree's solver nodes a move "
                        "(default: its level's, %d at level %d; 0: the level's own)" % (LEVELS[-1].solve_nodes,
                                                                                     len(LEVELS)))
    parser.add_argument("--rev-level", type=LEVEL, metavar="L", help="the revision's level (default: --level)")
    parser.add_argument("--rev-nodes", type=COUNT, default=REV_TOP_LEVEL_NODES, metavar="N",
                        help="the revision's midgame node budget (default %d: what d2c6081's top level reached "
                        "on the Pico; a revision whose budgets grow with the empties, as this tree's, takes it as "
                        "its budget where the Pico searches slowest)" % REV_TOP_LEVEL_NODES)
    parser.add_argument("--rev-solver-nodes", type=whole_number(0), metavar="N", help="the revision's solver nodes a "
                        "move (default: its level's solve time at %d nodes/s, that solver's rate on the Pico; 0: no "
                        "cap)" % REV_SOLVER_NODES_PER_S)
    parser.add_argument("--from-start", type=whole_number(1, MAX_FROM_START), metavar="P",
                        help="start from the positions P plies from the start instead of the balanced openings "
                        "(the opening book's ground)")
    parser.add_argument("--seed", type=whole_number(0), default=1, metavar="S", help="seed of the openings' order and "
                        "the levels' choices (default 1)")
    parser.add_argument("--jobs", type=COUNT, default=2, metavar="N", help="games at a time (default 2)")
    parser.add_argument("--interpreter", choices=("unix", "cpython"), default="unix",
                        help="unix: MicroPython's unix port, the device's viper code (default); cpython: the "
                        "plain code")
    parser.add_argument("--size", type=int, choices=(6, 8), default=8, help="board size (default 8)")
    parser.add_argument("--anti", action="store_true", help="Anti-Othello (fewer discs wins)")
    parser.add_argument("--json", action="store_true", help="one JSON object (summary and every game) on stdout")
    args = parser.parse_args(argv)
    try:
        return run(args)
    except (VersusError, WorkerError) as error:
        print("versus: %s" % error, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("versus: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
