"""A game record played through move by move: a finished game from the records, or the game in progress.

It opens at the last move (where the game stands);
RIGHT, NEXT or OK step forward, LEFT or PREV back, UP jumps to the start,
DOWN to the end, BACK closes. The record is replayed with the engine's own
Game (take back / redo), so passes come back where they happened.
"""

from othello.board import PASS
from othello.game import Game
from othello.notation import square_name
from othello.variant import BLACK, WHITE, Variant
from ui import gfx, keys
from ui.app import Screen
from ui.font import BLACK_DISC, WHITE_DISC, draw_text, text_width


def valid_record(record):
    """Whether `record` has the shape Session.record() gives it (a damaged file can hold anything)."""
    players = record.get("p")
    result = record.get("r")
    start = record.get("s")
    return (
        isinstance(record.get("v"), dict)
        and isinstance(record.get("t"), str)
        and (start is None or isinstance(start, str))
        and isinstance(players, list)
        and len(players) == 2
        and isinstance(players[0], str)
        and isinstance(players[1], str)
        and (result is None or (isinstance(result, list) and len(result) == 4 and isinstance(result[1], int) and isinstance(result[2], int)))
    )


def record_title(record):
    """'You-L3', with the board size when it is not 8x8."""
    size = record["v"].get("size", 8)
    prefix = "" if size == 8 else "%d " % size
    return "%s%s-%s" % (prefix, record["p"][0], record["p"][1])


def score_text(record):
    """The result as the player sees it: 'won 40-24' or 'lost 27-9' (your discs first) in a game against the
    computer, 'draw 32-32', else the winner and its score first ('P2 40-24'). The winner follows the
    variant's rule: in Anti-Othello fewer discs win."""
    result = record["r"]
    if result is None:
        return "..."
    winner, discs = result[0], (result[1], result[2])
    if winner not in (BLACK, WHITE):
        return "draw %d-%d" % discs
    players = record["p"]
    side = players.index("You") if "You" in players else winner
    verb = ("won " if side == winner else "lost ") if "You" in players else players[winner] + " "
    return verb + "%d-%d" % (discs[side], discs[1 - side])


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
        self.game = game  # at the last move: the record opens where the game stands
        self.plies = len(game.history)
        self.moves = game.move_count()
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
