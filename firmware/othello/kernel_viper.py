"""The device fast path: othello.kernel.Kernel again, in viper, for the 8x8 board.

On the Pico every 64-bit bitboard is a heap-allocated big integer (small ints
have 31 bits), so the plain kernel allocates on every move. This twin keeps each
position as four 32-bit words in one preallocated array('I'),

    _pos[4 * ply + 0, 1]   discs of the side to move, squares 0-31 and 32-63
    _pos[4 * ply + 2, 3]   discs of the other side, same halves

and does its bit work in @micropython.viper code on 32-bit values, so a search
that only passes ply numbers and squares allocates nothing. Integers bigger than
32 bits exist only at the boundary: set_root() and position().

Same methods, same results as Kernel (host_tests/test_fastpath.py proves it on
the MicroPython unix port); kernels.make_kernel() picks this one where viper
runs. The traps of ../shared/PICO_FACTS.md shape the code:
- no integer literal above 0x3FFFFFFF inside viper code: the wide masks live in
  the _geo array and are loaded through ptr32;
- every ptr32 load is wrapped in uint(), so right shifts are logical on the Pico;
- uint is 32 bits on the Pico but 64 on the unix port: every left shift, sum or
  product is masked with a clean 32-bit value before it is used, so both ports
  compute the same thing;
- `0 - x` and `x ^ FULL`, never unary minus or ~.

Bit layout (geometry.py): square r*8+c, so the low word holds rows 1-4 and the
high word rows 5-8. Shifts by 1 (east-west) never carry a disc between the
words once the column masks are applied; shifts by 7, 8 and 9 do, and take the
carried bits from the other word.
"""

from array import array

import micropython
from micropython import const

SIZE = 8
WORD = 0xFFFFFFFF

# _geo layout: constants first, then one row per direction pair, then scratch.
G_FULL = const(0)  # 0xFFFFFFFF
G_M1 = const(1)  # 0x55555555 for the popcount
G_PLAYABLE = const(2)  # lo, hi: squares that are not the black hole
G_DIRS = const(4)  # 4 rows of G_DIR_WIDTH
G_DIR_WIDTH = const(7)  # shift, run mask lo/hi, step-up mask lo/hi, step-down mask lo/hi
G_DIRS_END = const(32)  # G_DIRS + 4 * G_DIR_WIDTH
G_LEGAL = const(32)  # lo, hi: the last legal mask _legal() computed
G_SIZE = const(34)

COLUMN_A = 0x0101010101010101
COLUMN_H = COLUMN_A << 7
FULL64 = (1 << 64) - 1

# Index of the lowest set bit by de Bruijn multiplication (0x077CB531 fits inline).
DE_BRUIJN = bytes((0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
                   31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9))


def _split(mask):
    return mask & WORD, (mask >> 32) & WORD


def geometry_table(blocked):
    """The _geo array for an 8x8 board with `blocked` squares (the black hole)."""
    not_a = FULL64 ^ COLUMN_A
    not_h = FULL64 ^ COLUMN_H
    inner = not_a & not_h
    # (shift, run mask, step mask after a left shift, after a right shift): geometry.py's rays
    rays = ((1, inner, not_a, not_h), (SIZE, FULL64, FULL64, FULL64),
            (SIZE + 1, inner, not_a, not_h), (SIZE - 1, inner, not_h, not_a))
    table = array("I", [0] * G_SIZE)
    table[G_FULL] = WORD
    table[G_M1] = 0x55555555
    table[G_PLAYABLE], table[G_PLAYABLE + 1] = _split(FULL64 ^ blocked)
    for index, (shift, run, step_up, step_down) in enumerate(rays):
        row = G_DIRS + index * G_DIR_WIDTH
        table[row] = shift
        table[row + 1], table[row + 2] = _split(run)
        table[row + 3], table[row + 4] = _split(step_up)
        table[row + 5], table[row + 6] = _split(step_down)
    return table


