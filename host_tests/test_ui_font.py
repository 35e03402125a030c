"""The UI font: the glyph bytes match the pictures below, text is measured and wrapped, and the sheet looks as reviewed.

The pictures are the font's source: to change a glyph, edit it here and run
`python host_tests/test_ui_font.py` to print the new bytes for firmware/ui/font.py.
Each picture is 8 rows of 5 pixels ('#' lit); row 8 holds the descenders.
"""

import sys
from pathlib import Path

import pytest

if __name__ == "__main__":  # run as a script: give it the paths conftest.py gives the tests
    sys.path[:0] = [str(Path(__file__).parent), str(Path(__file__).parent.parent / "firmware")]

from ui_harness import check_reference  # noqa: E402  (first: it makes framebuf importable)
from ui_fakes import FakeDisplay, shown_rows  # noqa: E402

from ui import font  # noqa: E402

ART = (
    (' !"#$%&\'()', """
..... ..#.. .#.#. .#.#. ..#.. ##... .##.. ..#.. ...#. .#...
..... ..#.. .#.#. .#.#. .#### ##..# #..#. ..#.. ..#.. ..#..
..... ..#.. ..... ##### #.#.. ...#. #.#.. .#... .#... ...#.
..... ..#.. ..... .#.#. .###. ..#.. .#... ..... .#... ...#.
..... ..#.. ..... ##### ..#.# .#... #.#.# ..... .#... ...#.
..... ..... ..... .#.#. ####. #..## #..#. ..... ..#.. ..#..
..... ..#.. ..... .#.#. ..#.. ...## .##.# ..... ...#. .#...
..... ..... ..... ..... ..... ..... ..... ..... ..... .....
"""),
    ('*+,-./0123', """
..... ..... ..... ..... ..... ..... .###. ..#.. .###. #####
..#.. ..#.. ..... ..... ..... ....# #...# .##.. #...# ...#.
#.#.# ..#.. ..... ..... ..... ...#. #..## ..#.. ....# ..#..
.###. ##### ..... ##### ..... ..#.. #.#.# ..#.. ...#. ...#.
#.#.# ..#.. ..... ..... ..... .#... ##..# ..#.. ..#.. ....#
..#.. ..#.. .##.. ..... .##.. #.... #...# ..#.. .#... #...#
..... ..... ..#.. ..... .##.. ..... .###. .###. ##### .###.
..... ..... .#... ..... ..... ..... ..... ..... ..... .....
"""),
    ('456789:;<=', """
...#. ##### ..##. ##### .###. .###. ..... ..... ...#. .....
..##. #.... .#... ....# #...# #...# .##.. .##.. ..#.. .....
.#.#. ####. #.... ...#. #...# #...# .##.. .##.. .#... #####
#..#. ....# ####. ..#.. .###. .#### ..... ..... #.... .....
##### ....# #...# .#... #...# ....# .##.. .##.. .#... #####
...#. #...# #...# .#... #...# ...#. .##.. ..#.. ..#.. .....
...#. .###. .###. .#... .###. .##.. ..... .#... ...#. .....
..... ..... ..... ..... ..... ..... ..... ..... ..... .....
"""),
    ('>?@ABCDEFG', """
.#... .###. .###. .###. ####. .###. ###.. ##### ##### .###.
..#.. #...# #...# #...# #...# #...# #..#. #.... #.... #...#
...#. ....# ....# #...# #...# #.... #...# #.... #.... #....
....# ...#. .##.# ##### ####. #.... #...# ####. ####. #.###
...#. ..#.. #.#.# #...# #...# #.... #...# #.... #.... #...#
..#.. ..... #.#.# #...# #...# #...# #..#. #.... #.... #...#
.#... ..#.. .###. #...# ####. .###. ###.. ##### #.... .####
..... ..... ..... ..... ..... ..... ..... ..... ..... .....
"""),
    ('HIJKLMNOPQ', """
#...# .###. ..### #...# #.... #...# #...# .###. ####. .###.
#...# ..#.. ...#. #..#. #.... ##.## #...# #...# #...# #...#
#...# ..#.. ...#. #.#.. #.... #.#.# ##..# #...# #...# #...#
##### ..#.. ...#. ##... #.... #.#.# #.#.# #...# ####. #...#
#...# ..#.. ...#. #.#.. #.... #...# #..## #...# #.... #.#.#
#...# ..#.. #..#. #..#. #.... #...# #...# #...# #.... #..#.
#...# .###. .##.. #...# ##### #...# #...# .###. #.... .##.#
..... ..... ..... ..... ..... ..... ..... ..... ..... .....
"""),
    ('RSTUVWXYZ[', """
####. .#### ##### #...# #...# #...# #...# #...# ##### .###.
#...# #.... ..#.. #...# #...# #...# #...# #...# ....# .#...
#...# #.... ..#.. #...# #...# #...# .#.#. #...# ...#. .#...
####. .###. ..#.. #...# #...# #.#.# ..#.. .#.#. ..#.. .#...
#.#.. ....# ..#.. #...# #...# #.#.# .#.#. ..#.. .#... .#...
#..#. ....# ..#.. #...# .#.#. #.#.# #...# ..#.. #.... .#...
#...# ####. ..#.. .###. ..#.. .#.#. #...# ..#.. ##### .###.
..... ..... ..... ..... ..... ..... ..... ..... ..... .....
"""),
    ('\\]^_`abcde', """
..... .###. ..#.. ..... .#... ..... #.... ..... ....# .....
#.... ...#. .#.#. ..... ..#.. ..... #.... ..... ....# .....
.#... ...#. #...# ..... ...#. .###. #.##. .###. .##.# .###.
..#.. ...#. ..... ..... ..... ....# ##..# #.... #..## #...#
...#. ...#. ..... ..... ..... .#### #...# #.... #...# #####
....# ...#. ..... ..... ..... #...# #...# #...# #...# #....
..... .###. ..... ..... ..... .#### ####. .###. .#### .###.
..... ..... ..... ##### ..... ..... ..... ..... ..... .....
"""),
    ('fghijklmno', """
..##. ..... #.... ..#.. ...#. #.... .##.. ..... ..... .....
.#..# ..... #.... ..... ..... #.... ..#.. ..... ..... .....
.#... .#### #.##. .##.. ..##. #..#. ..#.. ##.#. #.##. .###.
###.. #...# ##..# ..#.. ...#. #.#.. ..#.. #.#.# ##..# #...#
.#... #...# #...# ..#.. ...#. ##... ..#.. #.#.# #...# #...#
.#... .#### #...# ..#.. ...#. #.#.. ..#.. #.#.# #...# #...#
.#... ....# #...# .###. #..#. #..#. .###. #.#.# #...# .###.
..... .###. ..... ..... .##.. ..... ..... ..... ..... .....
"""),
    ('pqrstuvwxy', """
..... ..... ..... ..... .#... ..... ..... ..... ..... .....
..... ..... ..... ..... .#... ..... ..... ..... ..... .....
####. .#### #.##. .#### ###.. #...# #...# #...# #...# #...#
#...# #...# ##..# #.... .#... #...# #...# #...# .#.#. #...#
#...# #...# #.... .###. .#... #...# #...# #.#.# ..#.. #...#
####. .#### #.... ....# .#..# #..## .#.#. #.#.# .#.#. .####
#.... ....# #.... ####. ..##. .##.# ..#.. .#.#. #...# ....#
#.... ....# ..... ..... ..... ..... ..... ..... ..... .###.
"""),
    ('z{|}~\x01\x02\x03\x04\x05', """
..... ...#. ..#.. .#... ..... ..... ..... #.... ..... .....
..... ..#.. ..#.. ..#.. ..... .###. .###. ##... ..... .....
##### ..#.. ..#.. ..#.. .#... ##### #...# ###.. ..#.. #####
...#. .#... ..#.. ...#. #.#.# ##### #...# ####. .###. .###.
..#.. ..#.. ..#.. ..#.. ...#. ##### #...# ###.. ##### ..#..
.#... ..#.. ..#.. ..#.. ..... .###. .###. ##... ..... .....
##### ...#. ..#.. .#... ..... ..... ..... #.... ..... .....
..... ..... ..... ..... ..... ..... ..... ..... ..... .....
"""),
)


