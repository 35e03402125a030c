"""Speed of the computer player's search and solver, run inside the interpreter being measured.

`othello player-bench` prepends the inputs and runs this under CPython, the
MicroPython unix port and the 32-bit WASI build:

    MIDGAME = [position, ...]          positions for the search's nodes per second
    MIDGAME_NODES = n                  node budget per position
    ENDGAME = [(empties, position), ...] in increasing empties
    SOLVE_LIMIT_S = s                  stop after the first size that takes longer
    SOLVERS = ("plain", "viper")       which solvers to time (viper where it runs)
    REPLAY = True                      also time the search without the kernel's work

and prints one line per figure: `search <nodes> <ms>`,
`solve <solver> <empties> <ms> <nodes> <score>`, and for REPLAY
`replay <nodes> <us> <method>=<calls> ...`.

The replay separates the search's own cost from the kernel's: the searches
of MIDGAME are run once on a recording kernel, then again on a kernel that
hands back the recorded results (one list read per call). The second run
costs what the search, the evaluation's arithmetic and the method calls
cost, without any bitboard work; docs/BENCHMARKS.md turns it into a Pico
estimate with the viper kernel.
"""

from othello.board import Board
from othello.compat import ticks_diff, ticks_ms, ticks_us
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


RECORDED = ("generate", "features", "play", "mobility", "opponent_mobility", "pass_move", "hash", "lock",
            "empties", "discs", "opponent_discs")


class RecordingKernel:
    """Forwards to a real kernel and records every result (features and moves included), in call order."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.geometry = kernel.geometry
        self.stride = kernel.stride
        self.max_ply = kernel.max_ply
        self.move_list = kernel.move_list
        self.trace = []
        self.calls = {}

    def set_root(self, player, opponent):
        self.kernel.set_root(player, opponent)

    def _note(self, name, result):
        self.calls[name] = self.calls.get(name, 0) + 1
        self.trace.append(result)
        return result

    def generate(self, ply):
        count = self.kernel.generate(ply)
        at = ply * self.stride
        return self._note("generate", (count, bytes(self.move_list[at:at + count])))[0]

    def features(self, ply, out):
        self.kernel.features(ply, out)
        self._note("features", tuple(out))


def _forwarder(name):
    def forward(self, *args):
        return self._note(name, getattr(self.kernel, name)(*args))
    return forward


for _name in RECORDED[2:]:
    setattr(RecordingKernel, _name, _forwarder(_name))


class ReplayKernel:
    """Hands back a recording, call by call: a kernel that costs only the calls."""

    def __init__(self, recording):
        self.geometry = recording.geometry
        self.stride = recording.stride
        self.max_ply = recording.max_ply
        self.move_list = bytearray(len(recording.move_list))
        self.trace = recording.trace
        self.at = 0

    def set_root(self, player, opponent):
        pass

    def generate(self, ply):
        count, moves = self.trace[self.at]
        self.at += 1
        base = ply * self.stride
        self.move_list[base:base + count] = moves
        return count

    def features(self, ply, out):
        out[0:11] = self.trace[self.at]
        self.at += 1

    def _next(self, *args):
        result = self.trace[self.at]
        self.at += 1
        return result


for _name in RECORDED[2:]:
    setattr(ReplayKernel, _name, ReplayKernel._next)


def replay_speed():
    nodes = 0
    elapsed_us = 0
    calls = {}
    for position in MIDGAME:  # noqa: F821
        board = Board.from_position(position)
        recording = RecordingKernel(make_kernel(board.geometry, 60))
        runs = []
        for kernel in (recording, None):
            if kernel is None:
                kernel = ReplayKernel(recording)
            searcher = Searcher(kernel, TranspositionTable(TABLE_BITS))
            searcher.evaluator = PatternEvaluator(board.size)
            searcher.set_root(board.player_discs(), board.opponent_discs())
            searcher.start(MIDGAME_NODES)  # noqa: F821
            started = ticks_us()
            searcher.iterate(60)
            runs.append((searcher.nodes, ticks_diff(ticks_us(), started)))
        assert runs[0][0] == runs[1][0], "the replay went another way"
        nodes += runs[1][0]
        elapsed_us += runs[1][1]
        for name, count in recording.calls.items():
            calls[name] = calls.get(name, 0) + count
    print("replay %d %d %s" % (nodes, elapsed_us, " ".join("%s=%d" % item for item in sorted(calls.items()))))


def main():
    if REPLAY:  # noqa: F821
        replay_speed()
    search_speed()
    for kind in SOLVERS:  # noqa: F821
        solve_speed(kind)


main()
