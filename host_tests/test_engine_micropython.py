"""The engine checks of mpy/engine_checks.py under CPython and both MicroPython builds.

The MicroPython output must equal CPython's line for line, and CPython's
perft counts must equal the known ones and the reference implementation's.
"""

import contextlib
import io
import sys
from pathlib import Path

import pytest

from othello import Board, Variant
from reference_othello import RefBoard
from reference_othello import perft as reference_perft

MPY = Path(__file__).resolve().parent / "mpy"
CHECKS = MPY / "engine_checks.py"
# The WASI build is slow and runs without garbage collection: keep its perft small.
PERFT_DEPTH = {"unix": 6, "wasm": 5}
START_COUNTS = [1, 4, 12, 56, 244, 1396, 8200]
VARIANTS = {"8x8": Variant(), "6x6": Variant(size=6), "10x10": Variant(size=10), "hole": Variant(black_hole=18)}
EXPECTED_CHECKS = ["rules", "pass_and_end", "bad_input", "notation", "game", "variants", "kernel"]


def run_under_cpython(depth):
    if str(MPY) not in sys.path:
        sys.path.insert(0, str(MPY))
    import engine_checks

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        engine_checks.main(depth)
    return out.getvalue()


@pytest.fixture(scope="module")
def cpython_output():
    return {depth: run_under_cpython(depth) for depth in set(PERFT_DEPTH.values())}


def test_cpython_runs_every_check_and_counts_right(cpython_output):
    out = cpython_output[max(PERFT_DEPTH.values())].splitlines()
    assert [line.split()[1] for line in out if line.startswith("ok ")] == EXPECTED_CHECKS
    counted = 0
    for line in out:
        if line.startswith("perft "):
            _, label, depth, count = line.split()
            depth, count = int(depth), int(count)
            if label == "8x8":
                assert count == START_COUNTS[depth]
            board = Board(VARIANTS[label])
            if depth <= 5:
                assert count == reference_perft(RefBoard.from_position(board.position()), depth), line
            counted += 1
    assert counted >= 18


def test_micropython_gives_the_same_output(micropython, cpython_output):
    depth = PERFT_DEPTH[micropython.interpreter]
    code = CHECKS.read_text() + "\nmain(%d)\n" % depth
    out = micropython(code, path=(MPY,))
    assert out.splitlines() == cpython_output[depth].splitlines()


def test_bench_runs_under_micropython(micropython):
    out = micropython("from othello import bench\nbench.main(0.01, 3, 1)\n")
    figures = dict(line.split() for line in out.splitlines())
    assert int(figures["perft_plain_leaves"]) == 56
    if "perft_viper_leaves" in figures:  # the unix port runs the viper fast path
        assert int(figures["perft_viper_leaves"]) == 56
    assert int(figures["generated_per_s"]) > 0
    # gc.mem_alloc counts what the move generator allocates
    assert int(figures["bytes_per_generated"]) >= 0
