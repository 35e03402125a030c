#!/usr/bin/env python3
"""Does the device play what the host's replay plays? Games on the emulated Pico, every move replayed on the host.

    replay.py play --levels 1-7 --games 2 --log build/replay/l1-7.log   games on the emulated Pico (slow: see below)
    replay.py check build/replay/l1-7.log [more logs] [--json]         replay every recorded move on the host
    replay.py rates build/replay/l8.log [more logs]                   the midgame search's speed by empties

`play` runs tools/device/workloads/replay.py on the emulated Pico (tools/device/pico_emulator.py, the `make flash` build):
each level plays itself from the first GAMES balanced openings of tools/match/match_openings.txt (seeded, so a
rerun plays the same games), and every move goes to the log with its position, seed, depth, nodes, the
solver's part of them and its device time, as it is played (an interrupted run keeps what it played).
Emulated time does not depend on the host's load, wall time does: a level 8 game is about 75 emulated
seconds, 5-15 minutes of wall time.

`check` asks the host's player (CPython by default: `think(board, level, rng_seed=seed)` with no deadline,
as `othello match` and `othello analyse` play; or the unix port's viper code with --interpreter unix) for
every logged position and reports per level: moves, moves equal, the worst device time against the
level's time, and each move that differs with what ended the device's search (its node budget, its
depth limit or its deadline) and the host's.

`rates` reads the logs alone: for each count of empty squares, the slowest midgame search of levels 5-8
in nodes a second at 125 MHz after a move's fixed part, and the worst share of its level's time it
took; then each band of player/levels.py's rates against the slowest move measured in it, and how far
under it the levels' rate lies. levels.py keeps each rate about 5% or more under the slowest measured, so
that its slowest move ends before the deadline on real Picos, which run up to 9% slower than the emulated
one; its figures come from `replay.py play --levels 8 --games 16 --mhz 125` and `rates` on its log.
"""

import argparse
import json
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1]
REPO = TOOLS.parent
for _path in (str(TOOLS), str(REPO / "firmware")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from cli.values import whole_number  # noqa: E402
from player.engine import MAX_PLY, SOLVE_SHARE  # noqa: E402
from runners.player_process import PlayerProcess, WorkerError  # noqa: E402
from player.levels import BASE_MHZ, LEVELS, at_clock  # noqa: E402
# private: a name on the device costs heap
from player.levels import _MIDGAME_RATES, _SEARCH_OVERHEAD_MS as SEARCH_OVERHEAD_MS  # noqa: E402

DEVICE_SCRIPT = TOOLS / "device" / "workloads" / "replay.py"
OPENINGS_FILE = TOOLS / "match" / "match_openings.txt"
OVERRUN_MS = 50  # issue 13: no move may take more than its level's time plus this


class ReplayError(Exception):
    """A clear reason the command cannot go on."""


def level_list(text):
    """'1-8', '8', '1,3,5-6' -> sorted level numbers."""
    numbers = set()
    try:
        for part in text.split(","):
            low, _, high = part.partition("-")
            low = int(low)
            high = int(high) if high else low
            numbers.update(range(low, high + 1))
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a list of levels such as 1-8 or 5,8" % text)
    if not numbers or min(numbers) < 1 or max(numbers) > len(LEVELS):
        raise argparse.ArgumentTypeError("levels are 1 to %d, not %s" % (len(LEVELS), text))
    return sorted(numbers)


def balanced_openings(count):
    texts = [line.split("#")[0].strip() for line in OPENINGS_FILE.read_text().splitlines()]
    texts = [text for text in texts if text]
    if count > len(texts):
        raise ReplayError("%s holds %d openings, not %d" % (OPENINGS_FILE, len(texts), count))
    return texts[:count]


# ----- play: games on the emulated Pico ---------------------------------------------


class Tee:
    """What the device prints, to the log file and (as progress) to stderr."""

    def __init__(self, log):
        self.log = log

    def write(self, text):
        self.log.write(text)
        sys.stderr.write(text)

    def flush(self):
        self.log.flush()
        sys.stderr.flush()


def play(args):
    from device import pico_emulator

    settings = "LEVEL_NUMBERS = %r\nOPENINGS = %r\nSEED = %d\nMHZ = %d\n" % (
        args.levels, balanced_openings(args.games), args.seed, args.mhz)
    code = settings + DEVICE_SCRIPT.read_text()
    log_path = Path(args.log)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "w") as log:
        log.write("# replay.py play --levels %s --games %d --seed %d --mhz %d\n" % (
            ",".join(map(str, args.levels)), args.games, args.seed, args.mhz))
        try:
            files = pico_emulator.build_files(main=False)
            with pico_emulator.EmulatedPico(files=files) as pico:
                pico.enter_raw_repl()
                pico.run_script(code, echo=Tee(log))
        except pico_emulator.PicoError as error:  # a ScriptError holds the device's traceback
            raise ReplayError("the emulated Pico: %s" % error)
    sys.stderr.write("log: %s (check it with: tools/device/replay.py check %s)\n" % (log_path, log_path))
    return 0


