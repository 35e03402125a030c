"""The terminal front end: the panel in unicode half blocks, the keyboard as the buttons.

Keys: arrows = d-pad, Enter / Z / space = A, Esc / X / Backspace = B,
M = menu (a long press of A on boards without a menu button), Q or Ctrl-C
(read as a key, not a signal) quits. On a board with a battery gauge, v and
V lower and raise the simulated cells' voltage by 0.05 V and u plugs or
pulls the USB cable (docs/POWER.md); the status line shows the supply. The buzzer shows as a note (NOTE) at
the start of the status line while it sounds: a terminal bell for every
click would be noise. When the device switches itself off (auto-off), the
status line says so (ASLEEP) until a key wakes it. A terminal reports key presses but no releases, so
each key press is one tap of the button (presses.py queues them, so quick
taps all count); the same key again within REPEAT_GAP_S, with no other key
between, is the terminal repeating a held key, and keeps the button down
instead.
"""

import os
import select
import sys
import termios
import time
import tty

from .presses import PRESS_MS, PressQueue
from .render import half_blocks
from .simulated import SimulatorError

LONG_PRESS_MS = 800
REPEAT_GAP_S = 0.06  # a terminal repeats a held key every 30-50 ms; nobody taps a key 16 times a second
REPEAT_HOLD_S = 0.1  # how long one repeat keeps the button down: until the next repeat is due
FRAME_S = 1 / 30
NOTE = "\u266a"
NOTE_SHOWN_S = 0.15  # long enough to see a click of 25 ms
ASLEEP = "switched off: the device sleeps, any key wakes it"  # auto-off (docs/POWER.md)

_KEYS = {
    b"\x1b[A": "up", b"\x1bOA": "up",
    b"\x1b[B": "down", b"\x1bOB": "down",
    b"\x1b[C": "right", b"\x1bOC": "right",
    b"\x1b[D": "left", b"\x1bOD": "left",
    b"\r": "a", b"\n": "a", b"z": "a", b"Z": "a", b" ": "a",
    b"\x1b": "b", b"x": "b", b"X": "b", b"\x7f": "b", b"\x08": "b",
    b"m": "menu", b"M": "menu",
    b"q": "quit", b"Q": "quit", b"\x03": "quit",
    b"v": "drain", b"V": "charge", b"u": "usb", b"U": "usb",
}
SUPPLY_KEYS = ("drain", "charge", "usb")


def decode_keys(data):
    """The keys in a chunk of terminal input: button names and "quit", in order; other keys are skipped."""
    data = bytes(data)
    keys = []
    index = 0
    while index < len(data):
        if data[index : index + 1] == b"\x1b" and data[index + 1 : index + 2] in (b"[", b"O"):
            # An escape sequence: ESC, [ or O, parameters, then a final byte from @ to ~.
            end = index + 2
            while end < len(data) and not 0x40 <= data[end] <= 0x7E:
                end += 1
            name = _KEYS.get(data[index : end + 1])
            index = end + 1
        else:
            name = _KEYS.get(data[index : index + 1])
            index += 1
        if name is not None:
            keys.append(name)
    return keys


def frame_text(rows, brightness, status):
    """One screenful: the panel (OLED-tinted half blocks) and a status line, as terminal output."""
    level = max(0.0, min(1.0, brightness))
    fg = "\x1b[38;2;%d;%d;%dm" % tuple(int(10 + (c - 10) * level) for c in (140, 215, 255))
    bg = "\x1b[48;2;10;12;16m"
    lines = [bg + fg + line + "\x1b[0m" for line in half_blocks(rows)]
    return "\x1b[H" + "\r\n".join(lines) + "\r\n\x1b[2K" + status


