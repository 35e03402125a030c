"""Pocket Othello's computer player (issue 3; docs/PLAYER.md).

    from player import LEVELS, think, hint
    prepare(board.variant)                # optional: build the tables now (at power-up)
    release()                             # let them go while nothing searches (link play)
    decision = think(board, 5)            # level 5 plays board's side to move
    board.play(decision.square)           # or board.pass_turn() if decision.square == PASS
    print(decision.describe())            # "e6 +4", "c3 win by 6 (exact)"

LEVELS[0] is level 1 (the weakest); each has a menu name and a device time
budget (levels.py). think() and hint() accept any othello.board.Board: every
variant, Anti-Othello (played to win it), 6x6 to 10x10, black hole, White
first, handicap, and Reversi's placement plies.

Arguments common to both:
    should_stop    called every few dozen nodes; returning True stops the
                   search at once and the best move found so far is played
                   (the UI polls buttons and animates from it)
    now            the millisecond tick function (tests pass a fake clock)
    time_limit_ms  a deadline instead of the level's device time budget;
                   the search never runs past it (at most engine.MAX_TIME_MS,
                   about three days: the tick counters wrap)
think() also takes
    node_limit     nodes instead of the level's node budget (deterministic); it
                   stands for the solver's budget too unless solve_node_limit
                   is given, and the midgame search gets all of it
    solve_node_limit  nodes for the endgame solver instead of the level's
    rng_seed       fixes the weaker levels' errors and the book's choice;
                   without it every game differs
    mhz            the clock the search runs at (levels.BASE_MHZ, 125, unless
                   given): the node budgets follow it (levels.at_clock)
"""

from player.engine import Decision, decide, prepare, release
from player.levels import BASE_MHZ, LEVELS, Level, at_clock, hint_level

__all__ = ("BASE_MHZ", "LEVELS", "Level", "Decision", "think", "hint", "solve", "prepare", "release")

def think(board, level, should_stop=None, now=None, node_limit=None, time_limit_ms=None, rng_seed=None,
          solve_node_limit=None, mhz=BASE_MHZ):
    """The move the computer plays at `level` (1..len(LEVELS)) for the side to move: a Decision."""
    if not isinstance(level, int) or not 1 <= level <= len(LEVELS):
        raise ValueError("level must be a whole number from 1 to %d, not %r" % (len(LEVELS), level))
    return decide(board, at_clock(LEVELS[level - 1], mhz), should_stop, now, node_limit, time_limit_ms, rng_seed, level,
                  solve_node_limit)


def hint(board, should_stop=None, now=None, time_limit_ms=None, mhz=BASE_MHZ):
    """The best move for the side to move with its evaluation in discs (exact when solved): a Decision.

    Without `time_limit_ms` a hint takes up to the top level's time on the
    device; its search budget grows with the time given, up to the top level's.
    """
    return decide(board, at_clock(hint_level(time_limit_ms), mhz), should_stop, now, None, None, 0, None)


def solve(position, *args, **options):
    """player.solver.solve(position, ...): the exact score and a best move (see that module).

    The plain solver's module is imported at the first call: the device's
    games solve with the viper solver and never load it.
    """
    from player.solver import solve as solve_exactly

    return solve_exactly(position, *args, **options)
