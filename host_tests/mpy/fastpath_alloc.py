"""Bytes allocated by fixed amounts of work on the fast path (unix port): they must not grow with the work.

Each measurement collects, turns collection off, runs, and reads gc.mem_alloc(),
so a collection cannot hide an allocation. Prints "<what> <small> <large>
<nodes small> <nodes large>" lines for host_tests/test_fastpath.py.
"""

import gc
from array import array

from othello.geometry import geometry
from othello.kernel_tables import FEATURE_COUNT
from othello.kernels import make_kernel
from othello.perft_viper import perft

START = ((1 << 35) | (1 << 28), (1 << 27) | (1 << 36))

KERNEL = make_kernel(geometry(8), 16)
FEATURES = [0] * FEATURE_COUNT
CELLS = bytearray(64)
WEIGHTS = array("h", range(64))
COUNT = [0]


def measure(work, arg):
    COUNT[0] = 0
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    work(arg)
    used = gc.mem_alloc() - before
    gc.enable()
    return used


def walk(ply, depth):
    """Every kernel method at every node of a full-width tree, as a search calls them."""
    k = KERNEL
    COUNT[0] += 1
    k.features(ply, FEATURES)
    k.cells(ply, CELLS)
    k.square_sum(ply, WEIGHTS)
    k.hash(ply)
    k.lock(ply)
    k.potential_mobility(ply)
    k.opponent_potential_mobility(ply)
    k.x_squares(ply)
    k.discs(ply)
    k.opponent_discs(ply)
    k.empties(ply)
    if depth == 0:
        return
    n = k.generate(ply)
    if not n:
        if k.opponent_mobility(ply):
            k.pass_move(ply)
            walk(ply + 1, depth - 1)
        return
    k.mobility(ply)
    base = ply * k.stride
    for i in range(base, base + n):
        k.play(ply, k.move_list[i])
        walk(ply + 1, depth - 1)


def kernel_walk(depth):
    KERNEL.set_root(*START)
    walk(0, depth)


def viper_perft(root):
    KERNEL.set_root(*root)
    COUNT[0] = perft(KERNEL, 5)


def search(node_limit):
    searcher = SEARCHER[0]
    searcher.set_root(*START)
    searcher.start(node_limit)
    searcher.iterate(60)
    COUNT[0] = searcher.nodes


SEARCHER = []


def report(name, work, small, large):
    work(small)  # the first run pays for anything allocated once (caches, interned names)
    a = measure(work, small)
    nodes_small = COUNT[0]
    b = measure(work, large)
    print(name, a, b, nodes_small, COUNT[0])


def main():
    assert KERNEL.name == "viper", KERNEL.name
    # a midgame position (after f5 d6 c3 d3 c4 f4 f6 f3 e6 e7): far more nodes at the same depth
    KERNEL.set_root(*START)
    for square in (37, 43, 18, 19, 26, 29, 45, 21, 44, 52):
        if not KERNEL.play(0, square):
            raise AssertionError("the midgame line is illegal at %d" % square)
        KERNEL.set_root(*KERNEL.position(1))
    middle = KERNEL.position(0)
    report("kernel", kernel_walk, 3, 5)
    report("perft", viper_perft, START, middle)
    from player.evaluation import PatternEvaluator
    from player.search import Searcher, TranspositionTable

    searcher = Searcher(make_kernel(geometry(8), 60), TranspositionTable(11))
    searcher.evaluator = PatternEvaluator(8)
    SEARCHER.append(searcher)
    report("search", search, 1000, 10000)
