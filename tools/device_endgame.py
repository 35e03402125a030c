"""The exact endgame on the board it runs on: the top level solving positions from play, given all the time it needs.

    .venv/bin/python tools/pico_emulator.py run tools/device_endgame.py --lib host_tests/mpy/fastpath_positions.py

Positions: host_tests/mpy/fastpath_positions.py (eight from games the player played, per number of empty
squares). For each size it prints the median and worst time of player.think at the top level with a
ten-minute limit (every move here is solved exactly), and the nodes per second of those solves.
"""

from fastpath_positions import ENDGAMES

import player
from othello.board import Board

SIZES = (12, 14)
LIMIT_MS = 600000


def main():
    top = len(player.LEVELS)
    for empties in SIZES:
        elapsed, nodes, exact = [], 0, 0
        for text in ENDGAMES.get(empties, ()):
            decision = player.think(Board.from_position(text), top, time_limit_ms=LIMIT_MS, rng_seed=1)
            elapsed.append(decision.elapsed_ms)
            nodes += decision.nodes
            exact += decision.exact
        if not elapsed:
            continue
        elapsed.sort()
        prefix = "endgame_%d_" % empties
        print(prefix + "positions", len(elapsed))
        print(prefix + "exact", exact)
        print(prefix + "ms_median", elapsed[len(elapsed) // 2])
        print(prefix + "ms_worst", elapsed[-1])
        print(prefix + "nodes_per_s", nodes * 1000 // max(sum(elapsed), 1))


main()
