"""The playing levels, weakest first (docs/PLAYER.md has the measured strength table).

Each level is a search budget and a style:

    name         short text for the menu
    time_ms      the device time budget per move (the hard deadline on the Pico)
    nodes        midgame search nodes: the budget that makes a level repeatable,
                 what the Pico searches in most of time_ms where it searches
                 slowest, the late midgame (midgame_nodes: the budget at a
                 count of empties; the rates are measured as docs/DEVICE_SPEED.md says)
    max_depth    deepest midgame iteration
    exact        solve exactly when this many empty squares or fewer remain ...
    solve_nodes  ... within this many viper solver nodes (else the midgame search
                 plays): DEVICE_SOLVE_NODES_PER_S x SOLVE_SHARE percent of time_ms
    style        the evaluation: "greedy" (discs, corners), "positional" (the
                 square table) or "pattern" (the trained evaluation)
    noise        half-width in discs of the random error added to each root
                 move's score: a level with noise weighs every move and may
                 pick a slightly worse one, as a person does
    book         play from the opening book, choosing among moves within this
                 many discs of the best (None: no book)

The weak levels play like beginners: shallow, greedy or square-table
judgement, and noise, so they lose corners and take X-squares but never play
at random. From level 5 the search has a node budget; each level has about
twice the nodes of the one below, solves the endgame earlier and errs less,
and the top level plays without error in 2.5 s of device time. On 6x6, where
the table's top levels would play nearly alike, levels 5-7 solve later and
err more (on_board).
"""

from othello.compat import const

STYLE_GREEDY = "greedy"
STYLE_POSITIONAL = "positional"
STYLE_PATTERN = "pattern"

# The level budgets come from the Pico's measured speed (docs/DEVICE_SPEED.md: tools/device/replay.py rates
# and tools/device/bench.py endgame, on the emulated Pico at 125 MHz):
# - the midgame search: a move's time is a fixed part (the phase's tables read from flash, the root's
#   move list, the table's reset; in whole games also the swap of the solver's code for the search's, an
#   import of about 35 ms: 120 ms in all) and a part per node, and a node costs more the fewer squares are
#   empty (the late midgame's deeper trees spend more of a node in viper, less in the machine code). On
#   the 853 searched moves of sixteen level-8 games (tools/device/replay.py play --levels 8 --games 16
#   --mhz 125, then `replay.py rates` on its log) the slowest move after those 120 ms searched 31,775
#   nodes/s at 48-54 empties, 29,971 at 40-47, 28,374 at 26-39 and 27,643 at 15-25. The rates below are
#   5.2-5.9% under those, as real Picos run up to 9% slower than the emulated one. A level's budget at a
#   count of empties is what its band's rate searches in SEARCH_SHARE percent of its time, so the node
#   budget, not the deadline, ends every search, on the emulated Pico and on a real one 9% slower, and a
#   host replay of the level plays the device's move. The rates are the 8x8 board's; 6x6 and 10x10
#   searches get the slowest (the names are private: a name on the device costs heap);
_SEARCH_OVERHEAD_MS = const(120)
_SLOWEST_RATE = const(26000)  # nodes/s, 25 empties or fewer (and a search after an unfinished solve)
# (from empties, nodes/s), the first band the empties reach:
_MIDGAME_RATES = const(((48, 30100), (40, 28400), (26, 26900), (0, _SLOWEST_RATE)))
SEARCH_SHARE = 92
# - the Pico solves endgames with the viper solver and its machine code (player/endgame_viper.py,
#   endgame_thumb.py: the last seven empties, the move order's moves): 90,917 to 155,847 nodes per second
#   on 14 empties from play, 108,181 to 161,868 on 16. A level's solve may take SOLVE_SHARE percent of its
#   time: counted at this rate, 15% under the slowest 14-empty position's (real Picos are up to 9% slower),
#   its node budget ends an unfinished solve before that deadline, so a replay plays the device's move (the
#   midgame search then plays, on the rest of the time and the same share of its node budget);
DEVICE_SOLVE_NODES_PER_S = 77000
SOLVE_SHARE = 70
# - the plain solver (CPython, the WASI build, 10x10) counts its nodes
#   its own way: on the same fourteen-empty positions it needs 1.32 times the
#   viper solver's nodes (0.94 to 1.75 times), so it gets this percentage of
#   the level's budget to finish about where the device does (not always: only
#   the unix port, which runs the viper solver, replays the device exactly).
PLAIN_SOLVE_PERCENT = 132


# The post-game review (player/review.py) solves from this many empty squares with its own budget (10 s
# of device time): the viper solver settles 16-empty positions from play in 1.9 s at the median, 4.1 s at
# worst, on the emulated Pico at 125 MHz (docs/DEVICE_SPEED.md), so most reviews are exact for the last 16
# moves.
REVIEW_EXACT = 16

# The rates above are the Pico's at the MicroPython default clock. The search and the solver run at the
# board's search clock (hw/power.py: 200 MHz unless the board config says otherwise), and their work per
# node is the same number of cycles at any clock, so a budget in nodes grows with the clock: at 200 MHz
# a level gets 200/125 = 1.6 times its nodes in the same device time (at_clock). A host replay needs
# the clock a move was searched at: tools/device_replay.py logs it with every move.
BASE_MHZ = 125


