"""The handheld's one font, drawn with framebuf line operations so every screen has the same pixels.

Glyphs are 5 pixels wide and 7 high (capitals and digits), with one more row
below for the descenders of g, j, p, q, y and the comma; a character cell is
6 x 8 (one column of spacing). Each glyph is five column bytes, bit 0 the top
row: the byte order of an SSD1306 page, the framebuf MONO_VLSB layout.

Besides printable ASCII there are a few symbols, named below. The glyph
pictures are reviewed as text in host_tests/test_ui_font.py, which checks
these bytes against them.
"""

from othello.compat import const

ADVANCE = 6  # pixels from one character to the next
HEIGHT = 8

WHITE_DISC = "\x01"  # a filled disc: how White's discs are drawn
BLACK_DISC = "\x02"  # a ring: how Black's discs are drawn
POINTER = "\x03"
ARROW_UP = "\x04"
ARROW_DOWN = "\x05"

_SYMBOLS = const(5)
_UNKNOWN = const((63 - 32) * 5)  # "?" (character 63)
GLYPHS = (
    b"\x00\x00\x00\x00\x00\x00\x00\x5f\x00\x00\x00\x03\x00\x03\x00\x14\x7f\x14\x7f\x14\x24\x2a\x7f\x2a\x12"
    b"\x23\x13\x08\x64\x62\x36\x49\x55\x22\x50\x00\x04\x03\x00\x00\x00\x1c\x22\x41\x00\x00\x41\x22\x1c\x00"
    b"\x14\x08\x3e\x08\x14\x08\x08\x3e\x08\x08\x00\xa0\x60\x00\x00\x08\x08\x08\x08\x08\x00\x60\x60\x00\x00"
    b"\x20\x10\x08\x04\x02\x3e\x51\x49\x45\x3e\x00\x42\x7f\x40\x00\x42\x61\x51\x49\x46\x21\x41\x45\x4b\x31"
    b"\x18\x14\x12\x7f\x10\x27\x45\x45\x45\x39\x3c\x4a\x49\x49\x30\x01\x71\x09\x05\x03\x36\x49\x49\x49\x36"
    b"\x06\x49\x49\x29\x1e\x00\x36\x36\x00\x00\x00\x56\x36\x00\x00\x08\x14\x22\x41\x00\x14\x14\x14\x14\x14"
    b"\x00\x41\x22\x14\x08\x02\x01\x51\x09\x06\x32\x49\x79\x41\x3e\x7e\x09\x09\x09\x7e\x7f\x49\x49\x49\x36"
    b"\x3e\x41\x41\x41\x22\x7f\x41\x41\x22\x1c\x7f\x49\x49\x49\x41\x7f\x09\x09\x09\x01\x3e\x41\x49\x49\x7a"
    b"\x7f\x08\x08\x08\x7f\x00\x41\x7f\x41\x00\x20\x40\x41\x3f\x01\x7f\x08\x14\x22\x41\x7f\x40\x40\x40\x40"
    b"\x7f\x02\x0c\x02\x7f\x7f\x04\x08\x10\x7f\x3e\x41\x41\x41\x3e\x7f\x09\x09\x09\x06\x3e\x41\x51\x21\x5e"
    b"\x7f\x09\x19\x29\x46\x46\x49\x49\x49\x31\x01\x01\x7f\x01\x01\x3f\x40\x40\x40\x3f\x1f\x20\x40\x20\x1f"
    b"\x3f\x40\x38\x40\x3f\x63\x14\x08\x14\x63\x07\x08\x70\x08\x07\x61\x51\x49\x45\x43\x00\x7f\x41\x41\x00"
    b"\x02\x04\x08\x10\x20\x00\x41\x41\x7f\x00\x04\x02\x01\x02\x04\x80\x80\x80\x80\x80\x00\x01\x02\x04\x00"
    b"\x20\x54\x54\x54\x78\x7f\x48\x44\x44\x38\x38\x44\x44\x44\x20\x38\x44\x44\x48\x7f\x38\x54\x54\x54\x18"
    b"\x08\x7e\x09\x01\x02\x18\xa4\xa4\xa4\x7c\x7f\x08\x04\x04\x78\x00\x44\x7d\x40\x00\x40\x80\x84\x7d\x00"
    b"\x7f\x10\x28\x44\x00\x00\x41\x7f\x40\x00\x7c\x04\x78\x04\x78\x7c\x08\x04\x04\x78\x38\x44\x44\x44\x38"
    b"\xfc\x24\x24\x24\x18\x18\x24\x24\x24\xfc\x7c\x08\x04\x04\x08\x48\x54\x54\x54\x24\x04\x3f\x44\x40\x20"
    b"\x3c\x40\x40\x20\x7c\x1c\x20\x40\x20\x1c\x3c\x40\x30\x40\x3c\x44\x28\x10\x28\x44\x1c\xa0\xa0\xa0\x7c"
    b"\x44\x64\x54\x4c\x44\x00\x08\x36\x41\x00\x00\x00\x7f\x00\x00\x00\x41\x36\x08\x00\x08\x04\x08\x10\x08"
    b"\x1c\x3e\x3e\x3e\x1c\x1c\x22\x22\x22\x1c\x7f\x3e\x1c\x08\x00\x10\x18\x1c\x18\x10\x04\x0c\x1c\x0c\x04"
)


