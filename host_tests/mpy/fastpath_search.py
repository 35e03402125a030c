"""The viper midgame search (player/search_viper.py) against Searcher._pvs, run under the MicroPython unix port.

Both searchers get the same position, evaluator and limits; every iteration's
result must be the same: depth, best move and score, every root move's score,
and the node count (host_tests/test_fastpath_search.py drives this).
"""

import gc

from othello.geometry import geometry
from othello.kernel import Kernel
from othello.kernel_viper import ViperKernel
from player.evaluation import PatternEvaluator
from player.search import Searcher, TranspositionTable
from player.search_viper import ViperMidgame

MAX_PLY = 32


def _searchers(blocked, anti, edges):
    g = geometry(8, blocked)
    evaluator = PatternEvaluator(8, anti) if edges else PatternEvaluator(8, anti, path="/no/such/file.bin")
    plain = Searcher(Kernel(g, MAX_PLY), TranspositionTable(10), anti)
    fast = Searcher(ViperKernel(g, MAX_PLY), TranspositionTable(10), anti)
    fast.fast = ViperMidgame(fast.kernel, fast.table, fast.rank)
    plain.evaluator = evaluator
    fast.evaluator = evaluator
    return plain, fast


def _run(searcher, player, opponent, max_depth, node_limit, margin):
    searcher.set_root(player, opponent)
    searcher.start(node_limit)
    depth = searcher.iterate(max_depth, margin)
    roots = [(searcher.root_moves[i], searcher.root_scores[i]) for i in range(searcher.root_count)]
    return (depth, searcher.best_square, searcher.best_score, searcher.nodes, searcher.exact_result, roots)


def compare_all(cases):
    """cases: (blocked, player, opponent, anti, max_depth, node_limit, margin, edges); prints 'case <i> <result>'."""
    key = searchers = None
    for i, (blocked, player, opponent, anti, max_depth, node_limit, margin, edges) in enumerate(cases):
        if (blocked, anti, edges) != key:
            key = (blocked, anti, edges)
            searchers = None  # one pair at a time: two pairs do not fit the Pico's heap
            gc.collect()
            searchers = _searchers(blocked, anti, edges)
        plain, fast = searchers
        a = _run(plain, player, opponent, max_depth, node_limit, margin)
        b = _run(fast, player, opponent, max_depth, node_limit, margin)
        assert a == b, "case %d: plain %r, viper %r" % (i, a, b)
        print("case", i, a[0], a[1], a[2], a[3])
    print("search twins ok", len(cases))
