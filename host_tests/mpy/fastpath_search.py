"""The viper midgame search (player/search_viper.py, search_viper6.py) against Searcher._pvs, run under the
MicroPython unix port.

Both searchers get the same position, evaluator and limits; every iteration's
result must be the same: depth, best move and score, every root move's score,
and the node count (host_tests/test_fastpath_search.py drives this). A 6x6
position is searched as the player searches it, inside the 8x8 board
(othello.geometry.Embedding), by search_viper6's ViperMidgame.
"""

import gc
import sys

from othello.compat import release_module
from othello.geometry import Embedding, geometry
from othello.kernel import Kernel
from othello.kernel_viper import ViperKernel
from player.evaluation import PatternEvaluator
from player.search import Searcher, TranspositionTable

MAX_PLY = 32


def _searchers(size, blocked, anti, edges, plain=True, fast=True):
    """The plain and the fast searcher (None where not asked for), and the embedding of a board smaller than
    8x8 (None for 8x8)."""
    embedding = Embedding(size, blocked) if size < 8 else None
    g = embedding.geometry if embedding else geometry(8, blocked)
    evaluator = PatternEvaluator(size, anti, None if edges else "/no/such/file.bin", embedding)
    plain = Searcher(Kernel(g, MAX_PLY), TranspositionTable(10), anti) if plain else None
    if plain:
        plain.evaluator = evaluator
    if not fast:
        return plain, None, embedding
    module = "player.search_viper6" if embedding else "player.search_viper"
    other = "player.search_viper" if embedding else "player.search_viper6"
    if other in sys.modules:  # the Pico's heap holds one of the two, as the engine does (player.engine)
        release_module(other)
        gc.collect()
    __import__(module)
    fast = Searcher(ViperKernel(g, MAX_PLY), TranspositionTable(10), anti)
    fast.fast = sys.modules[module].ViperMidgame(fast.kernel, fast.table, fast.rank)
    fast.evaluator = evaluator
    return plain, fast, embedding


def _run(searcher, player, opponent, max_depth, node_limit, margin):
    searcher.set_root(player, opponent)
    searcher.start(node_limit)
    depth = searcher.iterate(max_depth, margin)
    roots = [(searcher.root_moves[i], searcher.root_scores[i]) for i in range(searcher.root_count)]
    return (depth, searcher.best_square, searcher.best_score, searcher.nodes, searcher.exact_result, roots)


def _each_case(cases, plain, fast):
    """(case number, its searchers, its position in the searched board's squares) for each of `cases`, one
    board's searchers at a time."""
    key = searchers = None
    for i, (blocked, player, opponent, anti, max_depth, node_limit, margin, edges, size) in enumerate(cases):
        if (blocked, anti, edges, size) != key:
            key = (blocked, anti, edges, size)
            searchers = None  # one pair at a time: two pairs do not fit the Pico's heap
            gc.collect()
            searchers = _searchers(size, blocked, anti, edges, plain, fast)
        embedding = searchers[2]
        if embedding is not None:
            player, opponent = embedding.mask(player), embedding.mask(opponent)
        yield i, searchers, (player, opponent, max_depth, node_limit, margin)


def compare_all(cases):
    """cases: (blocked, player, opponent, anti, max_depth, node_limit, margin, edges, size), the masks in the
    size x size board's squares; prints 'case <i> <result>'."""
    for i, (plain, fast, _), search in _each_case(cases, True, True):
        a = _run(plain, *search)
        b = _run(fast, *search)
        assert a == b, "case %d: plain %r, viper %r" % (i, a, b)
        print("case", i, a[0], a[1], a[2], a[3])
    print("search twins ok", len(cases))


def print_results(cases, fast):
    """The same cases searched by one searcher, the viper one or the plain one: 'result <i> <result>' for each,
    for the host to compare (the emulated Pico runs the viper search, the unix port the plain one)."""
    for i, searchers, search in _each_case(cases, not fast, fast):
        print("result", i, _run(searchers[1] if fast else searchers[0], *search))
    print("searched", len(cases))


def check_play_and_count(module, layout, games, seed):
    """`module`'s play_and_count (player.search_thumb's machine code on the Pico, player.search_twin's viper
    elsewhere) against the board and the evaluator, for every legal move of every position of `games`
    random 8x8 games: the flips, the position after the move, both sides' legal moves there and the leaf's
    pattern sum (PatternEvaluator.pattern_sum of the leaf's phase). layout: the modules' word offsets
    {name: value} (their compile-time constants, read by the host). Prints each difference, then
    'play_and_count checked <moves>'."""
    import random
    import uctypes
    from othello.board import Board
    from othello.compat import popcount

    __import__(module)
    play_and_count = sys.modules[module].play_and_count

    _, fast, _ = _searchers(8, 0, False, True, plain=False)
    evaluator = fast.evaluator
    cfg = fast.fast._cfg
    code = layout["_C_CODE"]
    at = uctypes.addressof(cfg) + 4 * code
    halves = fast.fast._halves
    g = geometry(8)
    full = (1 << 64) - 1

    def put(name, value, at=0):
        cfg[code + layout[name] + at] = value & 0xFFFFFFFF
        cfg[code + layout[name] + at + 1] = value >> 32

    def get(name):
        return cfg[code + layout[name]] | cfg[code + layout[name] + 1] << 32

    put("_M_HALVES", uctypes.addressof(halves))
    cfg[code + layout["_M_HALVES_FAR"]] = (uctypes.addressof(halves) + 256) & 0xFFFFFFFF
    random.seed(seed)
    checked = 0
    cells = bytearray(64)
    for _ in range(games):
        board = Board()
        while not board.is_game_over():
            player, opponent = board.player_discs(), board.opponent_discs()
            empty = full & ~(player | opponent)
            put("_M_POSITION", player)
            put("_M_POSITION", opponent, 2)
            put("_M_NODE_EMPTY", empty)
            for square in board.legal_squares():
                flips = board.flips_for(square)
                mover, other = opponent ^ flips, player | flips | 1 << square
                evaluator.use_phase(evaluator.phase_of[popcount(empty) - 1])
                put("_M_TABLES", uctypes.addressof(evaluator.table))
                for square_index in range(64):
                    cells[square_index] = (mover >> square_index & 1) + 2 * (other >> square_index & 1)
                want_total = evaluator.pattern_sum(cells)
                for sides in (1, 2, 3):
                    put("_M_MOVE", 1 << square)
                    cfg[code + layout["_M_SIDES"]] = sides
                    found = play_and_count(at)
                    want = popcount(flips) << 16 | popcount(g.moves(mover, other))
                    if sides > 1:
                        want |= popcount(g.moves(other, mover)) << 8
                    total = cfg[code + layout["_M_TOTAL"]] if sides == 3 else want_total
                    if (found, get("_M_MOVER"), get("_M_OPPONENT"), get("_M_EMPTY"), get("_M_FLIPS"), total) != (
                            want, mover, other, empty & ~(1 << square), flips, want_total):
                        print("differs", hex(player), hex(opponent), square, sides, hex(found), hex(want),
                              total, want_total)
                    checked += 1
            squares = board.legal_squares()
            if squares:
                board.play(random.choice(squares))
            else:
                board.pass_turn()
    print("play_and_count checked", checked)
