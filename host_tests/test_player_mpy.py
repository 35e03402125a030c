"""The computer player under MicroPython: the same checks and the same decisions as on CPython."""

import subprocess
import sys
from pathlib import Path

import pytest

from runners import micropython_runner
from othello.bench import sample_positions
from othello.board import Board
from othello.variant import BLACK, Variant

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CHECKS = HERE / "mpy" / "player_checks.py"


def cpython_output():
    done = subprocess.run([sys.executable, str(CHECKS)], capture_output=True, text=True, timeout=600,
                          env={"PYTHONPATH": str(REPO / "firmware")}, cwd=str(REPO))
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def expected():
    return cpython_output()


def test_player_checks_and_decisions_match_cpython(micropython, expected):
    output = micropython(CHECKS.read_text())
    for check in ("ok solver", "ok limits"):
        assert check in output, output
    decisions = [line for line in output.splitlines() if line.startswith("decision")]
    assert decisions and decisions == [line for line in expected.splitlines() if line.startswith("decision")]


ALLOCATION_CHECK = """
import gc
import othello.kernel
from othello.board import Board
from othello.variant import Variant
from othello.kernel import Kernel
from player.search import Searcher, TranspositionTable
from player.evaluation import PatternEvaluator

def popcount_without_allocating(x):
    # for ints below 2**62, the unix port's small ints (compat.popcount uses bin(), a string)
    x = x - ((x >> 1) & 0x1555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x & 0xFFFFFFFF) * 0x01010101 >> 24 & 0xFF) + ((x >> 32) * 0x01010101 >> 24 & 0xFF)

def main():
    othello.kernel.popcount = popcount_without_allocating
    board = Board(Variant(size=6))
    for square in ("c2", "b2", "a2", "b1"):
        board.play(board.legal_squares()[0])
    searcher = Searcher(Kernel(board.geometry), TranspositionTable(10))
    searcher.evaluator = PatternEvaluator(6)
    searcher.set_root(board.player_discs(), board.opponent_discs())
    searcher.start(1000)
    searcher.iterate(20)  # a first search reads its phases' tables from the file: not per node
    for limit in (1000, 3000):
        searcher.set_root(board.player_discs(), board.opponent_discs())
        searcher.start(limit)
        gc.collect()
        before = gc.mem_alloc()
        loads = searcher.evaluator.loads
        searcher.iterate(20)  # ends by the node limit: SearchStopped's traceback costs a few bytes once
        print("midgame%d" % limit, searcher.nodes, gc.mem_alloc() - before, searcher.evaluator.loads - loads)
    while board.empties() > 11:
        moves = board.legal_squares()
        board.play(moves[len(moves) // 2]) if moves else board.pass_turn()
    searcher.set_root(board.player_discs(), board.opponent_discs())
    searcher.start()
    gc.collect()
    before = gc.mem_alloc()
    searcher.search_root(0, -100, 100, exact=True)
    print("solver", searcher.nodes, gc.mem_alloc() - before)

main()
"""


def test_search_allocates_nothing_per_node_on_the_unix_port(micropython):
    """On 6x6 every bitboard is a small int on the unix port; with a popcount that makes no string
    (the plain kernel's compat.popcount does), a solve of thousands of nodes allocates 0 bytes and a
    midgame search a few hundred bytes whether it runs 1000 nodes or 3000 (the exception that stops it),
    and about a hundred more each time its iterations' leaves enter another phase (the file opened to
    read that phase's tables)."""
    if micropython.interpreter != "unix":
        pytest.skip("the WASI build has 31-bit small ints: 6x6 bitboards are big integers there")
    lines = dict((line.split()[0], list(map(int, line.split()[1:]))) for line in micropython(ALLOCATION_CHECK).splitlines())
    assert lines["midgame1000"][0] == 1000 and lines["midgame3000"][0] == 3000
    # the traceback grows by a few bytes per frame it unwinds, not per node searched
    for name in ("midgame1000", "midgame3000"):
        _, allocated, loads = lines[name]
        assert loads <= 4 and allocated <= 512 + 192 * loads, lines
    nodes, allocated = lines["solver"]
    assert nodes > 1000 and allocated == 0, lines