class _Keyboard:
    """Turns key presses into button taps, in order; a key the terminal repeats keeps its button down."""

    def __init__(self, sim):
        self.queue = PressQueue(sim)
        self.buttons = self.queue.buttons
        self.last = (None, 0.0)  # the last key that came, and when

    def keys(self, names, now):
        """The keys of one read from the terminal, at `now` (s). Keys that came together were typed or
        pasted together: each is a tap. A key that comes alone, soon after the same key with no other key
        between, is a repeat (a terminal repeats only the key held last). Repeats that a busy moment let
        pile up into one read stay repeats: the same key again right after a repeat is one too."""
        seen = set()
        repeating = False  # the key just before, in this read, was a repeat
        for key in names:
            if key == "menu" and "menu" not in self.buttons:
                name, hold = "a", LONG_PRESS_MS
            else:
                name, hold = key, PRESS_MS
            if name not in self.buttons:
                continue
            repeat = (key not in seen or repeating) and self.last[0] == key and now - self.last[1] < REPEAT_GAP_S
            repeating = repeat
            self.last = (key, now)
            seen.add(key)
            if not (repeat and self.queue.hold_on(name, now + REPEAT_HOLD_S)):
                self.queue.tap(name, hold)

    def tick(self, now):
        self.queue.tick(now)


def _check_terminal():
    """(None, columns) for a terminal that can show the panel, else (why not, 0)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        which = " and ".join(name for name, stream in (("input", sys.stdin), ("output", sys.stdout)) if not stream.isatty())
        return (
            "the terminal front end needs a terminal, and its %s is not one (piped or redirected?); "
            "use --window, or --headless SCRIPT for screenshots" % which
        ), 0
    columns, lines = os.get_terminal_size(sys.stdout.fileno())  # the terminal's own size, not $COLUMNS
    if columns < 128 or lines < 34:
        return "the terminal must be at least 128 x 34 characters to show the 128x64 panel (it is %d x %d)" % (columns, lines), 0
    return None, columns


def run_terminal(sim):
    """Play on this terminal until Q; `sim` is a SimulatedDevice in real time, not yet powered on.

    Raises SimulatorError, saying why and with the firmware's last output, if the firmware stops."""
    problem, columns = _check_terminal()
    if problem:
        raise SystemExit(problem)
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    out = sys.stdout
    keyboard = _Keyboard(sim)
    legend = "  ".join(
        text for name, text in (("up", "arrows"), ("a", "Enter/Z=A"), ("b", "Esc/X=B"), ("menu", "M=menu")) if name in keyboard.buttons
    )
    if "menu" not in keyboard.buttons:
        legend += "  M=hold A"
    supplied = sim.config.battery is not None and hasattr(sim, "change_supply")  # (not yet on an emulated Pico)
    if supplied:
        legend += "  v/V=battery  u=USB"
    try:
        tty.setcbreak(fd)
        mode = termios.tcgetattr(fd)
        mode[3] &= ~termios.ISIG  # Ctrl-C is a key that quits, not a signal to this and the firmware process
        termios.tcsetattr(fd, termios.TCSANOW, mode)
        out.write("\x1b[?1049h\x1b[?25l\x1b[2J")
        sim.power_on()
        shown = None
        title = "%s  |  %s  Q=quit" % (sim.config.name, legend)
        status = "%s  |  %s" % (sim.supply_text(), title) if supplied else title
        heard = 0  # buzzer log entries seen
        note_until = 0.0
        quitting = False
        while not quitting and sim.poll() == "running":
            ready, _, _ = select.select([fd], [], [], FRAME_S)
            now = time.monotonic()
            if ready:
                keys = decode_keys(os.read(fd, 64))
                if "quit" in keys:
                    quitting = True
                    keys = keys[: keys.index("quit")]
                for key in keys:
                    if key in SUPPLY_KEYS and supplied:
                        sim.change_supply(key)
                        status = "%s  |  %s" % (sim.supply_text(), title)
                        shown = None
                keyboard.keys([key for key in keys if key not in SUPPLY_KEYS], now)
            keyboard.tick(now)
            log = sim.hardware.buzzer_log
            if any(freq for _, freq in log[heard:]) or (log and log[-1][1]):
                note_until = now + NOTE_SHOWN_S
            heard = len(log)
            asleep = getattr(sim, "dormant", False)
            view = (sim.panel.version, now < note_until, asleep)
            if view != shown:
                shown = view
                line = (NOTE if view[1] else " ") + " " + (ASLEEP + "  |  " if asleep else "") + status
                out.write(frame_text(sim.screen(), sim.panel.brightness(), line[:columns]))
                out.flush()
        failure = sim.failure()
    finally:
        out.write("\x1b[0m\x1b[?25h\x1b[?1049l")
        out.flush()
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        sim.close()
    if failure:
        raise SimulatorError(failure)
    if sim.console.strip():
        sys.stderr.write(sim.console[-4000:])