class Level:
    def __init__(self, number, name, time_ms, nodes, max_depth, exact, solve_nodes, style, noise, book):
        self.number = number
        self.name = name
        self.time_ms = time_ms
        self.nodes = nodes
        self.max_depth = max_depth
        self.exact = exact
        self.solve_nodes = solve_nodes
        self.style = style
        self.noise = noise
        self.book = book

    def midgame_nodes(self, empties, size=8):
        """The midgame search's node budget with `empties` empty squares on a board of `size`: more nodes
        where the Pico searches faster (_MIDGAME_RATES), and the solve's share taken out where the level
        solves first (an unfinished solve leaves the search the rest)."""
        nodes = self.nodes
        if size == 8:
            for least, rate in _MIDGAME_RATES:
                if empties >= least:
                    nodes = nodes * rate // _SLOWEST_RATE
                    break
        if empties <= self.exact:
            nodes = nodes * (100 - SOLVE_SHARE) // 100
        return max(1, nodes)

    def describe(self):
        """e.g. 'L5 Strong 2s'."""
        seconds = self.time_ms / 1000
        text = ("%d" % seconds) if self.time_ms % 1000 == 0 else ("%.1f" % seconds)
        return "L%d %s %ss" % (self.number, self.name, text)

    def __repr__(self):
        return "Level(%s)" % self.describe()


def search_nodes(time_ms):
    """The midgame nodes the Pico's search does in SEARCH_SHARE percent of `time_ms` at its slowest rate (a
    level's `nodes`; Level.midgame_nodes gives the budget at a count of empties)."""
    return (time_ms * SEARCH_SHARE // 100 - _SEARCH_OVERHEAD_MS) * _SLOWEST_RATE // 1000


def _level(number, name, seconds, max_depth, exact, style, noise, book):
    time_ms = int(seconds * 1000 + 0.5)
    nodes = search_nodes(time_ms)
    solve_nodes = time_ms * SOLVE_SHARE * DEVICE_SOLVE_NODES_PER_S // 100000
    return Level(number, name, time_ms, nodes, max_depth, exact, solve_nodes, style, noise, book)


LEVELS = (
    _level(1, "Beginner", 0.2, 1, 0, STYLE_GREEDY, 6.0, None),
    _level(2, "Novice", 0.2, 1, 4, STYLE_POSITIONAL, 3.0, 6.0),
    _level(3, "Casual", 0.2, 1, 6, STYLE_PATTERN, 2.5, 4.0),
    _level(4, "Club", 0.3, 2, 8, STYLE_PATTERN, 1.5, 3.0),
    _level(5, "Strong", 0.4, 40, 10, STYLE_PATTERN, 1.4, 2.0),
    _level(6, "Expert", 0.6, 40, 12, STYLE_PATTERN, 0.5, 1.0),
    _level(7, "Master", 1.2, 40, 13, STYLE_PATTERN, 0.2, 0.5),
    _level(8, "Champion", 2.5, 40, 16, STYLE_PATTERN, 0.0, 0.0),
)


# On 6x6 a game has 32 empty squares to fill. With the table above levels 6, 7 and 8 solve 38-44% of it
# (on 8x8 20-23%), and they played nearly alike (53% a step in Othello, 59% in Anti-Othello, over 200
# games); more errors alone moved them little. On 6x6 levels 5-7 therefore solve later and err more, so
# that each level beats the one below it by 60% or more (docs/PLAYER.md's ladders); in Anti-Othello level
# 2, whose square table gains little there over level 1's count of discs, solves from 8 empties and errs
# less. Level 8 solves from 14 empties, the solving point its 6x6 ladders were measured at. (level, solves
# from, error in tenths of a disc) where they differ from the table (constants: a name on the device costs
# heap, and the names a whole game interns must stay within the pools, MEMORY.md):
_SIX_BY_SIX = const(((5, 6, 70), (6, 8, 50), (7, 10, 30), (8, 14, 0)))
_SIX_BY_SIX_ANTI = const(((2, 8, 20), (5, 8, 25), (6, 10, 20), (7, 11, 15), (8, 14, 0)))


def on_board(level, variant):
    """`level` as it plays on `variant`'s board: the table's own settings but on 6x6 (_SIX_BY_SIX,
    _SIX_BY_SIX_ANTI)."""
    if variant.size != 6:
        return level
    for number, exact, tenths in (_SIX_BY_SIX_ANTI if variant.anti else _SIX_BY_SIX):
        if number == level.number:
            return Level(level.number, level.name, level.time_ms, level.nodes, level.max_depth, exact,
                         level.solve_nodes, level.style, tenths / 10, level.book)
    return level


def at_clock(level, mhz):
    """`level` with its node budgets for a search at `mhz` (the levels are stated at BASE_MHZ)."""
    if mhz == BASE_MHZ:
        return level
    if not isinstance(mhz, int) or not 1 <= mhz <= 1000:
        raise ValueError("the clock is a whole number of MHz, not %r" % (mhz,))
    return Level(level.number, level.name, level.time_ms, max(1, level.nodes * mhz // BASE_MHZ), level.max_depth,
                 level.exact, max(1, level.solve_nodes * mhz // BASE_MHZ), level.style, level.noise, level.book)


def hint_level(time_ms=None):
    """The settings of a hint: no errors, the book's best move, and the budget of `time_ms` on the device
    (None: the top level's time).

    The nodes grow with the time up to the top level's budget, and the
    solver takes over as early as the strongest level that fits in the time.
    """
    top = LEVELS[-1]
    time_ms = top.time_ms if time_ms is None else time_ms
    exact = 0
    for level in LEVELS:
        if level.time_ms <= time_ms:
            exact = level.exact
    nodes = max(1, min(top.nodes, search_nodes(time_ms)))
    solve_nodes = max(1, min(top.solve_nodes, time_ms * SOLVE_SHARE * DEVICE_SOLVE_NODES_PER_S // 100000))
    return Level(0, "Hint", time_ms, nodes, top.max_depth, exact, solve_nodes, STYLE_PATTERN, 0.0, 0.0)
