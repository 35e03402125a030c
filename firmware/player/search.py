"""The search: negamax alpha-beta with principal-variation search, on a kernel.

One Searcher owns a kernel (othello.kernel: the preallocated position stack),
a transposition table and a few preallocated arrays. Its recursive functions
hold only small integers (ply, remaining depth, scores, squares), so a node
allocates nothing once the kernel does not (the viper kernel on the Pico, the
plain kernel wherever bitboards are small ints).

- _pvs(ply, depth, alpha, beta): the midgame search, scores in evaluation
  units (1/16 disc, evaluation.DISC) from the side to move's view; a finished
  game scores its exact result times DISC. Multi-ProbCut (below) lets a
  shallower search settle a node far outside its window.
- _solve(ply, empties, alpha, beta): the exact endgame solver, scores in
  discs (the WOF disc difference, empty squares to the winner; negated for
  Anti-Othello, where the side with fewer discs wins). Fail-soft: a result
  inside (alpha, beta) is exact, outside it is a bound on the right side.
- search_root() runs either one over the root moves and keeps their scores,
  iterate() deepens the midgame search until a limit stops it.

Limits: start() takes a node limit (deterministic), a deadline on a tick
clock and a should_stop() callback; all are checked every CHECK_EVERY nodes
(the viper search polls at the same nodes, so the twins stop alike), at
every node on a board bigger than 8x8, and stop the search by raising
SearchStopped, after which the last complete result (or the best root move
finished so far) stands. Where that many nodes take longer than
_CHECK_SLICE_MS (this search on the Pico, where the viper search or solver
could not load), the checks come closer together, so that the deadline is
still seen in time.

Move order: the table's move first, then (with enough depth left) fewest
replies for the opponent; corners, edges, inner squares, C- and X-squares
break ties (and order the moves alone near the leaves).
"""

from array import array

from othello.compat import const, ticks_diff, ticks_ms
from player.evaluation import DISC

INFINITY = 32000  # above any score in either unit; fits the table's 16-bit scores
NO_MOVE = 255
CHECK_EVERY = 64  # nodes between looks at the clock, the node limit and should_stop
# ... on a board bigger than 8x8, whose every mask is a multi-word big integer (even where viper runs):
# 64 of its nodes took 1.2 s on the Pico (52 a second, 10x10) and 0.1 s on the host's unix port
_BIG_BOARD_CHECK_EVERY = const(1)
# Under a deadline, a slice of nodes between two looks that takes longer than this halves the slice, one
# that takes under a quarter of it doubles it back (up to the interval above): this search on the Pico
# runs 700-1,000 nodes/s, so 64 nodes took 65-90 ms, more than a level may overrun its time (50 ms).
_CHECK_SLICE_MS = const(10)
NO_LIMIT = 1 << 29

TABLE_DEPTH = 2  # the midgame search uses the table with at least this depth left
ORDER_DEPTH = 3  # ... and orders moves by the opponent's mobility with this depth left
_SOLVE_TABLE_EMPTIES = const(7)  # the solver uses the table with at least this many empties
_SOLVE_ORDER_EMPTIES = const(6)  # ... and orders moves by the opponent's mobility from here

# Multi-ProbCut (Buro): a node with _PROBCUT_DEPTH or more plies left first searches its own position
# shallower, with a null window _PROBCUT_MARGIN above beta, then below alpha: a shallow score that far
# outside the window predicts the deep one outside it too, and the node returns beta (alpha) at once. The
# shallow depth keeps the deep one's parity (a search of odd depth scores the mover higher than one of even
# depth). The names are private (a name on the device costs heap); search_viper's twins of them are checked
# against these by host_tests/test_gen_viper.py.
_PROBCUT_DEPTH = const(4)
_PROBCUT_MARGIN = const(96)  # 6 discs
_PROBCUT_CEILING = const(1024)  # 64 discs: no score lies beyond

_BOUND_LOWER = const(1)
_BOUND_UPPER = const(2)
_BOUND_EXACT = const(3)
KIND_SOLVE = 4  # the entry holds a solver score (discs), not a midgame one
_GENERATION_STEP = const(8)  # the bits above the kind tell which search wrote the entry
GENERATION_MASK = 0xF8


