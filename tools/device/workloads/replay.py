"""Games at each level on the board it runs on, every move recorded with its position, for a host replay.

`tools/device/replay.py` runs this on the emulated Pico (its settings prepended as globals) and then replays
every recorded position on the host with the same level and seed: the issue-13 check that a level's
node budget, not its deadline, decides the device's move. Settings:

    LEVEL_NUMBERS = [1, 2, ...]   the levels to play, each against itself
    OPENINGS = ["<64 squares> <X|O>", ...]   one game per opening per level
    SEED = 1                      the seed of a move is SEED * 100000 + level * 1000 + ply
    MHZ = 200                     the clock the searches run at, as in a game (hw/power.py: the core
                                  voltage raised first); the node budgets follow it (levels.at_clock)

Prints per move `move <level> <game> <ply> <squares> <X|O> <seed> <move> <depth> <nodes> <solver nodes>
<ms> <exact> <book> <mhz>` (the position before the move), per game `game <level> <game> <black discs>
<white discs>`, and at the end `done`.
"""

import gc
import time

from othello.board import PASS, Board
from othello.variant import Variant

import player
from player.levels import BASE_MHZ


def main():
    power = None
    if MHZ != BASE_MHZ:  # on the Pico: the unix port that tests this script has no clock to set
        import machine

        from hw.power import Power

        power = Power(machine, time, MHZ, [])
    player.prepare(Variant())
    mhz = BASE_MHZ if power is None else power.search_mhz
    for level in LEVEL_NUMBERS:
        for game, opening in enumerate(OPENINGS):
            board = Board.from_position(opening)
            ply = 0
            while not board.is_game_over():
                seed = SEED * 100000 + level * 1000 + ply
                squares, side = board.position().split()
                gc.collect()  # as between a game's moves on the device: no collection inside the timed move
                if power is not None:
                    power.full_speed()
                try:
                    decision = player.think(board, level, rng_seed=seed, mhz=mhz)
                finally:
                    if power is not None:
                        power.base_speed()
                if decision.square == PASS:
                    board.pass_turn()
                else:
                    board.play(decision.square)
                print("move", level, game, ply, squares, side, seed, decision.move_name(), decision.depth,
                      decision.nodes, decision.solver_nodes, decision.elapsed_ms, int(decision.exact),
                      int(decision.book), mhz)
                ply += 1
            print("game", level, game, board.count(0), board.count(1))
    print("done")


main()
