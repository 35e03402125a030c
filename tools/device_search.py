"""The computer player's midgame search on the board it runs on: nodes per second and each level's move times.

Run on the emulated Pico (../shared/pico, docs/DEVICE_SPEED.md says how) or on a real one with
`mpremote mount firmware run tools/device_search.py`; on the host:

    MICROPYPATH=firmware .venv/bin/micropython tools/device_search.py

tools/device_search6.py runs it on 6x6 boards (it imports this module: `--lib tools/device_search.py`).
Prints, for midgame positions of a fixed game (othello.bench.sample_positions, plies PLIES on 8x8):
- `speed <ply> <nodes> <ms> <depth>`: the top level with no node limit, its own time ending the search;
  then `speed_nodes_per_s <n>` over them all;
- `level <n> <ply> <nodes> <ms> <depth> <budget|deadline>`: each level from FIRST_LEVEL with its own
  node budget and time, and which of the two ended the search; then `level_max_ms <n> <ms> <time_ms>`.
"""

from othello.bench import sample_positions
from othello.board import Board
from othello.variant import BLACK, Variant

import player
from player.levels import LEVELS

PLIES = (20, 26, 32, 38)
FIRST_LEVEL = 5


def board_at(game, ply, variant):
    player_discs, opponent_discs, _ = game[ply]
    board = Board(variant)
    board.set_discs(player_discs, opponent_discs, BLACK)
    return board


def main(variant=None, plies=PLIES):
    variant = Variant() if variant is None else variant
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
        worst = 0
        for ply in plies:
            decision = player.think(board_at(game, ply, variant), level.number, rng_seed=1)
            ended = "budget" if decision.nodes >= level.nodes else "deadline"
            print("level", level.number, ply, decision.nodes, decision.elapsed_ms, decision.depth, ended)
            worst = max(worst, decision.elapsed_ms)
        print("level_max_ms", level.number, worst, level.time_ms)


if __name__ == "__main__":
    main()
