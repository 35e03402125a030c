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
the MicroPython unix port, and fails if Kernel gains a method this class lacks);
kernels.make_kernel() picks this one where viper runs. The traps of
../shared/PICO_FACTS.md shape the code:
- no integer literal above 0x3FFFFFFF inside viper code: the wide masks live in
  the _geo array and are loaded once per call through ptr32;
- every ptr32 load is wrapped in uint(), so right shifts are logical on the Pico;
- uint is 32 bits on the Pico but 64 on the unix port: every left shift, sum or
  product is masked with a clean 32-bit value before it is used, so both ports
  compute the same thing;
- `0 - x` and `x ^ full`, never unary minus or ~.

Bit layout (geometry.py): square r*8+c, so the low word holds rows 1-4 and the
high word rows 5-8. Shifts by 1 (east-west) never carry a disc between the
words once the column masks are applied; shifts by 7, 8 and 9 do, and take the
carried bits from the other word. The directions are unrolled with constant
shifts: on the Cortex-M0+ a table-driven loop costs a load and an index
computation per mask, which is most of a step.
"""

import sys
from array import array

if sys.implementation.name != "micropython":
    # CPython may have a `micropython` stub package, but viper annotations only compile here
    raise ImportError("viper code runs on MicroPython only")

import micropython  # noqa: E402
from micropython import const  # noqa: E402

from othello.kernel_tables import HASH_MULTIPLIERS, LOCK_MULTIPLIERS, edge_half_table  # noqa: E402

SIZE = 8
WORD = 0xFFFFFFFF

# _geo layout (names starting with _ are compile-time constants only: no globals, see endgame_viper)
_G_FULL = const(0)  # 0xFFFFFFFF
_G_M1 = const(1)  # 0x55555555, for the popcount
_G_PLAYABLE = const(2)  # lo, hi: the squares that are not the black hole
_G_NOT_A = const(4)  # 0xFEFEFEFE: where a step east may land
_G_NOT_H = const(5)  # 0x7F7F7F7F: where a step west may land
_G_INNER = const(6)  # 0x7E7E7E7E: columns b-g, where a run with an east-west part may pass
_G_LEGAL = const(7)  # lo, hi: the mask _legal() computed last
_G_HASH = const(9)  # 4 multipliers of Kernel.hash(), then 4 of Kernel.lock()
_G_LOCK = const(13)
_G_SIZE = const(17)
_FINAL_MULTIPLIER = const(0x1CC9E2D5)  # kernel_tables.FINAL_MULTIPLIER (a viper constant must be a literal)

# Index of the lowest set bit by de Bruijn multiplication (0x077CB531 fits inline).
DE_BRUIJN = bytes((0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
                   31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9))


def _split(mask):
    return mask & WORD, (mask >> 32) & WORD


def geometry_table(blocked):
    """The _geo array for an 8x8 board with `blocked` squares (the black hole)."""
    table = array("I", bytes(4 * _G_SIZE))
    table[_G_FULL] = WORD
    table[_G_M1] = 0x55555555
    table[_G_PLAYABLE], table[_G_PLAYABLE + 1] = _split(((1 << 64) - 1) ^ blocked)
    table[_G_NOT_A] = 0xFEFEFEFE
    table[_G_NOT_H] = 0x7F7F7F7F
    table[_G_INNER] = 0x7E7E7E7E
    for i in range(4):
        table[_G_HASH + i] = HASH_MULTIPLIERS[i]
        table[_G_LOCK + i] = LOCK_MULTIPLIERS[i]
    return table


@micropython.viper
def _legal(pos: ptr32, mine: int, theirs: int, geo: ptr32) -> int:
    """Legal moves of the discs at pos[mine..+1] against pos[theirs..+1]: the mask goes to geo[_G_LEGAL..+1], the count is returned.

    Each direction is a flood that stops as soon as no run of opponent discs
    goes on (PICO_FACTS: cheaper on the device than a fixed fill).
    """
    full = uint(geo[_G_FULL])
    inner = uint(geo[_G_INNER])
    pl = uint(pos[mine])
    ph = uint(pos[mine + 1])
    ol = uint(pos[theirs])
    oh = uint(pos[theirs + 1])
    el = uint(geo[_G_PLAYABLE]) & ((pl | ol) ^ full)
    eh = uint(geo[_G_PLAYABLE + 1]) & ((ph | oh) ^ full)
    ml = uint(0)
    mh = uint(0)
    rl = ol & inner
    rh = oh & inner
    tl = rl & (pl << 1)
    th = rh & (ph << 1)
    while tl | th:
        tl = tl << 1
        th = th << 1
        ml |= tl & el
        mh |= th & eh
        tl &= rl
        th &= rh
    tl = rl & (pl >> 1)
    th = rh & (ph >> 1)
    while tl | th:
        tl = tl >> 1
        th = th >> 1
        ml |= tl & el
        mh |= th & eh
        tl &= rl
        th &= rh
    rl = ol
    rh = oh
    tl = rl & (pl << 8)
    th = rh & ((ph << 8) | (pl >> 24))
    while tl | th:
        th = (th << 8) | (tl >> 24)
        tl = tl << 8
        ml |= tl & el
        mh |= th & eh
        tl &= rl
        th &= rh
    tl = rl & ((pl >> 8) | (ph << 24))
    th = rh & (ph >> 8)
    while tl | th:
        tl = (tl >> 8) | (th << 24)
        th = th >> 8
        ml |= tl & el
        mh |= th & eh
        tl &= rl
        th &= rh
    rl = ol & inner
    rh = oh & inner
    tl = rl & (pl << 9)
    th = rh & ((ph << 9) | (pl >> 23))
    while tl | th:
        th = (th << 9) | (tl >> 23)
        tl = tl << 9
        ml |= tl & el
        mh |= th & eh
        tl &= rl
        th &= rh
    tl = rl & ((pl >> 9) | (ph << 23))
    th = rh & (ph >> 9)
    while tl | th:
        tl = (tl >> 9) | (th << 23)
        th = th >> 9
        ml |= tl & el
        mh |= th & eh
        tl &= rl
        th &= rh
    rl = ol & inner
    rh = oh & inner
    tl = rl & (pl << 7)
    th = rh & ((ph << 7) | (pl >> 25))
    while tl | th:
        th = (th << 7) | (tl >> 25)
        tl = tl << 7
        ml |= tl & el
        mh |= th & eh
        tl &= rl
        th &= rh
    tl = rl & ((pl >> 7) | (ph << 25))
    th = rh & (ph >> 7)
    while tl | th:
        tl = (tl >> 7) | (th << 25)
        th = th >> 7
        ml |= tl & el
        mh |= th & eh
        tl &= rl
        th &= rh
    geo[_G_LEGAL] = ml
    geo[_G_LEGAL + 1] = mh
    m1 = uint(geo[_G_M1])
    n = 0
    ml = ml - ((ml >> 1) & m1)
    mh = mh - ((mh >> 1) & m1)
    ml = (ml & 0x33333333) + ((ml >> 2) & 0x33333333)
    mh = (mh & 0x33333333) + ((mh >> 2) & 0x33333333)
    ml = ((ml + (ml >> 4)) & 0x0F0F0F0F) + ((mh + (mh >> 4)) & 0x0F0F0F0F)
    n = int(((ml * 0x01010101) & full) >> 24)
    return n


@micropython.viper
def _popcount64(words: ptr32, at: int, geo: ptr32) -> int:
    """Number of bits set in the 64-bit mask words[at], words[at + 1]."""
    full = uint(geo[_G_FULL])
    m1 = uint(geo[_G_M1])
    fl = uint(words[at])
    fh = uint(words[at + 1])
    n = 0
    fl = fl - ((fl >> 1) & m1)
    fh = fh - ((fh >> 1) & m1)
    fl = (fl & 0x33333333) + ((fl >> 2) & 0x33333333)
    fh = (fh & 0x33333333) + ((fh >> 2) & 0x33333333)
    fl = ((fl + (fl >> 4)) & 0x0F0F0F0F) + ((fh + (fh >> 4)) & 0x0F0F0F0F)
    n = int(((fl * 0x01010101) & full) >> 24)
    return n


@micropython.viper
def _potential(pos: ptr32, mine: int, theirs: int, geo: ptr32) -> int:
    """Empty squares next to a disc at pos[theirs..+1] (Kernel._potential)."""
    full = uint(geo[_G_FULL])
    not_a = uint(geo[_G_NOT_A])
    not_h = uint(geo[_G_NOT_H])
    xl = uint(pos[theirs])
    xh = uint(pos[theirs + 1])
    east_l = xl & not_h  # discs that have a square to their east
    east_h = xh & not_h
    west_l = xl & not_a
    west_h = xh & not_a
    fl = (east_l << 1) | (west_l >> 1) | (xl << 8) | (xl >> 8) | (xh << 24)
    fl |= (east_l << 9) | (east_l >> 7) | (east_h << 25) | (west_l << 7) | (west_l >> 9) | (west_h << 23)
    fh = (east_h << 1) | (west_h >> 1) | (xh << 8) | (xl >> 24) | (xh >> 8)
    fh |= (east_h << 9) | (east_l >> 23) | (east_h >> 7) | (west_h << 7) | (west_l >> 25) | (west_h >> 9)
    fl &= uint(geo[_G_PLAYABLE]) & ((uint(pos[mine]) | xl) ^ full)
    fh &= uint(geo[_G_PLAYABLE + 1]) & ((uint(pos[mine + 1]) | xh) ^ full)
    m1 = uint(geo[_G_M1])
    n = 0
    fl = fl - ((fl >> 1) & m1)
    fh = fh - ((fh >> 1) & m1)
    fl = (fl & 0x33333333) + ((fl >> 2) & 0x33333333)
    fh = (fh & 0x33333333) + ((fh >> 2) & 0x33333333)
    fl = ((fl + (fl >> 4)) & 0x0F0F0F0F) + ((fh + (fh >> 4)) & 0x0F0F0F0F)
    n = int(((fl * 0x01010101) & full) >> 24)
    return n


@micropython.viper
def _x_squares(pos: ptr32, at: int, geo: ptr32) -> int:
    """Kernel.x_squares: a1-b2, h1-g2 in the low word, a8-b7, h8-g7 in the high word."""
    full = uint(geo[_G_FULL])
    pl = uint(pos[at])
    ph = uint(pos[at + 1])
    ol = uint(pos[at + 2])
    oh = uint(pos[at + 3])
    el = uint(geo[_G_PLAYABLE]) & ((pl | ol) ^ full)
    eh = uint(geo[_G_PLAYABLE + 1]) & ((ph | oh) ^ full)
    count = 0
    if el & 1:  # a1, X-square b2 (bit 9)
        if pl & 0x200:
            count += 1
        elif ol & 0x200:
            count -= 1
    if el & 0x80:  # h1, X-square g2 (bit 14)
        if pl & 0x4000:
            count += 1
        elif ol & 0x4000:
            count -= 1
    if eh & 0x1000000:  # a8 (bit 56), X-square b7 (bit 49)
        if ph & 0x20000:
            count += 1
        elif oh & 0x20000:
            count -= 1
    if (eh >> 31) & 1:  # h8 (bit 63), X-square g7 (bit 54)
        if ph & 0x400000:
            count += 1
        elif oh & 0x400000:
            count -= 1
    return count


@micropython.viper
def _mix(pos: ptr32, at: int, multipliers: int, geo: ptr32) -> int:
    """Kernel._mix on 32-bit words: geo[multipliers..+3] are the four multipliers."""
    full = uint(geo[_G_FULL])
    x = uint(0)
    i = 0
    while i < 4:
        w = uint(pos[at + i])
        w ^= w >> 16
        x ^= (w * uint(geo[multipliers + i])) & full
        i += 1
    x ^= x >> 15
    x = (x * _FINAL_MULTIPLIER) & full
    x ^= x >> 13
    return int(x >> 2)


@micropython.viper
def _edges(pos: ptr32, at: int, halves: ptr8, out: ptr32):
    """Kernel.edge_indices into out[0..3]: halves is edge_half_table(8), far halves from 256 on."""
    pl = uint(pos[at])
    ph = uint(pos[at + 1])
    ol = uint(pos[at + 2])
    oh = uint(pos[at + 3])
    edge = 0
    while edge < 4:
        if edge == 0:
            mine = pl & 0xFF
            theirs = ol & 0xFF
        elif edge == 1:
            mine = ph >> 24
            theirs = oh >> 24
        else:
            # column a (edge 2) or h (edge 3) of each word, rows gathered by right shifts
            s = (edge - 2) * 7
            x = (pl >> s) & 0x01010101
            x |= x >> 7
            x |= x >> 14
            y = (ph >> s) & 0x01010101
            y |= y >> 7
            y |= y >> 14
            mine = (x & 0xF) | ((y & 0xF) << 4)
            x = (ol >> s) & 0x01010101
            x |= x >> 7
            x |= x >> 14
            y = (oh >> s) & 0x01010101
            y |= y >> 7
            y |= y >> 14
            theirs = (x & 0xF) | ((y & 0xF) << 4)
        high = halves[mine] + 2 * halves[theirs]  # the near half, until the swap below
        low = halves[256 + mine] + 2 * halves[256 + theirs]  # the far half
        if high < low:
            high, low = low, high
        out[edge] = ((high * (high + 1)) >> 1) + low
        edge += 1


class ViperKernel:
    name = "viper"

    def __init__(self, geometry, max_ply=64):
        if geometry.size != SIZE:
            raise ValueError("the viper kernel handles the 8x8 board only, not %dx%d" % (geometry.size, geometry.size))
        self.geometry = geometry
        self.max_ply = max_ply
        self.stride = geometry.squares
        self.move_list = bytearray(self.stride * (max_ply + 1))
        self._pos = array("I", bytes(16 * (max_ply + 2)))
        self._geo = geometry_table(geometry.blocked)
        self._de_bruijn = DE_BRUIJN
        self._edge_halves = edge_half_table(SIZE)
        self._scratch = array("I", bytes(16))  # empties() and edge_indices() work here

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
        full = uint(geo[_G_FULL])
        i = ply << 6
        m = uint(geo[_G_LEGAL])
        while m:
            low = m & (0 - m)
            out[i] = table[((low * 0x077CB531) & full) >> 27]
            i += 1
            m ^= low
        m = uint(geo[_G_LEGAL + 1])
        while m:
            low = m & (0 - m)
            out[i] = 32 + table[((low * 0x077CB531) & full) >> 27]
            i += 1
            m ^= low
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
        """Write the position after `square` (0-63) into ply + 1 (sides swapped); return the number of discs flipped.

        Returns 0 and writes nothing if the move flips nothing (illegal).
        """
        pos = ptr32(self._pos)
        geo = ptr32(self._geo)
        full = uint(geo[_G_FULL])
        not_a = uint(geo[_G_NOT_A])
        not_h = uint(geo[_G_NOT_H])
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
        if ((pl | ol | (uint(geo[_G_PLAYABLE]) ^ full)) & bl) | ((ph | oh | (uint(geo[_G_PLAYABLE + 1]) ^ full)) & bh):
            return 0
        fl = uint(0)
        fh = uint(0)
        xl = (bl << 1) & not_a
        xh = (bh << 1) & not_a
        if (xl & ol) | (xh & oh):
            rl = uint(0)
            rh = uint(0)
            while (xl & ol) | (xh & oh):
                rl |= xl
                rh |= xh
                xl = (xl << 1) & not_a
                xh = (xh << 1) & not_a
            if (xl & pl) | (xh & ph):
                fl |= rl
                fh |= rh
        xl = (bl >> 1) & not_h
        xh = (bh >> 1) & not_h
        if (xl & ol) | (xh & oh):
            rl = uint(0)
            rh = uint(0)
            while (xl & ol) | (xh & oh):
                rl |= xl
                rh |= xh
                xl = (xl >> 1) & not_h
                xh = (xh >> 1) & not_h
            if (xl & pl) | (xh & ph):
                fl |= rl
                fh |= rh
        xl = (bl << 8) & full
        xh = ((bh << 8) | (bl >> 24)) & full
        if (xl & ol) | (xh & oh):
            rl = uint(0)
            rh = uint(0)
            while (xl & ol) | (xh & oh):
                rl |= xl
                rh |= xh
                xh = ((xh << 8) | (xl >> 24)) & full
                xl = (xl << 8) & full
            if (xl & pl) | (xh & ph):
                fl |= rl
                fh |= rh
        xl = ((bl >> 8) | (bh << 24)) & full
        xh = bh >> 8
        if (xl & ol) | (xh & oh):
            rl = uint(0)
            rh = uint(0)
            while (xl & ol) | (xh & oh):
                rl |= xl
                rh |= xh
                xl = ((xl >> 8) | (xh << 24)) & full
                xh = xh >> 8
            if (xl & pl) | (xh & ph):
                fl |= rl
                fh |= rh
        xl = (bl << 9) & not_a
        xh = ((bh << 9) | (bl >> 23)) & not_a
        if (xl & ol) | (xh & oh):
            rl = uint(0)
            rh = uint(0)
            while (xl & ol) | (xh & oh):
                rl |= xl
                rh |= xh
                xh = ((xh << 9) | (xl >> 23)) & not_a
                xl = (xl << 9) & not_a
            if (xl & pl) | (xh & ph):
                fl |= rl
                fh |= rh
        xl = ((bl >> 9) | (bh << 23)) & not_h
        xh = (bh >> 9) & not_h
        if (xl & ol) | (xh & oh):
            rl = uint(0)
            rh = uint(0)
            while (xl & ol) | (xh & oh):
                rl |= xl
                rh |= xh
                xl = ((xl >> 9) | (xh << 23)) & not_h
                xh = (xh >> 9) & not_h
            if (xl & pl) | (xh & ph):
                fl |= rl
                fh |= rh
        xl = (bl << 7) & not_h
        xh = ((bh << 7) | (bl >> 25)) & not_h
        if (xl & ol) | (xh & oh):
            rl = uint(0)
            rh = uint(0)
            while (xl & ol) | (xh & oh):
                rl |= xl
                rh |= xh
                xh = ((xh << 7) | (xl >> 25)) & not_h
                xl = (xl << 7) & not_h
            if (xl & pl) | (xh & ph):
                fl |= rl
                fh |= rh
        xl = ((bl >> 7) | (bh << 25)) & not_a
        xh = (bh >> 7) & not_a
        if (xl & ol) | (xh & oh):
            rl = uint(0)
            rh = uint(0)
            while (xl & ol) | (xh & oh):
                rl |= xl
                rh |= xh
                xl = ((xl >> 7) | (xh << 25)) & not_a
                xh = (xh >> 7) & not_a
            if (xl & pl) | (xh & ph):
                fl |= rl
                fh |= rh
        if not (fl | fh):
            return 0
        pos[at + 4] = ol ^ fl
        pos[at + 5] = oh ^ fh
        pos[at + 6] = pl | fl | bl
        pos[at + 7] = ph | fh | bh
        m1 = uint(geo[_G_M1])
        n = 0
        fl = fl - ((fl >> 1) & m1)
        fh = fh - ((fh >> 1) & m1)
        fl = (fl & 0x33333333) + ((fl >> 2) & 0x33333333)
        fh = (fh & 0x33333333) + ((fh >> 2) & 0x33333333)
        fl = ((fl + (fl >> 4)) & 0x0F0F0F0F) + ((fh + (fh >> 4)) & 0x0F0F0F0F)
        n = int(((fl * 0x01010101) & full) >> 24)
        return n

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
        full = uint(geo[_G_FULL])
        scratch[0] = uint(geo[_G_PLAYABLE]) & ((uint(pos[at]) | uint(pos[at + 2])) ^ full)
        scratch[1] = uint(geo[_G_PLAYABLE + 1]) & ((uint(pos[at + 1]) | uint(pos[at + 3])) ^ full)
        return int(_popcount64(self._scratch, 0, self._geo))

    @micropython.viper
    def potential_mobility(self, ply: int) -> int:
        """Empty squares next to an opponent disc: where the side to move may get moves later."""
        at = ply << 2
        return int(_potential(self._pos, at, at + 2, self._geo))

    @micropython.viper
    def opponent_potential_mobility(self, ply: int) -> int:
        """Empty squares next to a disc of the side to move."""
        at = ply << 2
        return int(_potential(self._pos, at + 2, at, self._geo))

    @micropython.viper
    def x_squares(self, ply: int) -> int:
        """The mover's discs on X-squares whose corner is empty, minus the opponent's."""
        return int(_x_squares(self._pos, ply << 2, self._geo))

    def edge_indices(self, ply, out):
        """Write the four edges' pattern numbers into out[0..3] (see Kernel.edge_indices)."""
        scratch = self._scratch
        _edges(self._pos, ply << 2, self._edge_halves, scratch)
        out[0] = scratch[0]
        out[1] = scratch[1]
        out[2] = scratch[2]
        out[3] = scratch[3]

    @micropython.viper
    def hash(self, ply: int) -> int:
        """Kernel.hash: a 30-bit hash of the position at `ply`, the table slot."""
        return int(_mix(self._pos, ply << 2, _G_HASH, self._geo))

    @micropython.viper
    def lock(self, ply: int) -> int:
        """Kernel.lock: a second, independent 30-bit hash."""
        return int(_mix(self._pos, ply << 2, _G_LOCK, self._geo))

    @micropython.viper
    def square_sum(self, ply: int, weights) -> int:
        """Sum of weights[square] over the mover's discs minus the opponent's; weights is an array('h') of 64."""
        pos = ptr32(self._pos)
        table = ptr8(self._de_bruijn)
        w = ptr16(weights)
        geo = ptr32(self._geo)
        full = uint(geo[_G_FULL])
        at = ply << 2
        total = 0
        word = 0
        while word < 4:
            m = uint(pos[at + word])
            offset = (word & 1) << 5
            while m:
                low = m & (0 - m)
                value = int(w[offset + table[((low * 0x077CB531) & full) >> 27]])
                if value & 0x8000:
                    value -= 0x10000  # array('h') holds signed values; ptr16 reads them unsigned
                if word < 2:
                    total += value
                else:
                    total -= value
                m ^= low
            word += 1
        return total

    @micropython.viper
    def features(self, ply: int, out):
        """Kernel.features in one call: mobility, potentials, X-squares, disc difference, empties, edges."""
        pos = self._pos
        geo = self._geo
        at = ply << 2
        out[0] = int(_legal(pos, at, at + 2, geo))
        out[1] = int(_legal(pos, at + 2, at, geo))
        out[2] = int(_potential(pos, at, at + 2, geo))
        out[3] = int(_potential(pos, at + 2, at, geo))
        out[4] = int(_x_squares(pos, at, geo))
        mine = int(_popcount64(pos, at, geo))
        theirs = int(_popcount64(pos, at + 2, geo))
        out[5] = mine - theirs
        g = ptr32(geo)
        full = uint(g[_G_FULL])
        m1 = uint(g[_G_M1])
        fl = uint(g[_G_PLAYABLE])
        fh = uint(g[_G_PLAYABLE + 1])
        n = 0
        fl = fl - ((fl >> 1) & m1)
        fh = fh - ((fh >> 1) & m1)
        fl = (fl & 0x33333333) + ((fl >> 2) & 0x33333333)
        fh = (fh & 0x33333333) + ((fh >> 2) & 0x33333333)
        fl = ((fl + (fl >> 4)) & 0x0F0F0F0F) + ((fh + (fh >> 4)) & 0x0F0F0F0F)
        n = int(((fl * 0x01010101) & full) >> 24)
        out[6] = n - mine - theirs
        scratch = self._scratch
        _edges(pos, at, self._edge_halves, scratch)
        s = ptr32(scratch)
        out[7] = int(s[0])
        out[8] = int(s[1])
        out[9] = int(s[2])
        out[10] = int(s[3])
