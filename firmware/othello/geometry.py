"""The board as bits, and every bit trick the engine uses, explained once.

Square numbering: on an n x n board the square in column c (a = 0) and row r
(row 1 = 0, at the top) is bit r * n + c. On 8x8, a1 is bit 0, h1 bit 7,
a8 bit 56 and h8 bit 63, as in ../shared/RULES.md.

A position is two integers: the discs of the player to move (`P`) and of the
opponent (`O`). All functions here take and return such masks; they know
nothing about colours, variants or whose turn it is.

Directions. Shifting a mask left by 1 moves every disc one column east
(towards h), by n one row south, by n + 1 south-east, by n - 1 south-west;
shifting right moves the opposite way. A shift east can carry a disc off the
h column onto the a column of the next row; it must not. So:
- move generation only lets runs of opponent discs travel through the inner
  columns (b..g on 8x8) for the six directions with an east-west part: a run
  that starts next to the mover and contains only inner-column discs can never
  wrap, and the square after it is then at most one column past the inner
  ones, so it cannot wrap either;
- flip walks mask each single step with the columns a step may land on.
Left shifts can also run past the last square; masking with `full` drops them.
"""

from othello.compat import bit_index, popcount


class Geometry:
    """The bit masks and move functions of one board shape.

    `blocked` marks squares where no disc may ever stand (the black-hole
    variant): they are never empty, so no move lands there, and they are
    never an opponent disc, so they break every line through them.

    `moves(P, O)` is the mask of legal moves for the player with discs P,
    `flips(P, O, square)` the mask of discs that a move on `square` turns
    (0 when the move is illegal). Both are closures with their masks bound
    as locals: they are the engine's innermost loop on CPython.
    """

    def __init__(self, size, blocked=0):
        if size < 4 or size % 2:
            raise ValueError("board size must be even and at least 4, not %r" % (size,))
        n = size
        self.size = n
        self.squares = n * n
        full = (1 << (n * n)) - 1
        column_a = 0
        for row in range(n):
            column_a |= 1 << (row * n)
        column_last = column_a << (n - 1)
        not_a = full ^ column_a
        not_last = full ^ column_last
        inner = not_a & not_last

        self.full = full
        self.blocked = blocked
        self.playable = full ^ blocked
        half = n // 2
        self.centre = (
            (1 << ((half - 1) * n + half - 1))
            | (1 << ((half - 1) * n + half))
            | (1 << (half * n + half - 1))
            | (1 << (half * n + half))
        )
        # The board the discs play on is the box of rows and columns that hold a playable square: the
        # whole board, or a smaller one inside it whose surrounding squares are blocked (Embedding).
        # Its corners and their X-squares (the square diagonally inward), in the order a1, h1, a8, h8.
        rows = [row for row in range(n) if (self.playable >> (row * n)) & ((1 << n) - 1)]
        first, last = rows[0], rows[-1]
        self.box = (first, last)  # its first and last row, and column: a smaller board sits in the middle
        corner_x = []
        for row, inward in ((first, 1), (last, -1)):
            for column, step in ((first, 1), (last, -1)):
                corner_x.append((1 << (row * n + column), 1 << ((row + inward) * n + column + step)))
        self.corner_x = tuple(corner_x)
        self.corners = 0
        for corner, _ in corner_x:
            self.corners |= corner

        playable = self.playable
        south, south_east, south_west = n, n + 1, n - 1
        south2, south_east2, south_west2 = 2 * n, 2 * (n + 1), 2 * (n - 1)
        # Move generation fills runs of opponent discs with a doubling
        # (Kogge-Stone style) fill: t gets the run squares 1 and 2 away from
        # P, `pair` the opponent discs whose neighbour is one too, and each
        # doubling step two more squares (the opposite direction's `pair` is
        # the same one shifted back). A run is at most n - 2 long: two
        # doublings cover the 6x6 and 8x8 boards, 10x10 needs a third.
        # The eight directions are written out: measured against a loop over
        # them and against dumb7 (one square a step), this is the fastest on
        # CPython and the MicroPython builds and allocates least on the
        # 32-bit one (docs/BENCHMARKS.md).
        long_runs = n > 8

        def moves(P, O):
            o = O & inner  # runs with an east-west part stay off the edge columns
            t = o & (P << 1)  # east
            t |= o & (t << 1)
            pair = o & (o << 1)
            t |= pair & (t << 2)
            t |= pair & (t << 2)
            if long_runs:
                t |= pair & (t << 2)
            legal = t << 1
            t = o & (P >> 1)  # west
            t |= o & (t >> 1)
            pair >>= 1  # = o & (o >> 1)
            t |= pair & (t >> 2)
            t |= pair & (t >> 2)
            if long_runs:
                t |= pair & (t >> 2)
            legal |= t >> 1
            t = o & (P << south_east)  # south-east
            t |= o & (t << south_east)
            pair = o & (o << south_east)
            t |= pair & (t << south_east2)
            t |= pair & (t << south_east2)
            if long_runs:
                t |= pair & (t << south_east2)
            legal |= t << south_east
            t = o & (P >> south_east)  # north-west
            t |= o & (t >> south_east)
            pair >>= south_east  # = o & (o >> south_east)
            t |= pair & (t >> south_east2)
            t |= pair & (t >> south_east2)
            if long_runs:
                t |= pair & (t >> south_east2)
            legal |= t >> south_east
            t = o & (P << south_west)  # south-west
            t |= o & (t << south_west)
            pair = o & (o << south_west)
            t |= pair & (t << south_west2)
            t |= pair & (t << south_west2)
            if long_runs:
                t |= pair & (t << south_west2)
            legal |= t << south_west
            t = o & (P >> south_west)  # north-east
            t |= o & (t >> south_west)
            pair >>= south_west  # = o & (o >> south_west)
            t |= pair & (t >> south_west2)
            t |= pair & (t >> south_west2)
            if long_runs:
                t |= pair & (t >> south_west2)
            legal |= t >> south_west
            o = O  # north-south runs may use every column
            t = o & (P << south)  # south
            t |= o & (t << south)
            pair = o & (o << south)
            t |= pair & (t << south2)
            t |= pair & (t << south2)
            if long_runs:
                t |= pair & (t << south2)
            legal |= t << south
            t = o & (P >> south)  # north
            t |= o & (t >> south)
            pair >>= south  # = o & (o >> south)
            t |= pair & (t >> south2)
            t |= pair & (t >> south2)
            if long_runs:
                t |= pair & (t >> south2)
            legal |= t >> south
            return legal & playable & ~(P | O)

        def flips(P, O, square):
            placed = 1 << square
            if (P | O | blocked) & placed:
                return 0
            # Walk out from the placed disc in each direction while the squares
            # hold opponent discs; keep the run if one of P's discs ends it.
            # Each step is masked with the columns it may land on, so a walk
            # never wraps round an edge. Written out like moves(): on the
            # MicroPython builds this is about twice as fast as a loop over
            # the directions.
            turned = 0
            x = (placed << 1) & not_a  # east
            run = 0
            while x & O:
                run |= x
                x = (x << 1) & not_a
            if x & P:
                turned = run
            x = (placed >> 1) & not_last  # west
            run = 0
            while x & O:
                run |= x
                x = (x >> 1) & not_last
            if x & P:
                turned |= run
            x = placed << south  # south: no column to mask, and O and P end at the last row
            run = 0
            while x & O:
                run |= x
                x <<= south
            if x & P:
                turned |= run
            x = placed >> south  # north
            run = 0
            while x & O:
                run |= x
                x >>= south
            if x & P:
                turned |= run
            x = (placed << south_east) & not_a  # south-east
            run = 0
            while x & O:
                run |= x
                x = (x << south_east) & not_a
            if x & P:
                turned |= run
            x = (placed >> south_east) & not_last  # north-west
            run = 0
            while x & O:
                run |= x
                x = (x >> south_east) & not_last
            if x & P:
                turned |= run
            x = (placed << south_west) & not_last  # south-west
            run = 0
            while x & O:
                run |= x
                x = (x << south_west) & not_last
            if x & P:
                turned |= run
            x = (placed >> south_west) & not_a  # north-east
            run = 0
            while x & O:
                run |= x
                x = (x >> south_west) & not_a
            if x & P:
                turned |= run
            return turned

        self.moves = moves
        self.flips = flips

    def square(self, column, row):
        return row * self.size + column

    def column_row(self, square):
        return square % self.size, square // self.size

    def __eq__(self, other):
        return (
            isinstance(other, Geometry)
            and self.size == other.size
            and self.blocked == other.blocked
        )

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return "Geometry(%d, blocked=%#x)" % (self.size, self.blocked)