def glyph_bytes():
    """The GLYPHS bytes that ART describes: 5 column bytes a glyph, bit 0 the top row."""
    data = bytearray()
    for chars, picture in ART:
        rows = picture.strip("\n").split("\n")
        assert len(rows) == 8, chars
        for index in range(len(chars)):
            for column in range(5):
                bits = 0
                for row in range(8):
                    if rows[row][index * 6 + column] == "#":
                        bits |= 1 << row
                data.append(bits)
    return bytes(data)


def test_glyphs_match_their_pictures():
    assert font.GLYPHS == glyph_bytes()


def test_every_printable_character_and_symbol_has_a_glyph():
    chars = "".join(chars for chars, _ in ART)
    assert chars == "".join(chr(c) for c in range(32, 127)) + font.WHITE_DISC + font.BLACK_DISC + font.POINTER + font.ARROW_UP + font.ARROW_DOWN


@pytest.mark.parametrize("text, shown_as", [("\u00e9", "?"), ("a\u00e9b\u20ac!", "a?b?!")])
def test_unknown_characters_draw_as_one_question_mark_each(text, shown_as):
    display = FakeDisplay()
    end = font.draw_text(display.fb, 0, 0, text)
    display.show()
    reference = FakeDisplay()
    assert end == font.draw_text(reference.fb, 0, 0, shown_as)
    reference.show()
    assert display.shown == reference.shown


def test_text_width_and_scaling():
    assert font.text_width("") == 0
    assert font.text_width("A") == 5
    assert font.text_width("Othello") == 7 * 6 - 1
    assert font.text_width("Hi", 2) == (2 * 6 - 1) * 2
    display = FakeDisplay()
    assert font.draw_text(display.fb, 3, 0, "abc", 1, 2) == 3 + 3 * 12


def test_wrap_breaks_at_spaces_and_splits_long_words():
    assert font.wrap("c4 flips nothing for Black", 10) == ["c4 flips", "nothing", "for Black"]
    assert font.wrap("abcdefghijklm", 5) == ["abcde", "fghij", "klm"]
    assert font.wrap("one\ntwo", 20) == ["one", "two"]
    for line in font.wrap("the first four discs go on the centre squares", 21):
        assert len(line) <= 21


def test_font_sheet_matches_the_reviewed_picture(tmp_path):
    display = FakeDisplay()
    chars = "".join(chars for chars, _ in ART)
    for index in range(0, len(chars), 21):
        font.draw_text(display.fb, 1, 1 + index // 21 * 9, chars[index:index + 21])
    font.draw_text(display.fb, 1, 46, "Scale 2", 1, 2)
    display.show()
    check_reference("font", shown_rows(display), tmp_path)


if __name__ == "__main__":
    data = glyph_bytes()
    text = "".join("\\x%02x" % b for b in data)
    for start in range(0, len(text), 100):
        sys.stdout.write('    b"%s"\n' % text[start:start + 100])
