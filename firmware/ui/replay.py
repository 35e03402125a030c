"""A game record played through move by move: a finished game from the records, or the game in progress.

RIGHT, NEXT or OK step forward, LEFT or PREV back, UP jumps to the start,
DOWN to the end, BACK closes. The record is replayed with the engine's own
Game (take back / redo), so passes come back where they happened.
"""

from othello.board import PASS
from othello.game import Game
from othello.notation import square_name
from othello.variant import BLACK, WHITE, Variant
from ui import gfx, keys
from ui.font import BLACK_DISC, WHITE_DISC, draw_text, text_width
from ui.records import score_text
from ui.screen import Screen


class ReplayScreen(Screen):
    def __init__(self, app, record):
        Screen.__init__(self, app)
        self.record = record
        self.game = None
        try:
            game = Game(Variant.from_dict(record["v"]), None, app.device.ticks_ms, record["s"])
            game.play_transcript(record["t"])
        except (TypeError, ValueError):  # a record that no longer replays: a bad variant, an illegal move
            return
        self.game = game
        self.plies = len(game.history)
        self.moves = game.move_count()
        while game.take_back() is not None:
            pass
        self.view = gfx.BoardView(game.board.size)

    def enter(self):
        if self.game is None:
            self.app.pop()
            self.app.notify("This record is damaged")

    def handle(self, action):
        game = self.game
        if action == keys.BACK:
            self.app.pop()
        elif action in (keys.RIGHT, keys.NEXT, keys.OK):
            game.redo()
        elif action in (keys.LEFT, keys.PREV):
            game.take_back()
        elif action == keys.UP:
            while game.take_back() is not None:
                pass
        elif action == keys.DOWN:
            while game.redo() is not None:
                pass
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
        played = game.move_count()
        lines = ["Move %d/%d" % (played, self.moves)]
        if game.history:
            move = game.history[-1]
            name = "pass" if move.square == PASS else square_name(move.square, board.size)
            lines.append("%s %s" % (BLACK_DISC if move.colour == BLACK else WHITE_DISC, name))
        else:
            lines.append("Start")
        if len(game.history) == self.plies and self.record["r"] is not None:
            lines.append("End " + score_text(self.record))
        else:
            lines.append("")
        keymap = self.app.keymap
        lines.append("<> step" if keymap.scheme == "dpad" else keymap.label(keys.NEXT) + ": step")
        lines.append(keymap.label(keys.BACK) + ": back")
        y = 2 * gfx.ROW + 1
        for line in lines:
            draw_text(fb, x, y, line)
            y += gfx.ROW