BEYOND_THE_VIPER_SOLVER = """
from othello.board import Board
from player.engine import SOLVER_EMPTIES, decide, engine_for
from player.levels import LEVELS, Level
from player.solver import solve

board = Board()
while board.empties() > SOLVER_EMPTIES + 1:
    legal = board.legal_squares()
    board.play(legal[board.empties() % len(legal)]) if legal else board.pass_turn()
top = LEVELS[-1]
deeper = Level(9, "Deeper", top.time_ms, top.nodes, top.max_depth, SOLVER_EMPTIES + 1, 10 ** 9, top.style, 0.0, None)
print(engine_for(board.variant).solver().max_empties, board.empties())
decision = decide(board, deeper, node_limit=10 ** 9, time_limit_ms=10 ** 8)
print(decision.exact, decision.score == solve(board)[0])
"""


def test_a_solve_beyond_the_viper_solver_stacks_falls_back_on_the_plain_solver():
    """A Level asking for more empties than the player's viper solver was made for gets the plain solver's answer."""
    from runners import micropython_runner

    from player.engine import SOLVER_EMPTIES

    output = micropython_runner.run_unix(BEYOND_THE_VIPER_SOLVER).split()
    assert output == [str(SOLVER_EMPTIES), str(SOLVER_EMPTIES + 1), "True", "True"], output


LENT_TABLE = """
from othello.board import Board
from player.endgame_viper import ViperSolver
from player.engine import engine_for
from player.levels import LEVELS
from player import think

board = Board()
while board.empties() > 14:
    legal = board.legal_squares()
    board.play(legal[board.empties() % len(legal)]) if legal else board.pass_turn()
expected = ViperSolver(board.geometry).solve(board.player_discs(), board.opponent_discs())[0]
engine = engine_for(board.variant)
first = think(board, 8, node_limit=10 ** 7, time_limit_ms=10 ** 8)
bounds = engine.table.scores  # the solver's bounds: lower + 128 | (upper + 128) << 8, in a signed 16-bit array
used = [slot for slot in range(len(bounds)) if bounds[slot]]
rigged = (60 + 128) | ((60 + 128) << 8)
for slot in used:  # every stored result now claims +60, as a midgame search's words might claim anything
    bounds[slot] = rigged - 65536
second = think(board, 8, node_limit=10 ** 7, time_limit_ms=10 ** 8)
print(len(used) > 100, first.exact and first.score == expected, second.exact and second.score == expected,
      second.nodes == first.nodes)
"""


def test_the_solver_clears_the_table_it_shares_with_the_midgame_search():
    """The viper solver keeps its entries in the midgame search's table (8 KB less on the device), and
    starts every solve from a clear table: it never reads what a midgame search left there as results
    (here all rigged to say +60), and a position's solve takes the same nodes whatever came before, so
    a replay of the position is cut by its node budget where the device's was."""
    from runners import micropython_runner

    assert micropython_runner.run_unix(LENT_TABLE).split() == ["True"] * 4


BOOK_LET_GO = """
import sys
from othello.board import Board
from player import think

board = Board()
while board.count(0) + board.count(1) <= DEEPEST:
    decision = think(board, 8, rng_seed=1)
    print(decision.book, "player.book" in sys.modules)
    board.play(decision.square)
decision = think(board, 8, node_limit=300, rng_seed=1)
print(decision.book, "player.book" in sys.modules)
"""


