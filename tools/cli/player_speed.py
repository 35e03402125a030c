"""Speed of the computer player's search and solver, run inside the interpreter being measured.

`othello player-bench` prepends the inputs and runs this under CPython, the
MicroPython unix port and the 32-bit WASI build:

    MIDGAME = [position, ...]          positions for the search's nodes per second
    MIDGAME_NODES = n                  node budget per position
    ENDGAME = [(empties, position), ...] in increasing empties
    SOLVE_LIMIT_S = s                  stop after the first size that takes longer
    SOLVERS = ("plain", "viper")       which solvers to time (viper where it runs)

and prints one line per figure: `search <nodes> <ms>` and
`solve <solver> <empties> <ms> <nodes> <score>`. The Pico's own figures come
from the emulated chip (tools/device/bench.py), never from these.
"""

from othello.board import Board
from othello.compat import ticks_diff, ticks_ms
from othello.kernels import make_kernel
from player.engine import MAX_PLY, SOLVER_TABLE_BITS, TABLE_BITS
from player.evaluation import PatternEvaluator
from player.search import Searcher, TranspositionTable
from player.solver import solve


def search_speed():
    if not MIDGAME:  # noqa: F821
        return
    nodes = 0
    elapsed = 0
    searcher = None
    for position in MIDGAME:  # noqa: F821 (prepended)
        board = Board.from_position(position)
        if searcher is None:
            searcher = Searcher(make_kernel(board.geometry, MAX_PLY), TranspositionTable(TABLE_BITS))
            searcher.evaluator = PatternEvaluator(board.size)
        searcher.set_root(board.player_discs(), board.opponent_discs())
        searcher.start(MIDGAME_NODES)  # noqa: F821
        started = ticks_ms()
        searcher.iterate(60)
        elapsed += ticks_diff(ticks_ms(), started)
        nodes += searcher.nodes
    print("search %d %d" % (nodes, elapsed))


def viper_solver(board):
    import sys

    if sys.implementation.name != "micropython":
        return None
    try:
        from player.endgame_viper import ViperSolver
    except SyntaxError:  # no viper in this build
        return None
    return ViperSolver(board.geometry, table_bits=SOLVER_TABLE_BITS)  # room for more empties than the player's


def solve_speed(kind):
    fast = None
    for empties, position in ENDGAME:  # noqa: F821
        board = Board.from_position(position)
        started = ticks_ms()
        if kind == "plain":
            searcher = Searcher(make_kernel(board.geometry, 2 * empties + 2), TranspositionTable(TABLE_BITS), False)
            score, _ = solve(board, searcher=searcher)
            nodes = searcher.nodes
        else:
            if fast is None:
                fast = viper_solver(board)
                if fast is None:
                    return
            fast.clear_table()
            started = ticks_ms()
            score, _ = fast.solve(board.player_discs(), board.opponent_discs())
            nodes = fast.nodes
        elapsed = ticks_diff(ticks_ms(), started)
        print("solve %s %d %d %d %d" % (kind, empties, elapsed, nodes, score))
        if elapsed > SOLVE_LIMIT_S * 1000:  # noqa: F821
            break


def main():
    search_speed()
    for kind in SOLVERS:  # noqa: F821
        solve_speed(kind)


main()
