"""The computer player under MicroPython (run by host_tests/test_player_mpy.py on both interpreters and on CPython).

Prints `ok <check>` lines for the checks it makes itself and `decision ...`
lines that the test compares with CPython's output for the same script, so
the 31-bit WASI build must choose exactly as the host does. Kept small: the
WASI build is slow.
"""

from othello.board import PASS, Board
from othello.variant import Variant
from player import LEVELS, hint, solve, think


class Random:
    """The script's own generator (the WASI build has no random module)."""

    def __init__(self, seed):
        self.state = seed

    def below(self, bound):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % bound


def brute_force(board):
    moves = board.legal_squares()
    if not moves:
        if board.is_game_over():
            diff = board.count(board.turn) - board.count(1 - board.turn)
            empties = board.empties()
            if diff > 0:
                diff += empties
            elif diff < 0:
                diff -= empties
            return -diff if board.variant.anti else diff
        move = board.pass_turn()
        value = -brute_force(board)
        board.undo(move)
        return value
    best = -1000
    for square in moves:
        move = board.play(square)
        value = -brute_force(board)
        board.undo(move)
        if value > best:
            best = value
    return best


def random_board(rng, variant, empties):
    while True:
        board = Board(variant)
        while board.empties() > empties and not board.is_game_over():
            moves = board.legal_squares()
            if moves:
                board.play(moves[rng.below(len(moves))])
            else:
                board.pass_turn()
        if board.empties() == empties and not board.is_game_over():
            return board


def check_solver():
    rng = Random(11)
    variants = (Variant(), Variant(anti=True), Variant(size=6), Variant(size=6, anti=True))
    for trial in range(12):
        board = random_board(rng, variants[trial % 4], 2 + trial % 5)
        expected = brute_force(board.copy())
        score, square = solve(board, table_bits=8)
        assert score == expected, (board.position(), score, expected)
        if square != PASS:
            after = board.copy()
            after.play(square)
            assert -brute_force(after) == expected
    print("ok solver")


class FakeClock:
    def __init__(self):
        self.ticks = 0

    def __call__(self):
        self.ticks += 1
        return self.ticks


def check_limits():
    board = Board()
    for square in ("f5", "d6", "c3", "d3", "c4", "f3", "f4", "g5", "c6", "b5"):  # out of the opening book
        board.play(square)
    decision = think(board, 8, now=FakeClock(), time_limit_ms=30, node_limit=10 ** 8)
    assert decision.elapsed_ms <= 32 and board.is_legal(decision.square), decision
    calls = [0]

    def should_stop():
        calls[0] += 1
        return calls[0] >= 3

    decision = think(board, 8, should_stop=should_stop, time_limit_ms=10 ** 7, node_limit=10 ** 8)
    assert calls[0] == 3 and decision.nodes <= 4 * 64 and board.is_legal(decision.square), decision
    print("ok limits")


def print_decisions():
    """Fixed positions and budgets: the choices must match CPython's exactly."""
    rng = Random(5)
    for size, anti, level, plies in ((8, False, 6, 12), (8, True, 5, 14), (6, False, 3, 8), (8, False, 8, 40),
                                     (10, False, 5, 10), (8, False, 2, 20)):
        board = random_board(rng, Variant(size=size, anti=anti), size * size - 4 - plies)
        decision = think(board, level, node_limit=250, time_limit_ms=10 ** 7, rng_seed=plies)
        print("decision", board.position(), level, decision.describe(), decision.depth, decision.nodes)
    board = Board()
    decision = hint(board, time_limit_ms=10 ** 7)
    print("decision hint", decision.describe(), decision.depth)


def main():
    check_solver()
    check_limits()
    print_decisions()
    print("levels", len(LEVELS))


main()
