"""Buttons through the stand-in pins: debounce, auto-repeat, long press, taps between polls, pulls and levels."""

import json
from pathlib import Path

import hw
from hw.buttons import Buttons
from ui_fakes import FakeDevice
import simulator

simulator.install_standins()  # framebuf for ui_fakes' FakeDevice, whose clock the late-handler tests use

REPO = Path(__file__).resolve().parent.parent


def open_board(tmp_path, change=None, name="pico_breadboard_i2c.json", start_ticks=0):
    data = json.loads((REPO / "board_configs" / name).read_text())
    if change:
        change(data)
    config = hw.load_config(data)
    board = simulator.LocalBoard(config, tmp_path, read_cost_ms=0, start_ticks=start_ticks)
    return hw.open_device(config), board


def run(device, board, ms, every=5):
    """Poll every `every` ms for `ms` ms; the events with the virtual time they were reported at."""
    events = []
    for _ in range(ms // every):
        board.advance(every)
        for name, kind in device.buttons.poll(device.ticks_ms()):
            events.append((board.clock.elapsed, name, kind))
    return events


def bounce(device, board, name, pressed, flips=5):
    """Change a button the way a real contact does: it chatters for a few ms, polled every ms."""
    events = []
    for flip in range(flips):
        (board.press if (flip % 2 == 0) == pressed else board.release)(name)
        events += run(device, board, 1, every=1)
    (board.press if pressed else board.release)(name)
    return events


def test_a_bouncing_press_and_release_count_once(tmp_path):
    device, board = open_board(tmp_path)
    events = run(device, board, 50)
    events += bounce(device, board, "a", True)
    events += run(device, board, 100, every=1)
    events += bounce(device, board, "a", False)
    events += run(device, board, 100, every=1)
    assert [(name, kind) for _, name, kind in events] == [("a", hw.PRESS), ("a", hw.RELEASE)]
    press_at, release_at = events[0][0], events[1][0]
    assert press_at == 51, "a press counts at the first poll that sees it"
    assert release_at - press_at >= device.buttons.debounce_ms


def test_directions_repeat_while_held(tmp_path):
    device, board = open_board(tmp_path)
    run(device, board, 100)
    board.press("right")
    events = run(device, board, 1000)
    board.release("right")
    events += run(device, board, 100)
    kinds = [kind for _, _, kind in events]
    assert kinds == [hw.PRESS] + [hw.REPEAT] * 5 + [hw.RELEASE]
    times = [t for t, _, _ in events]
    assert times[1] - times[0] == 400 and all(b - a == 120 for a, b in zip(times[1:6], times[2:6]))


def test_other_buttons_report_one_long_press(tmp_path):
    device, board = open_board(tmp_path)
    board.press("b")
    events = run(device, board, 2000)
    board.release("b")
    events += run(device, board, 100)
    assert [(t, kind) for t, _, kind in events] == [(5, hw.PRESS), (705, hw.LONG), (2005, hw.RELEASE)]
    board.press("b")
    events = run(device, board, 300)
    board.release("b")
    events += run(device, board, 100)
    assert [kind for _, _, kind in events] == [hw.PRESS, hw.RELEASE], "a short press is not long"


def test_a_tap_between_two_polls_is_not_lost(tmp_path):
    device, board = open_board(tmp_path)
    run(device, board, 100, every=100)
    board.advance(10)
    board.press("left")
    board.advance(40)
    board.release("left")
    board.advance(50)
    assert device.buttons.poll(device.ticks_ms()) == [("left", hw.PRESS)]
    board.advance(100)
    assert device.buttons.poll(device.ticks_ms()) == [("left", hw.RELEASE)]
    board.advance(100)
    assert device.buttons.poll(device.ticks_ms()) == ()


def test_a_release_and_a_new_press_between_two_polls_are_both_reported(tmp_path):
    # The same key tapped again while the device redraws (over 100 ms on the Pico's game screen): the
    # poll after it finds the key down as before, and only the edge interrupt knows it was let go.
    device, board = open_board(tmp_path)
    run(device, board, 100, every=100)
    board.press("right")
    board.advance(10)
    assert device.buttons.poll(device.ticks_ms()) == [("right", hw.PRESS)]
    board.advance(50)
    board.release("right")
    board.advance(70)
    board.press("right")
    board.advance(10)
    assert device.buttons.poll(device.ticks_ms()) == [("right", hw.RELEASE)]
    board.advance(30)
    assert device.buttons.poll(device.ticks_ms()) == [("right", hw.PRESS)]
    board.advance(50)
    board.release("right")
    events = run(device, board, 500, every=20)
    assert [kind for _, _, kind in events] == [hw.RELEASE], "no repeat: the second press was not held 400 ms"


def test_taps_while_a_screen_redraws_are_each_reported(tmp_path):
    # A player taps right twice, then three times, while the Pico redraws or saves the game (100-300 ms
    # without a poll): each tap is a press and a release, in order, one change a poll.
    device, board = open_board(tmp_path)
    run(device, board, 100, every=100)
    for taps in (2, 3):
        for _ in range(taps):
            board.press("right")
            board.advance(50)
            board.release("right")
            board.advance(50)
        events = run(device, board, 400, every=30)
        assert [(name, kind) for _, name, kind in events] == [("right", hw.PRESS), ("right", hw.RELEASE)] * taps
        assert min(b - a for (a, _, _), (b, _, _) in zip(events, events[1:])) >= device.buttons.debounce_ms


class _LatePin:
    """A pin whose edge handler runs when the test says: between the poll's read of the level and its
    read of the count (an interrupt comes a little after its edge), or for two edges closer than the
    debounce time (a tap shorter than it)."""

    def __init__(self):
        self.level = 1
        self.handler = None

    def value(self):
        return self.level

    def irq(self, handler, trigger, hard=False):
        self.handler = handler


def _late_buttons():
    pin, clock = _LatePin(), FakeDevice()  # its ticks: a clock that moves when the test says
    buttons = Buttons([("a", pin, 0)], clock, irq_trigger=3)
    return buttons, pin, clock


def _poll(buttons, clock, ms):
    clock.now += ms
    return buttons.poll(clock.now)


def test_an_edge_whose_handler_runs_after_the_poll_is_one_press():
    buttons, pin, clock = _late_buttons()
    pin.level = 0  # pressed; its handler has not run yet when the poll reads the pin
    events = [_poll(buttons, clock, 5)]
    pin.handler(pin)
    events += [_poll(buttons, clock, 30) for _ in range(5)]
    pin.level = 1
    pin.handler(pin)
    events += [_poll(buttons, clock, 30) for _ in range(5)]
    assert [event for event in events if event] == [[("a", hw.PRESS)], [("a", hw.RELEASE)]]


def test_two_edges_counted_as_one_still_end_in_the_pins_level():
    buttons, pin, clock = _late_buttons()
    clock.now += 100
    pin.level = 0
    pin.handler(pin)
    clock.now += 15
    pin.level = 1  # a tap shorter than the debounce time: its release edge is taken for bounce
    pin.handler(pin)
    events = [_poll(buttons, clock, 30) for _ in range(5)]
    assert [event for event in events if event] == [[("a", hw.PRESS)], [("a", hw.RELEASE)]]


def test_release_bounce_is_no_new_press_with_slow_polls(tmp_path):
    device, board = open_board(tmp_path)
    board.press("a")
    events = run(device, board, 200, every=100)
    board.release("a")
    events += run(device, board, 1, every=1)  # a poll lands in the middle of the bounce
    for flip in range(4):
        (board.press if flip % 2 == 0 else board.release)("a")
        board.advance(1)
    events += run(device, board, 500, every=100)
    assert [kind for _, _, kind in events] == [hw.PRESS, hw.RELEASE]


def test_active_high_buttons_with_pull_down(tmp_path):
    def to_active_high(data):
        for button in data["buttons"].values():
            button.update(pull="down", active="high")

    device, board = open_board(tmp_path, to_active_high)
    assert board.hardware.button_level("a", True) == 1
    run(device, board, 50)
    board.press("a")
    events = run(device, board, 50)
    board.release("a")
    events += run(device, board, 50)
    assert [(name, kind) for _, name, kind in events] == [("a", hw.PRESS), ("a", hw.RELEASE)]


def test_buttons_with_the_boards_own_resistors(tmp_path):
    def external_pull_ups(data):
        for button in data["buttons"].values():
            button["pull"] = "none"

    device, board = open_board(tmp_path, external_pull_ups)
    assert run(device, board, 100) == [], "released buttons read high through the board's resistors"
    board.press("down")
    events = run(device, board, 50)
    assert [(name, kind) for _, name, kind in events] == [("down", hw.PRESS)]


def test_idle_polls_return_the_same_empty_tuple(tmp_path):
    device, board = open_board(tmp_path)
    board.advance(50)
    first = device.buttons.poll(device.ticks_ms())
    board.advance(5)
    assert first == () and device.buttons.poll(device.ticks_ms()) is first


def test_three_button_board_and_is_down(tmp_path):
    device, board = open_board(tmp_path, name="cytron_maker_pi_pico_grove_oled.json")
    assert device.buttons.names == ("left", "right", "a")
    board.press("right")
    run(device, board, 30)
    assert device.buttons.is_down("right") and not device.buttons.is_down("a")


def test_timing_survives_the_ticks_wrap(tmp_path):
    device, board = open_board(tmp_path, start_ticks=(1 << 30) - 500)
    run(device, board, 100)
    board.press("up")
    events = run(device, board, 1000)
    assert device.ticks_ms() < 1000, "the ticks wrapped during the hold"
    assert [kind for _, _, kind in events] == [hw.PRESS] + [hw.REPEAT] * 5


def test_a_button_held_through_start_up_waits_for_its_release(tmp_path):
    data = json.loads((REPO / "board_configs" / "pico_breadboard_i2c.json").read_text())
    config = hw.load_config(data)
    board = simulator.LocalBoard(config, tmp_path, read_cost_ms=0)
    board.press("a")
    device = hw.open_device(config)
    assert run(device, board, 1000) == [], "no press, no long press for a button held at start"
    board.release("a")
    events = run(device, board, 100)
    board.press("a")
    events += run(device, board, 50)
    assert [kind for _, _, kind in events] == [hw.PRESS]