@micropython.viper
def _legal(pos: ptr32, mine: int, theirs: int, geo: ptr32) -> int:
    """Legal moves of the discs at pos[mine..+1] against pos[theirs..+1]: mask into geo[G_LEGAL..+1], count returned.

    Each direction is a flood that stops as soon as no run of opponent discs
    continues (PICO_FACTS: cheaper than a fixed fill on the device).
    """
    full = uint(geo[G_FULL])
    pl = uint(pos[mine])
    ph = uint(pos[mine + 1])
    ol = uint(pos[theirs])
    oh = uint(pos[theirs + 1])
    el = uint(geo[G_PLAYABLE]) & ((pl | ol) ^ full)
    eh = uint(geo[G_PLAYABLE + 1]) & ((ph | oh) ^ full)
    ml = uint(0)
    mh = uint(0)
    d = G_DIRS
    while d < G_DIRS_END:
        s = uint(geo[d])
        back = 32 - s
        rl = ol & uint(geo[d + 1])
        rh = oh & uint(geo[d + 2])
        # towards higher squares
        tl = rl & (pl << s)
        th = rh & ((ph << s) | (pl >> back))
        while tl | th:
            nh = (th << s) | (tl >> back)
            nl = tl << s
            ml |= nl & el
            mh |= nh & eh
            tl = nl & rl
            th = nh & rh
        # towards lower squares
        tl = rl & ((pl >> s) | (ph << back))
        th = rh & (ph >> s)
        while tl | th:
            nl = (tl >> s) | (th << back)
            nh = th >> s
            ml |= nl & el
            mh |= nh & eh
            tl = nl & rl
            th = nh & rh
        d += G_DIR_WIDTH
    geo[G_LEGAL] = ml
    geo[G_LEGAL + 1] = mh
    m1 = uint(geo[G_M1])
    ml = ml - ((ml >> 1) & m1)
    mh = mh - ((mh >> 1) & m1)
    ml = (ml & 0x33333333) + ((ml >> 2) & 0x33333333)
    mh = (mh & 0x33333333) + ((mh >> 2) & 0x33333333)
    ml = ((ml + (ml >> 4)) & 0x0F0F0F0F) + ((mh + (mh >> 4)) & 0x0F0F0F0F)
    return int(((ml * 0x01010101) & full) >> 24)


@micropython.viper
def _popcount64(words: ptr32, at: int, geo: ptr32) -> int:
    """Number of bits set in the 64-bit mask words[at], words[at + 1]."""
    full = uint(geo[G_FULL])
    m1 = uint(geo[G_M1])
    lo = uint(words[at])
    hi = uint(words[at + 1])
    lo = lo - ((lo >> 1) & m1)
    hi = hi - ((hi >> 1) & m1)
    lo = (lo & 0x33333333) + ((lo >> 2) & 0x33333333)
    hi = (hi & 0x33333333) + ((hi >> 2) & 0x33333333)
    lo = ((lo + (lo >> 4)) & 0x0F0F0F0F) + ((hi + (hi >> 4)) & 0x0F0F0F0F)
    return int(((lo * 0x01010101) & full) >> 24)


