"""Position set-up: place and remove discs, choose the side to move, then play on from the position.

OK turns the square under the cursor empty -> Black -> White -> empty;
BACK opens the set-up menu (side to move, play against the computer or a
friend, clear, start position, cancel). The engine checks the position
before play starts: one where neither side can move is refused.
"""

from ui import gfx, keys
from ui.cursor import moved
from ui.font import BLACK_DISC, WHITE_DISC, draw_text
from ui.menu import Item, Menu
from ui.screen import Screen
from ui.session import MODE_COMPUTER, MODE_TWO

COLOURS = ("Black", "White")


class SetupScreen(Screen):
    def __init__(self, app, board):
        Screen.__init__(self, app)
        self.board = board
        self.view = gfx.BoardView(board.size)
        self.cursor = 0
        self.blink = gfx.Blink(app.device.ticks_ms(), app.ticks_diff)

    def tick(self, now):
        if self.blink.update(now):
            self.app.dirty = True

    def handle(self, action):
        n = self.board.size
        self.blink.restart(self.app.device.ticks_ms())
        if action == keys.BACK:
            self.app.push(self.menu())
        elif action == keys.OK:
            self.cycle_square()
        elif action in (keys.NEXT, keys.PREV):
            self.cursor = (self.cursor + (1 if action == keys.NEXT else -1)) % (n * n)
        elif action in (keys.UP, keys.DOWN, keys.LEFT, keys.RIGHT):
            self.cursor = moved(self.cursor, action, n)
        self.app.dirty = True

    def cycle_square(self):
        board = self.board
        bit = 1 << self.cursor
        if board.geometry.blocked & bit:
            self.app.notify("The black hole stays empty")
            return
        black, white = board.discs[0], board.discs[1]
        if black & bit:
            black ^= bit
            white |= bit
        elif white & bit:
            white ^= bit
        else:
            black |= bit
        board.set_discs(black, white, board.turn)

    def menu(self):
        app = self.app
        board = self.board

        def toggle_turn(step):
            board.set_discs(board.discs[0], board.discs[1], 1 - board.turn)

        def clear():
            board.set_discs(0, 0, board.turn)
            app.pop()

        def start_position():
            board.reset()
            app.pop()

        def cancel():
            app.pop()
            app.pop()

        return Menu(app, "Set up", [
            Item("Edit board", app.pop),
            Item("To move", None, lambda: COLOURS[board.turn], toggle_turn),
            Item("Play computer", lambda: self.play(MODE_COMPUTER)),
            Item("Two players", lambda: self.play(MODE_TWO)),
            Item("Clear board", clear),
            Item("Start position", start_position),
            Item("Cancel", cancel),
        ])

    def play(self, mode):
        if self.board.is_game_over():
            self.app.notify("Neither side can move here: nothing to play")
            return
        self.app.start_game(mode, self.board.position(), self.board.variant)

    def draw(self, fb):
        board = self.board
        self.view.draw(fb, board, self.cursor if self.blink.shown else -1)
        x = self.view.right + 2
        lines = [
            "Set up",
            BLACK_DISC + "%2d  " % board.count(0) + WHITE_DISC + "%2d" % board.count(1),
            "To move " + (BLACK_DISC if board.turn == 0 else WHITE_DISC),
        ]
        keymap = self.app.keymap
        if keymap.scheme == "keys":  # the arrows of a d-pad go without saying; these keys need telling
            lines.append(keymap.step_label() + " square")
        lines.append(keymap.label(keys.OK) + ": disc")
        lines += keymap.label_lines(keys.BACK, "menu")
        y = 1
        for line in lines:
            draw_text(fb, x, y, line)
            y += gfx.ROW