def test_the_book_is_let_go_after_every_move():
    """The opening book's code leaves the heap after each move's lookup, found in the book or not (the next
    move imports it again), and the moves still come from the book through the opening."""
    from runners import micropython_runner

    deepest = (REPO / "firmware" / "player" / "book8.bin").read_bytes()[6]  # the header's most discs of a position
    lines = micropython_runner.run_unix("DEEPEST = %d\n" % deepest + BOOK_LET_GO).split()
    positions = deepest - 3  # 4 discs to the deepest: (from the book, its code loaded) after each move
    pairs = list(zip(lines[0:2 * positions:2], lines[1:2 * positions:2]))
    assert pairs[0] == ("True", "False") and ("False", "False") in pairs, lines
    assert all(loaded == "False" for _, loaded in pairs), lines
    assert lines[2 * positions:] == ["False", "False"], lines


# The engine scripts' start: what a decision shows, and a game played on to a number of empty squares.
ENGINE_SCRIPT = """
import player.engine as engine
from othello.board import Board
from player import think
from player.levels import STYLE_PATTERN

def seen(decision):
    return "%s,%s,%d,%s" % (decision.move_name(), decision.score, decision.nodes, decision.exact)

def play_to(board, empties):
    while board.empties() > empties:
        legal = board.legal_squares()
        board.play(legal[board.empties() % len(legal)]) if legal else board.pass_turn()

board = Board()
play_to(board, 16)
midgame = board.copy()
"""

ONE_FAST_PATH_AT_A_TIME = ENGINE_SCRIPT + """
import sys

def loaded():
    held = engine._engine[0] is not None and engine._engine[0].evaluator(STYLE_PATTERN).table is not None
    return "%d%d%d" % ("player.search_viper" in sys.modules, "player.endgame_viper" in sys.modules, held)

print(loaded())
before = think(midgame, 8, node_limit=3000)
print(loaded())
play_to(board, 14)
solved = think(board, 8, node_limit=10 ** 7, time_limit_ms=10 ** 8)
print(loaded(), solved.exact, solved.solver_nodes > 0)
unsolved = think(board, 8, node_limit=3000, solve_node_limit=100)
print(loaded(), unsolved.exact, unsolved.solver_nodes > 0)
again = think(board, 8, node_limit=10 ** 7, time_limit_ms=10 ** 8)
print(loaded(), seen(again) == seen(solved))
forced = board.copy()
while not forced.is_game_over() and len(forced.legal_squares()) > 1:
    legal = forced.legal_squares()
    forced.play(legal[forced.empties() % len(legal)])
answered = think(forced, 8)
print(loaded(), answered.nodes, forced.empties())
after = think(midgame, 8, node_limit=3000)
print(loaded(), seen(after) == seen(before))
"""


def test_the_engine_holds_one_viper_fast_path_at_a_time():
    """On the device the viper midgame search and the viper solver take 24-35 KB of heap each: the engine
    loads the solver when a solve comes and lets the search go, with the pattern evaluation's phase buffer
    (20 KB, which the solver does not use), and takes them back when a midgame search comes (a solve that
    does not finish hands over to it); each gives what it gave before. A forced move in the endgame is
    answered at once with the evaluation's estimate, its entries read from the file: the buffer stays let go."""
    from runners import micropython_runner

    lines = micropython_runner.run_unix(ONE_FAST_PATH_AT_A_TIME).split()
    assert lines[:9] == ["000", "101", "010", "True", "True", "101", "False", "True", "010"], lines
    assert lines[9:12] == ["True", "010", "0"] and 0 < int(lines[12]) <= 14, lines  # no search, no buffer
    assert lines[13:] == ["101", "True"], lines


NO_ROOM_FOR_THE_BUFFER = ENGINE_SCRIPT + """
def no_block():
    raise MemoryError("memory allocation failed, allocating 20169 bytes")

before = think(midgame, 8, node_limit=3000)
play_to(board, 14)
think(board, 8, node_limit=10 ** 7, time_limit_ms=10 ** 8)  # the solver: the phase buffer let go
evaluator = engine._engine[0].evaluator(STYLE_PATTERN)
evaluator.take_tables = no_block  # a heap cut up by a long session: no 20 KB block for it
after = think(midgame, 8, node_limit=3000)
print(engine._engine[0].searcher.fast is None, evaluator.table is None, seen(after) == seen(before))
"""


