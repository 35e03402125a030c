"""Link play on two emulated Picos (tools/device/pico_emulator.py): the real firmware through main.py on each,
their link UARTs joined by the test (rp2040js's UART0: what one sends arrives on the other's RX pin a frame's
time apart at the firmware's baud rate). A whole linked game, with one side power-cycled in the middle and
resumed from its saved game, to both records, with the heap floor of a top-level game (40 KB free at the
worst moment, tools/device/ui_heap.py's sampler) holding on both while they play linked. The same flow on two
simulated devices is test_link_devices.py.

Without the emulator they skip, naming what to run; in CI (CI=true) they must run.
"""

import os

import pytest

from device import pico_emulator, ui_heap
from link_helpers import DeviceCable, linked_game, saved
from test_link_devices import play_moves, records_agree

pytestmark = pytest.mark.pico
MISSING = pico_emulator.available()
if MISSING and os.environ.get("CI") != "true":
    pytest.skip(MISSING, allow_module_level=True)

BOARD = "pico_breadboard_i2c"
# The emulated Pico misses a tap that comes and goes while it redraws: taps as a person makes them.
TAP_MS = (100, 300)
MENU_READY_MS = 4000  # power-up to a main menu that takes keys (the player's tables are made first)
HEAP_FLOOR = 40 * 1024  # free bytes at the worst moment (docs/MEMORY.md)
HEAP_SAMPLE_MS = 250


def sampled_picos():
    """Two Picos with the `make flash` build, main.py led by ui_heap's sampler (a collection, then the free
    heap, every HEAP_SAMPLE_MS: the lowest of each second goes to the console as `heap_lowest_free FREE AT`)."""
    files = pico_emulator.build_files(BOARD)
    files["/main.py"] = (ui_heap.SAMPLER % HEAP_SAMPLE_MS).encode() + files["/main.py"]
    return (pico_emulator.EmulatedPico(BOARD, files=dict(files), seed=seed) for seed in (1, 2))


def lowest_free(pico, *spans):
    """The lowest free heap the sampler reported in the console's (start, end) character spans (end None: to
    the end): the time in link play, not the main menu's before it (docs/MEMORY.md has the menu's)."""
    lows = [int(line.split()[1]) for start, end in spans for line in pico.console[start:end].splitlines()
            if line.startswith("heap_lowest_free ")]
    assert lows, pico.console[-2000:]
    return min(lows)


def open_link_play(cable, pico):
    cable.tap(pico, "down", "down", "a")  # the main menu: Play computer, Two players, Link play


@pytest.mark.slow(minutes=5)
def test_two_emulated_picos_play_a_linked_game_through_a_power_cycle_to_equal_records():
    pico_a, pico_b = sampled_picos()
    with pico_a as a, pico_b as b:
        cable = DeviceCable(a, b, tap_ms=TAP_MS)
        a.power_on()
        b.power_on()
        cable.run(MENU_READY_MS)
        open_link_play(cable, a)
        cable.run(1500)
        open_link_play(cable, b)  # B chose Link play later: A offers
        cable.run(2000)
        cable.tap(a, "a")  # send the offer (a single 8x8 game, A plays Black)
        cable.run(1000)
        cable.tap(b, "a")  # accept
        cable.run(1000)
        assert linked_game(a)[1] == 0 and linked_game(b)[1] == 1, a.screen_text() + b.screen_text()
        assert cable.carried > 0
        a_linked, b_linked = len(a.console), len(b.console)  # the console from here on: link play

        play_moves(cable, 10)
        b_spans = [(b_linked, len(b.console))]
        b.power_cycle(off_ms=1000)  # B's player restarts it, then chooses Continue: the saved linked game
        cable.run(MENU_READY_MS)
        cable.tap(b, "a")
        cable.run(4000)
        b_spans.append((len(b.console), None))
        game_a, game_b = linked_game(a)[0], linked_game(b)[0]
        assert game_a.history.squares() == game_b.history.squares() and game_a.move_count() == 10, b.screen_text()

        play_moves(cable)
        cable.run(2000)
        records_agree(a, b)
        assert saved(a, "game.json")["recorded"] and saved(b, "game.json")["recorded"]
        assert "Traceback" not in a.console + b.console
        lowest = lowest_free(a, (a_linked, None)), lowest_free(b, *b_spans)
        print("lowest free heap in link play: A %d, B %d bytes" % lowest)  # with -s
        assert min(lowest) >= HEAP_FLOOR, lowest
