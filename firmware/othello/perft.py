"""Perft: the number of positions (leaves) a given number of plies ahead.

The standard check of a move generator. Conventions (the usual ones for
Othello, giving 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288 from the
start):
- a forced pass is one ply;
- a finished game reached before the last ply is one leaf;
- the last ply is counted in bulk: the leaves below a position one ply from
  the end are its legal moves, or 1 when it has none (a pass or the end).

It runs on a Kernel (othello.kernels.make_kernel), so the same code counts on
the device, with whichever kernel the device picks, and on the host.
`children` lists the positions one ply below a root so that the host can count
the subtrees in parallel (tools/cli/engine.py).

Positions are (player, opponent) masks, the player being the side to move;
the Reversi placement phase (variant.py, START_EMPTY) is not a kernel
position: count from a position after the first four moves.
"""

from othello.board import PASS
from othello.kernels import make_kernel


def count_leaves(kernel, ply, depth):
    """Leaves `depth` plies below the position at `ply` of `kernel` (uses plies ply + 1 ... ply + depth)."""
    if depth == 0:
        return 1
    if depth == 1:
        return kernel.mobility(ply) or 1
    n = kernel.generate(ply)
    if not n:
        if not kernel.opponent_mobility(ply):
            return 1  # the game is over
        kernel.pass_move(ply)
        return count_leaves(kernel, ply + 1, depth - 1)
    moves = kernel.move_list
    base = ply * kernel.stride
    play = kernel.play
    total = 0
    if depth == 2:
        # Bulk counting one level up, without a call per child: this is
        # where nearly all the work of a perft happens.
        mobility = kernel.mobility
        child = ply + 1
        for i in range(base, base + n):
            play(ply, moves[i])
            total += mobility(child) or 1
        return total
    for i in range(base, base + n):
        play(ply, moves[i])
        total += count_leaves(kernel, ply + 1, depth - 1)
    return total


def perft(geometry, player, opponent, depth, kernel=None):
    """Leaves `depth` plies below the position (player to move) on `geometry`'s board.

    `kernel`, if given, must be for `geometry` with max_ply >= depth; reusing
    one avoids allocating its stack again.
    """
    if depth < 0:
        raise ValueError("perft depth must be 0 or more, not %r" % (depth,))
    if kernel is None:
        kernel = make_kernel(geometry, max(depth, 1))
    elif kernel.max_ply < depth:
        raise ValueError("the kernel holds %d plies; perft %d needs %d" % (kernel.max_ply, depth, depth))
    kernel.set_root(player, opponent)
    return count_leaves(kernel, 0, depth)


def children(geometry, player, opponent):
    """The positions one ply below: a list of (square, player, opponent), the new side to move first.

    A forced pass gives the one child (PASS, opponent, player); a finished
    game gives an empty list. Squares come lowest first.
    """
    kernel = make_kernel(geometry, 1)
    kernel.set_root(player, opponent)
    n = kernel.generate(0)
    if not n:
        if not kernel.opponent_mobility(0):
            return []
        return [(PASS, opponent, player)]
    out = []
    for i in range(n):
        square = kernel.move_list[i]
        kernel.play(0, square)
        child_player, child_opponent = kernel.position(1)
        out.append((square, child_player, child_opponent))
    return out
