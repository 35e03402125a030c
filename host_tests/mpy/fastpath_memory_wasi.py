"""A whole game, computer against computer, measured on the 32-bit WASI build with a limited heap.

tools/device/wasi_memory.py writes the top level that drives it, in one of two regimes
(tools/runners/micropython_runner.py, module docstring, says why):
- "safe-points", the build as published: automatic collection off, and the top
  level collects between moves, when no search frame is running. game() is a
  generator that plays one move per step, so the top level is a small frame:

      for line in fastpath_memory_wasi.game(8, 1500, 0):
          fastpath_memory_wasi.safe_point_reached()
          gc.collect()
          fastpath_memory_wasi.collected()
          print(line)

- "spilled", the build whose collector sees every root: automatic collection
  on, and the search's polls collect too (collect_every=8), as
  fastpath_memory.py does on the unix port.

The clock is frozen, so the node limit alone ends each search and the game
is the same on every interpreter and at every heap size.

report() prints:
    peak_live     the largest gc.mem_alloc() right after a collection
    peak_alloc    the largest gc.mem_alloc() seen: at every should_stop poll
                  of the search and solver and at each move's end, garbage
                  not collected yet included
    peak_garbage  the most memory allocated between two collections (an
                  allocation peak less the live heap after the collection
                  before it)
    heap_total    gc.mem_alloc() + gc.mem_free(), the heap the run was given
"""

import gc

from othello.board import PASS, Board
from othello.kernels import make_kernel
from othello.geometry import geometry
import player

# live after the last collection, peak_live, peak_alloc, peak_garbage, polls, collect_every
PEAKS = [0, 0, 0, 0, 0, 0]


def frozen_clock():
    return 0


def sample_allocation():
    used = gc.mem_alloc()
    if used > PEAKS[2]:
        PEAKS[2] = used
    if used - PEAKS[0] > PEAKS[3]:
        PEAKS[3] = used - PEAKS[0]


def collected():
    live = gc.mem_alloc()
    PEAKS[0] = live
    if live > PEAKS[1]:
        PEAKS[1] = live


def poll():
    sample_allocation()
    PEAKS[4] += 1
    if PEAKS[5] and PEAKS[4] % PEAKS[5] == 0:
        gc.collect()
        collected()
    return False


def safe_point_reached():
    sample_allocation()


def game(level, node_limit, collect_every):
    """Plays both sides at `level` with `node_limit` nodes per move; yields one line per move.

    collect_every=N collects at every Nth poll of the searches: only where a
    collection inside a search is safe (not on the WASI build as published).
    """
    PEAKS[5] = collect_every
    yield "kernel " + make_kernel(geometry(8), 1).name
    board = Board()
    moves = 0
    while not board.is_game_over():
        decision = player.think(board, level, should_stop=poll, now=frozen_clock, node_limit=node_limit,
                                rng_seed=moves)
        if decision.square == PASS:
            board.pass_turn()
        else:
            board.play(decision.square)
        moves += 1
        yield "move %d %s %d nodes" % (moves, decision.describe(), decision.nodes)
    yield "result " + str(board.result())


def report():
    print("peak_live", PEAKS[1])
    print("peak_alloc", PEAKS[2])
    print("peak_garbage", PEAKS[3])
    print("heap_total", gc.mem_alloc() + gc.mem_free())
