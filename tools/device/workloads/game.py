"""A whole game of the computer against itself through the player API, on the board it runs on.

`tools/device/bench.py game` runs it on the emulated Pico; on a real one `mpremote mount firmware run
tools/device/workloads/game.py`. LEVEL plays both sides from the start, with rng_seed = the ply, so a
rerun plays the same game. Prints `move <ply> <move> <depth> <nodes> <ms> <exact> <free heap after a
collection>` per move and at the end `viper_solver True|False` (whether the last solves had the viper
solver) and `game_over <black> <white> worst_ms <ms> lowest_free <bytes>`.

With the setting ANTI = True (`bench.py game --anti`) the game is 8x8 Anti-Othello. With SIZE = 6
(prepended as a global by `bench.py game --size 6`): whole 6x6 games, levels 5 to 8, Othello and
Anti-Othello, those lines for each (a `game <variant> level <n>` line first).
"""

import gc

from othello.board import PASS, Board
from othello.variant import Variant

import player
import player.engine

SIZE = globals().get("SIZE", 8)
ANTI = globals().get("ANTI", False)
LEVEL = 8


def main(variant=None, level=LEVEL):
    variant = Variant() if variant is None else variant
    player.prepare(variant)
    gc.collect()
    lowest = gc.mem_free()
    print("free_after_prepare", lowest)
    board = Board(variant)
    worst = 0
    ply = 0
    while not board.is_game_over():
        decision = player.think(board, level, rng_seed=ply)
        if decision.square == PASS:
            board.pass_turn()
        else:
            board.play(decision.square)
        gc.collect()
        free = gc.mem_free()
        lowest = min(lowest, free)
        worst = max(worst, decision.elapsed_ms)
        print("move", ply, decision.move_name(), decision.depth, decision.nodes, decision.elapsed_ms, decision.exact,
              free)
        ply += 1
    engine = player.engine.engine_for(variant)
    # the endgame's last solves: with the viper solver where its code found room in the heap (the plain one,
    # 10 to 100 times slower, where it did not or where viper does not run)
    print("viper_solver", engine.fast_solver is not None)
    print("game_over", board.count(0), board.count(1), "worst_ms", worst, "lowest_free", lowest)


if SIZE == 6:
    for variant in (Variant(size=6), Variant(size=6, anti=True)):
        for level in (5, 6, 7, 8):
            print("game", variant.describe(), "level", level)
            main(variant, level)
else:
    main(Variant(anti=ANTI))
