"""The exact endgame solver on the device fast path: one viper loop for the 8x8 board.

    solver = ViperSolver(geometry(8))            # once: preallocates its stacks
    score, square = solver.solve(player, opponent, anti=False)
    score = solver.solve_at(kernel, ply, anti)   # a ViperKernel's position: no big ints made

The score is the exact WOF disc difference for the side to move under perfect
play (empty squares to the winner), negated in Anti-Othello, where fewer discs
win: the contract of the plain solver (player.search.Searcher._solve). Like it,
the search is fail-soft alpha-beta: a score inside (alpha, beta) is exact, one
at or outside the window is a bound on that side. `square` is a best move, or
PASS when the side to move must pass or the game is over.

Why one function: viper has no inlining, and a call per node costs more than
the node, so the move generator and the flip walk of othello/kernel_viper.py
appear here again, unrolled. The search keeps its own stack in preallocated
arrays (position, window, best score and move list per ply) and allocates
nothing; it counts nodes and, every _POLL_NODES nodes, checks the node limit
and calls should_stop() so a long solve can be interrupted.

Move order, which decides how far it reaches on the Pico:
- with _SORT_EMPTIES or more empty squares, the legal moves are tried fewest
  opponent replies first (fastest-first), the transposition table's move
  before all, corners and moves into a quadrant with an odd number of empties
  breaking ties; these nodes also use the table (_TABLE_EMPTIES);
- below that, the empty squares are tried directly, without move generation,
  those in a quadrant with an odd number of empties first (parity), and a
  square that flips nothing is skipped; the parity of the quadrants and the
  number of empties are carried from parent to child;
- with two empty squares left, each move's result is counted at once, the
  last square going to whoever can play it, without a node of its own.
The black hole is never empty (it is outside the playable mask), so the
parity of a quadrant that holds it counts only real squares.
"""

import sys
from array import array

if sys.implementation.name != "micropython":
    # CPython may have a `micropython` stub package, but viper annotations only compile here
    raise ImportError("viper code runs on MicroPython only")

import micropython  # noqa: E402
from micropython import const  # noqa: E402

from othello.board import PASS  # noqa: E402
from othello.compat import popcount  # noqa: E402

# A constant whose name starts with _ is MicroPython's compile-time constant only: unlike the public
# names, it takes no place in the module's globals (nor its name a place in the heap).
MAX_EMPTIES = 32  # the most empty squares a solver can be made for
DEFAULT_EMPTIES = 24  # what it is made for unless told: more is out of reach on the device anyway
_SORT_EMPTIES = const(7)
_TABLE_EMPTIES = const(7)  # nodes with this many empties use the transposition table
TABLE_BITS = 10  # 2**10 entries of 8 bytes
_ENTRY_USED = const(0x1000000)  # entries: lower + 128 | (upper + 128) << 8 | move << 16 | this
_POLL_NODES = const(1024)

# cfg words (array 'I'); the masks above 0x3FFFFFFF live here (see PICO_FACTS)
_C_FULL = const(0)
_C_M1 = const(1)
_C_NOT_A = const(2)
_C_NOT_H = const(3)
_C_INNER = const(4)
_C_HIGH_QUADS = const(5)  # 0xF0F0F0F0: the right-hand quadrants of each word
_C_PLAYABLE = const(6)  # lo, hi
_C_CORNERS_HI = const(8)  # a8, h8 in the high word (a1, h1 are 0x81 in the low word)
_C_ANTI = const(9)
_C_NODE_LIMIT = const(10)  # 0: none
_C_ALPHA = const(11)  # root window, biased
_C_BETA = const(12)
_C_NODES = const(13)  # out: nodes searched
_C_MOVE = const(14)  # out: best root move, _NO_SQUARE for a pass
_C_STOPPED = const(15)  # out: 1 if a limit stopped the search
_C_TABLE_SHIFT = const(16)  # 32 - table bits: a hash's top bits pick the slot
_C_SALT = const(17)  # mixed into the table's lock: Othello and Anti-Othello entries never match
_C_SQUARES = const(18)  # playable squares: 64, or 63 with a black hole
_C_SIZE = const(19)

# frame words per ply (array 'I'); scores are stored + _BIAS, since the unix
# port reads ptr32 words zero-extended and would not see a negative number
_F_ALPHA = const(0)
_F_BETA = const(1)
_F_BEST = const(2)
_F_BEST_MOVE = const(3)
_F_NEXT = const(4)
_F_COUNT = const(5)
_F_STATE = const(6)
_F_SQUARE = const(7)
_F_ALPHA0 = const(8)  # alpha on entry, to tell the table which bound the result is
_F_SLOT = const(9)
_F_LOCK = const(10)
_F_EMPTIES = const(11)  # set by the parent: one fewer than its own, the same after a pass
_F_PARITY = const(12)  # bit q: quadrant q (a1, h1, a8, h8 side) has an odd number of empty squares
_FRAME_SHIFT = const(4)  # 16 words a ply

