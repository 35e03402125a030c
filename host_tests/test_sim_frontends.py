"""The simulator's front ends: headless scripts (PNG, GIF), the terminal's pieces, the pygame window."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

import simulator
from simulator import script
from simulator.terminal import decode_keys, frame_text, _Keyboard

REPO = Path(__file__).resolve().parent.parent
I2C_BOARD = REPO / "board_configs" / "pico_breadboard_i2c.json"

DEMO = """
import hw
device, error = hw.boot()
x = 0
while True:
    for name, kind in device.buttons.poll(device.ticks_ms()):
        print("event", name, kind)
        if kind in (hw.PRESS, hw.REPEAT):
            x += {"right": 4, "left": -4}.get(name, 0)
    device.display.fb.fill(0)
    device.display.fb.fill_rect(60 + x, 28, 8, 8, 1)
    device.display.show()
    device.sleep_ms(20)
"""

SCRIPT = """
# a short session
wait 100
shot start.png
record 40
press right 2
hold left 700   # repeats
down a
wait 30
up a
wait 100
gif moves.gif
shot end.png
power cycle
wait 50
shot again.png
"""


@pytest.fixture
def demo(tmp_path):
    path = tmp_path / "demo.py"
    path.write_text(DEMO)
    return path


def test_headless_script_writes_screenshots_and_a_gif(demo, tmp_path):
    outputs = []
    for run in range(2):
        with simulator.SimulatedDevice(I2C_BOARD, app=demo) as sim:
            sim.power_on()
            written = script.run(sim, SCRIPT, tmp_path / ("out%d" % run))
        assert [p.name for p in written] == ["start.png", "moves.gif", "end.png", "again.png"]
        outputs.append([p.read_bytes() for p in written])
    assert outputs[0] == outputs[1], "a script gives the same files every time"
    out = tmp_path / "out0"
    start, end = Image.open(out / "start.png"), Image.open(out / "end.png")
    assert start.size == (128 * 4 + 16, 64 * 4 + 16)
    assert start.tobytes() != end.tobytes()
    gif = Image.open(out / "moves.gif")
    assert gif.n_frames > 5
    assert Image.open(out / "again.png").tobytes() == start.tobytes(), "after a power cycle the demo starts over"


@pytest.mark.parametrize(
    "text, problem",
    [
        ("wait soon", "line 1: wait must be a whole number"),
        ("\npress start", "line 2: the board has no 'start' button"),
        ("jump", "line 1: unknown command 'jump'"),
        ("hold a", "line 1: hold takes 2 argument(s)"),
        ("power sideways", "line 1: power is followed by off, on or cycle"),
        ("wait -5", "line 1: wait cannot be negative"),
    ],
)
def test_script_errors_name_the_line(text, problem):
    with pytest.raises(script.ScriptError, match=re.escape(problem)):
        script.parse(text, ("up", "down", "left", "right", "a", "b"))


def test_sim_command_headless(demo, tmp_path):
    script_file = tmp_path / "session.txt"
    script_file.write_text("wait 100\npress right\nshot one.png\n")
    done = subprocess.run(
        [sys.executable, str(REPO / "tools" / "sim"), "--headless", str(script_file), "--app", str(demo),
         "--out", str(tmp_path / "out"), "--interpreter", "micropython"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(tmp_path / "out" / "one.png")
    assert "event right press" in done.stderr


def test_terminal_keys_and_frame():
    assert decode_keys(b"\x1b[A\x1b[D\rzx\x1b\x1b[15~mq") == ["up", "left", "a", "a", "b", "b", "menu", "quit"]
    rows = [[1 if (x + y) % 3 == 0 else 0 for x in range(128)] for y in range(64)]
    text = frame_text(rows, 1.0, "status")
    lines = text.split("\r\n")
    assert len(lines) == 33 and lines[-1].endswith("status")
    assert "▀" in lines[0] and "▄" in lines[0]


class _FakeSim:
    def __init__(self, buttons):
        self.hardware = type("H", (), {"buttons": dict.fromkeys(buttons)})()
        self.log = []
        self.times = []
        self.clock = 0.0
        self.reading = True  # whether the firmware reads its buttons (not while it starts)

    def input_clock(self):
        return self.clock

    def reading_buttons(self):
        return self.reading

    def press(self, name):
        self.log.append(("press", name))
        self.times.append(self.clock)

    def release(self, name):
        self.log.append(("release", name))
        self.times.append(self.clock)

    def tick(self, keyboard, now):
        self.clock = now
        keyboard.tick(now)


def test_terminal_keys_become_taps_in_order():
    sim = _FakeSim(("left", "a", "right"))
    keyboard = _Keyboard(sim)
    keyboard.keys(["right"], 0.0)
    keyboard.keys(["right"], 0.1)  # a quick second tap: queued, not lost
    keyboard.keys(["right", "a"], 0.2)  # typed together: two more taps
    keyboard.keys(["menu", "up"], 0.21)  # no menu button: a long press of A; no up button: nothing
    for step in range(300):
        sim.tick(keyboard, 0.21 + step * 0.01)
    assert sim.log == [("press", "right"), ("release", "right")] * 3 + [("press", "a"), ("release", "a")] * 2
    gaps = [round(b - a, 2) for a, b in zip(sim.times, sim.times[1:])]
    assert all(gap >= 0.05 for gap in gaps), "each level lasts long enough for the debounce"
    assert gaps[-1] >= 0.8, "M holds A for a long press"


def test_terminal_repeats_keep_the_button_down():
    sim = _FakeSim(("left", "a", "right"))
    keyboard = _Keyboard(sim)
    for step in range(20):  # the terminal repeats a held key every 30 ms
        keyboard.keys(["left"], step * 0.03)
        sim.tick(keyboard, step * 0.03)
    for step in range(20):
        sim.tick(keyboard, 0.6 + step * 0.03)
    assert sim.log == [("press", "left"), ("release", "left")]
    assert sim.times[1] - sim.times[0] >= 0.6


def test_repeats_that_pile_up_in_one_read_still_hold_the_button():
    sim = _FakeSim(("right",))
    keyboard = _Keyboard(sim)
    keyboard.keys(["right"], 0.0)
    sim.tick(keyboard, 0.0)
    keyboard.keys(["right"], 0.03)
    sim.tick(keyboard, 0.03)
    keyboard.keys(["right"] * 3, 0.08)  # a busy moment: three repeats come in one read
    for step in range(50):
        sim.tick(keyboard, 0.08 + step * 0.01)
    assert sim.log == [("press", "right"), ("release", "right")]
    assert sim.times[1] - sim.times[0] >= 0.18


def test_a_key_again_after_another_key_is_a_tap_not_a_repeat():
    sim = _FakeSim(("down", "a"))
    keyboard = _Keyboard(sim)
    for step, key in enumerate(("a", "down", "a")):  # quick typing, each key in a read of its own
        keyboard.keys([key], step * 0.01)
    for step in range(100):
        sim.tick(keyboard, 0.02 + step * 0.01)
    assert sim.log == [("press", "a"), ("release", "a"), ("press", "down"), ("release", "down"), ("press", "a"), ("release", "a")]


def test_keys_typed_while_the_firmware_starts_wait_until_it_reads_the_buttons():
    sim = _FakeSim(("down", "a"))
    sim.reading = False
    keyboard = _Keyboard(sim)
    keyboard.keys(["a"], 0.0)
    keyboard.keys(["down"], 0.1)
    keyboard.keys(["down"], 0.2)
    for step in range(150):  # 1.5 s of start-up: nothing reaches the pins
        sim.tick(keyboard, 0.2 + step * 0.01)
    assert sim.log == []
    sim.reading = True
    for step in range(100):
        sim.tick(keyboard, 1.7 + step * 0.01)
    assert sim.log == [("press", "a"), ("release", "a")] + [("press", "down"), ("release", "down")] * 2
    assert min(b - a for a, b in zip(sim.times, sim.times[1:])) >= 0.05


@pytest.fixture
def window(demo, tmp_path, monkeypatch):
    """(pygame, run_window, a real-time SimulatedDevice running the demo) with SDL's dummy drivers."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame = pytest.importorskip("pygame")
    from simulator.window import run_window

    return pygame, run_window, simulator.SimulatedDevice(I2C_BOARD, flash_dir=tmp_path / "flash", app=demo, realtime=True)


