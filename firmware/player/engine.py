"""From a Board and a level to a Decision: book, search, solver and the weaker levels' errors.

The machinery (kernel, transposition table, searcher, evaluators) is built
once for a kind of board and kept while the kind stays the same, so a game
allocates it once; a different size, black hole or Anti-Othello builds it anew
(the old one is dropped first, so two never take the heap together).

A 6x6 board is searched inside the 8x8 one (othello.geometry.Embedding), on
every interpreter: the device's viper kernel, search and solver are made for
8x8 bit boards, and a host replays the device's 6x6 moves only if it searches
the same bit boards (the table's slots come from them). The engine puts the
root position in (Engine.root) and each chosen square back (Engine.board_square).
"""

import gc
import sys

from othello.board import PASS
from othello.compat import const, release_module, ticks_add, ticks_diff, ticks_ms
from othello.geometry import EMBEDDED_SIZE, Embedding, geometry
from othello.kernels import make_kernel
from othello.notation import square_name
from player.evaluation import DISC, GREEDY_VALUES, POSITIONAL_VALUES, PatternEvaluator, SquareEvaluator
from player.levels import (LEVELS, PLAIN_SOLVE_PERCENT, REVIEW_EXACT, SOLVE_SHARE, STYLE_GREEDY, STYLE_PATTERN,
                           STYLE_POSITIONAL, on_board)
from player.search import NO_MOVE, Searcher, SearchStopped, TranspositionTable

# The kernel's plies: a pass does not use depth, so a line reaches twice its depth at most; the search
# stops deepening at MAX_PLY // 2 (17 plies, which the top level's budget reaches only where few moves are
# left) and the review's solves (16 empties: 16 moves and at most 17 passes) fit too. Each ply costs
# 128 bytes (its move list, the fast search's frame and the position), which the Pico's heap feels.
MAX_PLY = 34
# 2**9 table entries (4.6 KB): level 8 with 2**10 scored 51.4% of 400 games against it, within the noise
# (docs/PLAYER.md), and the 4.6 KB keep 40 KB of the Pico's heap free at a game's worst moment
# (docs/MEMORY.md).
TABLE_BITS = 9
SOLVER_EMPTIES = max(REVIEW_EXACT, max(level.exact for level in LEVELS))  # the viper solver's stacks: no more
# The viper solver keeps its entries in the midgame table's locks, scores, moves and depths, which the two
# share as they never run at once.
SOLVER_TABLE_BITS = TABLE_BITS
# What _solve_stage() found (a private const: defined before any use, as MicroPython folds it while parsing)
_SOLVED = const(1)
_OUTCOME = const(2)
_UNSOLVED = const(0)
_SOLVER_MODULE = const("player.endgame_viper")
MAX_TIME_MS = 1 << 28  # longer limits are cut to this: tick counters wrap at 2**30 ms (compat)


class Decision:
    """What the player chose and why.

    square      the move, or othello.board.PASS when the side to move must pass
    score       discs from the mover's view: a float estimate, or the exact int when `exact`
    exact       the score is the perfect-play result (WOF, empties to the winner)
    depth       plies searched (the empty squares when solved, 0 from the book)
    nodes       positions searched
    elapsed_ms  time taken
    level       the level number (None for a hint)
    book        the move came from the opening book
    solver_nodes  the part of `nodes` the endgame solver searched (the rest is the midgame search's)
    """

    def __init__(self, square, score, exact, depth, nodes, elapsed_ms, level, size, book=False, solver_nodes=0):
        self.square = square
        self.score = score
        self.exact = exact
        self.depth = depth
        self.nodes = nodes
        self.elapsed_ms = elapsed_ms
        self.level = level
        self.size = size
        self.book = book
        self.solver_nodes = solver_nodes

    def move_name(self):
        return "pass" if self.square == PASS else square_name(self.square, self.size)

    def describe(self):
        """Short text for the screen: 'e6 +4', 'c3 win by 6 (exact)', 'f5 0 book'."""
        move = self.move_name()
        if self.exact:
            if self.score > 0:
                return "%s win by %d (exact)" % (move, self.score)
            if self.score < 0:
                return "%s loss by %d (exact)" % (move, -self.score)
            return "%s draw (exact)" % move
        rounded = int(self.score + 0.5) if self.score >= 0 else -int(-self.score + 0.5)
        text = "%s %s" % (move, ("%+d" % rounded) if rounded else "0")
        return text + " book" if self.book else text

    def __repr__(self):
        return "Decision(%s, depth %d, %d nodes, %d ms)" % (self.describe(), self.depth, self.nodes, self.elapsed_ms)


