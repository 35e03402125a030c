"""The post-game review of one game under MicroPython's unix port, for `othello review` (tools/cli/review.py).

The host prepends the settings as globals:
    VARIANT = {...}         the game's Variant.to_dict()
    START = None            or the set-up start position
    TRANSCRIPT = "f5d6..."
    TIME_MS = 10000         the device time of a judgement (player/review.py review_level)
    CACHED = None           or a review kept with the record (Review.encode()): its plies are not judged again

The unix port runs the player's code as the Pico does (the viper search and
solver), and the review's budgets are nodes, so these are the device's
numbers. Each ply is printed as soon as it is judged, as `ply <entry_text>`
(player/review.py: the best move, x exact or ~ estimate, the loss; - a pass),
then `done`.
"""

from othello.variant import Variant
from player.review import Review, entry_text


def main():
    variant = Variant.from_dict(VARIANT)
    review = Review(variant, START, TRANSCRIPT, TIME_MS, CACHED)
    size = review.board.size
    for entry in review.entries:
        print("ply " + entry_text(entry, size))
    while not review.done():
        print("ply " + entry_text(review.step(), size))
    print("done")


main()
