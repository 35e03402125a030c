"""The exact endgame solver's public face.

    score, square = solve(board)

`score` is the WOF result for the side to move under perfect play: its discs
minus the opponent's at the end, the empty squares going to the winner (so on
8x8 the two scores add up to 64). In Anti-Othello the player with fewer discs
wins and the sign is turned round: a positive score is a win by that many
points in Anti-Othello. `square` is one best move (another best move may
exist: a fast-path solver may pick a different one of equal score), or
othello.board.PASS when the side to move has no move but the game goes on, or
None when the game is over.

The search is fail-soft alpha-beta (search.Searcher._solve): a score strictly
inside (alpha, beta) is exact, one at or below alpha is an upper bound, one at
or above beta a lower bound. solve() first settles win/loss/draw with the
window (-1, 1), then the exact margin on the winning side of it, as a person
would: "can I win?", then "by how much?".

solve() raises SearchStopped if a limit stops it before the result is known.
"""

from othello.board import PASS
from othello.compat import ticks_add, ticks_ms
from othello.kernels import make_kernel
from player.search import INFINITY, Searcher, TranspositionTable


def solve(position, alpha=-INFINITY, beta=INFINITY, anti=None, node_limit=None, time_limit_ms=None,
          should_stop=None, now=None, table_bits=16, searcher=None):
    """Exact score and a best move; `position` is an othello.board.Board or a kernel with the root at ply 0.

    With a kernel, `anti` says whether Anti-Othello is played (a kernel does
    not know); with a Board it comes from the board's variant. `searcher` lets
    the player reuse its preallocated Searcher (and its table) instead of
    building a new one with 2**table_bits entries.
    """
    if hasattr(position, "variant"):
        board = position
        if board.in_placement_phase():
            raise ValueError("the solver starts after the centre squares are filled")
        anti = board.variant.anti if anti is None else anti
        if searcher is None:
            searcher = Searcher(make_kernel(board.geometry, 2 * board.empties() + 2), TranspositionTable(table_bits), anti)
        count = searcher.set_root(board.player_discs(), board.opponent_discs())
    else:
        kernel = position
        if searcher is None:
            searcher = Searcher(kernel, TranspositionTable(table_bits), anti)
        player, opponent = kernel.position(0)
        count = searcher.set_root(player, opponent)
    now = ticks_ms if now is None else now
    deadline = None if time_limit_ms is None else ticks_add(now(), time_limit_ms)
    searcher.start(node_limit, deadline, now, should_stop)
    return solve_root(searcher, count, alpha, beta)


def solve_root(searcher, count, alpha, beta):
    searcher.outcome = None
    if count == 0:
        k = searcher.kernel
        if k.opponent_mobility(0) == 0:
            return searcher.final_score(0), None
        k.pass_move(0)
        searcher.nodes += 1
        return -searcher._solve(1, searcher.root_empties, -beta, -alpha), PASS
    if alpha < 0 < beta:
        outcome = searcher.search_root(0, max(alpha, -1), min(beta, 1), exact=True)
        # Known from here on, even if the exact search is stopped: 1 win, 0 draw, -1 loss.
        searcher.outcome = 1 if outcome > 0 else -1 if outcome < 0 else 0
        searcher.outcome_square = searcher.best_square
        if outcome > 0:
            alpha = max(alpha, 0)
        elif outcome < 0:
            beta = min(beta, 0)
        else:
            return 0, searcher.best_square
    score = searcher.search_root(0, alpha, beta, exact=True)
    return score, searcher.best_square
