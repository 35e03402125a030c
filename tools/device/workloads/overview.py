"""How fast and how lean the firmware is on the board it runs on: `make bench-device` runs it on the Pico.

The Pico runs it through `mpremote run tools/device/workloads/overview.py` on its installed firmware,
the emulated Pico through `tools/device/bench.py overview`; the host runs it under MicroPython with
firmware/ on the path:

    MICROPYPATH=firmware .venv/bin/micropython -X heapsize=288K tools/device/workloads/overview.py [--quick]    # 288K: compiling the sources takes heap (docs/FLASHING.md)

It prints one `name value` line per figure, like othello.bench:
- kernel: the kernel searches get on this interpreter (viper fast path or plain);
- perft from the start through that kernel (othello.perft), deepening until a depth takes a second:
  leaves, interior nodes per second, bytes allocated per node; a wrong count adds perft_WRONG_expected;
  with the viper kernel also othello.perft_viper, the one-loop device perft;
- a fixed search: the top level (player.think) with a node limit (the full run: the top level's own
  node budget) on midgame positions of a fixed game: search_nodes_per_s and search_ms_per_move
  (median), book moves left out;
- every level as the game runs it (player.think with the level's own budgets and deadline) on
  midgame positions of the same game: its time and node budgets, how many moves its node budget
  ended (the rest ended by depth or deadline), level_N_ms_per_move (median) and its max;
- free_heap_start / free_heap_end: gc.mem_free() after imports and at the end.
Garbage collection stays on throughout (the Pico's heap is small); only the allocation count of a
depth-3 perft holds it off. --quick (or the setting QUICK = True, prepended as a global by bench.py)
makes every workload tiny (for tests): a smoke check only.
"""

import gc
import sys

from othello import bench
from othello.board import Board
from othello.compat import ticks_diff, ticks_ms
from othello.kernels import make_kernel
from othello.perft import perft
from othello.variant import BLACK

# Leaves of perft from the start, depth 0..9 (othello.perft's conventions).
PERFT_LEAVES = (1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288)
# search_nodes None: the top level's own node budget, so a searched position takes a whole top-level move.
FULL_WORKLOAD = {"perft_ms": 1000, "perft_max_depth": 9, "search_plies": (20, 24, 28, 32, 36), "search_nodes": None,
        "level_plies": (22, 30, 38)}
QUICK_WORKLOAD = {"perft_ms": 60000, "perft_max_depth": 3, "search_plies": (20, 30), "search_nodes": 60, "level_plies": ()}
ALLOCATION_DEPTH = 3  # small enough that the plain kernel's garbage fits the Pico's heap uncollected


def free_heap():
    if gc.isenabled():  # where collection was turned off (the host's WASI build) it stays off
        gc.collect()
    return gc.mem_free() if hasattr(gc, "mem_free") else "n/a"


def timed(work):
    """(result, milliseconds, at least 1) of work()."""
    start = ticks_ms()
    result = work()
    return result, max(ticks_diff(ticks_ms(), start), 1)