# ----- check: the host's replay -------------------------------------------------


class Move:
    """One logged device move: `move <level> <game> <ply> <squares> <side> <seed> <move> <depth> <nodes>
    <solver nodes> <ms> <exact> <book> [<mhz>]` (a log without the clock was played at BASE_MHZ)."""

    def __init__(self, words):
        self.level = int(words[1])
        self.game = int(words[2])
        self.ply = int(words[3])
        self.position = words[4] + " " + words[5]
        self.seed = int(words[6])
        self.move = words[7]
        self.depth = int(words[8])
        self.nodes = int(words[9])
        self.solver_nodes = int(words[10])
        self.ms = int(words[11])
        self.exact = words[12] == "1"
        self.book = words[13] == "1"
        self.mhz = int(words[14]) if len(words) > 14 else BASE_MHZ

    def budgets(self):
        """The Level the device searched with: its level's budgets at its clock."""
        return at_clock(LEVELS[self.level - 1], self.mhz)

    @property
    def empties(self):
        return self.position.count("-")


def read_log(path):
    moves = []
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        words = line.split()
        if not words or words[0] != "move":
            continue
        if len(words) not in (14, 15):
            raise ReplayError("%s line %d: a move line has 14 or 15 words, this one %d: %r" % (
                path, number, len(words), line))
        try:
            moves.append(Move(words))
        except ValueError:
            raise ReplayError("%s line %d: not a move line: %r" % (path, number, line))
    return moves