def once_lit(sim, on_frame):
    """An on_frame for run_window that counts frames from when the firmware has lit the panel:
    on a busy machine its start-up can take many frames."""
    first = []

    def counted(frame):
        if not sim.panel.lit:
            return False
        if not first:
            first.append(frame)
        return on_frame(frame - first[0])

    return counted


def test_window_front_end(window):
    pygame, run_window, sim = window

    def keys(frame):
        if frame in (10, 20):
            kind = pygame.KEYDOWN if frame == 10 else pygame.KEYUP
            pygame.event.post(pygame.event.Event(kind, key=pygame.K_RIGHT))
        return frame > 25 and "event right release" in sim.console and sim.panel.version > 5

    surface = run_window(sim, scale=2, fps=100, max_frames=6000, on_frame=once_lit(sim, keys))
    assert "event right press" in sim.console and "event right release" in sim.console
    lit = surface.get_at((4 + 2 * 66, 4 + 2 * 30))  # inside the block, moved right by 4
    assert lit.b > 150 and sim.state == "off"


def test_window_taps_quicker_than_a_frame_each_count(window):
    pygame, run_window, sim = window

    def keys(frame):
        if frame == 10:  # three taps, each down and up within one frame
            for _ in range(3):
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT))
                pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_RIGHT))
        return sim.console.count("event right release") == 3

    run_window(sim, scale=2, fps=100, max_frames=6000, on_frame=once_lit(sim, keys))
    assert sim.console.count("event right press") == 3 and sim.console.count("event right release") == 3


def test_until_and_settle_wait_for_the_screen(tmp_path):
    app = tmp_path / "words.py"
    app.write_text(
        "import hw\nfrom ui.font import draw_text\ndevice, error = hw.boot()\n"
        "fb = device.display.fb\nstart = device.ticks_ms()\n"
        "while True:\n"
        "    late = device.ticks_diff(device.ticks_ms(), start) > 700\n"
        "    fb.fill(0)\n"
        "    draw_text(fb, 3, 20, 'Ready' if late else 'Busy')\n"
        "    device.display.show()\n"
        "    device.sleep_ms(20)\n"
    )
    with simulator.SimulatedDevice(I2C_BOARD, app=app) as sim:
        sim.power_on()
        script.run(sim, 'until "Busy"\nuntil "Ready" 2000\nsettle 100\n', tmp_path / "out")
        assert 700 <= sim.now < 1000
        with pytest.raises(script.ScriptError, match="line 1: 'Gone' was not on the screen within 300 ms "
                                                     r"\(the screen then: .*failed-line-1.png\)"):
            script.run(sim, 'until "Gone" 300\n', tmp_path / "out")
        failed = Image.open(tmp_path / "out" / "failed-line-1.png")
        assert failed.tobytes() == sim.image().tobytes()  # the screen at the failure: "Ready"
    with pytest.raises(script.ScriptError, match="line 1: No closing quotation"):
        script.parse('until "Ready', ("a",))
