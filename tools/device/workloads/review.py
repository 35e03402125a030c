"""What the post-game review costs a position on the board it runs on, and up to how many empties it is exact.

    .venv/bin/python tools/device/bench.py review               # on the emulated Pico
    .venv/bin/python tools/device/bench.py review --port unix   # the same nodes, host time

The review (player/review.py) judges each position of a game once with the review's budgets
(review_level(), REVIEW_TIME_MS of device time as nodes: one judgement a move when the move played was the
best, two when it was not; the position after a move is the next move's). For each size it judges the
positions from play of host_tests/mpy/fastpath_positions.py as the review does and prints how many were
exact (solved) and the median and worst time of a judgement. The budgets are nodes, so the exact counts
are the same on every port that runs the viper solver; the times are the device's only on the Pico.
"""

from fastpath_positions import ENDGAMES

from othello.board import Board
from othello.compat import ticks_diff, ticks_ms
from player.review import REVIEW_TIME_MS, judge, review_level

SIZES = (12, 14, 16, 18)


def main():
    level = review_level()
    print("review_time_ms", REVIEW_TIME_MS, "solver_nodes", level.solve_nodes, "search_nodes", level.nodes)
    for empties in SIZES:
        elapsed, exact = [], 0
        for text in ENDGAMES.get(empties, ()):
            started = ticks_ms()
            exact += judge(Board.from_position(text), level)[2]
            elapsed.append(ticks_diff(ticks_ms(), started))
        elapsed.sort()
        prefix = "review_%d_" % empties
        print(prefix + "positions", len(elapsed))
        print(prefix + "exact", exact)
        print(prefix + "ms_median", elapsed[len(elapsed) // 2])
        print(prefix + "ms_worst", elapsed[-1])


main()
