"""A scrolling menu: a title bar and up to six lines, each an action and/or a value that can be changed.

UP/DOWN or NEXT/PREV choose a line; LEFT/RIGHT change its value; OK runs
its action, or steps the value when it has no action; BACK closes the menu.
"""

from othello.compat import const
from ui import gfx, keys
from ui.font import ARROW_DOWN, ARROW_UP, draw_text, text_width
from ui.places import TITLE
from ui.screen import Screen

_VISIBLE = const(6)


class Item:
    """One menu line.

    run():        what OK does (None: OK steps the value)
    value():      the text shown at the right, or None
    change(step): step the value by +1 or -1
    """

    __slots__ = ("label", "run", "value", "change")

    def __init__(self, label, run=None, value=None, change=None):
        self.label = label
        self.run = run
        self.value = value
        self.change = change


class Menu(Screen):
    def __init__(self, app, title, items, gauge=False):
        """gauge: show the battery gauge (if the board has one) at the left of the title bar."""
        Screen.__init__(self, app)
        self.title = title
        self.items = items
        self.gauge = app.gauge if gauge else None
        self.index = 0
        self.scroll = 0

    def select(self, index):
        self.index = index % len(self.items)
        if self.index < self.scroll:
            self.scroll = self.index
        elif self.index >= self.scroll + _VISIBLE:
            self.scroll = self.index - _VISIBLE + 1
        self.app.dirty = True

    def handle(self, action):
        item = self.items[self.index]
        if action in (keys.UP, keys.PREV):
            self.select(self.index - 1)
        elif action in (keys.DOWN, keys.NEXT):
            self.select(self.index + 1)
        elif action in (keys.LEFT, keys.RIGHT) and item.change is not None:
            item.change(-1 if action == keys.LEFT else 1)
            self.app.dirty = True
        elif action == keys.OK:
            if item.run is not None:
                item.run()
            elif item.change is not None:
                item.change(1)
            self.app.dirty = True
        elif action == keys.BACK:
            self.close()

    def close(self):
        app = self.app
        if len(app.screens) == 1:  # the main menu: back to the title
            app.replace(app.make(TITLE))
            return
        app.pop()

    def leave(self):
        self.app.save_settings()

    def draw(self, fb):
        gfx.bar(fb, 0, self.title)
        if self.gauge is not None:
            self.gauge.draw(fb, 1, 1, 0)
        if self.scroll > 0:
            draw_text(fb, gfx.SCREEN_W - 13, 1, ARROW_UP, 0)
        if self.scroll + _VISIBLE < len(self.items):
            draw_text(fb, gfx.SCREEN_W - 7, 1, ARROW_DOWN, 0)
        y = gfx.ROW
        for index in range(self.scroll, min(len(self.items), self.scroll + _VISIBLE)):
            item = self.items[index]
            ink = 1
            if index == self.index:
                fb.fill_rect(0, y, gfx.SCREEN_W, gfx.ROW, 1)
                ink = 0
            draw_text(fb, 2, y + 1, item.label, ink)
            if item.value is not None:
                text = item.value()
                draw_text(fb, gfx.SCREEN_W - 1 - text_width(text), y + 1, text, ink)
            y += gfx.ROW


class TextScreen(Screen):
    """A title and lines of text; any key closes it."""

    def __init__(self, app, title, lines):
        Screen.__init__(self, app)
        self.title = title
        self.lines = lines

    def handle(self, action):
        self.app.pop()

    def draw(self, fb):
        gfx.bar(fb, 0, self.title)
        y = gfx.ROW + 1
        for line in self.lines[:_VISIBLE]:
            draw_text(fb, 2, y, line)
            y += gfx.ROW