def how_decided(level, empties, depth, nodes, solver_nodes, exact, book):
    """What chose a move with `empties` empty squares: book, forced, solved, proven (win/draw, margin
    unknown) or the midgame search and what ended it (budget, depth, or deadline: neither), with the solve
    that did not finish first if any."""
    if book:
        return "book"
    if nodes == 0:
        return "forced"
    if exact and solver_nodes == nodes:
        return "solved"
    if solver_nodes == nodes:
        return "proven"
    midgame = nodes - solver_nodes
    if midgame >= level.midgame_nodes(empties):
        ended = "budget"
    elif depth >= min(level.max_depth, MAX_PLY // 2) or exact:  # the search deepens to MAX_PLY // 2 at most
        ended = "depth"
    else:
        ended = "deadline"
    return ("unsolved, then search to " if solver_nodes else "search to ") + ended


def exact_value(position, move):
    """The perfect-play result of playing `move` in `position`, from the mover's view (the plain solver)."""
    from othello.board import Board
    from othello.variant import BLACK
    from player import solve

    board = Board.from_position(position)
    mover = board.turn
    if move == "pass":
        board.pass_turn()
    else:
        board.play(move)
    if board.is_game_over():
        result = board.result()
        return (result.black - result.white) * (1 if mover == BLACK else -1)
    return -solve(board)[0]


def solve_unfinished(how):
    """Whether a move's solve did not finish (a proven win or nothing), by how_decided()'s words."""
    return how.startswith("unsolved") or how == "proven"


def solve_cut_by_deadline(level, move, device_how):
    """Whether the device's solve did not finish before its share of the time: a solve that its node budget
    (level.solve_nodes viper nodes) ended did not."""
    return solve_unfinished(device_how) and move.solver_nodes < level.solve_nodes


def why_different(move, device_how, host_how, host):
    """Why the device's move is not the host's: a deadline, a budget, or two best moves of one exact result."""
    if solve_unfinished(device_how) and host_how == "solved":
        if solve_cut_by_deadline(move.budgets(), move, device_how):
            return "the device's solve was stopped by its deadline (%d%% of the time); the host solved" % SOLVE_SHARE
        return ("the device's solve ended on its node budget; the host's finished within its own (CPython's "
                "plain solver counts its nodes its own way)")
    if "deadline" in device_how:
        return "the device's search was stopped by its deadline before its node budget"
    if host_how.startswith("unsolved") and device_how in ("solved", "proven"):
        return "the host's solver ran out of its node budget; the device solved"
    if device_how == host_how == "solved":
        device_value = exact_value(move.position, move.move)
        host_value = int(host[6])
        if device_value == host_value:
            return ("both solved: two best moves of the same result (%+d); which one a solver plays depends on its "
                    "move order and on what its table holds from earlier solves" % host_value)
        return "both solved, different results: device %+d, host %+d" % (device_value, host_value)
    return "the same budgets searched differently (device %s, host %s)" % (device_how, host_how)


def read_logs(paths):
    """The moves of all the logs, in order; a missing log or one without moves is an error."""
    moves = []
    for path in paths:
        if not Path(path).exists():
            raise ReplayError("no log %s: make one with tools/device/replay.py play" % path)
        moves += read_log(path)
    if not moves:
        raise ReplayError("no moves in %s" % ", ".join(paths))
    return moves


def check(args):
    moves = read_logs(args.logs)
    worker = PlayerProcess(interpreter=args.interpreter)
    rows = {}
    try:
        for index, move in enumerate(moves, 1):
            level = move.budgets()
            if move.mhz == BASE_MHZ:
                host = worker.think(move.position, move.seed, move.level)
            else:  # the level's budgets at the device's clock
                host = worker.think(move.position, move.seed, move.level, level.nodes, level.solve_nodes)
            device_how = how_decided(level, move.empties, move.depth, move.nodes, move.solver_nodes, move.exact,
                                     move.book)
            host_how = how_decided(level, move.empties, host[1], host[2], host[3], host[4], host[5])
            row = rows.setdefault(move.level, {"level": move.level, "time_ms": level.time_ms, "moves": 0,
                                               "equal": 0, "searched": 0, "worst_ms": 0, "worst_at": None,
                                               "over_time_plus_50": 0, "device_ended_by_deadline": 0,
                                               "device_how": {}, "differ": []})
            row["device_how"][device_how] = row["device_how"].get(device_how, 0) + 1
            row["moves"] += 1
            row["searched"] += device_how not in ("book", "forced")
            row["device_ended_by_deadline"] += ("deadline" in device_how
                                                or solve_cut_by_deadline(level, move, device_how))
            if move.ms > row["worst_ms"]:
                row["worst_ms"] = move.ms
                row["worst_at"] = "game %d ply %d (%d empties, %s)" % (move.game, move.ply, move.empties, device_how)
            row["over_time_plus_50"] += move.ms > level.time_ms + OVERRUN_MS
            if host[0] == move.move:
                row["equal"] += 1
            else:
                row["differ"].append({
                    "game": move.game, "ply": move.ply, "empties": move.empties, "position": move.position,
                    "seed": move.seed, "device": move.move, "device_how": device_how, "device_nodes": move.nodes,
                    "device_solver_nodes": move.solver_nodes, "device_ms": move.ms, "host": host[0],
                    "host_how": host_how, "host_nodes": host[2], "host_solver_nodes": host[3],
                    "why": why_different(move, device_how, host_how, host)})
            if index % 10 == 0 or index == len(moves):
                sys.stderr.write("check: %d/%d moves replayed\n" % (index, len(moves)))
                sys.stderr.flush()
    finally:
        worker.close()
    report = [rows[number] for number in sorted(rows)]
    if args.json:
        print(json.dumps({"interpreter": args.interpreter, "logs": args.logs, "levels": report}))
        return 0
    print("host replay on %s of %s" % (args.interpreter, ", ".join(args.logs)))
    print("level  moves  searched  equal     %%   worst ms / time  over time+%d ms  device deadline" % OVERRUN_MS)
    for row in report:
        print("%5d  %5d  %8d  %5d  %5.1f   %6d / %-6d  %15d  %15d" % (
            row["level"], row["moves"], row["searched"], row["equal"], 100.0 * row["equal"] / row["moves"],
            row["worst_ms"], row["time_ms"], row["over_time_plus_50"], row["device_ended_by_deadline"]))
    for row in report:
        print("level %d: %s; worst move %d ms at %s" % (
            row["level"], ", ".join("%s %d" % item for item in sorted(row["device_how"].items())), row["worst_ms"],
            row["worst_at"]))
        for differ in row["differ"]:
            print("  differs: game %d ply %d (%d empties): device %s (%s, %d nodes, %d of them solver, %d ms), "
                  "host %s (%s, %d nodes, %d of them solver)" % (
                      differ["game"], differ["ply"], differ["empties"], differ["device"], differ["device_how"],
                      differ["device_nodes"], differ["device_solver_nodes"], differ["device_ms"], differ["host"],
                      differ["host_how"], differ["host_nodes"], differ["host_solver_nodes"]))
            print("    why: %s" % differ["why"])
    return 0


def rates(args):
    """The midgame search's speed on the device by empty squares, from the logged moves that the midgame
    search alone decided: the Pico's rate at BASE_MHZ after the move's fixed part, as player.levels counts
    it, and each band of the levels' rates against the slowest move measured in it."""
    by_empties = {}
    for move in read_logs(args.logs):
        if move.book or move.solver_nodes or move.nodes == 0 or move.level < 5:
            continue  # the book, a forced move, a solve, or a level that searches a depth, not a budget
        level = move.budgets()
        base_ms = move.ms * move.mhz / BASE_MHZ - SEARCH_OVERHEAD_MS
        if base_ms <= 0:
            continue
        rate = move.nodes * 1000 / base_ms
        row = by_empties.setdefault(move.empties, [0, rate, 0.0])
        row[0] += 1
        row[1] = min(row[1], rate)
        row[2] = max(row[2], move.ms / level.time_ms)
    if not by_empties:
        raise ReplayError("no midgame searches of levels 5-%d in %s" % (len(LEVELS), ", ".join(args.logs)))
    print("the midgame search at %d MHz, after %d ms a move, from %s" % (BASE_MHZ, SEARCH_OVERHEAD_MS,
                                                                       ", ".join(args.logs)))
    print("empties  moves  slowest nodes/s  worst share of the time")
    for empties in sorted(by_empties, reverse=True):
        count, slowest, share = by_empties[empties]
        print("%7d  %5d  %15.0f  %22.0f%%" % (empties, count, slowest, 100 * share))
    print("band (empties)  moves  slowest nodes/s  levels.py  under by")
    upper = 64
    for least, rate in _MIDGAME_RATES:
        band = [by_empties[empties] for empties in by_empties if least <= empties < upper]
        if band:
            slowest = min(row[1] for row in band)
            print("%6d-%-7d  %5d  %15.0f  %9d  %7.1f%%" % (least, upper - 1, sum(row[0] for row in band), slowest,
                                                         rate, 100 * (1 - rate / slowest)))
        upper = least
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n", 2)[2])
    commands = parser.add_subparsers(dest="command", required=True)
    play_parser = commands.add_parser("play", help="games on the emulated Pico, every move logged")
    play_parser.add_argument("--levels", type=level_list, default=level_list("1-%d" % len(LEVELS)), metavar="L",
                             help="levels to play, e.g. 1-8 (the default) or 5,8")
    play_parser.add_argument("--games", type=whole_number(1, 100, "tools/match/match_openings.txt holds 100 openings"), default=1, metavar="N",
                             help="games per level (1-100, default 1), from the first N balanced openings")
    play_parser.add_argument("--seed", type=whole_number(0), default=1, help="seed of the levels' errors and book choices")
    play_parser.add_argument("--mhz", type=whole_number(125, 200), default=200,
                             help="the clock of the device's searches (default 200, as the game runs them)")
    play_parser.add_argument("--log", required=True, help="the log to write (e.g. build/replay/level8.log)")
    play_parser.set_defaults(func=play)
    check_parser = commands.add_parser("check", help="replay every logged move on the host and compare")
    check_parser.add_argument("logs", nargs="+", metavar="LOG")
    check_parser.add_argument("--interpreter", choices=("cpython", "unix"), default="cpython",
                              help="the host's player: CPython (plain search and solver, the default) or the "
                              "unix port (the device's viper code)")
    check_parser.add_argument("--json", action="store_true", help="one JSON object instead of text")
    check_parser.set_defaults(func=check)
    rates_parser = commands.add_parser("rates", help="the midgame search's speed by empty squares in the logs")
    rates_parser.add_argument("logs", nargs="+", metavar="LOG")
    rates_parser.set_defaults(func=rates)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (ReplayError, WorkerError) as error:
        print("replay: %s" % error, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("replay: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