class ViperKernel:
    name = "viper"

    def __init__(self, geometry, max_ply=64):
        if geometry.size != SIZE:
            raise ValueError("the viper kernel handles the 8x8 board only, not %dx%d" % (geometry.size, geometry.size))
        self.geometry = geometry
        self.max_ply = max_ply
        self.stride = geometry.squares
        self.move_list = bytearray(self.stride * (max_ply + 1))
        self._pos = array("I", [0] * (4 * (max_ply + 2)))
        self._geo = geometry_table(geometry.blocked)
        self._de_bruijn = DE_BRUIJN
        self._scratch = array("I", [0, 0])  # empties() puts the empty-square mask here to count it

    def set_root(self, player, opponent):
        pos = self._pos
        pos[0], pos[1] = _split(player)
        pos[2], pos[3] = _split(opponent)

    def position(self, ply):
        """(discs to move, other discs) at `ply`: for tests and the host, allocates."""
        pos = self._pos
        at = 4 * ply
        return pos[at] | (pos[at + 1] << 32), pos[at + 2] | (pos[at + 3] << 32)

    @micropython.viper
    def generate(self, ply: int) -> int:
        """Write the legal moves at `ply` into move_list[ply * stride ...], lowest square first; return how many."""
        geo = ptr32(self._geo)
        at = ply << 2
        count = int(_legal(self._pos, at, at + 2, geo))
        out = ptr8(self.move_list)
        table = ptr8(self._de_bruijn)
        full = uint(geo[G_FULL])
        i = ply << 6
        offset = 0
        word = G_LEGAL
        while word < G_LEGAL + 2:
            m = uint(geo[word])
            while m:
                low = m & (0 - m)
                out[i] = offset + table[((low * 0x077CB531) & full) >> 27]
                i += 1
                m ^= low
            offset = 32
            word += 1
        return count

    @micropython.viper
    def mobility(self, ply: int) -> int:
        """Number of legal moves of the side to move at `ply`."""
        at = ply << 2
        return int(_legal(self._pos, at, at + 2, self._geo))

    @micropython.viper
    def opponent_mobility(self, ply: int) -> int:
        """Number of legal moves the other side would have at `ply`."""
        at = ply << 2
        return int(_legal(self._pos, at + 2, at, self._geo))

    @micropython.viper
    def play(self, ply: int, square: int) -> int:
        """Write the position after `square` into ply + 1 (sides swapped); return the number of discs flipped.

        Returns 0 and writes nothing if the move flips nothing (illegal).
        """
        pos = ptr32(self._pos)
        geo = ptr32(self._geo)
        full = uint(geo[G_FULL])
        at = ply << 2
        pl = uint(pos[at])
        ph = uint(pos[at + 1])
        ol = uint(pos[at + 2])
        oh = uint(pos[at + 3])
        bl = uint(0)
        bh = uint(0)
        if square < 32:
            bl = uint(1) << square
        else:
            bh = uint(1) << (square - 32)
        if ((pl | ol | (uint(geo[G_PLAYABLE]) ^ full)) & bl) | ((ph | oh | (uint(geo[G_PLAYABLE + 1]) ^ full)) & bh):
            return 0
        fl = uint(0)
        fh = uint(0)
        d = G_DIRS
        while d < G_DIRS_END:
            s = uint(geo[d])
            back = 32 - s
            # towards higher squares: walk while the discs are the opponent's
            ul = uint(geo[d + 3])
            uh = uint(geo[d + 4])
            xl = (bl << s) & ul
            xh = ((bh << s) | (bl >> back)) & uh
            rl = uint(0)
            rh = uint(0)
            while (xl & ol) | (xh & oh):
                rl |= xl
                rh |= xh
                xh = ((xh << s) | (xl >> back)) & uh
                xl = (xl << s) & ul
            if (xl & pl) | (xh & ph):
                fl |= rl
                fh |= rh
            # towards lower squares
            ul = uint(geo[d + 5])
            uh = uint(geo[d + 6])
            xl = ((bl >> s) | (bh << back)) & ul
            xh = (bh >> s) & uh
            rl = uint(0)
            rh = uint(0)
            while (xl & ol) | (xh & oh):
                rl |= xl
                rh |= xh
                xl = ((xl >> s) | (xh << back)) & ul
                xh = (xh >> s) & uh
            if (xl & pl) | (xh & ph):
                fl |= rl
                fh |= rh
            d += G_DIR_WIDTH
        if not (fl | fh):
            return 0
        pos[at + 4] = ol ^ fl
        pos[at + 5] = oh ^ fh
        pos[at + 6] = pl | fl | bl
        pos[at + 7] = ph | fh | bh
        m1 = uint(geo[G_M1])
        fl = fl - ((fl >> 1) & m1)
        fh = fh - ((fh >> 1) & m1)
        fl = (fl & 0x33333333) + ((fl >> 2) & 0x33333333)
        fh = (fh & 0x33333333) + ((fh >> 2) & 0x33333333)
        fl = ((fl + (fl >> 4)) & 0x0F0F0F0F) + ((fh + (fh >> 4)) & 0x0F0F0F0F)
        return int(((fl * 0x01010101) & full) >> 24)

    @micropython.viper
    def pass_move(self, ply: int):
        """Ply + 1 is the same position with the other side to move."""
        pos = ptr32(self._pos)
        at = ply << 2
        pos[at + 4] = pos[at + 2]
        pos[at + 5] = pos[at + 3]
        pos[at + 6] = pos[at]
        pos[at + 7] = pos[at + 1]

    @micropython.viper
    def discs(self, ply: int) -> int:
        """Discs of the side to move at `ply`."""
        return int(_popcount64(self._pos, ply << 2, self._geo))

    @micropython.viper
    def opponent_discs(self, ply: int) -> int:
        return int(_popcount64(self._pos, (ply << 2) + 2, self._geo))

    @micropython.viper
    def empties(self, ply: int) -> int:
        pos = ptr32(self._pos)
        geo = ptr32(self._geo)
        scratch = ptr32(self._scratch)
        at = ply << 2
        full = uint(geo[G_FULL])
        scratch[0] = uint(geo[G_PLAYABLE]) & ((uint(pos[at]) | uint(pos[at + 2])) ^ full)
        scratch[1] = uint(geo[G_PLAYABLE + 1]) & ((uint(pos[at + 1]) | uint(pos[at + 3])) ^ full)
        return int(_popcount64(self._scratch, 0, self._geo))
