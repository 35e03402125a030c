"""The rule options of ../shared/RULES.md that change how a game is set up or scored."""

from othello.compat import const
from othello.notation import square_name

BLACK = 0
WHITE = 1
COLOUR_NAMES = ("Black", "White")

# How the four centre squares are filled at the start.
START_OTHELLO = "othello"  # White d4 e5, Black d5 e4 (the diagonal start)
START_PARALLEL = "parallel"  # Black d4 e4, White d5 e5, as on the Casio handheld
START_EMPTY = "empty"  # Reversi: the first four moves fill the centre, flipping nothing
STARTS = (START_OTHELLO, START_PARALLEL, START_EMPTY)

SIZES = (6, 8, 10)

# Handicap corners are given in this order: a1, h8, h1, a8 (opposite corners first).
_MAX_HANDICAP = const(4)


class Variant:
    """Everything that distinguishes one kind of game from another.

    size:        board side, 6, 8 or 10
    start:       START_OTHELLO, START_PARALLEL or START_EMPTY
    first:       the colour that moves first (BLACK in Othello)
    anti:        Anti-Othello: the player with fewer discs wins
    handicap:    0..4 corner discs given before the first move ...
    handicap_to: ... to this colour
    black_hole:  a square number where no disc may stand, or None
    """

    def __init__(
        self,
        size=8,
        start=START_OTHELLO,
        first=BLACK,
        anti=False,
        handicap=0,
        handicap_to=BLACK,
        black_hole=None,
    ):
        if size not in SIZES:
            raise ValueError("board size must be one of %s, not %r" % (SIZES, size))
        if start not in STARTS:
            raise ValueError("start must be one of %s, not %r" % (STARTS, start))
        if first not in (BLACK, WHITE) or handicap_to not in (BLACK, WHITE):
            raise ValueError("colours are BLACK (0) or WHITE (1)")
        if not 0 <= handicap <= _MAX_HANDICAP:
            raise ValueError("handicap is 0 to %d corners, not %r" % (_MAX_HANDICAP, handicap))
        if black_hole is not None:
            if not 0 <= black_hole < size * size:
                raise ValueError("black hole square %r is off the board" % (black_hole,))
            column, row = black_hole % size, black_hole // size
            half = size // 2
            if column in (half - 1, half) and row in (half - 1, half):
                raise ValueError("the black hole cannot be a centre square")
            if handicap and black_hole in handicap_squares(size, handicap):
                raise ValueError("the black hole cannot be a handicap corner")
        self.size = size
        self.start = start
        self.first = first
        self.anti = bool(anti)
        self.handicap = handicap
        self.handicap_to = handicap_to
        self.black_hole = black_hole

    def blocked_mask(self):
        return 0 if self.black_hole is None else 1 << self.black_hole

    def is_standard(self):
        return self == Variant()

    def describe(self):
        """A short human description, e.g. '8x8 Othello' or '6x6 Anti, hole c2'."""
        parts = ["%dx%d" % (self.size, self.size)]
        parts.append({START_OTHELLO: "Othello", START_PARALLEL: "parallel", START_EMPTY: "Reversi"}[self.start])
        if self.anti:
            parts.append("anti")
        if self.first == WHITE:
            parts.append("White first")
        if self.handicap:
            parts.append("%s +%d corner%s" % (COLOUR_NAMES[self.handicap_to], self.handicap, "s" if self.handicap > 1 else ""))
        if self.black_hole is not None:
            parts.append("hole " + square_name(self.black_hole, self.size))
        return " ".join(parts)

    def to_dict(self):
        return {
            "size": self.size,
            "start": self.start,
            "first": self.first,
            "anti": self.anti,
            "handicap": self.handicap,
            "handicap_to": self.handicap_to,
            "black_hole": self.black_hole,
        }

    @classmethod
    def from_dict(cls, data):
        """Inverse of to_dict; raises ValueError naming a bad field."""
        known = ("size", "start", "first", "anti", "handicap", "handicap_to", "black_hole")
        for key in data:
            if key not in known:
                raise ValueError("unknown variant field %r" % (key,))
        return cls(**data)

    def __eq__(self, other):
        return isinstance(other, Variant) and self.to_dict() == other.to_dict()

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return "Variant(%s)" % self.describe()


def handicap_squares(size, count):
    """The corner squares that a handicap of `count` discs fills, in order."""
    last = size * size - 1
    return (0, last, size - 1, last - size + 1)[:count]
