"""Memory budget on the 32-bit WASI build: 4-byte words and 31-bit small ints, as on the Pico.

The published build's collector misses the roots held in WebAssembly locals
(tools/runners/micropython_runner.py, module docstring). tools/device/wasi_memory.py
measures in two regimes: "spilled", the build micropython_runner runs, whose
collector binaryen's --spill-pointers pass repaired, at the device's heap size
with automatic collection on; "safe-points" keeps the published build and
collects only between moves. Either is trusted because the game it plays, under heavy
collection, is move for move the game CPython plays (the clock is frozen, so
only the node limit ends a search). The node limit is cut to keep the tests
short; `tools/device/wasi_memory.py --heap 192K` plays with 1500 nodes a move, and
`--ui` through the UI.
"""

import gc
import json

import pytest

from runners import micropython_runner
from device import wasi_memory

NODE_LIMIT = 200

# A function whose frame (more than 11 words) MicroPython allocates on the heap collects, then allocates:
# the published build frees the running frame and reuses it.
COLLECTION_IN_A_HEAP_FRAME = """
import gc
gc.disable()
def heap_frame(n):
    a = b = c = d = e = f = g = h = i = j = k = l = m = o = p = 0
    kept = [[7, x] for x in range(n)]
    gc.collect()
    fresh = [[1, 2, 3] for x in range(n)]
    for x in range(n):
        if kept[x] != [7, x]:
            return "lost"
    return "kept"
print(heap_frame(50))
"""


def moves(output):
    return [line for line in output.split("\n") if line.startswith(("move ", "result "))]


def cpython_game(monkeypatch, level, node_limit):
    monkeypatch.syspath_prepend(str(wasi_memory.MPY_SCRIPTS))
    monkeypatch.setattr(gc, "mem_alloc", lambda: 0, raising=False)
    import fastpath_memory_wasi

    return moves("\n".join(fastpath_memory_wasi.game(level, node_limit, 0)))


def test_the_published_build_frees_a_running_heap_frame_and_the_one_run_here_keeps_it():
    try:
        published = micropython_runner.run_wasm(COLLECTION_IN_A_HEAP_FRAME, heap="1M",
                                                module=micropython_runner.published_module())
    except micropython_runner.MicroPythonError as error:
        published = str(error)
    assert "kept" not in published
    assert micropython_runner.run_wasm(COLLECTION_IN_A_HEAP_FRAME, heap="1M").strip() == "kept"


@pytest.mark.slow
@pytest.mark.parametrize("heap", ["192K", "128K"])
def test_top_level_game_fits_on_the_32_bit_build(monkeypatch, bytecode_firmware, heap):
    """Engine and player alone: 99 KB live on this build today, and a game plays in 128K. Issue 14's pattern
    evaluation holds one phase of its tables, a 20,169-byte block (the edge evaluation's were 7.8 KB and a
    game played in 112K, 83 KB live); issue 14 allows 40 KB of tables (docs/PLAYER.md, "Evaluation")."""
    output = wasi_memory.run_game("spilled", heap, bytecode_firmware, node_limit=NODE_LIMIT)
    assert moves(output) == cpython_game(monkeypatch, 8, NODE_LIMIT)
    figures = wasi_memory.figures(output)
    assert figures["peak_live"] < 104 * 1024, figures


@pytest.mark.slow
def test_collections_between_moves_are_safe_on_the_published_build(monkeypatch, bytecode_firmware):
    """Everything one move allocates stays until it ends: about 470 KB at 10 nodes, so a 1M heap."""
    output = wasi_memory.run_game("safe-points", "1M", bytecode_firmware, node_limit=10)
    assert moves(output) == cpython_game(monkeypatch, 8, 10)
    figures = wasi_memory.figures(output)
    assert figures["peak_live"] < 100 * 1024 < figures["peak_garbage"], figures


# ----- the device's own path: main.py, hw.boot() and the real drivers on the simulator's stand-in machine -----

