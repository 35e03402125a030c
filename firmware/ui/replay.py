"""A game record played through move by move: a finished game from the records, or the game in progress.

It opens at the last move (where the game stands);
RIGHT, NEXT or OK step forward, LEFT or PREV back, UP jumps to the start,
DOWN to the end, BACK closes (ui/records.py replays the record).
"""

from othello.board import PASS
from othello.notation import square_name
from othello.variant import BLACK, WHITE
from ui import gfx, keys
from ui.font import BLACK_DISC, WHITE_DISC, draw_text, text_width
from ui.records import replayed, score_text, step_through
from ui.screen import Screen


class ReplayScreen(Screen):
    def __init__(self, app, record):
        Screen.__init__(self, app)
        self.record = record
        game = self.game = replayed(record, app.device.ticks_ms)
        if game is None:
            return
        self.plies = len(game.future)
        self.moves = self.plies - sum(1 for square in game.future if square == PASS)
        step_through(game, keys.DOWN)  # the record opens at its last move, where the game stands
        self.view = gfx.BoardView(game.board.size)

    def enter(self):
        if self.game is None:
            self.app.pop()
            self.app.notify("This record is damaged")

    def handle(self, action):
        if action == keys.BACK:
            self.app.pop()
        else:
            step_through(self.game, action)
        self.app.dirty = True

    def draw(self, fb):
        game = self.game
        board = game.board
        last = game.last_move()
        self.view.draw(fb, board, -1, 0, -1 if last is None else last.square)
        x = self.view.right + 2
        players = self.record["p"]
        for colour in (BLACK, WHITE):
            y = colour * gfx.ROW
            draw_text(fb, x, y + 1, (BLACK_DISC if colour == BLACK else WHITE_DISC) + "%2d" % board.count(colour))
            draw_text(fb, gfx.SCREEN_W - 1 - text_width(players[colour]), y + 1, players[colour])
        if len(game.history) == self.plies and self.record["r"] is not None:
            result = score_text(self.record)
            lines = [result[0].upper() + result[1:]]  # the end: how it ended
        else:
            lines = ["Move %d/%d" % (game.move_count(), self.moves)]
        if game.history:
            move = game.history[-1]
            name = "pass" if move.square == PASS else square_name(move.square, board.size)
            lines.append("%s %s" % (BLACK_DISC if move.colour == BLACK else WHITE_DISC, name))
        else:
            lines.append("Start")
        keymap = self.app.keymap
        lines.append(keymap.step_label() + " step")
        lines += keymap.label_lines(keys.BACK, "back")
        y = 2 * gfx.ROW + 1
        for line in lines:
            draw_text(fb, x, y, line)
            y += gfx.ROW
