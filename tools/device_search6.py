"""The computer player on 6x6 boards, Othello and Anti-Othello: tools/device_search.py's figures, and its solves.

    .venv/bin/python tools/pico_emulator.py run tools/device_search6.py --lib tools/device_search.py
    MICROPYPATH=firmware:tools .venv/bin/micropython tools/device_search6.py     # on the host

For each of the two variants (a `variant <name>` line first): device_search.main's `speed` and `level`
lines on midgame positions of a fixed 6x6 game (plies PLIES, 26 to 17 empty squares), then
- `solve <ply> <empties> <nodes> <ms> <exact> <viper>`: the top level given all the time and solver nodes
  it needs;
- `level_solve <n> <ply> <nodes> <solver nodes> <ms> <exact> <viper>`: each level from FIRST_LEVEL that
  solves there, with its own budgets and time; `level_solve_max_ms <n> <ms> <time_ms>`.
<viper> is 1 where the viper solver solved, 0 where its code found no room in the heap and the plain
solver (10 to 100 times slower) did.
"""

from device_search import FIRST_LEVEL, board_at, main
from othello.bench import sample_positions
from othello.variant import Variant

import player
from player.engine import engine_for
from player.levels import LEVELS

PLIES = (6, 9, 12, 15)
SOLVE_PLIES = (18, 20, 22)  # 14, 12 and 10 empty squares
UNLIMITED = 10 ** 9


def solves(variant, boards):
    top = len(LEVELS)
    for ply, board in zip(SOLVE_PLIES, boards):
        decision = player.think(board, top, time_limit_ms=600000, rng_seed=1, solve_node_limit=UNLIMITED)
        print("solve", ply, board.empties(), decision.nodes, decision.elapsed_ms, int(decision.exact),
              int(engine_for(variant).fast_solver is not None))
    for level in LEVELS[FIRST_LEVEL - 1:]:
        worst = 0
        for ply, board in zip(SOLVE_PLIES, boards):
            if board.empties() > level.exact:
                continue
            decision = player.think(board, level.number, rng_seed=1)
            print("level_solve", level.number, ply, decision.nodes, decision.solver_nodes, decision.elapsed_ms,
                  int(decision.exact), int(engine_for(variant).fast_solver is not None))
            worst = max(worst, decision.elapsed_ms)
        print("level_solve_max_ms", level.number, worst, level.time_ms)


for variant in (Variant(size=6), Variant(size=6, anti=True)):
    print("variant", variant.describe())
    # The endgame positions are made first: made after the searches (a whole game of big integers), they left
    # the solver's code no room, and the plain solver solved, as in no game
    game = sample_positions(1, variant=variant)
    boards = [board_at(game, ply, variant) for ply in SOLVE_PLIES]
    del game
    main(variant, PLIES)
    solves(variant, boards)
