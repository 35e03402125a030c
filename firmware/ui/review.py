"""The post-game review: a record stepped through move by move, each move with what it cost.

The board shows the position after the move, the move marked; where a
better move was, its square is lit. The panel says the move's loss in discs
("exact" when the solver settled it, "est." for the search's estimate) and
marks a mistake (player/review.py's MISTAKE discs or more) with "?". The
keys are the replay's (ui/records.py step_through); at the last move OK
shows each side's largest losses, and BACK leaves at once.

The review is computed here one move at a time, between frames; the keys
are read during each search too, so stepping goes on while it thinks and
BACK stops it at once. What is computed is written into the saved record
(Store.keep_review) when the screen closes: a second look is instant.
"""

from othello.board import PASS
from othello.compat import collect_every
from othello.notation import square_name
from othello.variant import BLACK, WHITE, COLOUR_NAMES, Variant
from player.review import Review
from ui import gfx, keys
from ui.font import BLACK_DISC, WHITE_DISC, draw_text
from ui.records import REVIEW, replayed, score_text, step_through
from ui.screen import Screen


class ReviewScreen(Screen):
    def __init__(self, app, record):
        Screen.__init__(self, app)
        self.record = record
        self.review = None
        self.leaving = False
        self.summary = False
        self.poll_at = 0
        game = self.game = replayed(record, app.device.ticks_ms)
        if game is None:
            return
        self.plies = len(game.future)
        self.moves = self.plies - sum(1 for square in game.future if square == PASS)
        cached = record.get(REVIEW)
        if cached is None:
            cached = app.store.saved_review(record)
        self.kept = cached
        self.review = Review(Variant.from_dict(record["v"]), record["s"], record["t"], cached=cached)
        self.view = gfx.BoardView(game.board.size)

    def enter(self):
        if self.review is None:
            self.leaving = True
            self.app.pop()
            self.app.notify("This record is damaged")

    def leave(self):
        if self.review is None:
            return
        text = self.review.encode()
        if text and text != self.kept:
            self.record[REVIEW] = self.kept = text
            self.app.store.keep_review(self.record, text)

    # ----- computing, a move at a time ------------------------------------------------------------

    def tick(self, now):
        review = self.review
        if self.leaving or review is None or review.done():
            return
        self.poll_at = now
        self.app.redraw()
        collecting = collect_every(None)  # as the game screen's search: its allocations are its call frames
        try:
            if review.step(self.should_stop) is not None:
                self.app.dirty = True
        finally:
            collect_every(collecting)

    def should_stop(self):
        """Called during each search: the keys are handled as they come; BACK stops the search."""
        app = self.app
        now = app.device.ticks_ms()
        if app.serviced_since(self.poll_at, now):
            self.poll_at = now
            while app.actions and not self.leaving:
                self.handle(app.actions.pop(0))
            if app.dirty and not self.leaving:
                app.redraw()
        return self.leaving

    def handle(self, action):
        app = self.app
        app.dirty = True
        if action == keys.BACK:
            self.leaving = True
            app.pop()
        elif self.summary:
            self.summary = False
        elif action == keys.OK and not self.game.future:
            self.summary = True
        else:
            step_through(self.game, action)

    # ----- drawing --------------------------------------------------------------------------------

    def entry(self):
        """The review of the last move shown (None at the start or while it is not computed yet)."""
        ply = len(self.game.history) - 1
        if ply < 0 or ply >= len(self.review.entries):
            return None
        return self.review.entries[ply]

    def draw(self, fb):
        game = self.game
        board = game.board
        last = game.last_move()
        entry = self.entry()
        best = -1
        if entry is not None and entry.loss and entry.best != PASS:
            best = entry.best
        self.view.draw(fb, board, best, 0, -1 if last is None or last.square == PASS else last.square)
        x = self.view.right + 2
        for colour in (BLACK, WHITE):
            lost = self.lost_so_far(colour)
            draw_text(fb, x, colour * gfx.ROW + 1, (BLACK_DISC if colour == BLACK else WHITE_DISC)
                      + "%2d" % board.count(colour) + (" -%d" % lost if lost else ""))
        y = 2 * gfx.ROW + 1
        for line in self.panel_lines(entry, last):
            draw_text(fb, x, y, line)
            y += gfx.ROW
        if self.summary:
            gfx.dialog(fb, self.summary_lines())

    def lost_so_far(self, colour):
        """The discs `colour` lost in the moves up to the one shown (of those reviewed)."""
        shown = len(self.game.history)
        return sum(entry.loss for entry in self.review.entries[:shown] if entry.colour == colour)

    def panel_lines(self, entry, last):
        size = self.game.board.size
        lines = ["Move %d/%d" % (self.game.move_count(), self.moves)]
        if last is None:
            lines.append("Start")
        elif last.square == PASS:
            lines.append((BLACK_DISC if last.colour == BLACK else WHITE_DISC) + " pass")
        else:
            mark = "?" if entry is not None and entry.is_mistake() else ""
            lines.append("%s %s%s" % (BLACK_DISC if last.colour == BLACK else WHITE_DISC,
                                      square_name(last.square, size), mark))
            if entry is None:
                lines.append("judging..")
            elif entry.loss == 0:
                lines.append("best" + (" exact" if entry.exact else ""))
            else:
                lines.append("-%d %s" % (entry.loss, "exact" if entry.exact else "est."))
                lines.append("best " + square_name(entry.best, size))
        while len(lines) < 4:
            lines.append("")
        review = self.review
        if not review.done():
            lines.append("Review %d%%" % (100 * len(review.entries) // max(1, len(review.moves))))
        elif not self.game.future:
            lines.append(self.app.keymap.label(keys.OK) + ": sum up")
        else:
            result = score_text(self.record)  # the end, as the records list says it: "won 40-24" fits the panel
            lines.append(result[0].upper() + result[1:])
        return lines

    def summary_lines(self):
        review = self.review
        size = self.game.board.size
        lines = []
        for colour in (BLACK, WHITE):
            mistakes = sum(1 for entry in review.entries if entry.colour == colour and entry.is_mistake())
            lines.append("%s %d mistake%s" % (COLOUR_NAMES[colour], mistakes, "" if mistakes == 1 else "s"))
            worst = review.worst(colour, count=2)
            if worst:
                lines.append(" ".join("%s -%d" % (square_name(entry.square, size), entry.loss) for entry in worst))
        if not review.done():
            lines.append("(review %d/%d)" % (len(review.entries), len(review.moves)))
        return lines
