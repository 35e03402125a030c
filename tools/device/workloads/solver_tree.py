"""How small the exact solver's tree can get: its nodes with a bigger table, or with the best moves near the
root known before the solve (an oracle no player has).

    .venv/bin/python tools/device/bench.py solver-tree [EMPTIES [TABLE_BITS [ORACLE_PLIES]]]   # on the unix port

Solves the eight positions of EMPTIES (default 16) empty squares from play
(host_tests/mpy/fastpath_positions.py) as the solver part of `bench.py endgame` does
(ViperSolver.solve_exact from a clear table), with a table of 2**TABLE_BITS entries (default 10, the
player's). With ORACLE_PLIES k > 0, the table holds before each solve, for every position of the first k
plies (the root is ply 0), the move that a solve of that position proves best, and no bound: the move is
tried first there, as if a perfect move ordering had chosen it. Node counts are the same on every port
(docs/DEVICE_SPEED.md, "How the fast path is built"), so this runs on the unix port in seconds.

Prints one `position <n> score <exact score> nodes <nodes>` line per position, then
`tree <empties> table_bits <bits> oracle_plies <k> nodes <all> median <nodes> worst <nodes>` (the median is
the fifth of eight by nodes, as the device figures take the fifth by time).
"""

import sys

from fastpath_positions import ENDGAMES
from othello.board import Board
from othello.geometry import geometry
from othello.kernel import Kernel
from player.endgame_viper import ViperSolver

ORACLE_TABLE_BITS = 16
NO_BOUNDS = (-64 + 128) | ((64 + 128) << 8)  # a slot's bounds as the solver keeps them: nothing proven


def usage(problem):
    print("error:", problem)
    print("usage: solver_tree.py [EMPTIES [TABLE_BITS [ORACLE_PLIES]]]: EMPTIES one of %s, TABLE_BITS 4 to 20, "
          "ORACLE_PLIES 0 to 4" % ", ".join(str(size) for size in sorted(ENDGAMES)))
    sys.exit(2)


def arguments(argv):
    values = [16, 10, 0]
    if len(argv) > 3:
        usage("at most three values, not %d" % len(argv))
    for at, text in enumerate(argv):
        try:
            values[at] = int(text)
        except ValueError:
            usage("%r is not a whole number" % text)
    empties, bits, plies = values
    if empties not in ENDGAMES:
        usage("no positions of %d empty squares" % empties)
    if not 4 <= bits <= 20:
        usage("TABLE_BITS %d is outside 4 to 20" % bits)
    if not 0 <= plies <= 4:
        usage("ORACLE_PLIES %d is outside 0 to 4" % plies)
    return empties, bits, plies


def prime(solver, bits, oracle, kernel, board, plies):
    """Writes the best move of `board` and of every position of its next plies - 1 plies into solver's table,
    where the solver's probe looks for it (solver_probe: the kernel's hash and lock, a bucket of two slots;
    the one for fewer empty squares taken)."""
    if plies <= 0 or board.is_game_over() or board.must_pass():
        return
    player, opponent = board.player_discs(), board.opponent_discs()
    _, square = oracle.solve_exact(player, opponent, board.variant.anti)
    locks, bounds, moves, depths = solver._table
    kernel.set_root(player, opponent)
    slot = (kernel.hash(0) >> (30 - bits)) & 0x3FFFFFFE
    lock = kernel.lock(0)
    if locks[slot + 1] == lock or (locks[slot] != lock and depths[slot + 1] < depths[slot]):
        slot += 1
    locks[slot] = lock
    bounds[slot] = NO_BOUNDS
    moves[slot] = square
    depths[slot] = board.empties()
    for move in board.legal_squares():
        child = board.copy()
        child.play(move)
        prime(solver, bits, oracle, kernel, child, plies - 1)


def main():
    empties, bits, plies = arguments(sys.argv[1:])
    solver = ViperSolver(geometry(8), empties, bits)
    oracle = ViperSolver(geometry(8), empties, ORACLE_TABLE_BITS) if plies else None
    kernel = Kernel(geometry(8), 0)
    counts = []
    for index, text in enumerate(ENDGAMES[empties]):
        board = Board.from_position(text)
        solver.clear_table()
        prime(solver, bits, oracle, kernel, board, plies)
        score, _ = solver.solve_exact(board.player_discs(), board.opponent_discs(), board.variant.anti)
        print("position", index + 1, "score", score, "nodes", solver.nodes)
        counts.append(solver.nodes)
    counts.sort()
    print("tree", empties, "table_bits", bits, "oracle_plies", plies, "nodes", sum(counts),
          "median", counts[len(counts) // 2], "worst", counts[-1])


main()
