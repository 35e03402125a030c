"""The opening book's searches, run under MicroPython's unix port by tools/training/build_book.py.

The host prepends the settings as globals:

    DEPTH = 12          # the deepest iteration ...
    NODES = 8000000     # ... within this many nodes (deepen() tells how)
    MARGIN = 64         # every root move within this many evaluation units of the best gets its own score
    TABLE_BITS = 20     # the transposition table: 2**TABLE_BITS entries

It reads one position a line from stdin, `<player hex> <opponent hex>` (the
side to move first; it has a legal move), and searches it with the player's
own midgame search (the viper loop of player/search_viper.py, the shipped
evaluation): iterative deepening to DEPTH with MARGIN, so each root move
within MARGIN of the best has its own exact score at the last complete
depth and the others an upper bound below that; NODES bounds it (deepen()).
It answers with one line,
`book <player hex> <opponent hex> <depth> <nodes> <square>:<score> ...`,
every root move best first, scores in evaluation units (1/16 disc) from
the side to move's view. An empty line or the end of stdin ends it.

Every search is reproducible: it counts nodes, not time, and the table
keeps each search's entries apart, so a position's result does not depend
on which worker searched it or what it searched before.
"""

import sys

from othello.board import Board
from othello.kernels import make_kernel
from player.evaluation import PatternEvaluator
from player.search import INFINITY, Searcher, SearchStopped, TranspositionTable
from player.search_viper import ViperMidgame


def deepen(searcher):
    """Searcher.iterate(DEPTH, MARGIN) within NODES, but not starting an iteration that would not finish in them.

    An iteration cut by the budget is thrown away (the last complete depth
    stands), so one that will not fit is not begun: its nodes are guessed
    from the iteration two plies before it and the growth over the two plies
    before that (Othello's odd and even depths grow by different factors).
    Node counts alone decide, so the result is the same on any machine.
    Returns the depth of the last complete iteration.
    """
    searcher.start(NODES)
    spent = [0] * (DEPTH + 1)  # the nodes of each iteration
    completed = 0
    for depth in range(1, DEPTH + 1):
        if depth >= 5 and searcher.nodes + spent[depth - 2] * spent[depth - 2] // spent[depth - 4] > NODES:
            break
        before = searcher.nodes
        try:
            searcher.search_root(depth, -INFINITY, INFINITY, False, MARGIN)
        except SearchStopped:
            break
        spent[depth] = max(1, searcher.nodes - before)
        completed = depth
        if depth > searcher.root_empties:
            break  # every line reached the end of the game
    return completed


def main():
    board = Board()
    searcher = Searcher(make_kernel(board.geometry, 64), TranspositionTable(TABLE_BITS))
    searcher.evaluator = PatternEvaluator(8)
    searcher.fast = ViperMidgame(searcher.kernel, searcher.table, searcher.rank, searcher.keys)
    while True:
        line = sys.stdin.readline()
        words = line.split()
        if not words:
            break
        player, opponent = int(words[0], 16), int(words[1], 16)
        searcher.set_root(player, opponent)
        depth = deepen(searcher)
        moves = " ".join("%d:%d" % (searcher.root_moves[i], searcher.root_scores[i])
                         for i in range(searcher.root_count))
        sys.stdout.write("book %s %s %d %d %s\n" % (words[0], words[1], depth, searcher.nodes, moves))


main()