def squares_of(mask):
    """The square numbers set in `mask`, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(bit_index(low))
        mask ^= low
    return out


def count(mask):
    return popcount(mask)


_GEOMETRIES = {}


def geometry(size=8, blocked=0):
    """The shared Geometry for a board shape (built once, then reused)."""
    key = (size, blocked)
    found = _GEOMETRIES.get(key)
    if found is None:
        found = _GEOMETRIES[key] = Geometry(size, blocked)
    return found


EMBEDDED_SIZE = 8  # the board that the fast path's bit boards (two 32-bit words) hold


class Embedding:
    """A smaller board inside the 8x8 bit board, so that the 8x8 fast path plays it too.

    The board sits in the middle, `inset` rows and columns in: its square
    r * size + c is the 8x8 square (r + inset) * 8 + c + inset, and the
    squares around it are blocked as the black hole is (`geometry`: no disc
    ever stands there, no move lands there, every line stops there). So the
    moves, flips, mobility, potential mobility and disc counts of a position
    are the board's; the corners and X-squares are the smaller board's
    (Geometry.corner_x, from the playable box). The player searches a 6x6
    game this way on every interpreter (player.engine), so the device and a
    host replay search the same bit boards, table slots and all.
    """

    def __init__(self, size, blocked=0):
        if size >= EMBEDDED_SIZE or size % 2:
            raise ValueError("only an even board smaller than 8x8 fits inside it, not %dx%d" % (size, size))
        self.size = size
        self.inset = (EMBEDDED_SIZE - size) // 2
        # each square's 8x8 square
        self.squares = bytes((row + self.inset) * EMBEDDED_SIZE + column + self.inset
                             for row in range(size) for column in range(size))
        outside = ((1 << EMBEDDED_SIZE * EMBEDDED_SIZE) - 1) ^ self.mask((1 << size * size) - 1)
        self.geometry = geometry(EMBEDDED_SIZE, outside | self.mask(blocked))

    def mask(self, board_mask):
        """The 8x8 mask of a mask of the board's squares."""
        out = 0
        square = 0
        while board_mask:
            if board_mask & 1:
                out |= 1 << self.squares[square]
            board_mask >>= 1
            square += 1
        return out

    def board_square(self, square):
        """The board's square of an 8x8 square inside it."""
        row, column = divmod(square, EMBEDDED_SIZE)
        return (row - self.inset) * self.size + column - self.inset
