"""Drawing on the display's framebuffer: bars, dialogs, the board and its discs.

Only framebuf's fill, pixel, hline, vline, rect and fill_rect are used, so
the device and the simulator draw identical pixels.

Discs on a one-colour OLED: White is a filled disc, Black a ring (lit means
white, as on the board it stands for). The cursor inverts its square and
blinks (Blink), so the disc under it is also seen as it is.
"""

from othello.compat import const
from ui.font import ADVANCE, draw_columns, draw_text, text_width, wrap

SCREEN_W = 128
_SCREEN_H = const(64)
ROW = 9  # menu and dialog line pitch: 8 pixels of text and one of air


# Disc pictures by diameter, as column bytes like the font's glyphs (bit 0 on
# top): white, black, then the two frames of a disc seen turning (narrow, edge-on).
SPRITES = {
    5: (
        b"\x0e\x1f\x1f\x1f\x0e",
        b"\x0e\x11\x11\x11\x0e",
        b"\x00\x0e\x1f\x0e\x00",
        b"\x00\x00\x1f\x00\x00",
    ),
    7: (
        b"\x1c\x3e\x7f\x7f\x7f\x3e\x1c",
        b"\x1c\x22\x41\x41\x41\x22\x1c",
        b"\x00\x00\x3e\x7f\x3e\x00\x00",
        b"\x00\x00\x00\x7f\x00\x00\x00",
    ),
}
WHITE_SPRITE, BLACK_SPRITE, NARROW_SPRITE, EDGE_SPRITE = 0, 1, 2, 3

_CHUNK_BITS = const(30)  # a Pico small integer holds 30 bits and a sign
_CHUNK_MASK = const((1 << _CHUNK_BITS) - 1)

# Board side -> (square pitch in pixels, disc diameter, grid drawn as lines (else dots), left, top)
LAYOUTS = {
    6: (10, 7, True, 1, 2),
    8: (8, 5, True, 1, 0),
    10: (6, 5, False, 1, 2),
}


def draw_sprite(fb, picture, x, y, colour):
    draw_columns(fb, picture, 0, len(picture), x, y, colour)