def test_a_midgame_search_without_room_for_the_phase_buffer_plays_the_same_move():
    """After the endgame solver, the midgame search takes the evaluation's 20 KB phase buffer back. On the
    emulated Pico a review after a long session found no block for it and ended on the error screen
    (MemoryError). Now the plain search plays, its evaluation reading its entries from the weight file: the
    same move, score and nodes as the viper search with its buffer, slower."""
    from runners import micropython_runner

    assert micropython_runner.run_unix(NO_ROOM_FOR_THE_BUFFER).split() == ["True", "True", "True"]


NO_ROOM_FOR_A_NEW_ENGINE = ENGINE_SCRIPT + """
from othello.variant import Variant
from player.evaluation import PatternEvaluator

def no_block(self):
    raise MemoryError("memory allocation failed, allocating 20169 bytes")

anti = Board(Variant(anti=True))
play_to(anti, 40)
before = think(anti, 8, node_limit=3000)
think(midgame, 8, node_limit=3000)  # an Othello game between: the next Anti-Othello move makes its engine anew
PatternEvaluator.take_tables = no_block  # the new evaluation finds no block for its phase buffer either
after = think(anti, 8, node_limit=3000)
evaluator = engine._engine[0].evaluator(STYLE_PATTERN)
print(engine._engine[0].anti, engine._engine[0].searcher.fast is None, evaluator.table is None, seen(after) == seen(before))
"""


def test_a_new_engine_without_room_for_the_phase_buffer_plays_the_same_move():
    """A game on another board makes its engine anew, whose evaluation takes its phase buffer as it is made:
    where the heap has no block for it, the engine is still made and the plain search plays the viper
    search's move, score and nodes, its evaluation reading its entries from the weight file (before, the
    MemoryError ended the move)."""
    from runners import micropython_runner

    assert micropython_runner.run_unix(NO_ROOM_FOR_A_NEW_ENGINE).split() == ["True"] * 4


CALLER_KEPT = """
import gc
import player
from othello.board import Board

BALLAST = 40000


class Screen:
    # What asks the player to think: here only a big object with a should_stop method.
    def __init__(self):
        self.ballast = bytearray(BALLAST)

    def should_stop(self):
        return False


def think_for_a_screen(board):
    screen = Screen()
    player.think(board, 8, should_stop=screen.should_stop, node_limit=400, rng_seed=1)


def kept_after_thinking(board):
    player.think(board, 8, node_limit=400, rng_seed=1)  # no callback: whatever the player keeps, it keeps now
    gc.collect()
    before = gc.mem_alloc()
    think_for_a_screen(board)
    gc.collect()
    return gc.mem_alloc() - before


def position(empties):
    board = Board()
    while board.empties() > empties:
        legal = board.legal_squares()
        board.play(legal[board.empties() % len(legal)]) if legal else board.pass_turn()
    return board


midgame = position(40)
endgame = position(12)  # within the top level's exact solve: the viper solver where viper runs
print(kept_after_thinking(midgame), kept_after_thinking(endgame))
"""


def test_the_player_keeps_nothing_of_the_screen_that_asked_on_the_unix_port():
    """The searcher and the solver live from move to move; the should_stop they were handed must not. It
    used to stay in them until the next search, and with it the game screen it was bound to and the code
    of that screen's module: after a return to the main menu the new game's book moves held the old
    game screen (about 13 KB on the unix port, 9 KB on the 32-bit build). The midgame goes through the
    searcher, the endgame through the viper solver. (Not on the WASI build: its collector, as published,
    does not see the roots the others see, tools/runners/micropython_runner.py, and reports the ballast kept
    with this fix as without it.)"""
    from runners import micropython_runner

    kept = [int(value) for value in micropython_runner.run_unix(CALLER_KEPT).split()]
    assert all(value < 4000 for value in kept), kept  # the ballast is 40 KB