_STATE_SORTED = const(1)  # the list holds legal moves and their keys: pick the smallest key
_STATE_AFTER_PASS = const(2)  # the parent passed: no move here ends the game
_STATE_PASSING = const(4)  # this node passes; its child is the same position, other side to move
_STATE_SCOUT = const(8)  # the child in search has a null window (alpha, alpha + 1): principal-variation search
_STATE_TABLE = const(16)  # the node stores its result in the transposition table

_BIAS = const(256)
_INFINITY = const(100)
_NO_SQUARE = const(64)
_LIST_SHIFT = const(6)  # 64 bytes a ply in `lists`: squares at +0, keys at +32
_LIST_KEYS = const(32)
_LISTS_AT = const(32)  # lists[0:32] is the de Bruijn table of bit indices

DE_BRUIJN = bytes((0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
                   31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9))
WORD = 0xFFFFFFFF
LEFT_QUADRANTS = 0x0F0F0F0F  # columns a-d of a 32-bit word (four rows)
RIGHT_QUADRANTS = 0xF0F0F0F0


class SolverStopped(Exception):
    """The node limit or should_stop() ended a solve before it had a result."""


def _never():
    return False


class ViperSolver:
    name = "viper"

    def __init__(self, geometry, max_empties=DEFAULT_EMPTIES, table_bits=TABLE_BITS, table=None):
        """Stacks for `max_empties` and a transposition table of 2**table_bits entries.

        The table is made here unless `table` lends one: an array('I') of at
        least 2 << table_bits words (the player lends the midgame search's
        table, as the two never run at once). Whoever else writes in a lent
        table must call clear_table() before the next solve.
        """
        if geometry.size != 8:
            raise ValueError("the viper solver handles the 8x8 board only, not %dx%d" % (geometry.size, geometry.size))
        if not 1 <= max_empties <= MAX_EMPTIES:
            raise ValueError("max_empties must be 1 to %d, not %r" % (MAX_EMPTIES, max_empties))
        self.geometry = geometry
        self.max_empties = max_empties
        plies = 2 * max_empties + 2  # every move may follow a pass
        self._pos = array("I", bytes(16 * (plies + 1)))
        self._frame = array("I", bytes(4 << _FRAME_SHIFT) * plies)
        self._lists = bytearray(_LISTS_AT + (plies << _LIST_SHIFT))
        self._lists[0:_LISTS_AT] = DE_BRUIJN
        cfg = array("I", bytes(4 * _C_SIZE))
        cfg[_C_FULL] = WORD
        cfg[_C_M1] = 0x55555555
        cfg[_C_NOT_A] = 0xFEFEFEFE
        cfg[_C_NOT_H] = 0x7F7F7F7F
        cfg[_C_INNER] = 0x7E7E7E7E
        cfg[_C_HIGH_QUADS] = 0xF0F0F0F0
        playable = geometry.playable
        cfg[_C_PLAYABLE] = playable & WORD
        cfg[_C_PLAYABLE + 1] = playable >> 32
        cfg[_C_CORNERS_HI] = 0x81000000
        cfg[_C_SQUARES] = geometry.squares - (1 if geometry.blocked else 0)
        cfg[_C_TABLE_SHIFT] = 32 - table_bits
        self._cfg = cfg
        # Entries stay valid from one solve to the next: they hold bounds on exact
        # scores, which depend on the position alone (and the variant, in the salt).
        slots = 1 << table_bits
        if table is None:
            table = array("I", bytes(8 * slots))
        elif len(table) < 2 * slots:
            raise ValueError("a table of 2**%d entries needs %d words, not %d" % (table_bits, 2 * slots, len(table)))
        words = memoryview(table)
        self._locks = words[:slots]
        self._entries = words[slots:2 * slots]
        self._should_stop = _never
        self.nodes = 0

    def solve(self, player, opponent, anti=False, alpha=-64, beta=64, node_limit=0, should_stop=None):
        """(score, best square or PASS) for `player` to move; see the module's docstring."""
        playable = self.geometry.playable
        if player & opponent or (player | opponent) & ~playable:
            raise ValueError("discs overlap or lie outside the board")
        pos = self._pos
        pos[0] = player & WORD
        pos[1] = player >> 32
        pos[2] = opponent & WORD
        pos[3] = opponent >> 32
        score = self._run(anti, alpha, beta, node_limit, should_stop)
        move = self._cfg[_C_MOVE]
        return score, PASS if move == _NO_SQUARE else move

    def solve_at(self, kernel, ply, anti=False, alpha=-64, beta=64, node_limit=0, should_stop=None):
        """The score of the position at `ply` of a ViperKernel, read without building big integers."""
        self._copy_root(kernel._pos, ply << 2)
        return self._run(anti, alpha, beta, node_limit, should_stop)

    @micropython.viper
    def _copy_root(self, source: ptr32, at: int):
        pos = ptr32(self._pos)
        pos[0] = source[at]
        pos[1] = source[at + 1]
        pos[2] = source[at + 2]
        pos[3] = source[at + 3]

    def clear_table(self):
        """Forget every table entry: after others wrote in a lent table, or to time solves from scratch."""
        entries = self._entries
        for slot in range(len(entries)):
            entries[slot] = 0

    def best_move(self):
        """The best move found by the last solve: a square, or PASS."""
        move = self._cfg[_C_MOVE]
        return PASS if move == _NO_SQUARE else move

    def _run(self, anti, alpha, beta, node_limit, should_stop):
        pos = self._pos
        playable = self.geometry.playable
        empty_lo = playable & WORD & ~(pos[0] | pos[2])
        empty_hi = (playable >> 32) & ~(pos[1] | pos[3])
        empties = popcount(empty_lo) + popcount(empty_hi)
        parity = 0
        for quadrant, mask in enumerate((empty_lo & LEFT_QUADRANTS, empty_lo & RIGHT_QUADRANTS,
                                         empty_hi & LEFT_QUADRANTS, empty_hi & RIGHT_QUADRANTS)):
            parity |= (popcount(mask) & 1) << quadrant
        frame = self._frame
        frame[_F_EMPTIES] = empties
        frame[_F_PARITY] = parity
        if empties > self.max_empties:
            raise ValueError("%d empty squares: this solver was made for at most %d" % (empties, self.max_empties))
        if not -_INFINITY < alpha < beta < _INFINITY:
            raise ValueError("the window must satisfy -%d < alpha < beta < %d" % (_INFINITY, _INFINITY))
        cfg = self._cfg
        cfg[_C_ANTI] = 1 if anti else 0
        cfg[_C_SALT] = 0x2545F491 if anti else 0
        cfg[_C_NODE_LIMIT] = node_limit
        cfg[_C_ALPHA] = alpha + _BIAS
        cfg[_C_BETA] = beta + _BIAS
        self._should_stop = should_stop or _never
        try:
            score = self._search() - _BIAS
        finally:
            self._should_stop = _never  # the solver is kept from move to move, the caller's callback is not
        self.nodes = cfg[_C_NODES]
        if cfg[_C_STOPPED]:
            # a new instance each time: raising one kept instance again and again grows its
            # traceback by a few words per frame every time (a slow leak on the device)
            raise SolverStopped()
        return score

    @micropython.viper
    def _search(self) -> int:
        """The solve itself; returns the root's score + _BIAS and leaves nodes, move and stopped in cfg."""
        pos = ptr32(self._pos)
        frame = ptr32(self._frame)
        lists = ptr8(self._lists)
        cfg = ptr32(self._cfg)
        locks = ptr32(self._locks)
        entries = ptr32(self._entries)
        should_stop = self._should_stop
        full = uint(cfg[_C_FULL])
        m1 = uint(cfg[_C_M1])
        not_a = uint(cfg[_C_NOT_A])
        not_h = uint(cfg[_C_NOT_H])
        inner = uint(cfg[_C_INNER])
        high_quads = uint(cfg[_C_HIGH_QUADS])
        play_l = uint(cfg[_C_PLAYABLE])
        play_h = uint(cfg[_C_PLAYABLE + 1])
        corners_h = uint(cfg[_C_CORNERS_HI])
        anti = int(cfg[_C_ANTI])
        squares = int(cfg[_C_SQUARES])
        salt = uint(cfg[_C_SALT])
        table_shift = uint(cfg[_C_TABLE_SHIFT])
        node_limit = int(cfg[_C_NODE_LIMIT])
        nodes = 0
        next_poll = _POLL_NODES
        if node_limit and node_limit < next_poll:
            next_poll = node_limit
        frame[_F_ALPHA] = cfg[_C_ALPHA]
        frame[_F_BETA] = cfg[_C_BETA]
        frame[_F_STATE] = 0
        frame[_F_BEST_MOVE] = _NO_SQUARE
        ply = 0
        enter = 1
        returning = 0
        value = 0
        while True:
            if enter:
                # ----- a new node at `ply`: its value at once, or its move list
                enter = 0
                nodes += 1
                if nodes >= next_poll:
                    stop = 0
                    if node_limit and nodes >= node_limit:
                        stop = 1
                    elif should_stop():
                        stop = 1
                    if stop:
                        cfg[_C_NODES] = nodes
                        cfg[_C_STOPPED] = 1
                        return 0
                    next_poll = nodes + _POLL_NODES
                    if node_limit and next_poll > node_limit:
                        next_poll = node_limit
                at = ply << 2
                fr = ply << _FRAME_SHIFT
                pl = uint(pos[at])
                ph = uint(pos[at + 1])
                ol = uint(pos[at + 2])
                oh = uint(pos[at + 3])
                el = play_l & ((pl | ol) ^ full)
                eh = play_h & ((ph | oh) ^ full)
                empties = int(frame[fr + _F_EMPTIES])
                if not empties:
                    fl = pl
                    fh = ph
                    mine = 0
                    fl = fl - ((fl >> 1) & m1)
                    fh = fh - ((fh >> 1) & m1)
                    fl = (fl & 0x33333333) + ((fl >> 2) & 0x33333333)
                    fh = (fh & 0x33333333) + ((fh >> 2) & 0x33333333)
                    fl = ((fl + (fl >> 4)) & 0x0F0F0F0F) + ((fh + (fh >> 4)) & 0x0F0F0F0F)
                    mine = int(((fl * 0x01010101) & full) >> 24)
                    value = mine + mine - squares
                    if anti:
                        value = 0 - value
                    returning = 1
                else:
                    # the quadrants (4x4 corners of the board) with an odd number of empty squares
                    parity = int(frame[fr + _F_PARITY])
                    odd_l = uint(0)
                    odd_h = uint(0)
                    if parity & 1:
                        odd_l = uint(0x0F0F0F0F)
                    if parity & 2:
                        odd_l |= high_quads
                    if parity & 4:
                        odd_h = uint(0x0F0F0F0F)
                    if parity & 8:
                        odd_h |= high_quads
                    ls = _LISTS_AT + (ply << _LIST_SHIFT)
                    count = 0
                    state = int(frame[fr + _F_STATE])
                    table_move = _NO_SQUARE
                    if empties >= _TABLE_EMPTIES:
                        lock = ((pl * 0x165667B1) ^ (ph * 0x0D3A2647) ^ (ol * 0x1B3A7F2D) ^ (oh * 0x0C8A4E29) ^ salt) & full
                        lock ^= lock >> 15
                        x = ((pl * 0x1B873593) ^ (ph * 0x0E6546B5) ^ (ol * 0x1D2A3A1F) ^ (oh * 0x0C2B2AE3)) & full
                        x ^= x >> 15
                        x = (x * 0x1CC9E2D5) & full
                        x ^= x >> 13
                        slot = int(x >> table_shift)
                        x = uint(entries[slot])
                        if x and uint(locks[slot]) == lock:
                            lower = int(x & 0xFF) - 128
                            upper = int((x >> 8) & 0xFF) - 128
                            table_move = int((x >> 16) & 0xFF)
                            if not ply:
                                pass  # the root searches on: it must find its best move
                            elif lower >= int(frame[fr + _F_BETA]) - _BIAS or lower == upper:
                                value = lower
                                returning = 1
                            elif upper <= int(frame[fr + _F_ALPHA]) - _BIAS:
                                value = upper
                                returning = 1
                        if not returning:
                            state |= _STATE_TABLE
                            frame[fr + _F_SLOT] = slot
                            frame[fr + _F_LOCK] = lock
                            frame[fr + _F_ALPHA0] = frame[fr + _F_ALPHA]
                    if returning:
                        pass  # the table knows enough: no move list
                    elif empties >= _SORT_EMPTIES:
                        # fastest-first: every legal move with the opponent's reply count as its key
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
                        state |= _STATE_SORTED
                        while ml | mh:
                            if ml:
                                bl = ml & (0 - ml)
                                ml ^= bl
                                bh = uint(0)
                                square = int(lists[((bl * 0x077CB531) & full) >> 27])
                            else:
                                bh = mh & (0 - mh)
                                mh ^= bh
                                bl = uint(0)
                                square = 32 + int(lists[((bh * 0x077CB531) & full) >> 27])
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
                            # key: 4 * the opponent's replies, + 0 corner / 2 other, + 0 odd quadrant / 1 even
                            key = 3
                            if (bl & 0x81) | (bh & corners_h):
                                key = 1
                            if (bl & odd_l) | (bh & odd_h):
                                key -= 1
                            cl = ol ^ fl
                            ch = oh ^ fh
                            dl = pl | fl | bl
                            dh = ph | fh | bh
                            gl = el ^ bl
                            gh = eh ^ bh
                            fl = uint(0)
                            fh = uint(0)
                            rl = dl & inner
                            rh = dh & inner
                            tl = rl & (cl << 1)
                            th = rh & (ch << 1)
                            while tl | th:
                                tl = tl << 1
                                th = th << 1
                                fl |= tl & gl
                                fh |= th & gh
                                tl &= rl
                                th &= rh
                            tl = rl & (cl >> 1)
                            th = rh & (ch >> 1)
                            while tl | th:
                                tl = tl >> 1
                                th = th >> 1
                                fl |= tl & gl
                                fh |= th & gh
                                tl &= rl
                                th &= rh
                            rl = dl
                            rh = dh
                            tl = rl & (cl << 8)
                            th = rh & ((ch << 8) | (cl >> 24))
                            while tl | th:
                                th = (th << 8) | (tl >> 24)
                                tl = tl << 8
                                fl |= tl & gl
                                fh |= th & gh
                                tl &= rl
                                th &= rh
                            tl = rl & ((cl >> 8) | (ch << 24))
                            th = rh & (ch >> 8)
                            while tl | th:
                                tl = (tl >> 8) | (th << 24)
                                th = th >> 8
                                fl |= tl & gl
                                fh |= th & gh
                                tl &= rl
                                th &= rh
                            rl = dl & inner
                            rh = dh & inner
                            tl = rl & (cl << 9)
                            th = rh & ((ch << 9) | (cl >> 23))
                            while tl | th:
                                th = (th << 9) | (tl >> 23)
                                tl = tl << 9
                                fl |= tl & gl
                                fh |= th & gh
                                tl &= rl
                                th &= rh
                            tl = rl & ((cl >> 9) | (ch << 23))
                            th = rh & (ch >> 9)
                            while tl | th:
                                tl = (tl >> 9) | (th << 23)
                                th = th >> 9
                                fl |= tl & gl
                                fh |= th & gh
                                tl &= rl
                                th &= rh
                            rl = dl & inner
                            rh = dh & inner
                            tl = rl & (cl << 7)
                            th = rh & ((ch << 7) | (cl >> 25))
                            while tl | th:
                                th = (th << 7) | (tl >> 25)
                                tl = tl << 7
                                fl |= tl & gl
                                fh |= th & gh
                                tl &= rl
                                th &= rh
                            tl = rl & ((cl >> 7) | (ch << 25))
                            th = rh & (ch >> 7)
                            while tl | th:
                                tl = (tl >> 7) | (th << 25)
                                th = th >> 7
                                fl |= tl & gl
                                fh |= th & gh
                                tl &= rl
                                th &= rh
                            n = 0
                            fl = fl - ((fl >> 1) & m1)
                            fh = fh - ((fh >> 1) & m1)
                            fl = (fl & 0x33333333) + ((fl >> 2) & 0x33333333)
                            fh = (fh & 0x33333333) + ((fh >> 2) & 0x33333333)
                            fl = ((fl + (fl >> 4)) & 0x0F0F0F0F) + ((fh + (fh >> 4)) & 0x0F0F0F0F)
                            n = int(((fl * 0x01010101) & full) >> 24)
                            lists[ls + count] = square
                            if square == table_move:
                                key = 0  # the table's best move first
                            else:
                                key += 1 + (n << 2)
                            lists[ls + _LIST_KEYS + count] = key
                            count += 1
                    else:
                        # parity: the empty squares of odd quadrants first, corners first in each group
                        group = 0
                        while group < 2:
                            if group == 0:
                                xl = el & odd_l
                                xh = eh & odd_h
                            else:
                                xl = el & (odd_l ^ full)
                                xh = eh & (odd_h ^ full)
                            while xl:
                                bl = xl & (0 - xl)
                                xl ^= bl
                                lists[ls + count] = lists[((bl * 0x077CB531) & full) >> 27]
                                count += 1
                            while xh:
                                bh = xh & (0 - xh)
                                xh ^= bh
                                lists[ls + count] = 32 + int(lists[((bh * 0x077CB531) & full) >> 27])
                                count += 1
                            group += 1
                    if not returning:
                        frame[fr + _F_STATE] = state
                        frame[fr + _F_COUNT] = count
                        frame[fr + _F_NEXT] = 0
                        frame[fr + _F_BEST] = _BIAS - _INFINITY
                        frame[fr + _F_BEST_MOVE] = _NO_SQUARE
            if returning:
                # ----- the node at `ply` is done: remember it, hand `value` to the parent
                fr = ply << _FRAME_SHIFT
                if int(frame[fr + _F_STATE]) & _STATE_TABLE:
                    lower = 0 - _INFINITY
                    upper = _INFINITY
                    if value >= int(frame[fr + _F_BETA]) - _BIAS:
                        lower = value
                    elif value <= int(frame[fr + _F_ALPHA0]) - _BIAS:
                        upper = value
                    else:
                        lower = value
                        upper = value
                    slot = int(frame[fr + _F_SLOT])
                    locks[slot] = frame[fr + _F_LOCK]
                    entries[slot] = (lower + 128) | ((upper + 128) << 8) | (int(frame[fr + _F_BEST_MOVE]) << 16) | _ENTRY_USED
                if ply == 0:
                    break
                ply -= 1
                fr = ply << _FRAME_SHIFT
                value = 0 - value
                state = int(frame[fr + _F_STATE])
                if state & _STATE_PASSING:
                    continue  # a passing node's value is its child's
                if value > int(frame[fr + _F_BEST]) - _BIAS:
                    frame[fr + _F_BEST] = value + _BIAS
                    frame[fr + _F_BEST_MOVE] = frame[fr + _F_SQUARE]
                    beta = int(frame[fr + _F_BETA]) - _BIAS
                    if value >= beta:
                        continue  # cut-off: fail-soft, the parent gets this bound
                    if value > int(frame[fr + _F_ALPHA]) - _BIAS:
                        frame[fr + _F_ALPHA] = value + _BIAS
                        if state & _STATE_SCOUT:
                            # the null window failed high: search the same child again with (value, beta)
                            frame[fr + _F_STATE] = state ^ _STATE_SCOUT
                            frame[fr + (1 << _FRAME_SHIFT) + _F_ALPHA] = _BIAS - beta
                            frame[fr + (1 << _FRAME_SHIFT) + _F_BETA] = _BIAS - value
                            frame[fr + (1 << _FRAME_SHIFT) + _F_STATE] = 0
                            ply += 1
                            enter = 1
                            returning = 0
                            continue
                returning = 0
            # ----- the next move at `ply`
            at = ply << 2
            fr = ply << _FRAME_SHIFT
            ls = _LISTS_AT + (ply << _LIST_SHIFT)
            state = int(frame[fr + _F_STATE])
            i = int(frame[fr + _F_NEXT])
            count = int(frame[fr + _F_COUNT])
            pl = uint(pos[at])
            ph = uint(pos[at + 1])
            ol = uint(pos[at + 2])
            oh = uint(pos[at + 3])
            square = _NO_SQUARE
            while i < count:
                if state & _STATE_SORTED:
                    pick = i
                    key = int(lists[ls + _LIST_KEYS + i])
                    j = i + 1
                    while j < count:
                        if int(lists[ls + _LIST_KEYS + j]) < key:
                            key = int(lists[ls + _LIST_KEYS + j])
                            pick = j
                        j += 1
                    if pick != i:
                        lists[ls + _LIST_KEYS + pick] = lists[ls + _LIST_KEYS + i]
                        j = int(lists[ls + pick])
                        lists[ls + pick] = lists[ls + i]
                        lists[ls + i] = j
                square = int(lists[ls + i])
                i += 1
                bl = uint(0)
                bh = uint(0)
                if square < 32:
                    bl = uint(1) << square
                else:
                    bh = uint(1) << (square - 32)
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
                if fl | fh:
                    break
                square = _NO_SQUARE
            frame[fr + _F_NEXT] = i
            if square != _NO_SQUARE:
                frame[fr + _F_SQUARE] = square
                if int(frame[fr + _F_EMPTIES]) == 2:
                    # The child has one empty square: its score is counted here, without a node.
                    # Whoever can play the last square does, and that ends the game.
                    frame[fr + _F_STATE] = state & (_STATE_SCOUT ^ 255)  # an exact score: nothing to search again
                    frame[fr + (1 << _FRAME_SHIFT) + _F_STATE] = 0
                    nodes += 1
                    x = ol ^ fl  # the child's side to move: the opponent
                    ph = ph | fh | bh
                    pl = pl | fl | bl
                    ol = x
                    oh = oh ^ fh
                    bl = play_l & ((pl | ol) ^ full)
                    bh = play_h & ((ph | oh) ^ full)
                    fl = ol
                    fh = oh
                    mine = 0
                    fl = fl - ((fl >> 1) & m1)
                    fh = fh - ((fh >> 1) & m1)
                    fl = (fl & 0x33333333) + ((fl >> 2) & 0x33333333)
                    fh = (fh & 0x33333333) + ((fh >> 2) & 0x33333333)
                    fl = ((fl + (fl >> 4)) & 0x0F0F0F0F) + ((fh + (fh >> 4)) & 0x0F0F0F0F)
                    mine = int(((fl * 0x01010101) & full) >> 24)
                    theirs = squares - 1 - mine
                    side = 0
                    while True:
                        fl = uint(0)
                        fh = uint(0)
                        xl = (bl << 1) & not_a
                        xh = (bh << 1) & not_a
                        if (xl & pl) | (xh & ph):
                            rl = uint(0)
                            rh = uint(0)
                            while (xl & pl) | (xh & ph):
                                rl |= xl
                                rh |= xh
                                xl = (xl << 1) & not_a
                                xh = (xh << 1) & not_a
                            if (xl & ol) | (xh & oh):
                                fl |= rl
                                fh |= rh
                        xl = (bl >> 1) & not_h
                        xh = (bh >> 1) & not_h
                        if (xl & pl) | (xh & ph):
                            rl = uint(0)
                            rh = uint(0)
                            while (xl & pl) | (xh & ph):
                                rl |= xl
                                rh |= xh
                                xl = (xl >> 1) & not_h
                                xh = (xh >> 1) & not_h
                            if (xl & ol) | (xh & oh):
                                fl |= rl
                                fh |= rh
                        xl = (bl << 8) & full
                        xh = ((bh << 8) | (bl >> 24)) & full
                        if (xl & pl) | (xh & ph):
                            rl = uint(0)
                            rh = uint(0)
                            while (xl & pl) | (xh & ph):
                                rl |= xl
                                rh |= xh
                                xh = ((xh << 8) | (xl >> 24)) & full
                                xl = (xl << 8) & full
                            if (xl & ol) | (xh & oh):
                                fl |= rl
                                fh |= rh
                        xl = ((bl >> 8) | (bh << 24)) & full
                        xh = bh >> 8
                        if (xl & pl) | (xh & ph):
                            rl = uint(0)
                            rh = uint(0)
                            while (xl & pl) | (xh & ph):
                                rl |= xl
                                rh |= xh
                                xl = ((xl >> 8) | (xh << 24)) & full
                                xh = xh >> 8
                            if (xl & ol) | (xh & oh):
                                fl |= rl
                                fh |= rh
                        xl = (bl << 9) & not_a
                        xh = ((bh << 9) | (bl >> 23)) & not_a
                        if (xl & pl) | (xh & ph):
                            rl = uint(0)
                            rh = uint(0)
                            while (xl & pl) | (xh & ph):
                                rl |= xl
                                rh |= xh
                                xh = ((xh << 9) | (xl >> 23)) & not_a
                                xl = (xl << 9) & not_a
                            if (xl & ol) | (xh & oh):
                                fl |= rl
                                fh |= rh
                        xl = ((bl >> 9) | (bh << 23)) & not_h
                        xh = (bh >> 9) & not_h
                        if (xl & pl) | (xh & ph):
                            rl = uint(0)
                            rh = uint(0)
                            while (xl & pl) | (xh & ph):
                                rl |= xl
                                rh |= xh
                                xl = ((xl >> 9) | (xh << 23)) & not_h
                                xh = (xh >> 9) & not_h
                            if (xl & ol) | (xh & oh):
                                fl |= rl
                                fh |= rh
                        xl = (bl << 7) & not_h
                        xh = ((bh << 7) | (bl >> 25)) & not_h
                        if (xl & pl) | (xh & ph):
                            rl = uint(0)
                            rh = uint(0)
                            while (xl & pl) | (xh & ph):
                                rl |= xl
                                rh |= xh
                                xh = ((xh << 7) | (xl >> 25)) & not_h
                                xl = (xl << 7) & not_h
                            if (xl & ol) | (xh & oh):
                                fl |= rl
                                fh |= rh
                        xl = ((bl >> 7) | (bh << 25)) & not_a
                        xh = (bh >> 7) & not_a
                        if (xl & pl) | (xh & ph):
                            rl = uint(0)
                            rh = uint(0)
                            while (xl & pl) | (xh & ph):
                                rl |= xl
                                rh |= xh
                                xl = ((xl >> 7) | (xh << 25)) & not_a
                                xh = (xh >> 7) & not_a
                            if (xl & ol) | (xh & oh):
                                fl |= rl
                                fh |= rh
                        if fl | fh:
                            n = 0
                            fl = fl - ((fl >> 1) & m1)
                            fh = fh - ((fh >> 1) & m1)
                            fl = (fl & 0x33333333) + ((fl >> 2) & 0x33333333)
                            fh = (fh & 0x33333333) + ((fh >> 2) & 0x33333333)
                            fl = ((fl + (fl >> 4)) & 0x0F0F0F0F) + ((fh + (fh >> 4)) & 0x0F0F0F0F)
                            n = int(((fl * 0x01010101) & full) >> 24)
                            if side:
                                value = mine - theirs - n - n - 1
                            else:
                                value = mine - theirs + n + n + 1
                            break
                        if side:
                            value = mine - theirs  # nobody can play the last square: it goes to the winner
                            if value > 0:
                                value += 1
                            elif value < 0:
                                value -= 1
                            break
                        side = 1
                        fl = pl
                        pl = ol
                        ol = fl
                        fh = ph
                        ph = oh
                        oh = fh
                    if anti:
                        value = 0 - value
                    ply += 1
                    returning = 1
                    continue
                pos[at + 4] = ol ^ fl
                pos[at + 5] = oh ^ fh
                pos[at + 6] = pl | fl | bl
                pos[at + 7] = ph | fh | bh
                alpha = int(frame[fr + _F_ALPHA])
                beta = int(frame[fr + _F_BETA])
                if int(frame[fr + _F_BEST]) != _BIAS - _INFINITY and beta - alpha > 1:
                    beta = alpha + 1  # not the first move: a null window proves it is no better
                    frame[fr + _F_STATE] = state | _STATE_SCOUT
                else:
                    frame[fr + _F_STATE] = state & (_STATE_SCOUT ^ 255)
                frame[fr + (1 << _FRAME_SHIFT) + _F_ALPHA] = _BIAS + _BIAS - beta
                frame[fr + (1 << _FRAME_SHIFT) + _F_BETA] = _BIAS + _BIAS - alpha
                frame[fr + (1 << _FRAME_SHIFT) + _F_STATE] = 0
                frame[fr + (1 << _FRAME_SHIFT) + _F_EMPTIES] = int(frame[fr + _F_EMPTIES]) - 1
                frame[fr + (1 << _FRAME_SHIFT) + _F_PARITY] = int(frame[fr + _F_PARITY]) ^ (1 << (((square >> 5) << 1) | ((square >> 2) & 1)))
                ply += 1
                enter = 1
                continue
            value = int(frame[fr + _F_BEST]) - _BIAS
            if value > 0 - _INFINITY:
                returning = 1  # every move searched
                continue
            if state & _STATE_AFTER_PASS:
                # neither side can move: the game is over, empty squares to the winner
                fl = pl
                fh = ph
                mine = 0
                fl = fl - ((fl >> 1) & m1)
                fh = fh - ((fh >> 1) & m1)
                fl = (fl & 0x33333333) + ((fl >> 2) & 0x33333333)
                fh = (fh & 0x33333333) + ((fh >> 2) & 0x33333333)
                fl = ((fl + (fl >> 4)) & 0x0F0F0F0F) + ((fh + (fh >> 4)) & 0x0F0F0F0F)
                mine = int(((fl * 0x01010101) & full) >> 24)
                fl = ol
                fh = oh
                theirs = 0
                fl = fl - ((fl >> 1) & m1)
                fh = fh - ((fh >> 1) & m1)
                fl = (fl & 0x33333333) + ((fl >> 2) & 0x33333333)
                fh = (fh & 0x33333333) + ((fh >> 2) & 0x33333333)
                fl = ((fl + (fl >> 4)) & 0x0F0F0F0F) + ((fh + (fh >> 4)) & 0x0F0F0F0F)
                theirs = int(((fl * 0x01010101) & full) >> 24)
                fl = play_l & ((pl | ol) ^ full)
                fh = play_h & ((ph | oh) ^ full)
                n = 0
                fl = fl - ((fl >> 1) & m1)
                fh = fh - ((fh >> 1) & m1)
                fl = (fl & 0x33333333) + ((fl >> 2) & 0x33333333)
                fh = (fh & 0x33333333) + ((fh >> 2) & 0x33333333)
                fl = ((fl + (fl >> 4)) & 0x0F0F0F0F) + ((fh + (fh >> 4)) & 0x0F0F0F0F)
                n = int(((fl * 0x01010101) & full) >> 24)
                value = mine - theirs
                if value > 0:
                    value += n
                elif value < 0:
                    value -= n
                if anti:
                    value = 0 - value
                returning = 1
                continue
            # no move: pass, and search the same position for the other side
            frame[fr + _F_STATE] = state | _STATE_PASSING
            pos[at + 4] = ol
            pos[at + 5] = oh
            pos[at + 6] = pl
            pos[at + 7] = ph
            frame[fr + (1 << _FRAME_SHIFT) + _F_ALPHA] = _BIAS + _BIAS - int(frame[fr + _F_BETA])
            frame[fr + (1 << _FRAME_SHIFT) + _F_BETA] = _BIAS + _BIAS - int(frame[fr + _F_ALPHA])
            frame[fr + (1 << _FRAME_SHIFT) + _F_STATE] = _STATE_AFTER_PASS
            frame[fr + (1 << _FRAME_SHIFT) + _F_EMPTIES] = frame[fr + _F_EMPTIES]
            frame[fr + (1 << _FRAME_SHIFT) + _F_PARITY] = frame[fr + _F_PARITY]
            ply += 1
            enter = 1
        cfg[_C_NODES] = nodes
        cfg[_C_STOPPED] = 0
        cfg[_C_MOVE] = frame[_F_BEST_MOVE]
        return value + _BIAS