def centred(fb, y, text, colour=1, scale=1, left=0, width=SCREEN_W):
    draw_text(fb, left + (width - text_width(text, scale)) // 2, y, text, colour, scale)


def bar(fb, y, text):
    """A lit bar across the screen with dark, centred text: titles and banners."""
    fb.fill_rect(0, y, SCREEN_W, ROW, 1)
    centred(fb, y + 1, text, 0)


def dialog(fb, lines):
    """A framed box with centred lines of text in the middle of the screen, over whatever is there."""
    columns = 0
    for line in lines:
        columns = max(columns, len(line))
    width = columns * ADVANCE + 7
    if width > SCREEN_W - 2 * ADVANCE:
        # The whole width: no sliver of what is under the box beside it, and air between text and frame.
        width = SCREEN_W
    height = len(lines) * ROW + 5
    left = (SCREEN_W - width) // 2
    top = (_SCREEN_H - height) // 2
    fb.fill_rect(left, top, width, height, 0)
    fb.rect(left + 1, top + 1, width - 2, height - 2, 1)
    y = top + 3
    for line in lines:
        centred(fb, y, line, 1, 1, left, width)
        y += ROW


class BoardView:
    """Where each square of an n x n board is on the screen, and how to draw the board."""

    def __init__(self, size):
        pitch, disc, lines, left, top = LAYOUTS[size]
        self.size = size
        self.pitch = pitch
        self.lines = lines
        self.left = left
        self.top = top
        self.inner = pitch - 1  # a square's inside, without its grid line
        self.offset = (self.inner - disc) // 2
        self.sprites = SPRITES[disc]
        self.right = left + size * pitch  # first column right of the board's frame

    def draw_grid(self, fb):
        n, p, left, top = self.size, self.pitch, self.left, self.top
        span = n * p + 1
        fb.rect(left - 1, top - 1, span, span, 1)
        if self.lines:
            for i in range(1, n):
                fb.vline(left - 1 + i * p, top, n * p - 1, 1)
                fb.hline(left, top - 1 + i * p, n * p - 1, 1)
        else:
            for row in range(1, n):
                for column in range(1, n):
                    fb.pixel(left - 1 + column * p, top - 1 + row * p, 1)

    def draw(self, fb, board, cursor=-1, legal=0, last=-1, flipping=0, phase=0):
        """The board with its discs.

        cursor:   square shown inverted (-1 for none)
        legal:    mask of squares to mark with a small cross
        last:     square whose disc gets a centre mark (-1 for none)
        flipping: mask of discs drawn turning, at animation `phase` 1 (edge-on) or 2 (narrow)
        """
        self.draw_grid(fb)
        sprites = self.sprites
        inner, offset, pitch, n = self.inner, self.offset, self.pitch, self.size
        middle = inner // 2
        x, y = self.left - pitch, self.top  # the top-left pixel of each square's inside, walked along
        for square in range(n * n):
            place = square % _CHUNK_BITS
            if not place:
                # the masks have up to 100 bits: big integers on the Pico, which allocate at every
                # operation; a chunk of them is a small integer, tested for nothing
                black = board.discs[0] >> square & _CHUNK_MASK
                white = board.discs[1] >> square & _CHUNK_MASK
                hole = board.geometry.blocked >> square & _CHUNK_MASK
                marked = legal >> square & _CHUNK_MASK
                turning = flipping >> square & _CHUNK_MASK
            bit = 1 << place
            x += pitch
            if square % n == 0 and square:
                x = self.left
                y += pitch
            ink = 1
            if square == cursor:
                if self.lines:
                    fb.fill_rect(x, y, inner, inner, 1)
                else:  # the disc fills the square: light the gap round it too
                    fb.fill_rect(x - 1, y - 1, inner + 2, inner + 2, 1)
                ink = 0
            if (black | white) & bit:
                if turning & bit:
                    picture = sprites[EDGE_SPRITE if phase == 1 else NARROW_SPRITE]
                else:
                    picture = sprites[BLACK_SPRITE if black & bit else WHITE_SPRITE]
                draw_sprite(fb, picture, x + offset, y + offset, ink)
                if square == last:
                    # the centre pixel in the other colour: dark on a filled disc, lit inside a ring
                    fb.pixel(x + middle, y + middle, 1 - ink if white & bit else ink)
            elif hole & bit:
                for i in range(inner):
                    fb.pixel(x + i, y + i, ink)
                    fb.pixel(x + inner - 1 - i, y + i, ink)
            elif marked & bit:
                fb.hline(x + middle - 1, y + middle, 3, ink)
                fb.pixel(x + middle, y + middle - 1, ink)
                fb.pixel(x + middle, y + middle + 1, ink)


_BLINK_ON_MS = const(600)
_BLINK_OFF_MS = const(300)


class Blink:
    """The cursor's blink: shown for _BLINK_ON_MS, hidden for _BLINK_OFF_MS, and shown at once after every move."""

    def __init__(self, now, ticks_diff):
        self.since = now
        self.shown = True
        self.ticks_diff = ticks_diff

    def restart(self, now):
        self.since = now
        self.shown = True

    def update(self, now):
        """Set `shown` for the time `now`; returns True when it changed (the screen needs redrawing)."""
        shown = self.ticks_diff(now, self.since) % (_BLINK_ON_MS + _BLINK_OFF_MS) < _BLINK_ON_MS
        changed = shown != self.shown
        self.shown = shown
        return changed


def title_picture(fb, version):
    """The title screen: what power-up shows while the game gets ready (main.py, then ui.screens.TitleScreen)."""
    centred(fb, 2, "POCKET", 1, 2)
    centred(fb, 20, "OTHELLO", 1, 2)
    discs = SPRITES[7]
    for i in range(8):
        draw_sprite(fb, discs[WHITE_SPRITE if i % 2 else BLACK_SPRITE], 9 + i * 14, 40, 1)
    centred(fb, 54, "v" + version)


def message(fb, title, text, footer=None):
    """A title bar, text wrapped below it and an optional footer bar: error screens."""
    bar(fb, 0, title)
    y = ROW + 1
    for line in wrap(text, 21)[: 5 if footer is None else 4]:
        draw_text(fb, 0, y, line)
        y += ROW
    if footer is not None:
        bar(fb, _SCREEN_H - ROW, footer)


def message_screen(display, title, text, footer=None):
    """A whole screen of message(): for when there is no app to run (a broken config, a crash)."""
    display.fb.fill(0)
    message(display.fb, title, text, footer)
    display.show()