class SearchStopped(Exception):
    """Raised inside a search when a limit is reached; the search's last complete result stands."""


def bound_of(score, alpha, beta):
    """What a fail-soft score searched in the window (alpha, beta) tells: a lower bound, the exact value or an upper bound."""
    if score >= beta:
        return _BOUND_LOWER
    if score > alpha:
        return _BOUND_EXACT
    return _BOUND_UPPER


class TranspositionTable:
    """2**bits entries in five preallocated arrays (9 bytes an entry: 2**9 entries take 4.6 KB).

    A slot is chosen by the top bits of Kernel.hash() and confirmed by the 30
    bits of Kernel.lock(). Each search (start()) gets a new generation and
    sees only its own entries: a search's result then depends on the position
    and the limits alone, never on what was searched before, so games replay
    exactly. An entry is replaced unless it is of this search, deeper, and for
    another position.
    """

    def __init__(self, bits=11):
        size = 1 << bits
        self.bits = bits
        self.shift = 30 - bits
        self.locks = array("I", bytes(4 * size))  # from bytes: no temporary list on the heap
        self.scores = array("h", bytes(2 * size))
        self.moves = bytearray(size)
        self.depths = bytearray(size)
        self.flags = bytearray(size)  # bound | kind | generation * _GENERATION_STEP; 0 = empty
        self.generation = _GENERATION_STEP
        self.searches = 0  # searches started: tells a solver that shares `locks` (player.engine) to clear

    def new_search(self):
        """Start a generation; every 31 searches the table is wiped so that no old generation comes back."""
        self.searches += 1
        self.generation += _GENERATION_STEP
        if self.generation > 255:
            self.clear()
            self.generation = _GENERATION_STEP

    def clear(self):
        for i in range(len(self.flags)):
            self.flags[i] = 0

    def store(self, slot, lock, depth, score, move, bound, kind):
        if self.flags[slot] & GENERATION_MASK == self.generation and self.depths[slot] > depth and self.locks[slot] != lock:
            return
        self.locks[slot] = lock
        self.scores[slot] = score
        self.moves[slot] = move
        self.depths[slot] = depth
        self.flags[slot] = bound | kind | self.generation


def square_ranks(board_geometry):
    """bytearray of each square's static order rank: corners 0, edges 2, inside 3, C-squares 5, X-squares 6.

    The ranks are the playable board's (Geometry.box): a 6x6 board inside the 8x8 one ranks its own
    corners, edges, C- and X-squares (the blocked squares around it never hold a move: their ranks do
    not matter)."""
    size = board_geometry.size
    first, last = board_geometry.box
    ranks = bytearray(size * size)
    for row in range(size):
        for column in range(size):
            a = max(min(row - first, last - row), 0)
            b = max(min(column - first, last - column), 0)
            near, far = min(a, b), max(a, b)
            if near == 0 and far == 0:
                rank = 0
            elif near == 1 and far == 1:
                rank = 6
            elif near == 0 and far == 1:
                rank = 5
            elif near == 0:
                rank = 2
            else:
                rank = 3
            ranks[row * size + column] = rank
    return ranks


