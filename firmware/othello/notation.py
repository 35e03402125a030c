"""Square names, the position format and transcripts: every parser and writer of text.

- A square is a column letter and a row number: `a1` is the top-left corner.
- A position is one character a square, `X` Black, `O` White, `-` empty
  (`#` for a black hole), row by row from a1, then whitespace and the side to
  move (`X` or `O`): the format the common engines and test suites use.
- A transcript is the moves in order, two or three characters each, passes
  left out: `f5d6c3d3c4`.
- A count is written with its noun in the right number: `1 game`, `2 games`.

Errors are NotationError (a ValueError) and name the offending text and where
it is.
"""

from othello.compat import const

COLUMNS = "abcdefghij"
# Indexed by colour: othello.variant's BLACK (0) and WHITE (1). This module imports nothing, as Variant
# names its black hole with square_name.
_DISC_CHARS = const("XO")
_EMPTY_CHAR = const("-")
_HOLE_CHAR = const("#")


class NotationError(ValueError):
    pass


def counted(count, singular, plural=None):
    """'1 game', '3 games', '1 empty', '2 empties': a count with its noun in the right number."""
    return "%d %s" % (count, singular if count == 1 else plural or singular + "s")


def square_name(square, size=8):
    return COLUMNS[square % size] + str(square // size + 1)


def parse_square(text, size=8):
    """'c4' (any case) to its square number on a size x size board."""
    name = text.strip().lower()
    if len(name) < 2 or name[0] not in COLUMNS[:size] or not name[1:].isdigit():
        raise NotationError("%r is not a square name (a1 to %s)" % (text, square_name(size * size - 1, size)))
    column = COLUMNS.index(name[0])
    row = int(name[1:]) - 1
    if not 0 <= row < size:
        raise NotationError("%r is off the board: rows go from 1 to %d" % (text, size))
    return row * size + column


def format_position(black, white, turn, size=8, hole=None):
    chars = []
    for square in range(size * size):
        bit = 1 << square
        if black & bit:
            chars.append("X")
        elif white & bit:
            chars.append("O")
        elif square == hole:
            chars.append(_HOLE_CHAR)
        else:
            chars.append(_EMPTY_CHAR)
    return "".join(chars) + " " + _DISC_CHARS[turn]


def parse_position(text):
    """Parse a position string; returns (black, white, turn, size, hole).

    The board size follows from the number of square characters (36, 64 or 100).
    """
    stripped = text.strip()
    parts = stripped.split()
    if len(parts) != 2:
        raise NotationError(
            "a position is the squares, whitespace, then X or O for the side to move; got %d part(s)" % len(parts)
        )
    squares, side = parts
    size = None
    for candidate in (6, 8, 10):
        if len(squares) == candidate * candidate:
            size = candidate
    if size is None:
        raise NotationError("a position has 36, 64 or 100 squares, not %d" % len(squares))
    black = white = 0
    hole = None
    for square, char in enumerate(squares):
        upper = char.upper()
        if upper == "X" or upper == "B" or char == "*":
            black |= 1 << square
        elif upper == "O" or upper == "W":
            white |= 1 << square
        elif char == _HOLE_CHAR:
            if hole is not None:
                raise NotationError("second black hole at %s (character %d)" % (square_name(square, size), square + 1))
            hole = square
        elif char not in "-.":
            raise NotationError(
                "unexpected %r at %s (character %d): use X, O, - or #" % (char, square_name(square, size), square + 1)
            )
    side_upper = side.upper()
    if side_upper in ("X", "B", "*"):
        turn = _DISC_CHARS.index("X")
    elif side_upper in ("O", "W"):
        turn = _DISC_CHARS.index("O")
    else:
        raise NotationError("side to move must be X or O, not %r" % side)
    return black, white, turn, size, hole


def is_position_text(text):
    """Whether `text` is meant as a position rather than a transcript.

    Transcripts hold only column letters a-j, digits and whitespace, so any
    disc or empty-square character (X O - . # *) makes it a position, as does
    a first word of exactly 36, 64 or 100 characters followed by another word.
    """
    for char in text:
        if char in "XxOo-.#*":
            return True
    words = text.split()
    return len(words) == 2 and len(words[0]) in (36, 64, 100)


def split_transcript(text, size=8):
    """Square numbers of a transcript such as 'f5d6c3' (any case); whitespace between moves is allowed.

    Errors name the move and the character's position in `text` (counting from 1).
    """
    moves = []
    i = 0
    end = len(text)
    while i < end:
        if text[i].isspace():
            i += 1
            continue
        start = i
        if text[i].lower() not in COLUMNS[:size]:
            raise NotationError(
                "move %d: %r at character %d is not a column letter (a to %s)" % (len(moves) + 1, text[i], i + 1, COLUMNS[size - 1])
            )
        i += 1
        if i < end and text[i].isdigit():
            i += 1
            # rows are one digit, but for row 10 of the 10x10 board
            if size == 10 and text[i - 1] == "1" and i < end and text[i] == "0":
                i += 1
        try:
            moves.append(parse_square(text[start:i], size))
        except NotationError as error:
            raise NotationError("move %d at character %d: %s" % (len(moves) + 1, start + 1, error))
    return moves


def format_transcript(squares, size=8):
    return "".join(square_name(square, size) for square in squares)