def test_the_player_keeps_nothing_of_the_screen_that_asked_on_cpython():
    import gc
    import weakref

    import player
    from othello.board import Board

    class Screen:
        def should_stop(self):
            return False

    for empties in (40, 12):
        board = Board()
        while board.empties() > empties:
            legal = board.legal_squares()
            board.play(legal[board.empties() % len(legal)]) if legal else board.pass_turn()
        screen = Screen()
        alive = weakref.ref(screen)
        player.think(board, 8, should_stop=screen.should_stop, node_limit=400, rng_seed=1)
        del screen
        gc.collect()
        assert alive() is None, empties


NO_ROOM_FOR_A_FAST_PATH = """
import player.engine as engine
from othello.board import Board
from player import think

def no_room(*args):
    raise MemoryError("memory allocation failed, allocating 19342 bytes")

board = Board()
while board.empties() > 12:
    if board.empties() == 36:
        midgame = board.copy()  # past the book
    legal = board.legal_squares()
    board.play(legal[board.empties() % len(legal)]) if legal else board.pass_turn()
fast_solve = think(board, 8, node_limit=10 ** 7, time_limit_ms=10 ** 8)
fast_search = think(midgame, 8, node_limit=2000, time_limit_ms=10 ** 8, rng_seed=1)
engine._fast_solver = engine._fast_midgame = no_room
engine._engine[0] = None  # a new game: the engine imports its fast paths anew
plain_search = think(midgame, 8, node_limit=2000, time_limit_ms=10 ** 8, rng_seed=1)
plain_solve = think(board, 8, node_limit=10 ** 7, time_limit_ms=10 ** 8)
print(plain_solve.exact, plain_solve.score == fast_solve.score)
print(plain_search.move_name() == fast_search.move_name(), plain_search.nodes == fast_search.nodes > 1000)
"""


def test_without_room_for_a_viper_fast_path_the_plain_one_plays():
    """Each viper module's code needs one free block of about 20 KB; where a fragmented heap has none, the
    engine plays on with the plain search and solver (the same moves, slower) instead of failing."""
    from runners import micropython_runner

    lines = micropython_runner.run_unix(NO_ROOM_FOR_A_FAST_PATH).split("\n")
    assert lines[:2] == ["True True", "True True"], lines


VIPER_PATTERN_SUM = """
from othello import bench
from othello.board import Board
from othello.kernels import make_kernel
from othello.geometry import geometry, Embedding
from player.evaluation import PatternEvaluator, viper_pattern_sum
print("viper", viper_pattern_sum is not None)
n = 0
for size, anti in ((8, False), (8, True), (6, False), (6, True)):
    emb = Embedding(6, 0) if size == 6 else None
    ev = PatternEvaluator(size, anti, embedding=emb)
    k = make_kernel(emb.geometry if emb else geometry(8), 4)
    seed = [5]
    def draw():
        seed[0] = (seed[0] * 1103515245 + 12345) & 0x3FFFFFFF
        return (seed[0] >> 16) % 3
    for phase in range(len(set(ev.phase_of))):
        ev.use_phase(phase)
        for _ in range(60):
            cells = ev.cells
            for sq in range(len(cells)):
                cells[sq] = draw()
            a = ev.pattern_sum(cells)
            b = viper_pattern_sum(ev.layout, len(ev.layout), cells, ev.table)
            assert a == b, (size, anti, phase, a, b)
            n += 1
print("equal", n)
"""