DEVICE_BOARD = "pico_breadboard_i2c"
# Issue 5's budget was 192K, with the stand-ins' ~18 KB in the same heap as the firmware: three games passed
# down to 176K until issue 14's pattern evaluation (its phase buffer is 20,169 bytes, the edge tables were
# 7.8 KB; issue 14 allows 40 KB of tables and sets its floor on the emulated Pico): 192K fails in the
# first game now, 224K plays them (docs/MEMORY.md).
DEVICE_HEAP = "224K"


@pytest.fixture(scope="module")
def device_flash(tmp_path_factory, bytecode_firmware):
    """The board kept at 125 MHz (its cpu_mhz_max), so the computer searches the levels' own budgets, not
    the 1.6 times more of 200 MHz: the same code and tables hold the heap, and the 32-bit build's three games
    take about ten minutes instead of fifteen."""
    flash = wasi_memory.device_flash(tmp_path_factory.mktemp("device_flash"), bytecode_firmware, DEVICE_BOARD)
    config = json.loads((flash / "board.json").read_text())
    config["cpu_mhz_max"] = 125
    (flash / "board.json").write_text(json.dumps(config))
    return flash


def firmware_share(figures):
    """Peak live heap less what only the simulated board holds (stand-in modules and driver)."""
    return figures["peak_live"] - figures["harness_live"]


def game_end_heaps(output):
    """The heap in use after each game's result (device_memory's "game N result ... live L" lines)."""
    return [int(line.split()[-1]) for line in output.split("\n") if line.startswith("game ")]


@pytest.mark.slow(minutes=12)
def test_power_up_and_three_games_through_the_buttons_on_the_32_bit_build(device_flash):
    """main.py as the Pico runs it: hw.boot() opens the SSD1306 driver, Buttons, Sound and Storage on the
    stand-in machine, and a scripted human plays the first legal move by pressing the pins against level 7
    (host_tests/mpy/device_memory.py), three games without switching off: the second by Play again, the
    third from the main menu. Today: 23 KB for the stand-ins and the driver, 174-175 KB for the firmware at
    its peak. The level's own budget through the UI: this test stands for the game through ui_fakes'
    device as well (`tools/device/wasi_memory.py --ui` measures that one: 148 KB in all). Level 7 runs the
    top level's code (the trained evaluation, the book, the solver) on 45% of its nodes: the 32-bit build
    searches with the plain code, and level 8's three games took 12 minutes.

    Nothing may pile up from game to game: the heap after each result stays within 3 KB. One game saving
    itself as a string and then as bytes after every move failed here, now and then, for want of a
    700-byte block in a fragmented heap."""
    output = wasi_memory.run_device_game(DEVICE_HEAP, device_flash, level=7, games=3)
    assert "games 3" in output, output[-3000:]
    figures = wasi_memory.figures(output)
    assert figures["harness_live"] < 24 * 1024, figures
    assert firmware_share(figures) < 176 * 1024, figures
    ends = game_end_heaps(output)
    assert len(ends) == 3 and max(ends) - min(ends) < 3 * 1024, ends


@pytest.mark.slow(minutes=2)
def test_power_up_and_three_games_through_the_buttons_on_the_unix_port(compiled_firmware, tmp_path):
    """The same on the unix port (8-byte words, viper running): 288K plays them, with about 231 KB of firmware
    at the peak (the power layer, the battery gauge and the game view's code among it) and 34 KB of
    stand-ins. The bound leaves room for the peak's spread from game to game, not for a new table: the
    Pico's own floor is checked by tools/device/bench.py ui-heap (docs/MEMORY.md)."""
    flash = wasi_memory.device_flash(tmp_path / "flash", compiled_firmware, DEVICE_BOARD)
    output = wasi_memory.run_device_game("288K", flash, unix=True, games=3)
    assert "games 3" in output, output[-3000:]
    assert firmware_share(wasi_memory.figures(output)) < 252 * 1024, output[-600:]
    ends = game_end_heaps(output)
    assert len(ends) == 3 and max(ends) - min(ends) < 3 * 1024, ends