class Random:
    """A small linear congruential generator: the same numbers on every interpreter (the WASI build has no random)."""

    def __init__(self, seed):
        self.state = seed & 0x7FFFFFFF

    def below(self, bound):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % bound


_seed_counter = [0]


def make_random(seed):
    """A Random for `seed`, or, without one, a fresh seed each call so that games differ."""
    if seed is None:
        _seed_counter[0] += 1
        seed = ticks_ms() * 7919 + _seed_counter[0] * 104729
    return Random(seed)


class Engine:
    """The machinery for one kind of board; where viper runs, one of its two fast paths at a time.

    The viper midgame search and the viper solver each put about 22 KB of
    machine code in the Pico's heap, and their stacks. A game needs the
    solver only from the level's exact empties on, and the midgame search
    there only when a solve does not finish, so the engine holds one of the
    two and swaps them when the game needs the other (midgame_search(),
    solver(): an import of about 35 ms on the Pico).
    """

    def __init__(self, variant):
        self.key = (variant.size, variant.blocked_mask(), variant.anti)
        self.size = variant.size
        self.anti = variant.anti
        # the smaller board inside the 8x8 one, or None: the kernel plays the board itself
        self.embedding = Embedding(variant.size, variant.blocked_mask()) if variant.size < EMBEDDED_SIZE else None
        if self.embedding is None:
            self.kernel = make_kernel(geometry(variant.size, variant.blocked_mask()), MAX_PLY)
            self.midgame_module = "player.search_viper"
        else:
            self.kernel = make_kernel(self.embedding.geometry, MAX_PLY)
            self.midgame_module = "player.search_viper6"  # its leaves evaluate the 6x6 weight files' patterns
        self.table = TranspositionTable(TABLE_BITS)
        self.searcher = Searcher(self.kernel, self.table, variant.anti)
        self.fast_solver = None
        self.book_discs = None  # the most discs of a book position, read from the book when first needed
        self._evaluators = {}
        if self.kernel.name == "viper":
            # The evaluation takes its phase buffer as it is made, here just before the search's code, so
            # that the two lie side by side: let go together, they leave room for the solver's code.
            self.evaluator(STYLE_PATTERN)
        self.midgame_search()

    def midgame_search(self):
        """Give the searcher the viper midgame search where viper runs, letting the viper solver go.

        Where the heap has no room for its code, the plain search serves (and the next call tries again)."""
        if self.searcher.fast is None and self.kernel.name == "viper":
            self.fast_solver = None
            _let_go_but(self.midgame_module)
            pattern = self._evaluators.get(STYLE_PATTERN)
            try:
                if pattern is not None:
                    pattern.take_tables()  # before the search's code, which cannot do without them
                self.searcher.fast = _fast_midgame(self.searcher, self.midgame_module)
            except MemoryError:
                # Its code needs one free block of ~20 KB, the evaluation's phase buffer another (a review
                # after a long session found none): the plain search plays the same moves, slower, its
                # evaluation reading its entries from the file where the buffer found no room.
                self.searcher.fast = None

    def solver(self):
        """The viper endgame solver where viper runs (letting the viper midgame search go), else None.

        None also where the heap has no room for its code: the plain solver serves then."""
        if self.fast_solver is None and self.kernel.name == "viper":
            self.searcher.fast = None
            pattern = self._evaluators.get(STYLE_PATTERN)
            if pattern is not None:
                pattern.release_tables()  # 20 KB on 8x8: with the search's code, room for the solver's
            _let_go_but(_SOLVER_MODULE)
            try:
                self.fast_solver = _fast_solver(self.kernel.geometry, self.table)
            except MemoryError:  # as above: the plain solver solves, within the same deadline
                self.fast_solver = None
        return self.fast_solver

    def root(self, board):
        """The board's position in the kernel's squares: (discs to move, other discs)."""
        if self.embedding is None:
            return board.player_discs(), board.opponent_discs()
        return self.embedding.mask(board.player_discs()), self.embedding.mask(board.opponent_discs())

    def board_square(self, square):
        """The board's square of a kernel square (PASS stays PASS)."""
        if self.embedding is None or square == PASS:
            return square
        return self.embedding.board_square(square)

    def book_for(self, board):
        """The opening book's module while `board` may be in the book, else None.

        Past the book's deepest position the module is let go (on the Pico its
        code is in the heap), and a game's move lets it go after its lookup
        (_decide): a review keeps it from position to position. A board searched inside the
        8x8 one has no book: the book's keys are hashes of the board's own bits.
        """
        if self.embedding is not None:
            return None
        discs = board.count(0) + board.count(1)
        if self.book_discs is None or discs <= self.book_discs:
            from player import book

            if self.book_discs is None:
                self.book_discs = book.deepest(self.size)
            if discs <= self.book_discs:
                return book
        release_module("player.book")
        return None

    def evaluator(self, style):
        found = self._evaluators.get(style)
        if found is None:
            if style == STYLE_GREEDY:
                found = SquareEvaluator(self.size, GREEDY_VALUES, DISC, self.anti, self.embedding)
            elif style == STYLE_POSITIONAL:
                found = SquareEvaluator(self.size, POSITIONAL_VALUES, DISC // 4, self.anti, self.embedding)
            else:
                found = PatternEvaluator(self.size, self.anti, embedding=self.embedding)
            self._evaluators[style] = found
        return found


# the viper fast paths' modules: the engine keeps one of them in the heap at a time (a game on another
# board may have left the other midgame search's)
FAST_MODULES = ("player.search_viper", "player.search_viper6", _SOLVER_MODULE)
# what a fast path's module imports for itself, let go with it (each machine code on the Pico, viper
# elsewhere): the solver's last seven empty squares, which would otherwise stay in the heap through the
# next game, and the midgame searches' play_and_count
_FAST_PARTS = {_SOLVER_MODULE: ("player.endgame_thumb", "player.endgame_viper_small"),
               "player.search_viper": ("player.search_thumb", "player.search_twin"),
               "player.search_viper6": ("player.search_thumb6", "player.search_twin6")}


def _let_go_but(module):
    """Release every fast path's module but `module` (None: all), with its parts, and collect at once, so
    that it finds its room."""
    released = False
    for name in FAST_MODULES:
        if name != module:
            for part in (name,) + _FAST_PARTS.get(name, ()):
                if part in sys.modules:
                    release_module(part)
                    released = True
    if released:
        gc.collect()


def _fast_solver(board_geometry, table):
    """The viper endgame solver (where viper runs and the board is 8x8, or 6x6 inside it).

    It gives the same scores as Searcher._solve (host_tests check the two
    against each other), about 20 times faster on the Pico. It keeps its
    table in the midgame search's `table`, and clears it before each solve
    (_solve_stage).
    """
    from player.endgame_viper import ViperSolver

    return ViperSolver(board_geometry, SOLVER_EMPTIES, SOLVER_TABLE_BITS, table)


def _fast_midgame(searcher, module):
    """The viper midgame search of `module` for `searcher` (over a viper kernel): its _pvs again, score,
    move and nodes."""
    __import__(module)
    return sys.modules[module].ViperMidgame(searcher.kernel, searcher.table, searcher.rank, searcher.keys)


_engine = [None]


def engine_for(variant):
    key = (variant.size, variant.blocked_mask(), variant.anti)
    engine = _engine[0]
    if engine is None or engine.key != key:
        _engine[0] = None
        # The old engine's fast path (the solver's 35 KB of code after an endgame) would stay in the heap
        # while the new one takes its tables: on the Pico a 6x6 Anti engine after a 6x6 game's solves found
        # no 11 KB block for its evaluation. The new engine imports what it needs again.
        _let_go_but(None)
        engine = _engine[0] = Engine(variant)
    return engine


def prepare(variant):
    """Build the machinery for `variant` before it is needed.

    Its arrays are the largest blocks a game keeps in the heap (the search
    table's, the evaluation's edge tables, the viper midgame search's code
    and stacks, whose place the viper solver takes in the endgame): taken at
    power-up, they find room that menus coming and going would have cut up.
    Called again for the next game, it puts the midgame search back where
    the last game's end left the solver, whose code is bigger.
    """
    engine = engine_for(variant)
    engine.evaluator(STYLE_PATTERN)
    engine.midgame_search()


def release():
    """Let the engine go, with its tables and its fast path's code and stacks (about 64 KB on the Pico), for
    a screen that searches nothing and needs the room: link play. prepare() or the next decision builds it
    again."""
    _engine[0] = None
    _let_go_but(None)
    gc.collect()


def decide(board, level, should_stop=None, now=None, node_limit=None, time_limit_ms=None, rng_seed=None,
           level_number=None, solve_node_limit=None):
    """The move `level` (a levels.Level) plays on `board`; see player.think for the arguments."""
    try:
        return _decide(board, level, should_stop, now, node_limit, time_limit_ms, rng_seed, level_number,
                       solve_node_limit)
    finally:
        # The searcher outlives the caller: a should_stop bound to a screen would keep that screen, and
        # the code of its module, in the heap until the next search (after a menu, a game's book moves).
        if _engine[0] is not None:
            _engine[0].searcher.finish()


def _decide(board, level, should_stop, now, node_limit, time_limit_ms, rng_seed, level_number, solve_node_limit):
    if board.is_game_over():
        raise ValueError("the game is over: there is no move to choose")
    now = ticks_ms if now is None else now
    started = now()
    time_ms = level.time_ms if time_limit_ms is None else min(time_limit_ms, MAX_TIME_MS)
    deadline = ticks_add(started, time_ms)
    rng = make_random(rng_seed)
    level = on_board(level, board.variant)
    engine = engine_for(board.variant)
    searcher = engine.searcher
    searcher.evaluator = engine.evaluator(level.style)

    solver_nodes = 0

    def finish(square, score, exact, depth, nodes, from_book=False):
        return Decision(square, score, exact, depth, nodes, ticks_diff(now(), started), level_number,
                        board.size, from_book, solver_nodes)

    if board.in_placement_phase():
        square, score = _placement(board, engine, level, rng)
        return finish(square, score / DISC, False, 1, 0)

    book = engine.book_for(board) if level.book is not None and board.legal_moves() else None
    if book is not None:
        found = book.lookup(board, engine.kernel, level.book, rng)
        # Its module's code (2 KB on the Pico) leaves the heap after each lookup: the game's tightest
        # moments are in the opening, and the next move imports it again (a few ms on the Pico).
        book = None
        release_module("player.book")
        if found is not None:
            return finish(found[0], found[1], False, 0, 0, True)

    # From here on the squares are the kernel's (a 6x6 board's inside the 8x8 one): board_square() turns them back.
    player, opponent = engine.root(board)
    count = searcher.set_root(player, opponent)
    if count <= 1:
        # Nothing to choose: a forced pass or the only move is played at once, without a search.
        square, score, exact = _forced(engine, count)
        return finish(engine.board_square(square), score, exact, 1, 0)
    empties = searcher.root_empties
    nodes = 0
    if empties <= level.exact:
        explicit = node_limit if solve_node_limit is None else solve_node_limit
        limit = level.solve_nodes if explicit is None else explicit
        plain_limit = level.solve_nodes * PLAIN_SOLVE_PERCENT // 100 if explicit is None else explicit
        # The solver's node budget fits in SOLVE_SHARE percent of the time on the Pico (the deadline
        # there is a safety net): if it does not finish, the midgame search plays on the rest of the
        # time and the same share of its node budget.
        solve_deadline = ticks_add(started, time_ms * SOLVE_SHARE // 100)
        kind, score, square, nodes = _solve_stage(engine, count, limit, plain_limit, solve_deadline, now,
                                                  should_stop)
        solver_nodes = nodes
        if kind == _SOLVED:
            return finish(PASS if square is None else engine.board_square(square), score, True, empties, nodes)
        if kind == _OUTCOME:
            # Win or draw is proven, the margin is not: play the proven move.
            return finish(engine.board_square(square), float(score), False, empties, nodes)
        count = searcher.set_root(player, opponent)

    budget = level.midgame_nodes(empties, board.size) if node_limit is None else node_limit
    noise = int(level.noise * DISC)
    engine.midgame_search()
    searcher.start(budget, deadline, now, should_stop)
    # Only a move within twice the noise of the best can win the draw: those need exact scores.
    depth = searcher.iterate(level.max_depth, 2 * noise if noise > 0 else None)
    square = searcher.best_square
    score = searcher.best_score
    if noise > 0 and depth:
        square, score = _noisy_choice(searcher, noise, rng)
    exact = searcher.exact_result
    return finish(engine.board_square(square), score // DISC if exact else score / DISC, exact, depth,
                  nodes + searcher.nodes)


def _forced(engine, count):
    """(square, score, exact) for a root with `count` (0 or 1) moves: the pass or the move, unsearched.

    The score is exact when the move ends the game, else the evaluation's
    estimate of the position it leads to, from the mover's view.
    """
    kernel = engine.kernel
    searcher = engine.searcher
    if count == 0:
        square = PASS
        kernel.pass_move(0)
    else:
        square = searcher.root_moves[0]
        kernel.play(0, square)
    if kernel.mobility(1) == 0 and kernel.opponent_mobility(1) == 0:
        return square, -searcher.final_score(1), True
    return square, -searcher.evaluator.evaluate(kernel, 1) / DISC, False


_INFINITY_DISCS = const(1000)  # beyond any disc difference (10x10 has 100 squares)


def _solve_stage(engine, count, limit, plain_limit, deadline, now, should_stop):
    """Solve the root exactly, win/loss/draw first: (kind, score, square, nodes).

    kind _SOLVED: the exact score; _OUTCOME: only win (1) or draw (0) was
    proven in time, with its move; _UNSOLVED: nothing usable (a proven loss
    is left to the midgame search, which fights on for the best swindle).
    The viper solver, where there is one and the position is within the
    empties its stacks were made for (SOLVER_EMPTIES: the levels' own), and
    the plain solver elsewhere, stop after `limit` nodes (the level's solver
    budget or the caller's; `plain_limit` for the plain solver, which counts
    its nodes its own way). On the device the budget ends a solve before
    the deadline, which stays as a safety net, so a replay of the position
    plays the same move; a cut solve leaves the move to the midgame search
    with its own node budget, as repeatable as the solve.
    """
    searcher = engine.searcher
    solver = engine.solver() if count and searcher.root_empties <= SOLVER_EMPTIES else None
    if solver is None:
        from player.solver import solve_root  # the plain solver: the host's, and beyond the viper solver's stacks

        searcher.start(plain_limit, deadline, now, should_stop)
        try:
            score, square = solve_root(searcher, count, -_INFINITY_DISCS, _INFINITY_DISCS)
            return _SOLVED, score, square, searcher.nodes
        except SearchStopped:
            if searcher.outcome is not None and searcher.outcome >= 0:
                return _OUTCOME, searcher.outcome, searcher.outcome_square, searcher.nodes
            return _UNSOLVED, 0, None, searcher.nodes
        except RuntimeError:  # the Pico's stack: the plain solver recurses a frame an empty square
            return _UNSOLVED, 0, None, searcher.nodes

    def stop():
        return (should_stop is not None and should_stop()) or ticks_diff(deadline, now()) <= 0

    from player.endgame_viper import SolverStopped

    # From a clear table, so the solve's nodes, and where its budget cuts it, depend on the position alone:
    # a replay of the position plays the device's move.
    solver.clear_table()
    player, opponent = engine.kernel.position(0)
    try:
        score, square = solver.solve_exact(player, opponent, engine.anti, limit or 0, stop)
        return _SOLVED, score, square, solver.nodes
    except SolverStopped:
        if solver.outcome is not None and solver.outcome > 0:
            return _OUTCOME, 1, solver.outcome_square, solver.nodes
        return _UNSOLVED, 0, None, solver.nodes


def _noisy_choice(searcher, noise, rng):
    """The root move whose score plus a random error is highest: small errors often, big ones rarely.

    The error is the sum of two uniform draws (a triangle from -noise to
    +noise), so a move a little worse than the best is often chosen and a
    move much worse almost never.
    """
    best_square = NO_MOVE
    best_value = best_score = 0
    for i in range(searcher.root_count):
        error = rng.below(noise + 1) + rng.below(noise + 1) - noise
        value = searcher.root_scores[i] + error
        if best_square == NO_MOVE or value > best_value:
            best_square = searcher.root_moves[i]
            best_value = value
            best_score = searcher.root_scores[i]
    return best_square, best_score


def _placement(board, engine, level, rng):
    """Reversi's first four plies, which only fill the centre: look through them all, judge the position after."""
    best_square = None
    best = 0
    noise = int(level.noise * DISC)
    for square in board.legal_squares():
        trial = board.copy()
        trial.play(square)
        score = -_placement_value(trial, engine)
        if noise:
            score += rng.below(noise + 1) + rng.below(noise + 1) - noise
        if best_square is None or score > best:
            best_square = square
            best = score
    return best_square, best


def _placement_value(board, engine):
    if board.in_placement_phase():
        best = None
        for square in board.legal_squares():
            trial = board.copy()
            trial.play(square)
            score = -_placement_value(trial, engine)
            if best is None or score > best:
                best = score
        return best
    player, opponent = engine.root(board)
    engine.kernel.set_root(player, opponent)
    return engine.searcher.evaluator.evaluate(engine.kernel, 0)
