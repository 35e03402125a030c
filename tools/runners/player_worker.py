"""The computer player of one firmware tree as a process that answers positions: for tools/match/versus.py and tools/device/replay.py.

Runs under MicroPython's unix port (MICROPYPATH=<firmware>: the viper kernel, search and solver, as on
the Pico) or CPython (PYTHONPATH=<firmware>: the plain ones). It imports only the player's API that every
revision since the node budgets has (`player.engine.decide`, `engine_for`, `LEVELS`), so it can drive the
firmware of an older commit exported with `git archive`.

One request a line on stdin, one answer a line on stdout:

    think <squares: 64, or 36 for 6x6> <X|O> <seed> <level> <midgame nodes|-> <solver nodes|-> [anti]
    -> decision <move> <depth> <nodes> <solver nodes> <exact 0|1> <book 0|1> <score>
    -> error <text>            (the request was bad; the worker goes on)

`anti` plays Anti-Othello (the standard start's rules otherwise). The move is searched as the level searches
on the device, without a deadline: the level's own node budgets unless replaced. A midgame budget replaces the
level's `nodes` as a device budget does (in this tree it grows with the empty squares, Level.midgame_nodes;
after a solve that does not finish the search gets 30% of it). A solver budget replaces the level's
solve_nodes. A firmware whose engine gives its solvers their budgets itself (this tree: the viper solver stops
at it exactly, the plain solver on CPython gets PLAIN_SOLVE_PERCENT of it) needs nothing more. Older ones,
such as d2c6081, hold the viper solver in `engine.fast_solver` from the start and limit it on the device by
the deadline alone: there BudgetedSolver stands for that deadline, and the viper solver may search that many
nodes in all for the move (its win/loss/draw and margin solves together); their plain solver (CPython) takes
solve_nodes as its budget. End of input ends the worker.
"""

import sys

from othello.variant import Variant
from player.engine import decide, engine_for
from player.levels import LEVELS, Level

LEVEL_FIELDS = ("number", "name", "time_ms", "nodes", "max_depth", "exact", "solve_nodes", "style", "noise", "book")
NO_DEADLINE_MS = 1 << 28  # player.engine.MAX_TIME_MS: the longest time a level accepts


class BudgetedSolver:
    """The engine's viper solver with at most `budget` nodes for all the solves of one move (None: no limit)."""

    def __init__(self, solver):
        self.solver = solver
        self.budget = None
        self.left = 0
        self.used = 0

    def begin(self, budget):
        self.budget = budget
        self.left = budget
        self.used = 0

    def solve(self, player, opponent, anti=False, alpha=-64, beta=64, node_limit=0, should_stop=None):
        if self.budget is not None:
            if self.left <= 0:
                from player.endgame_viper import SolverStopped

                raise SolverStopped()
            node_limit = min(node_limit, self.left) if node_limit else self.left
        try:
            return self.solver.solve(player, opponent, anti, alpha, beta, node_limit, should_stop)
        finally:
            self.used += self.solver.nodes
            if self.budget is not None:
                self.left -= self.solver.nodes

    def __getattr__(self, name):
        return getattr(self.solver, name)


def level_with(number, nodes, solver_nodes):
    base = LEVELS[number - 1]
    settings = [getattr(base, name) for name in LEVEL_FIELDS]
    if nodes is not None:
        settings[LEVEL_FIELDS.index("nodes")] = nodes
    if solver_nodes is not None:
        settings[LEVEL_FIELDS.index("solve_nodes")] = solver_nodes
    return Level(*settings)


def optional_count(text):
    if text == "-":
        return None
    value = int(text)
    if value < 1:
        raise ValueError("a budget must be at least 1 node, not %s" % text)
    return value


def answer(words, engine, fast):
    from othello.board import Board

    if len(words) not in (7, 8) or words[0] != "think" or words[7:] not in ([], ["anti"]):
        raise ValueError("expected: think <squares> <X|O> <seed> <level> <nodes|-> <solver nodes|-> [anti]")
    size = int(len(words[1]) ** 0.5 + 0.5)  # the board's squares: 64, or 36 for 6x6
    board = Board.from_position(words[1] + " " + words[2], Variant(size=size, anti=len(words) == 8))
    seed = int(words[3])
    number = int(words[4])
    if not 1 <= number <= len(LEVELS):
        raise ValueError("level %d is not 1 to %d" % (number, len(LEVELS)))
    solver_nodes = optional_count(words[6])
    level = level_with(number, optional_count(words[5]), solver_nodes)
    if fast is not None:
        fast.begin(solver_nodes)
    decision = decide(board, level, None, None, None, NO_DEADLINE_MS, seed, number)
    solved = getattr(decision, "solver_nodes", None)  # older revisions do not count them
    if solved is None:
        solved = fast.used if fast is not None else 0
    return "decision %s %d %d %d %d %d %r" % (decision.move_name(), decision.depth, decision.nodes, solved,
                                              int(decision.exact), int(decision.book), decision.score)


def main():
    engine = engine_for(Variant())
    fast = None
    # A viper solver held from the start is an older firmware's, without node budgets of its own (an engine
    # that budgets its solves makes its solver when it first solves: engine.solver()).
    if getattr(engine, "fast_solver", None) is not None:
        fast = engine.fast_solver = BudgetedSolver(engine.fast_solver)
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        words = line.split()
        if not words:
            continue
        try:
            reply = answer(words, engine, fast)
        except (ValueError, IndexError) as error:
            reply = "error %s" % error
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()


main()