def _offset(code):
    if 32 <= code < 127:
        return (code - 32) * 5
    if 1 <= code <= _SYMBOLS:
        return (94 + code) * 5
    return _UNKNOWN


def draw_columns(fb, data, start, count, x, y, colour=1, scale=1):
    """Draw `count` column bytes of `data` from `start` (bit 0 on top) at (x, y).

    Each run of set bits is one vline (a fill_rect when scaled), which keeps
    the number of framebuf calls small. Glyphs and disc pictures use it.
    """
    for column in range(count):
        bits = data[start + column]
        row = 0
        while bits:
            if bits & 1:
                top = row
                while bits & 1:
                    bits >>= 1
                    row += 1
                if scale == 1:
                    fb.vline(x + column, y + top, row - top, colour)
                else:
                    fb.fill_rect(x + column * scale, y + top * scale, scale, (row - top) * scale, colour)
            else:
                bits >>= 1
                row += 1


_GLYPH = []  # a glyph's column bytes, a FrameBuffer over them, and the palette that draws its bits dark


def _glyph_buffer():
    if not _GLYPH:
        import framebuf

        columns = bytearray(5)
        dark = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
        dark.pixel(0, 0, 1)  # a blank bit becomes 1, the blit's key (not drawn); a glyph bit becomes 0
        _GLYPH.extend((columns, framebuf.FrameBuffer(columns, 5, HEIGHT, framebuf.MONO_VLSB), dark))
    return _GLYPH


def _codes(text):
    """A code for each character of `text`: ASCII as it is, any other character its UTF-8 lead byte (an
    unknown glyph). Read from the text's bytes, not its characters: on MicroPython each character taken
    from a str is interned, and every name interned stays in the heap for good (docs/MEMORY.md,
    "Interned names")."""
    for code in text.encode():
        if not 0x80 <= code < 0xC0:  # not a later byte of a character
            yield code


def draw_text(fb, x, y, text, colour=1, scale=1):
    """Draw `text` with its top-left corner at (x, y); returns the x after it."""
    if scale == 1 and hasattr(fb, "blit"):
        # A frame buffer gets one blit a character: three times quicker on the Pico than a line for each
        # run of bits (a menu's text in 40 ms, not 120), the same pixels.
        columns, glyph, dark = _glyph_buffer()
        for code in _codes(text):
            start = _offset(code)
            for index in range(5):
                columns[index] = GLYPHS[start + index]
            if colour:
                fb.blit(glyph, x, y, 0)
            else:
                fb.blit(glyph, x, y, 1, dark)
            x += ADVANCE
        return x
    for code in _codes(text):
        draw_columns(fb, GLYPHS, _offset(code), 5, x, y, colour, scale)
        x += ADVANCE * scale
    return x


def text_width(text, scale=1):
    """Width in pixels of `text`, without the spacing after its last character."""
    return max(0, len(text) * ADVANCE - 1) * scale


def wrap(text, columns):
    """Split `text` into lines of at most `columns` characters, breaking at spaces where it can."""
    lines = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            while len(word) > columns:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:columns])
                word = word[columns:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= columns:
                line += " " + word
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines
