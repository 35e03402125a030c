"""A position and the rules that apply to it (../shared/RULES.md, "A move", "Passing and the end").

    >>> board = Board()
    >>> [square_name(s) for s in board.legal_squares()]
    ['d3', 'c4', 'f5', 'e6']
    >>> move = board.play(parse_square("f5"))
    >>> board.undo(move)

A Board knows whose turn it is and the variant's rules; the Game (game.py)
adds history, clocks and results on top.
"""

from othello.compat import popcount
from othello.geometry import geometry, squares_of
from othello.notation import format_position, parse_position, parse_square, square_name
from othello.scoring import board_result
from othello.variant import (
    BLACK,
    COLOUR_NAMES,
    START_EMPTY,
    START_PARALLEL,
    WHITE,
    Variant,
    handicap_squares,
)

PASS = -1


class IllegalMoveError(ValueError):
    pass


class Move:
    """One ply as played: the square (PASS for a pass), the discs it turned and who played it."""

    __slots__ = ("square", "flipped", "colour")

    def __init__(self, square, flipped, colour):
        self.square = square
        self.flipped = flipped
        self.colour = colour

    def is_pass(self):
        return self.square == PASS

    def __eq__(self, other):
        return (isinstance(other, Move) and self.square == other.square and self.flipped == other.flipped
                and self.colour == other.colour)

    def __repr__(self):
        return "Move(%s, %s)" % ("pass" if self.square == PASS else self.square, COLOUR_NAMES[self.colour])


