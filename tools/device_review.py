"""What the post-game review costs a move on the board it runs on, and up to how many empties it is exact.

    .venv/bin/python tools/pico_emulator.py run tools/device_review.py --lib host_tests/mpy/fastpath_positions.py

The review (player/review.py) judges each position of a game with player.hint in the review's time
(levels.HINT_TIME_MS, the top level's): one judgement a move when the move played was the best, two when
it was not (the position after it is judged too, and is the next move's). For each size it judges the
first POSITIONS positions from play of host_tests/mpy/fastpath_positions.py as the review does and prints
how many were exact (solved) and the median and worst device time of a judgement.
"""

from fastpath_positions import ENDGAMES

import player
from othello.board import Board
from othello.compat import ticks_diff, ticks_ms
from player.levels import HINT_TIME_MS

SIZES = (12, 14, 16)
POSITIONS = 4


def main():
    print("review_time_ms", HINT_TIME_MS)
    for empties in SIZES:
        elapsed, exact = [], 0
        for text in ENDGAMES.get(empties, ())[:POSITIONS]:
            started = ticks_ms()
            decision = player.hint(Board.from_position(text))
            elapsed.append(ticks_diff(ticks_ms(), started))
            exact += decision.exact
        elapsed.sort()
        prefix = "review_%d_" % empties
        print(prefix + "positions", len(elapsed))
        print(prefix + "exact", exact)
        print(prefix + "ms_median", elapsed[len(elapsed) // 2])
        print(prefix + "ms_worst", elapsed[-1])


main()