class Searcher:
    def __init__(self, kernel, table, anti=False):
        self.kernel = kernel
        self.table = table
        self.anti = bool(anti)
        self.evaluator = None
        squares = kernel.stride
        self.keys = bytearray(squares)  # one node's move keys while it sorts its moves (_order)
        self.rank = square_ranks(kernel.geometry)
        self.root_moves = bytearray(squares)
        self.root_scores = array("h", bytes(2 * squares))
        self.pending_scores = array("h", bytes(2 * squares))
        self.root_count = 0
        self.root_empties = 0
        self.outcome = None  # the solver's win (1) / draw (0) / loss (-1) once known, and its move
        self.outcome_square = NO_MOVE
        self.exact_result = False
        self.fast = None  # a ViperMidgame (player.search_viper) that stands in for _pvs, where there is one
        self.start()

    # ----- limits ---------------------------------------------------------

    def start(self, node_limit=None, deadline=None, now=None, should_stop=None):
        """Reset the node count and set the limits for the next search(es).

        `deadline` is a tick value of `now` (a ticks_ms-like function).
        """
        self.nodes = 0
        self.iteration_depth = 0  # the midgame depth under way (progress reports, the leaves' phase), 0 when solving
        self.node_limit = NO_LIMIT if node_limit is None else node_limit
        self.deadline = deadline
        self.now = ticks_ms if now is None else now
        self.should_stop = should_stop
        self.check_every = self._check_interval()
        self.checked_at = 0 if deadline is None else self.now()
        self.next_check = min(self.check_every, self.node_limit)
        self.table.new_search()

    def finish(self):
        """Let go of the callbacks start() was given (the searcher is kept from move to move)."""
        self.now = ticks_ms
        self.should_stop = None

    def poll(self):
        """Whether should_stop() or the deadline ends the search now: the fast search's look at them."""
        if self.should_stop is not None and self.should_stop():
            return True
        return self.deadline is not None and ticks_diff(self.deadline, self.now()) <= 0

    def _checkpoint(self):
        # A new exception each time: one instance raised again keeps growing its traceback.
        if self.nodes >= self.node_limit:
            raise SearchStopped()
        if self.should_stop is not None and self.should_stop():
            raise SearchStopped()
        if self.deadline is not None:
            now = self.now()
            if ticks_diff(self.deadline, now) <= 0:
                raise SearchStopped()
            slice_ms = ticks_diff(now, self.checked_at)
            self.checked_at = now
            if slice_ms > _CHECK_SLICE_MS:
                self.check_every = max(self.check_every >> 1, 1)
            elif slice_ms * 4 < _CHECK_SLICE_MS:
                self.check_every = min(self.check_every << 1, self._check_interval())
        self.next_check = min(self.nodes + self.check_every, self.node_limit)

    def _check_interval(self):
        """The most nodes between two looks at the limits."""
        return CHECK_EVERY if self.kernel.geometry.size <= 8 else _BIG_BOARD_CHECK_EVERY

    # ----- the root ---------------------------------------------------------

    def set_root(self, player, opponent):
        """Put the position (player to move) at ply 0 and order its moves; returns how many there are."""
        k = self.kernel
        k.set_root(player, opponent)
        self.root_empties = k.empties(0)
        count = k.generate(0)
        if count > 1:
            self._order(0, 0, count, NO_MOVE, True)
        for i in range(count):
            self.root_moves[i] = k.move_list[i]
            self.root_scores[i] = 0
        self.root_count = count
        self.completed_moves = 0
        self.best_square = self.root_moves[0] if count else NO_MOVE
        self.best_score = 0
        return count

    def search_root(self, depth, alpha, beta, exact=False, margin=None):
        """Search each root move (exactly if `exact`, else `depth` plies); returns the best score.

        When it returns, root_moves is sorted best first and root_scores holds
        each move's score: exact for the best one (if inside the window), a
        bound for the others. With a `margin`, every move within `margin` of
        the best gets its exact score too (a null window first tells whether
        it is that close; the others keep an upper bound below best - margin):
        what the weaker levels' errors and the opening book need. While it
        runs, best_square/best_score and completed_moves tell the best of the
        moves finished so far; a stopped search leaves root_moves/root_scores
        alone.
        """
        k = self.kernel
        moves = self.root_moves
        pending = self.pending_scores
        best = -INFINITY
        self.completed_moves = 0
        if not exact:
            self.iteration_depth = depth  # its deepest leaves' phase judges every leaf (_pvs)
        for i in range(self.root_count):
            k.play(0, moves[i])
            if i == 0:
                score = -self._child(exact, depth, -beta, -alpha)
            elif margin is not None:
                floor = max(best - margin - 1, -INFINITY + 1)
                score = -self._child(exact, depth, -floor - 1, -floor)
                if score > floor:
                    score = -self._child(exact, depth, -INFINITY, -floor)
            else:
                score = -self._child(exact, depth, -alpha - 1, -alpha)
                if alpha < score < beta:
                    score = -self._child(exact, depth, -beta, -alpha)
            pending[i] = score
            self.completed_moves = i + 1
            if score > best:
                best = score
                self.best_square = moves[i]
                self.best_score = score
                if score > alpha and margin is None:
                    alpha = score
                    if alpha >= beta:
                        break
        for i in range(self.completed_moves):
            self.root_scores[i] = pending[i]
        self._sort_root()
        return best

    def _child(self, exact, depth, alpha, beta):
        if exact:
            return self._solve(1, self.root_empties - 1, alpha, beta)
        fast = self.fast
        if fast is not None and fast.handles(self.evaluator):
            return fast.pvs(self, 1, depth - 1, alpha, beta)
        return self._pvs(1, depth - 1, alpha, beta)

    def _sort_root(self):
        """Best score first, earlier order kept among equals (insertion sort: the list is short)."""
        moves = self.root_moves
        scores = self.root_scores
        for i in range(1, self.completed_moves):
            square = moves[i]
            score = scores[i]
            j = i - 1
            while j >= 0 and scores[j] < score:
                moves[j + 1] = moves[j]
                scores[j + 1] = scores[j]
                j -= 1
            moves[j + 1] = square
            scores[j + 1] = score

    def iterate(self, max_depth, margin=None):
        """Iterative deepening from depth 1 until max_depth, the end of the game, or a limit.

        Returns the depth of the last complete iteration (0 if none); its
        result is in best_square/best_score and root_moves/root_scores, and
        exact_result tells whether it reached the end of the game on every
        line. If a limit stopped a deeper iteration after it finished its first
        move, the best move of that iteration so far is taken (it has been
        searched deeper than the last complete result) and its depth returned;
        with a `margin` (see search_root) the last complete iteration stands.
        """
        completed = 0
        square = score = None
        self.exact_result = False
        # a pass does not use depth: a line of depth d may need the kernel's plies up to 2d
        max_depth = min(max_depth, self.kernel.max_ply // 2)
        for depth in range(1, max_depth + 1):
            try:
                self.search_root(depth, -INFINITY, INFINITY, False, margin)
            except SearchStopped:
                if self.completed_moves and margin is None:
                    return depth
                break
            completed = depth
            square = self.best_square
            score = self.best_score
            if depth > self.root_empties:
                # Every line reached the end of the game at a node with depth left, which
                # scores it exactly (a leaf at depth 0 on a full board would be evaluated).
                self.exact_result = True
                break
        if completed:
            self.best_square = square
            self.best_score = score
        return completed

    # ----- the midgame search ---------------------------------------------

    def _pvs(self, ply, depth, alpha, beta):
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._checkpoint()
        k = self.kernel
        if depth <= 0:
            # the tables of the deepest leaves' phase judge every leaf, Multi-ProbCut's shallower ones too
            return self.evaluator.evaluate(k, ply, max(0, self.root_empties - self.iteration_depth))
        table = self.table
        table_move = NO_MOVE
        if depth >= TABLE_DEPTH:
            slot = k.hash(ply) >> table.shift
            lock = k.lock(ply)
            flags = table.flags[slot]
            if flags & GENERATION_MASK == table.generation and table.locks[slot] == lock:
                table_move = table.moves[slot]
                if not flags & KIND_SOLVE and table.depths[slot] >= depth:
                    score = table.scores[slot]
                    bound = flags & _BOUND_EXACT
                    if bound == _BOUND_EXACT or (bound == _BOUND_LOWER and score >= beta) or (
                            bound == _BOUND_UPPER and score <= alpha):
                        return score
        if depth >= _PROBCUT_DEPTH:
            shallow = 2 * (depth >> 2) + (depth & 1)
            bound = beta + _PROBCUT_MARGIN
            if bound <= _PROBCUT_CEILING and self._pvs(ply, shallow, bound - 1, bound) >= bound:
                return beta
            bound = alpha - _PROBCUT_MARGIN
            if bound >= -_PROBCUT_CEILING and self._pvs(ply, shallow, bound, bound + 1) <= bound:
                return alpha
            # the shallow searches' best move leads the deep search's order
            table_move = NO_MOVE
            flags = table.flags[slot]
            if flags & GENERATION_MASK == table.generation and table.locks[slot] == lock:
                table_move = table.moves[slot]
        count = k.generate(ply)
        if count == 0:
            if k.opponent_mobility(ply) == 0:
                return self.final_score(ply) * DISC
            k.pass_move(ply)
            return -self._pvs(ply + 1, depth, -beta, -alpha)
        base = ply * k.stride
        if count > 1:
            self._order(ply, base, count, table_move, depth >= ORDER_DEPTH)
        moves = k.move_list
        start_alpha = alpha
        best = -INFINITY
        best_move = NO_MOVE
        for i in range(base, base + count):
            square = moves[i]
            k.play(ply, square)
            if best_move == NO_MOVE:
                score = -self._pvs(ply + 1, depth - 1, -beta, -alpha)
            else:
                score = -self._pvs(ply + 1, depth - 1, -alpha - 1, -alpha)
                if alpha < score < beta:
                    score = -self._pvs(ply + 1, depth - 1, -beta, -alpha)
            if score > best:
                best = score
                best_move = square
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if depth >= TABLE_DEPTH:
            table.store(slot, lock, depth, best, best_move, bound_of(best, start_alpha, beta), 0)
        return best

    def _order(self, ply, base, count, first, by_mobility):
        """Sort the `count` moves at move_list[base:] best first: `first` (the table's move), then by key."""
        k = self.kernel
        moves = k.move_list
        keys = self.keys
        rank = self.rank
        for i in range(count):
            square = moves[base + i]
            if square == first:
                keys[i] = 0
            elif by_mobility:
                k.play(ply, square)
                keys[i] = 1 + rank[square] + 3 * min(k.mobility(ply + 1), 80)
            else:
                keys[i] = 1 + rank[square]
        for i in range(1, count):
            square = moves[base + i]
            key = keys[i]
            j = i - 1
            while j >= 0 and keys[j] > key:
                moves[base + j + 1] = moves[base + j]
                keys[j + 1] = keys[j]
                j -= 1
            moves[base + j + 1] = square
            keys[j + 1] = key

    def final_score(self, ply):
        """The finished game's score in discs for the side to move at `ply` (WOF: empties to the winner)."""
        k = self.kernel
        diff = k.discs(ply) - k.opponent_discs(ply)
        if diff > 0:
            diff += k.empties(ply)
        elif diff < 0:
            diff -= k.empties(ply)
        return -diff if self.anti else diff

    # ----- the endgame solver -----------------------------------------------

    def _solve(self, ply, empties, alpha, beta):
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._checkpoint()
        k = self.kernel
        table = self.table
        table_move = NO_MOVE
        if empties >= _SOLVE_TABLE_EMPTIES:
            slot = k.hash(ply) >> table.shift
            lock = k.lock(ply)
            flags = table.flags[slot]
            if flags & GENERATION_MASK == table.generation and table.locks[slot] == lock:
                table_move = table.moves[slot]
                if flags & KIND_SOLVE:
                    score = table.scores[slot]
                    bound = flags & _BOUND_EXACT
                    if bound == _BOUND_EXACT or (bound == _BOUND_LOWER and score >= beta) or (
                            bound == _BOUND_UPPER and score <= alpha):
                        return score
        count = k.generate(ply)
        if count == 0:
            if k.opponent_mobility(ply) == 0:
                return self.final_score(ply)
            k.pass_move(ply)
            return -self._solve(ply + 1, empties, -beta, -alpha)
        base = ply * k.stride
        moves = k.move_list
        if empties == 1:
            k.play(ply, moves[base])
            return -self.final_score(ply + 1)
        if count > 1 and empties >= _SOLVE_ORDER_EMPTIES:
            self._order(ply, base, count, table_move, True)
        start_alpha = alpha
        best = -INFINITY
        best_move = NO_MOVE
        for i in range(base, base + count):
            square = moves[i]
            k.play(ply, square)
            if best_move == NO_MOVE:
                score = -self._solve(ply + 1, empties - 1, -beta, -alpha)
            else:
                score = -self._solve(ply + 1, empties - 1, -alpha - 1, -alpha)
                if alpha < score < beta:
                    score = -self._solve(ply + 1, empties - 1, -beta, -alpha)
            if score > best:
                best = score
                best_move = square
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if empties >= _SOLVE_TABLE_EMPTIES:
            table.store(slot, lock, empties, best, best_move, bound_of(best, start_alpha, beta), KIND_SOLVE)
        return best