class Board:
    def __init__(self, variant=None):
        self.variant = variant if variant is not None else Variant()
        self.geometry = geometry(self.variant.size, self.variant.blocked_mask())
        self.size = self.variant.size
        self.reset()

    # ----- set-up -------------------------------------------------------

    def reset(self):
        """The variant's start: centre discs, handicap corners, first player."""
        v = self.variant
        n = v.size
        half = n // 2
        d4 = (half - 1) * n + half - 1  # top-left centre square
        e4, d5, e5 = d4 + 1, d4 + n, d4 + n + 1
        if v.start == START_EMPTY:
            black = white = 0
        elif v.start == START_PARALLEL:
            black = (1 << d4) | (1 << e4)
            white = (1 << d5) | (1 << e5)
        else:
            black = (1 << d5) | (1 << e4)
            white = (1 << d4) | (1 << e5)
        corners = 0
        for square in handicap_squares(n, v.handicap):
            corners |= 1 << square
        if v.handicap_to == BLACK:
            black |= corners
        else:
            white |= corners
        self.discs = [black, white]
        self.turn = v.first

    @classmethod
    def from_position(cls, text, variant=None):
        """A board from the 64-character format (36 or 100 for the other sizes).

        The variant's size and black hole must match the text; without a
        variant one is made from the text.
        """
        black, white, turn, size, hole = parse_position(text)
        if variant is None:
            variant = Variant(size=size, black_hole=hole)
        elif variant.size != size or variant.black_hole != hole:
            raise ValueError("position is for a %dx%d board%s, not for %s" % (
                size, size, "" if hole is None else " with a hole at " + square_name(hole, size), variant.describe()))
        board = cls(variant)
        board.set_discs(black, white, turn)
        return board

    def set_discs(self, black, white, turn):
        """Replace the position (for set-up mode and tests); rejects overlaps and off-board discs."""
        g = self.geometry
        if black & white:
            raise ValueError("square %s holds both colours" % square_name(squares_of(black & white)[0], self.size))
        for colour_discs in (black, white):
            outside = colour_discs & ~g.playable
            if outside:
                if outside & g.blocked:
                    raise ValueError("a disc cannot stand on the black hole")
                raise ValueError("disc outside the %dx%d board" % (self.size, self.size))
        if turn not in (BLACK, WHITE):
            raise ValueError("turn must be BLACK or WHITE")
        self.discs = [black, white]
        self.turn = turn

    def copy(self):
        other = Board(self.variant)
        other.discs = list(self.discs)
        other.turn = self.turn
        return other

    # ----- reading the position -------------------------------------------

    @property
    def black(self):
        return self.discs[BLACK]

    @property
    def white(self):
        return self.discs[WHITE]

    def player_discs(self):
        return self.discs[self.turn]

    def opponent_discs(self):
        return self.discs[1 - self.turn]

    def count(self, colour):
        return popcount(self.discs[colour])

    def empties(self):
        return popcount(self.geometry.playable & ~(self.discs[0] | self.discs[1]))

    def in_placement_phase(self):
        """Reversi's empty start: until the centre is full, moves fill it and flip nothing."""
        c = self.geometry.centre
        return self.variant.start == START_EMPTY and (self.discs[0] | self.discs[1]) & c != c

    def position(self):
        return format_position(self.discs[0], self.discs[1], self.turn, self.size, self.variant.black_hole)

    def key(self):
        """A hashable identity of the position (discs and side to move)."""
        return (self.discs[0], self.discs[1], self.turn)

    def __eq__(self, other):
        return isinstance(other, Board) and self.variant == other.variant and self.key() == other.key()

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return "Board(%r)" % self.position()

    # ----- the rules --------------------------------------------------------

    def moves_for(self, colour):
        """Mask of the squares where `colour` could play now."""
        if self.in_placement_phase():
            return self.geometry.centre & ~(self.discs[0] | self.discs[1])
        return self.geometry.moves(self.discs[colour], self.discs[1 - colour])

    def legal_moves(self):
        """Mask of the legal moves of the side to move."""
        return self.moves_for(self.turn)

    def legal_squares(self):
        return squares_of(self.legal_moves())

    def is_legal(self, square):
        return 0 <= square < self.size * self.size and bool(self.legal_moves() >> square & 1)

    def flips_for(self, square):
        """Discs the side to move would turn by playing `square` (0 if none or in the placement phase)."""
        if self.in_placement_phase():
            return 0
        return self.geometry.flips(self.discs[self.turn], self.discs[1 - self.turn], square)

    def must_pass(self):
        """The side to move has no move but the opponent has one."""
        return not self.legal_moves() and bool(self.moves_for(1 - self.turn))

    def is_game_over(self):
        return not self.legal_moves() and not self.moves_for(1 - self.turn)

    def why_illegal(self, square):
        """The reason `square` is not a legal move, or None if it is legal."""
        n = self.size
        if not 0 <= square < n * n:
            return "square %r is off the %dx%d board" % (square, n, n)
        name = square_name(square, n)
        bit = 1 << square
        if self.geometry.blocked & bit:
            return "%s is the black hole" % name
        if (self.discs[0] | self.discs[1]) & bit:
            return "%s is occupied" % name
        if self.legal_moves() & bit:
            return None
        if self.is_game_over():
            return "the game is over"
        if self.in_placement_phase():
            return "%s: the first four discs go on the centre squares" % name
        if self.must_pass():
            return "%s has no legal move and must pass" % COLOUR_NAMES[self.turn]
        return "%s flips nothing for %s" % (name, COLOUR_NAMES[self.turn])

    def play(self, square):
        """Play `square` for the side to move and return the Move (for undo).

        An illegal move raises IllegalMoveError with the reason and changes nothing.
        """
        if isinstance(square, str):
            square = parse_square(square, self.size)
        reason = self.why_illegal(square)
        if reason is not None:
            raise IllegalMoveError(reason)
        colour = self.turn
        flipped = self.flips_for(square)
        self.discs[colour] |= flipped | (1 << square)
        self.discs[1 - colour] ^= flipped
        self.turn = 1 - colour
        return Move(square, flipped, colour)

    def pass_turn(self):
        """Pass for the side to move; only allowed when it has no legal move and the game is not over."""
        if self.legal_moves():
            raise IllegalMoveError("%s has a legal move and cannot pass" % COLOUR_NAMES[self.turn])
        if self.is_game_over():
            raise IllegalMoveError("the game is over")
        colour = self.turn
        self.turn = 1 - colour
        return Move(PASS, 0, colour)

    def undo(self, move):
        """Take back `move`, which must be the last one played on this board."""
        colour = move.colour
        if self.turn != 1 - colour:
            raise ValueError("that move was not the last one played")
        if move.square != PASS:
            bit = 1 << move.square
            if not self.discs[colour] & bit:
                raise ValueError("that move was not the last one played")
            self.discs[colour] ^= move.flipped | bit
            self.discs[1 - colour] |= move.flipped
        self.turn = colour

    def result(self):
        """The WOF result of a finished game (None while it goes on)."""
        if not self.is_game_over():
            return None
        return board_result(self.count(BLACK), self.count(WHITE), self.empties(), self.variant.anti)

    def ascii(self, marks=True):
        """The board as text with coordinates; '*' marks the legal moves when `marks`."""
        n = self.size
        legal = self.legal_moves() if marks else 0
        hole = self.geometry.blocked
        lines = ["   " + " ".join("abcdefghij"[:n])]
        for row in range(n):
            cells = []
            for column in range(n):
                bit = 1 << (row * n + column)
                if self.discs[BLACK] & bit:
                    cells.append("X")
                elif self.discs[WHITE] & bit:
                    cells.append("O")
                elif hole & bit:
                    cells.append("#")
                elif legal & bit:
                    cells.append("*")
                else:
                    cells.append(".")
            lines.append("%2d %s" % (row + 1, " ".join(cells)))
        return "\n".join(lines)
