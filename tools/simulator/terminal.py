"""The terminal front end: the panel in unicode half blocks, the keyboard as the buttons.

Keys: arrows = d-pad, Enter / Z / space = A, Esc / X / Backspace = B,
M = menu (a long press of A on boards without a menu button), Q or Ctrl-C
quits. A terminal reports key presses but no releases, so a key press is a
button press of PRESS_MS (kept down while the terminal repeats the key).
"""

import os
import select
import shutil
import sys
import termios
import time
import tty

from .render import half_blocks

PRESS_MS = 150
LONG_PRESS_MS = 800
FRAME_S = 1 / 30

_KEYS = {
    b"\x1b[A": "up", b"\x1bOA": "up",
    b"\x1b[B": "down", b"\x1bOB": "down",
    b"\x1b[C": "right", b"\x1bOC": "right",
    b"\x1b[D": "left", b"\x1bOD": "left",
    b"\r": "a", b"\n": "a", b"z": "a", b"Z": "a", b" ": "a",
    b"\x1b": "b", b"x": "b", b"X": "b", b"\x7f": "b", b"\x08": "b",
    b"m": "menu", b"M": "menu",
    b"q": "quit", b"Q": "quit", b"\x03": "quit",
}


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
    """Turns key presses into button presses held for PRESS_MS, prolonged while the key repeats."""

    def __init__(self, sim):
        self.sim = sim
        self.buttons = set(sim.hardware.buttons)
        self.release_at = {}

    def key(self, name, now):
        if name == "menu" and "menu" not in self.buttons:
            name, hold = "a", LONG_PRESS_MS
        else:
            hold = PRESS_MS
        if name not in self.buttons:
            return
        if name not in self.release_at:
            self.sim.press(name)
        self.release_at[name] = max(self.release_at.get(name, 0), now + hold / 1000)

    def tick(self, now):
        for name, when in list(self.release_at.items()):
            if now >= when:
                self.sim.release(name)
                del self.release_at[name]


def run_terminal(sim):
    """Play on this terminal until Q; `sim` is a SimulatedDevice in real time, not yet powered on."""
    columns, lines = shutil.get_terminal_size()
    if columns < 128 or lines < 34:
        raise SystemExit("the terminal must be at least 128 x 34 characters to show the 128x64 panel (it is %d x %d)" % (columns, lines))
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    out = sys.stdout
    keyboard = _Keyboard(sim)
    legend = "  ".join(
        text for name, text in (("up", "arrows"), ("a", "Enter/Z=A"), ("b", "Esc/X=B"), ("menu", "M=menu")) if name in keyboard.buttons
    )
    if "menu" not in keyboard.buttons:
        legend += "  M=hold A"
    try:
        tty.setcbreak(fd)
        out.write("\x1b[?1049h\x1b[?25l\x1b[2J")
        sim.power_on()
        shown = None
        while True:
            ready, _, _ = select.select([fd], [], [], FRAME_S)
            now = time.monotonic()
            if ready:
                for key in decode_keys(os.read(fd, 64)):
                    if key == "quit":
                        return
                    keyboard.key(key, now)
            keyboard.tick(now)
            state = (sim.panel.version, sim.state)
            if state != shown:
                shown = state
                status = "%s  |  %s  Q=quit%s" % (sim.config.name, legend, "" if sim.state == "running" else "  [firmware %s]" % sim.state)
                out.write(frame_text(sim.screen(), sim.panel.brightness(), status[:columns]))
                out.flush()
    finally:
        out.write("\x1b[0m\x1b[?25h\x1b[?1049l")
        out.flush()
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        sim.close()
        if sim.console.strip():
            sys.stderr.write(sim.console[-4000:])