def test_the_viper_pattern_sum_equals_the_plain_one():
    """PatternEvaluator.evaluate sums its pattern tables in viper where viper runs (player/evaluation_viper.py):
    the same sums as the plain pattern_sum on random squares, every phase of the 8x8 and 6x6 files (6x6 inside
    the 8x8 board, as the player searches it), Othello and Anti-Othello."""
    from runners import micropython_runner

    lines = micropython_runner.run_unix(VIPER_PATTERN_SUM).split("\n")
    assert lines[:2] == ["viper True", "equal 1800"], lines  # 60 squares' fillings a phase: 10 + 10 + 5 + 5 phases


NEXT_GAME_CHECK = """
import sys
from othello.board import Board
from othello.variant import Variant
from player import prepare, think
from player.engine import engine_for

board = Board.from_position("%s", Variant())
think(board, 8, rng_seed=1)  # 12 empties: the top level solves, with the viper solver
engine = engine_for(board.variant)
print("end", "player.endgame_viper" in sys.modules, engine.fast_solver is not None, engine.searcher.fast is None,
      "player.endgame_viper_small" in sys.modules)
import player.evaluation_unbuffered  # as a position evaluated while the solver held the phase buffer's room does
prepare(Variant())  # the next game
print("next", "player.endgame_viper" in sys.modules, engine.fast_solver is None, engine.searcher.fast is not None,
      engine_for(Variant()) is engine, "player.evaluation_unbuffered" in sys.modules,
      "player.endgame_viper_small" in sys.modules)
"""


def test_the_next_game_starts_with_the_midgame_search_not_the_last_games_solver():
    """A game's end leaves the solver's code in the heap (bigger than the midgame search's); on the Pico a
    second game's opening then had 1.7 KB less free than the first's. prepare() for the next game swaps the
    midgame search back, as at power-up, and the phase buffer's return lets the unbuffered evaluation go.
    The solver's last seven empty squares (a module of their own) go with it: on the Pico, their machine
    code stayed and the second game's lowest free heap fell by 2.2 KB."""
    board = Board()
    player_discs, opponent_discs, _ = sample_positions(1)[48]
    board.set_discs(player_discs, opponent_discs, BLACK)
    assert board.empties() == 12 and board.legal_squares()
    output = micropython_runner.run("unix", NEXT_GAME_CHECK % board.position())
    assert output.split("\n")[:2] == ["end True True True True", "next False True True True False False"], output


VARIANT_SWITCH_CHECK = """
import sys
from othello.board import Board
from othello.variant import Variant
from player import think
from player.engine import engine_for

board = Board.from_position("%s", Variant(size=6))
think(board, 8, rng_seed=1)  # 10 empties: the top level solves, with the viper solver
print("solver", "player.endgame_viper" in sys.modules, engine_for(board.variant).fast_solver is not None)
from player.evaluation import PatternEvaluator

take_tables = PatternEvaluator.take_tables
solver_loaded = []


def taking_tables(evaluator):  # where the new engine's evaluation takes its buffer: is the old code gone?
    solver_loaded.append("player.endgame_viper" in sys.modules)
    return take_tables(evaluator)


PatternEvaluator.take_tables = taking_tables
anti = engine_for(Variant(size=6, anti=True))
print("switched", solver_loaded, "player.endgame_viper" in sys.modules, anti.searcher.fast is not None)
"""


def test_a_new_variant_lets_the_old_engines_fast_path_go():
    """On the Pico the solver's 35 KB of code, loaded by one variant's endgame, left the next variant's
    engine no room for its evaluation: a new engine releases the old one's viper modules first."""
    variant = Variant(size=6)
    board = Board(variant)
    player_discs, opponent_discs, _ = sample_positions(1, variant=variant)[22]
    board.set_discs(player_discs, opponent_discs, BLACK)
    assert board.empties() == 10 and board.legal_squares()
    output = micropython_runner.run("unix", VARIANT_SWITCH_CHECK % board.position())
    assert output.split("\n")[:2] == ["solver True True", "switched [False, False] False True"], output
