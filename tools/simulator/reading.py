"""Reading the panel as a person would: is this text on the screen?

Scripts and tests wait for what the device shows ("Your move", "Thinking")
rather than for a time, which would depend on how fast the device is (the
same tour then runs on the simulator and on an emulated Pico). The text is
drawn with the firmware's own font code (firmware/ui/font.py) and looked
for anywhere on the glass, lit on dark or dark on lit (a highlighted line).
"""

import functools

from ui.font import HEIGHT, draw_text, text_width


class _Pixels:
    """Enough of a frame buffer for draw_text: the lit pixels as a set of (x, y)."""

    def __init__(self):
        self.lit = set()

    def vline(self, x, y, height, colour):
        self.fill_rect(x, y, 1, height, colour)

    def fill_rect(self, x, y, width, height, colour):
        for dx in range(width):
            for dy in range(height):
                self.lit.add((x + dx, y + dy))


@functools.lru_cache(maxsize=256)
def _pattern(text):
    """The text as column masks (bit 0 = the top row; bytes, as the font is 8 rows high) and which rows count
    (descender only if it has one)."""
    pixels = _Pixels()
    draw_text(pixels, 0, 0, text)
    columns = [0] * text_width(text)
    for x, y in pixels.lit:
        columns[x] |= 1 << y
    rows = (1 << HEIGHT) - 1 if any(column >> (HEIGHT - 1) for column in columns) else (1 << (HEIGHT - 1)) - 1
    return bytes(columns), rows


def shows(screen, text):
    """True if `text` (in the firmware's font, scale 1) is on `screen` (rows of 0/1 values)."""
    columns, mask = _pattern(text)
    if not columns:
        return True
    width = len(screen[0])
    # Each row as an integer with a byte a column (0 or 1): a band of HEIGHT rows, each shifted to its own bit,
    # is then a byte a column, and the text is there where its column bytes are a substring of the band's.
    rows = [int.from_bytes(bytes(row), "little") for row in screen]
    ones = int.from_bytes(b"\x01" * width, "little")
    for y in range(len(screen) - HEIGHT + 2):
        band_rows = rows[y:y + HEIGHT]
        band = 0
        for bit, row in enumerate(band_rows):
            band |= row << bit
        glass = ones * (((1 << len(band_rows)) - 1) & mask)  # below the last row: dark, either way
        for ink in (band & glass, ~band & glass):  # lit on dark, dark on lit
            if columns in ink.to_bytes(width, "little"):
                return True
    return False
