"""The exact endgame on the board it runs on: the player's solves, the solver alone, and the top level's budget.

    .venv/bin/python tools/device/bench.py endgame              # on the emulated Pico
    .venv/bin/python tools/device/bench.py endgame --port unix  # on the unix port: the device's moves and nodes
    .venv/bin/python tools/device/bench.py endgame --mhz 200    # the top level's moves at the search clock

Positions: host_tests/mpy/fastpath_positions.py (eight from games the player played, per number of empty
squares). It prints, per size, `name value` lines:
- endgame_<n>_*: player.think at the top level given all the time and solver nodes it needs (every move
  solved exactly; the time includes choosing the move), for 12 and 14 empties;
- solver_<n>_*: the viper solver alone, as the player solves (ViperSolver.solve_exact from a clear table of
  the player's 2**10 entries), for 14 and 16 empties: median and worst time, nodes, and the nodes per
  second of each position (lowest and highest) and of the whole set;
- level_8_*: the top level with its own budgets and deadline on the positions of as many empty squares as it
  solves from, at the clock MHZ (its budgets follow the clock; on the Pico the clock is set for each move,
  as the device does while it thinks): each move, how many
  it solved, how many its solver node budget cut (the midgame search or the proven win's move then played),
  which code searched last (viper, or plain where the heap had no room for the viper code), and its worst
  move against its time. The moves and node counts are the device's on any MicroPython with
  viper, such as the unix port (--port unix).
"""

import gc
import sys

from fastpath_positions import ENDGAMES
from time import ticks_diff, ticks_us

import player
from othello.board import Board
from othello.geometry import geometry
from player.engine import SOLVER_TABLE_BITS
from player.levels import BASE_MHZ

MHZ = globals().get("MHZ", BASE_MHZ)
THINK_SIZES = (12, 14)
SOLVER_SIZES = (14, 16)
LIMIT_MS = 600000
UNLIMITED = 10 ** 9


def report(prefix, elapsed, nodes, rates):
    elapsed.sort()
    print(prefix + "positions", len(elapsed))
    print(prefix + "ms_median", elapsed[len(elapsed) // 2])
    print(prefix + "ms_worst", elapsed[-1])
    print(prefix + "nodes", nodes)
    print(prefix + "nodes_per_s", nodes * 1000 // max(sum(elapsed), 1))
    if rates:
        print(prefix + "nodes_per_s_lowest", min(rates))
        print(prefix + "nodes_per_s_highest", max(rates))


def served_by(decision, midgame_nodes):
    """Which code searched last: "viper" or "plain" (where the heap had no room for the viper code or the
    evaluation's buffer: the same moves, slower), or "none" for a move played without a search."""
    engine = player.engine._engine[0]
    if midgame_nodes:
        return "viper" if engine.searcher.fast is not None else "plain"
    if decision.solver_nodes:
        return "viper" if engine.fast_solver is not None else "plain"
    return "none"


def solver_rates():
    """The solver_* lines: the viper solver alone, made here (and let go on return)."""
    # imported here: the player lets its modules go as it swaps its fast paths (player.engine), which
    # empties their namespaces, so a class imported before the player's moves may no longer work
    from player.endgame_viper import ViperSolver

    solver = ViperSolver(geometry(8), max(SOLVER_SIZES), SOLVER_TABLE_BITS)
    for empties in SOLVER_SIZES:
        elapsed, nodes, rates = [], 0, []
        for text in ENDGAMES.get(empties, ()):
            board = Board.from_position(text)
            solver.clear_table()
            started = ticks_us()
            solver.solve_exact(board.player_discs(), board.opponent_discs(), board.variant.anti)
            us = ticks_diff(ticks_us(), started)
            elapsed.append(us // 1000)
            nodes += solver.nodes
            rates.append(solver.nodes * 1000000 // max(us, 1))
        report("solver_%d_" % empties, elapsed, nodes, rates)


def main():
    top = len(player.LEVELS)
    for empties in THINK_SIZES:
        elapsed, nodes, exact = [], 0, 0
        for text in ENDGAMES.get(empties, ()):
            decision = player.think(Board.from_position(text), top, time_limit_ms=LIMIT_MS, rng_seed=1,
                                    solve_node_limit=UNLIMITED)
            elapsed.append(decision.elapsed_ms)
            nodes += decision.nodes
            exact += decision.exact
        print("endgame_%d_exact" % empties, exact)
        report("endgame_%d_" % empties, elapsed, nodes, ())
    solver_rates()
    gc.collect()  # the solver above let go: the top level's moves get the heap a game leaves them
    power = None
    if MHZ != BASE_MHZ and sys.platform == "rp2":  # the unix port has no clock to set: its budgets follow MHZ
        import machine
        import time

        from hw.power import Power

        power = Power(machine, time, MHZ, [])
    level = player.at_clock(player.LEVELS[-1], MHZ)
    solved = cut = worst = 0
    for index, text in enumerate(ENDGAMES.get(level.exact, ())):
        if power is not None:
            power.full_speed()
        try:
            decision = player.think(Board.from_position(text), top, rng_seed=1, mhz=MHZ)
        finally:
            if power is not None:
                power.base_speed()
        solved += decision.exact
        cut += decision.solver_nodes >= level.solve_nodes
        worst = max(worst, decision.elapsed_ms)
        midgame_nodes = decision.nodes - decision.solver_nodes
        print("level_8_move", index + 1, decision.move_name(), "exact" if decision.exact else "not_exact",
              "solver_nodes", decision.solver_nodes, "midgame_nodes", midgame_nodes, "ms", decision.elapsed_ms,
              "served_by", served_by(decision, midgame_nodes))
    print("level_8_mhz", MHZ)
    print("level_8_solve_nodes", level.solve_nodes)
    print("level_8_solved", solved)
    print("level_8_cut_by_solver_budget", cut)
    print("level_8_ms_worst", worst, "of", level.time_ms)


main()
