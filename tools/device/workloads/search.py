"""The computer player's midgame search on the board it runs on: nodes per second and each level's move times.

`tools/device/bench.py search` runs it on the emulated Pico (or, with --port unix, on MicroPython's unix
port: the same moves and nodes, host time); on a real Pico `mpremote mount firmware run
tools/device/workloads/search.py` runs the 8x8 figures. Settings, prepended as globals by bench.py:

    SIZE = 8       6: Othello and Anti-Othello on 6x6, with the levels' solves; 10: the 10x10 board
    PLAIN = False  True (8x8): the engine refused its viper search and solver, as a full heap refuses them

Prints, for midgame positions of a fixed game (othello.bench.sample_positions, plies PLIES):
- `speed <ply> <nodes> <ms> <depth>`: the top level with no node limit, its own time ending the search;
  then `speed_nodes_per_s <n>` over them all;
- `level <n> <ply> <nodes> <ms> <depth> <budget|deadline>`: each level from FIRST_LEVEL with its own
  node budget and time, and which of the two ended the search; then `level_max_ms <n> <ms> <time_ms>`.

SIZE = 6: for each of the two variants (a `variant <name>` line first) those lines on plies 6 to 15 (26
to 17 empty squares), then
- `solve <ply> <empties> <nodes> <ms> <exact> <viper>`: the top level given all the time and solver nodes
  it needs;
- `level_solve <n> <ply> <nodes> <solver nodes> <ms> <exact> <viper>`: each level from FIRST_LEVEL that
  solves there, with its own budgets and time; `level_solve_max_ms <n> <ms> <time_ms>`.
<viper> is 1 where the viper solver solved, 0 where its code found no room in the heap and the plain
solver (10 to 100 times slower) did.

SIZE = 10: the Pico plays 10x10 with the plain kernel and search (every mask a multi-word big integer),
slower than the levels' node budgets assume, so the deadline ends its moves: the `level` lines say how
close to its time each level keeps.

PLAIN: the viper search's and solver's code each need one free block of 20-25 KB. In a heap a long session
has cut up there may be none: the engine then plays the same moves with the plain search and solver over
the viper kernel, 15-25 times slower, and only the deadline ends its moves. The `level` lines say how long
each move took then; the last line, `fast_path_modules_loaded 0`, that no viper search or solver served.
"""

import sys

from othello.bench import sample_positions
from othello.board import Board
from othello.variant import BLACK, Variant

import player
from player import engine
from player.engine import engine_for
from player.levels import LEVELS, on_board

SIZE = globals().get("SIZE", 8)
PLAIN = globals().get("PLAIN", False)
PLIES = {6: (6, 9, 12, 15), 8: (20, 26, 32, 38), 10: (20, 40)}  # on 10x10: 76 and 56 empty squares
# 40 and 28 empty squares: midgame searches; 14 and 10: the levels that solve them
PLAIN_PLIES = (20, 32, 46, 50)
SOLVE_PLIES = (18, 20, 22)  # on 6x6: 14, 12 and 10 empty squares
FIRST_LEVEL = 5
UNLIMITED = 10 ** 9


def board_at(game, ply, variant):
    player_discs, opponent_discs, _ = game[ply]
    board = Board(variant)
    board.set_discs(player_discs, opponent_discs, BLACK)
    return board


def searches(variant, plies):
    top = len(LEVELS)
    player.think(Board(variant), top, node_limit=1, rng_seed=1)  # the engine's tables first, as a game builds them
    game = sample_positions(1, variant=variant)
    nodes = elapsed = 0
    for ply in plies:
        decision = player.think(board_at(game, ply, variant), top, node_limit=1 << 28, rng_seed=1)
        print("speed", ply, decision.nodes, decision.elapsed_ms, decision.depth)
        nodes += decision.nodes
        elapsed += decision.elapsed_ms
    print("speed_nodes_per_s", nodes * 1000 // max(elapsed, 1))
    for level in LEVELS[FIRST_LEVEL - 1:]:
        level = on_board(level, variant)  # its settings on this board (6x6's own)
        worst = 0
        for ply in plies:
            board = board_at(game, ply, variant)
            decision = player.think(board, level.number, rng_seed=1)
            ended = "budget" if decision.nodes >= level.midgame_nodes(board.empties(), board.size) else "deadline"
            print("level", level.number, ply, decision.nodes, decision.elapsed_ms, decision.depth, ended)
            worst = max(worst, decision.elapsed_ms)
        print("level_max_ms", level.number, worst, level.time_ms)


def solves(variant, boards):
    top = len(LEVELS)
    for ply, board in zip(SOLVE_PLIES, boards):
        decision = player.think(board, top, time_limit_ms=600000, rng_seed=1, solve_node_limit=UNLIMITED)
        print("solve", ply, board.empties(), decision.nodes, decision.elapsed_ms, int(decision.exact),
              int(engine_for(variant).fast_solver is not None))
    for level in LEVELS[FIRST_LEVEL - 1:]:
        level = on_board(level, variant)
        worst = 0
        for ply, board in zip(SOLVE_PLIES, boards):
            if board.empties() > level.exact:
                continue
            decision = player.think(board, level.number, rng_seed=1)
            print("level_solve", level.number, ply, decision.nodes, decision.solver_nodes, decision.elapsed_ms,
                  int(decision.exact), int(engine_for(variant).fast_solver is not None))
            worst = max(worst, decision.elapsed_ms)
        print("level_solve_max_ms", level.number, worst, level.time_ms)


def no_room(*args):
    raise MemoryError("no block for the fast path's code")


def main():
    if SIZE == 6:
        for variant in (Variant(size=6), Variant(size=6, anti=True)):
            print("variant", variant.describe())
            # The endgame positions are made first: made after the searches (a whole game of big integers), they
            # left the solver's code no room, and the plain solver solved, as in no game
            game = sample_positions(1, variant=variant)
            boards = [board_at(game, ply, variant) for ply in SOLVE_PLIES]
            del game
            searches(variant, PLIES[6])
            solves(variant, boards)
    elif PLAIN:
        engine._fast_midgame = no_room
        engine._fast_solver = no_room
        searches(Variant(), PLAIN_PLIES)
        print("fast_path_modules_loaded", sum(1 for name in engine.FAST_MODULES if name in sys.modules))
    else:
        searches(Variant(size=SIZE), PLIES[SIZE])


main()
