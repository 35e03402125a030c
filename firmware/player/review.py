"""Post-game review: what each move of a game cost against the best move.

    review = Review(variant, start, transcript, time_ms=2500)
    while not review.done():
        review.step(should_stop)          # one move at a time: a screen stays responsive
    for entry in review.entries:          # one per ply, passes included
        entry.loss, entry.best, entry.exact
    text = review.encode()                # kept with the record: Review(..., cached=text) is instant

A move's loss is the score of the best move minus the score of the move
played, in discs from the mover's side (WOF scoring, Anti-Othello played to
win it, as the player scores). It is exact when the player's solver settles
both positions within the time given (`exact`), otherwise the midgame
search's estimate, rounded to whole discs. Each position is judged once:
the position after a move is the one the next move is played from.

On the device the searches are limited by time; on the host the same
budgets (levels.hint_level: nodes calibrated to the Pico's speed) end them
first, so the host's review is the one the Pico gives, exact losses
certainly, estimates to within what one search differs from another.
"""

from othello.board import PASS
from othello.game import Game
from othello.notation import parse_square, square_name
from othello.scoring import disc_difference
from player.levels import HINT_TIME_MS
from player import hint

MISTAKE = 4  # discs lost from which a move counts as a mistake
WORST_LISTED = 3  # the summary lists each side's largest losses, at most this many


class Entry:
    """One ply of the review: `square` played by `colour`, `loss` discs against `best` (exact or estimated).

    A pass has `square` PASS, loss 0 and best PASS: it was forced.
    """

    __slots__ = ("ply", "square", "colour", "loss", "best", "exact")

    def __init__(self, ply, square, colour, loss, best, exact):
        self.ply = ply
        self.square = square
        self.colour = colour
        self.loss = loss
        self.best = best
        self.exact = exact

    def is_mistake(self, threshold=MISTAKE):
        return self.loss >= threshold


class Review:
    """The review of one game (a variant, a start position or None, a transcript) computed move by move.

    `cached` is a previous review's encode(): where it fits the game, its
    entries are taken as they are, and only the rest is computed.
    """

    def __init__(self, variant, start, transcript, time_ms=HINT_TIME_MS, cached=None, now=None):
        game = Game(variant, None, start=start)
        game.play_transcript(transcript)
        self.moves = [(move.square, move.colour) for move in game.history]
        while game.take_back() is not None:
            pass
        self.board = game.board  # the position before the next ply to review
        self.time_ms = time_ms
        self.now = now
        self.entries = []
        self.known = None  # (best square, score, exact) of self.board, found as the last ply's reply
        self.stopped = False
        if cached:
            for entry in decode(cached, self.moves, self.board.size):
                self.advance(entry)

    def done(self):
        return len(self.entries) == len(self.moves)

    def step(self, should_stop=None):
        """Review the next ply; returns its Entry, or None if `should_stop` stopped the search (try again)."""
        ply = len(self.entries)
        square, colour = self.moves[ply]
        board = self.board
        if square == PASS:
            return self.advance(Entry(ply, PASS, colour, 0, PASS, True))
        if len(board.legal_squares()) == 1:
            return self.advance(Entry(ply, square, colour, 0, square, True))
        self.stopped = False
        best = self.known if self.known is not None else self.judge(board, should_stop)
        if best is None:
            return None
        best_square, best_score, exact = best
        reply = None
        if square != best_square:
            after = board.copy()
            after.play(square)
            reply = self.judge(after, should_stop)
            if reply is None:
                return None
            loss = best_score + reply[1]  # the reply's score is the opponent's
            exact = exact and reply[2]
            if loss <= 0:  # as good as the best (a tie), or two estimates that disagree: the move played
                loss, best_square = 0, square
        else:
            loss = 0
        self.advance(Entry(ply, square, colour, loss if exact else round_discs(loss), best_square, exact))
        self.known = reply
        return self.entries[-1]

    def advance(self, entry):
        self.entries.append(entry)
        if entry.square == PASS:
            self.board.pass_turn()
        else:
            self.board.play(entry.square)
        self.known = None
        return entry

    def judge(self, board, should_stop):
        """(best square, score, exact) for the side to move on `board`; None if stopped."""
        if board.is_game_over():
            return None, disc_difference(board.result(), board.turn), True
        squares = board.legal_squares()
        if len(squares) <= 1:
            # The player answers a forced move at once with an estimate: the value is the next position's.
            after = board.copy()
            if squares:
                after.play(squares[0])
            else:
                after.pass_turn()
            found = self.judge(after, should_stop)
            if found is None:
                return None
            return (squares[0] if squares else PASS), -found[1], found[2]

        def stop():
            if should_stop is not None and should_stop():
                self.stopped = True
            return self.stopped

        decision = hint(board, should_stop=stop, now=self.now, time_limit_ms=self.time_ms)
        if self.stopped:
            return None
        return decision.square, decision.score, decision.exact

    def encode(self):
        """The entries as short text to keep with the record: 'f5=0,c3x2,d3~5,-' (x exact, ~ estimate)."""
        size = self.board.size
        parts = []
        for entry in self.entries:
            if entry.square == PASS:
                parts.append("-")
            else:
                parts.append("%s%s%d" % (square_name(entry.best, size), "x" if entry.exact else "~", entry.loss))
        return ",".join(parts)

    def worst(self, colour, threshold=MISTAKE, count=WORST_LISTED):
        """`colour`'s mistakes (loss >= threshold), the largest first, at most `count`."""
        mistakes = [entry for entry in self.entries if entry.colour == colour and entry.is_mistake(threshold)]
        mistakes.sort(key=lambda entry: -entry.loss)
        return mistakes[:count]

    def total_loss(self, colour):
        return sum(entry.loss for entry in self.entries if entry.colour == colour)


def round_discs(score):
    return int(score + 0.5) if score >= 0 else -int(-score + 0.5)


def decode(text, moves, size):
    """The entries of encode()'s `text` for the game's `moves` (square, colour); stops at the first that
    does not fit (a cache from another game or a damaged file: the rest is computed again)."""
    entries = []
    if not isinstance(text, str):
        return entries
    for ply, part in enumerate(text.split(",")):
        if ply >= len(moves):
            break
        square, colour = moves[ply]
        if part == "-" and square == PASS:
            entries.append(Entry(ply, PASS, colour, 0, PASS, True))
            continue
        mark = max(part.find("x"), part.find("~"))
        if square == PASS or mark < 2:
            break
        try:
            best = parse_square(part[:mark], size)
            loss = int(part[mark + 1:])
        except ValueError:
            break
        if loss < 0:
            break
        entries.append(Entry(ply, square, colour, loss, best, part[mark] == "x"))
    return entries
