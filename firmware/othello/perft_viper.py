"""Perft on the device fast path: one viper loop, no calls and no allocation inside it.

    perft(kernel, depth)  ->  the number of move sequences of `depth` plies from
                              the kernel's root (ply 0)

`kernel` is an othello.kernel_viper.ViperKernel: its position stack holds the
positions, its _geo table the masks. The counting rules are othello.perft's
(the reference): a pass is a ply, a finished game is one leaf wherever it ends,
and the last ply is counted in bulk (the number of legal moves, or 1 for a pass
or the end of the game). The loop repeats the move generator and flip walk of
kernel_viper.py because viper has no inlining and a call per node would cost
more than the node. Counts must stay below 2**31 (perft 11 from the start is
212,258,800).
"""

import sys
from array import array

if sys.implementation.name != "micropython":
    # CPython may have a `micropython` stub package, but viper annotations only compile here
    raise ImportError("viper code runs on MicroPython only")

import micropython  # noqa: E402
from micropython import const  # noqa: E402

# kernel_viper's _geo layout (const() only folds names of its own module)
_G_FULL = const(0)
_G_M1 = const(1)
_G_PLAYABLE = const(2)
_G_NOT_A = const(4)
_G_NOT_H = const(5)
_G_INNER = const(6)


def perft(kernel, depth):
    if depth < 0:
        raise ValueError("perft depth must be 0 or more, not %r" % (depth,))
    if depth > kernel.max_ply:
        raise ValueError("the kernel holds %d plies; perft %d needs %d" % (kernel.max_ply, depth, depth))
    if depth == 0:
        return 1
    moves_left = array("I", bytes(8 * (depth + 1)))  # per ply: the moves not yet played, lo and hi
    return _perft(kernel._pos, moves_left, kernel._geo, depth)


@micropython.viper
def _perft(pos: ptr32, moves_left: ptr32, geo: ptr32, depth: int) -> int:
    full = uint(geo[_G_FULL])
    m1 = uint(geo[_G_M1])
    not_a = uint(geo[_G_NOT_A])
    not_h = uint(geo[_G_NOT_H])
    inner = uint(geo[_G_INNER])
    play_l = uint(geo[_G_PLAYABLE])
    play_h = uint(geo[_G_PLAYABLE + 1])
    total = 0
    ply = 0
    enter = 1
    while True:
        if enter:
            at = ply << 2
            pl = uint(pos[at])
            ph = uint(pos[at + 1])
            ol = uint(pos[at + 2])
            oh = uint(pos[at + 3])
            el = play_l & ((pl | ol) ^ full)
            eh = play_h & ((ph | oh) ^ full)
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
            row = ply << 1
            if not (ml | mh):
                moves_left[row] = 0
                moves_left[row + 1] = 0
                if ply + 1 == depth:
                    total += 1  # a pass or the end of the game, at the last ply
                else:
                    # does the other side have a move? then pass, else the game is over
                    ml = uint(0)
                    mh = uint(0)
                    rl = pl & inner
                    rh = ph & inner
                    tl = rl & (ol << 1)
                    th = rh & (oh << 1)
                    while tl | th:
                        tl = tl << 1
                        th = th << 1
                        ml |= tl & el
                        mh |= th & eh
                        tl &= rl
                        th &= rh
                    tl = rl & (ol >> 1)
                    th = rh & (oh >> 1)
                    while tl | th:
                        tl = tl >> 1
                        th = th >> 1
                        ml |= tl & el
                        mh |= th & eh
                        tl &= rl
                        th &= rh
                    rl = pl
                    rh = ph
                    tl = rl & (ol << 8)
                    th = rh & ((oh << 8) | (ol >> 24))
                    while tl | th:
                        th = (th << 8) | (tl >> 24)
                        tl = tl << 8
                        ml |= tl & el
                        mh |= th & eh
                        tl &= rl
                        th &= rh
                    tl = rl & ((ol >> 8) | (oh << 24))
                    th = rh & (oh >> 8)
                    while tl | th:
                        tl = (tl >> 8) | (th << 24)
                        th = th >> 8
                        ml |= tl & el
                        mh |= th & eh
                        tl &= rl
                        th &= rh
                    rl = pl & inner
                    rh = ph & inner
                    tl = rl & (ol << 9)
                    th = rh & ((oh << 9) | (ol >> 23))
                    while tl | th:
                        th = (th << 9) | (tl >> 23)
                        tl = tl << 9
                        ml |= tl & el
                        mh |= th & eh
                        tl &= rl
                        th &= rh
                    tl = rl & ((ol >> 9) | (oh << 23))
                    th = rh & (oh >> 9)
                    while tl | th:
                        tl = (tl >> 9) | (th << 23)
                        th = th >> 9
                        ml |= tl & el
                        mh |= th & eh
                        tl &= rl
                        th &= rh
                    rl = pl & inner
                    rh = ph & inner
                    tl = rl & (ol << 7)
                    th = rh & ((oh << 7) | (ol >> 25))
                    while tl | th:
                        th = (th << 7) | (tl >> 25)
                        tl = tl << 7
                        ml |= tl & el
                        mh |= th & eh
                        tl &= rl
                        th &= rh
                    tl = rl & ((ol >> 7) | (oh << 25))
                    th = rh & (oh >> 7)
                    while tl | th:
                        tl = (tl >> 7) | (th << 25)
                        th = th >> 7
                        ml |= tl & el
                        mh |= th & eh
                        tl &= rl
                        th &= rh
                    if ml | mh:
                        pos[at + 4] = ol
                        pos[at + 5] = oh
                        pos[at + 6] = pl
                        pos[at + 7] = ph
                        ply += 1
                        continue
                    total += 1
            elif ply + 1 == depth:
                n = 0
                ml = ml - ((ml >> 1) & m1)
                mh = mh - ((mh >> 1) & m1)
                ml = (ml & 0x33333333) + ((ml >> 2) & 0x33333333)
                mh = (mh & 0x33333333) + ((mh >> 2) & 0x33333333)
                ml = ((ml + (ml >> 4)) & 0x0F0F0F0F) + ((mh + (mh >> 4)) & 0x0F0F0F0F)
                n = int(((ml * 0x01010101) & full) >> 24)
                total += n
                moves_left[row] = 0
                moves_left[row + 1] = 0
            else:
                moves_left[row] = ml
                moves_left[row + 1] = mh
        row = ply << 1
        bl = uint(moves_left[row])
        bh = uint(moves_left[row + 1])
        if not (bl | bh):
            if ply == 0:
                return total
            ply -= 1
            enter = 0
            continue
        # play the lowest remaining move
        if bl:
            bl = bl & (0 - bl)
            bh = uint(0)
            moves_left[row] = uint(moves_left[row]) ^ bl
        else:
            bh = bh & (0 - bh)
            moves_left[row + 1] = uint(moves_left[row + 1]) ^ bh
        at = ply << 2
        pl = uint(pos[at])
        ph = uint(pos[at + 1])
        ol = uint(pos[at + 2])
        oh = uint(pos[at + 3])
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
        pos[at + 4] = ol ^ fl
        pos[at + 5] = oh ^ fh
        pos[at + 6] = pl | fl | bl
        pos[at + 7] = ph | fh | bh
        ply += 1
        enter = 1
