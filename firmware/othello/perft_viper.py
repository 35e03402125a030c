"""Perft on the device fast path: one viper loop, no calls and no allocation inside it.

    perft(kernel, depth)  ->  the number of move sequences of `depth` plies from
                              the kernel's root (ply 0)

`kernel` is an othello.kernel_viper.ViperKernel: its position stack holds the
positions, its _geo table the masks. Counting rules as othello.perft (the
reference): a pass is a ply, a finished game is one leaf wherever it ends, and
the last ply is counted in bulk (the number of legal moves, without playing
them). The loop inlines the move generator and flip walk of kernel_viper.py
because viper has no inlining and a call per node would cost more than the node.
"""

from array import array

import micropython
from micropython import const

# kernel_viper's _geo layout, again: const() folds only names of the same module.
G_FULL = const(0)
G_M1 = const(1)
G_PLAYABLE = const(2)
G_DIRS = const(4)
G_DIR_WIDTH = const(7)
G_DIRS_END = const(32)


def perft(kernel, depth):
    if depth < 0:
        raise ValueError("perft depth must be 0 or more, not %r" % (depth,))
    if depth > kernel.max_ply:
        raise ValueError("perft depth %d is deeper than the kernel's %d plies" % (depth, kernel.max_ply))
    if depth == 0:
        return 1
    moves_left = array("I", bytes(8 * (depth + 1)))
    return _perft(kernel._pos, moves_left, kernel._geo, depth)


@micropython.viper
def _perft(pos: ptr32, moves_left: ptr32, geo: ptr32, depth: int) -> int:
    full = uint(geo[G_FULL])
    m1 = uint(geo[G_M1])
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
            # Legal moves of the side to move; if none, of the other side (swapped = 1).
            swapped = 0
            while True:
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
                    tl = rl & (pl << s)
                    th = rh & ((ph << s) | (pl >> back))
                    while tl | th:
                        nh = (th << s) | (tl >> back)
                        nl = tl << s
                        ml |= nl & el
                        mh |= nh & eh
                        tl = nl & rl
                        th = nh & rh
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
                if ml | mh or swapped:
                    break
                swapped = 1
                x = pl
                pl = ol
                ol = x
                x = ph
                ph = oh
                oh = x
            row = ply << 1
            if swapped:
                moves_left[row] = 0
                moves_left[row + 1] = 0
                if ml | mh and ply + 1 < depth:
                    # pass: the next ply is this position with the other side to move
                    pos[at + 4] = pl
                    pos[at + 5] = ph
                    pos[at + 6] = ol
                    pos[at + 7] = oh
                    ply += 1
                    continue
                total += 1  # a pass at the last ply, or the end of the game
            elif ply + 1 == depth:
                ml = ml - ((ml >> 1) & m1)
                mh = mh - ((mh >> 1) & m1)
                ml = (ml & 0x33333333) + ((ml >> 2) & 0x33333333)
                mh = (mh & 0x33333333) + ((mh >> 2) & 0x33333333)
                ml = ((ml + (ml >> 4)) & 0x0F0F0F0F) + ((mh + (mh >> 4)) & 0x0F0F0F0F)
                total += int(((ml * 0x01010101) & full) >> 24)
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
        # take the lowest remaining move
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
        d = G_DIRS
        while d < G_DIRS_END:
            s = uint(geo[d])
            back = 32 - s
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
        pos[at + 4] = ol ^ fl
        pos[at + 5] = oh ^ fh
        pos[at + 6] = pl | fl | bl
        pos[at + 7] = ph | fh | bh
        ply += 1
        enter = 1