def perft_figures(counter, workload, prefix):
    """Perft figures of counter(depth) from the start, one depth deeper until a depth takes workload["perft_ms"]."""
    interior = 1  # positions expanded by a perft of depth d: the leaves of depths 0..d-1
    depth = 1
    while True:
        leaves, ms = timed(lambda: counter(depth))
        if ms >= workload["perft_ms"] or depth == workload["perft_max_depth"]:
            break
        interior += leaves
        depth += 1
    figures = [(prefix + "_depth", depth), (prefix + "_leaves", leaves), (prefix + "_ms", ms),
               (prefix + "_leaves_per_s", leaves * 1000 // ms), (prefix + "_nodes_per_s", interior * 1000 // ms)]
    if leaves != PERFT_LEAVES[depth]:
        figures.append((prefix + "_WRONG_expected", PERFT_LEAVES[depth]))
    return figures


def kernel_perft_figures(board, workload):
    """othello.perft through the kernel searches get."""
    geometry = board.geometry
    player, opponent = board.player_discs(), board.opponent_discs()
    kernel = make_kernel(geometry, workload["perft_max_depth"])
    return perft_figures(lambda depth: perft(geometry, player, opponent, depth, kernel), workload, "perft")


def allocation_figures(board):
    geometry = board.geometry
    kernel = make_kernel(geometry, ALLOCATION_DEPTH)
    used = bench.allocated(lambda: perft(geometry, board.player_discs(), board.opponent_discs(), ALLOCATION_DEPTH, kernel))
    if used is None:
        return []
    interior = PERFT_LEAVES[0] + PERFT_LEAVES[1] + PERFT_LEAVES[2]
    return [("perft_bytes_per_node", used // interior)]


def viper_perft_figures(board, workload):
    from othello import perft_viper

    kernel = make_kernel(board.geometry, workload["perft_max_depth"])
    kernel.set_root(board.player_discs(), board.opponent_discs())
    return perft_figures(lambda depth: perft_viper.perft(kernel, depth), workload, "perft_viper")


def board_at(game, ply):
    player_discs, opponent_discs, _ = game[ply]
    board = Board()
    board.set_discs(player_discs, opponent_discs, BLACK)
    return board


def search_figures(workload):
    """The top level searching midgame positions of a fixed game with a node limit."""
    try:
        import player
    except ImportError as error:
        if "'player'" not in str(error):
            raise  # the player is there but broken: say so
        return [("search", "skipped: no firmware/player")]
    top = len(player.LEVELS)
    node_limit = workload["search_nodes"] or player.LEVELS[top - 1].nodes
    # Build the player's engine (tables, the top level's evaluation weights) first, as the game does:
    # its big blocks need a heap not yet fragmented, and its one-off cost is not a move's.
    player.think(Board(), top, node_limit=1, rng_seed=1)
    game = bench.sample_positions(1)
    elapsed = []
    searched = 0
    for ply in workload["search_plies"]:
        decision = player.think(board_at(game, ply), top, node_limit=node_limit, time_limit_ms=600000, rng_seed=1)
        if not decision.book:
            elapsed.append(decision.elapsed_ms)
            searched += decision.nodes
    if not elapsed:
        return [("search", "skipped: every position was a book move")]
    elapsed.sort()
    return [
        ("search_level", top),
        ("search_moves", len(elapsed)),
        ("search_node_limit", node_limit),
        ("search_nodes_per_s", searched * 1000 // max(sum(elapsed), 1)),
        ("search_ms_per_move", elapsed[len(elapsed) // 2]),
        ("search_ms_per_move_max", elapsed[-1]),
    ]


def level_figures(workload):
    """Each level's time a move as a game sees it: its own node budget and deadline."""
    try:
        import player
    except ImportError:
        return []
    game = bench.sample_positions(1)
    figures = []
    for level in player.LEVELS if workload["level_plies"] else ():
        elapsed = []
        at_budget = 0
        for ply in workload["level_plies"]:
            decision = player.think(board_at(game, ply), level.number, rng_seed=1)
            elapsed.append(decision.elapsed_ms)
            at_budget += decision.nodes >= level.nodes
        elapsed.sort()
        prefix = "level_%d_" % level.number
        figures += [(prefix + "budget_ms", level.time_ms), (prefix + "budget_nodes", level.nodes),
                    (prefix + "moves_ended_by_node_budget", "%d/%d" % (at_budget, len(elapsed))),
                    (prefix + "ms_per_move", elapsed[len(elapsed) // 2]), (prefix + "ms_per_move_max", elapsed[-1])]
    return figures


def main(quick=False):
    workload = QUICK_WORKLOAD if quick else FULL_WORKLOAD
    board = Board()
    kernel_name = make_kernel(board.geometry, 1).name
    print("device_bench", "quick" if quick else "full")
    print("interpreter", sys.implementation.name, ".".join(str(part) for part in sys.implementation.version[:3]),
          sys.platform)
    print("kernel", kernel_name)
    print("free_heap_start", free_heap())
    # The search first: its engine takes big blocks that a heap fragmented by perft might not have.
    figures = search_figures(workload) + level_figures(workload) + kernel_perft_figures(board, workload)
    figures += allocation_figures(board)
    if kernel_name == "viper":
        figures += viper_perft_figures(board, workload)
    for name, value in figures:
        print(name, value)
    print("free_heap_end", free_heap())


if __name__ == "__main__":
    main(quick=globals().get("QUICK", False) or "--quick" in sys.argv)
