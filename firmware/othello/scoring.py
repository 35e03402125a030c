"""How a finished game is scored (../shared/RULES.md, "Passing and the end" and "Clock")."""

from othello.variant import BLACK, WHITE

END_BOARD = "board"  # neither player could move
END_TIME = "time"  # a player's clock ran out
END_RESIGN = "resign"  # a player resigned (link play)
END_AGREED = "agreed"  # both players agreed a draw (link play)


class Result:
    """The outcome of a game.

    winner:       BLACK, WHITE or None for a draw
    black, white: the scores written on the score sheet; they add up to the
                  number of playable squares (64 on 8x8)
    margin:       the winner's points for match play, the score difference (0 for a draw)
    reason:       END_BOARD or END_TIME
    """

    def __init__(self, winner, black, white, reason=END_BOARD):
        self.winner = winner
        self.black = black
        self.white = white
        self.margin = abs(black - white)
        self.reason = reason

    def score_of(self, colour):
        return self.black if colour == BLACK else self.white

    def __eq__(self, other):
        return isinstance(other, Result) and (self.winner, self.black, self.white, self.reason) == (
            other.winner,
            other.black,
            other.white,
            other.reason,
        )

    def __repr__(self):
        who = "draw" if self.winner is None else ("Black" if self.winner == BLACK else "White") + " wins"
        return "Result(%s %d-%d, %s)" % (who, self.black, self.white, self.reason)


def board_result(black_discs, white_discs, empties, anti=False):
    """WOF scoring at the end of the board.

    The player with more discs wins (fewer in Anti-Othello). Empty squares
    count in the winner's favour: added to the winner's discs in Othello, to
    the loser's in Anti-Othello, where more discs is worse. A draw with
    empties splits them evenly.
    """
    if black_discs == white_discs:
        half = empties // 2
        return Result(None, black_discs + half, white_discs + empties - half)
    black_ahead = black_discs > white_discs
    winner = BLACK if black_ahead != bool(anti) else WHITE
    black, white = black_discs, white_discs
    gets_empties = winner if not anti else 1 - winner
    if gets_empties == BLACK:
        black += empties
    else:
        white += empties
    return Result(winner, black, white)


def time_loss_result(loser, black_discs, white_discs, empties, reason=END_TIME):
    """The result when `loser`'s clock runs out (or, with reason END_RESIGN, when `loser` resigns).

    If the loser had more discs on the board, it is recorded as 33-31 for the
    winner (scaled to the board's squares); otherwise the winner gets their
    discs plus every empty square against the loser's discs.
    """
    winner = 1 - loser
    discs = (black_discs, white_discs)
    total = black_discs + white_discs + empties
    if discs[loser] > discs[winner]:
        winner_score = total // 2 + 1
        loser_score = total - winner_score
    else:
        winner_score = discs[winner] + empties
        loser_score = discs[loser]
    if winner == BLACK:
        return Result(BLACK, winner_score, loser_score, reason)
    return Result(WHITE, loser_score, winner_score, reason)


def disc_difference(result, colour):
    """The result from `colour`'s side as a signed margin (for the solver and match play)."""
    if result.winner is None:
        return 0
    return result.margin if result.winner == colour else -result.margin

