"""The battery gauge: what a reading of VSYS means for the player, and the small picture of it.

    gauge = Gauge(spec, read, ticks_diff, ticks_add)  # spec: the board's BatterySpec; read() -> (volts or None, usb)
    event = gauge.update(now)                # when gauge.due(now): None, LOW (warn, once) or EMPTY (save, stop)
    gauge.level                              # percent left (0-100), USB or _UNKNOWN
    gauge.draw(fb, x, y, colour)              # gauge.width() pixels wide, 7 high

It reads nothing itself: the hardware layer's read() does (hw/battery.py),
so this logic runs the same in the tests. docs/POWER.md has the thresholds
and the reasons for them.
"""

from othello.compat import const
from ui import gfx, keys
from ui.font import draw_columns
from ui.screen import Screen

USB = -1  # gauge.level when USB powers the board
_UNKNOWN = const(-2)  # no plausible reading yet: shown as "?", never a warning
LOW = 1
EMPTY = 2

_READ_EVERY_MS = const(4000)  # the ADC is read between frames this often (never during a search)
_CONFIRM_MS = const(500)  # a reading past a threshold is checked again this soon, before it counts
_CONFIRMATIONS = const(2)  # readings in a row past a threshold: a single dip (the buzzer, a flash write) is not one
_REARM_MV = const(150)  # the warning comes again only after the cells recovered this far above "low" (fresh cells)
# The Pico's regulator runs from 1.8 V to 5.5 V at VSYS: a running Pico cannot read less than the first,
# and more than the second would have destroyed it. Past either, the reading is wrong, not the battery.
_PLAUSIBLE_V = const((1.5, 5.5))
_ABOVE_FULL_MV = const(600)  # cells cannot give more than full by this much: such a reading is wrong too

_BODY_W = const(9)  # the battery picture: a 9 x 7 outline, a 2 x 3 terminal, 7 x 5 inside
_PICTURE_W = const(11)
# "USB" and "?" in letters 3 x 5, as column bytes (bit 0 on top): as wide and high as the battery picture,
# so they sit beside a title or the thinking indicator without reading as part of it.
_USB = const(b"\x1f\x10\x1f\x00\x17\x15\x1d\x00\x1f\x15\x0a")
_QUERY = const(b"\x01\x15\x02")


class Gauge:
    def __init__(self, spec, read, ticks_diff, ticks_add):
        self.read = read
        self.ticks_diff = ticks_diff
        self.ticks_add = ticks_add
        self.full = spec.full
        self.low = spec.low
        self.empty = spec.empty
        self.curve = spec.curve
        self.level = _UNKNOWN
        self.warned = False
        self.below_low = 0
        self.below_empty = 0
        self.next_at = None  # ticks_ms of the next reading; None: at once

    def due(self, now):
        return self.next_at is None or self.ticks_diff(now, self.next_at) >= 0

    def update(self, now):
        """Take a reading; returns LOW the first time the cells are low (again only after they recovered),
        EMPTY while they are empty, else None. Neither comes from a reading that is not plausible."""
        volts, usb = self.read()
        wait = _READ_EVERY_MS
        event = None
        if usb:
            self.level = USB
            self.below_low = self.below_empty = 0
            self.warned = False  # on USB the cells are no concern; unplugged and low, they warn again
        elif volts is None or not _PLAUSIBLE_V[0] <= volts <= _PLAUSIBLE_V[1] or volts > self.full + _ABOVE_FULL_MV / 1000:
            self.level = _UNKNOWN
            self.below_low = self.below_empty = 0
        else:
            self.level = self.percent(volts)
            self.below_empty = self.below_empty + 1 if volts <= self.empty else 0
            self.below_low = self.below_low + 1 if volts <= self.low else 0
            if volts >= self.low + _REARM_MV / 1000:
                self.warned = False
            if self.below_empty >= _CONFIRMATIONS:
                event = EMPTY
            elif self.below_low >= _CONFIRMATIONS and not self.warned:
                self.warned = True
                event = LOW
            elif self.below_low or self.below_empty:
                wait = _CONFIRM_MS
        self.next_at = self.ticks_add(now, wait)
        return event

    def percent(self, volts):
        """Percent left at `volts`, on the chemistry's discharge curve stretched from empty to full."""
        share = (volts - self.empty) / (self.full - self.empty)
        curve = self.curve
        if share <= curve[0][0]:
            return curve[0][1]
        for (x0, p0), (x1, p1) in zip(curve, curve[1:]):
            if share <= x1:
                return int(p0 + (p1 - p0) * (share - x0) / (x1 - x0) + 0.5)
        return curve[-1][1]

    # ----- the picture ---------------------------------------------------------------------------

    def width(self):
        return _PICTURE_W + 1 + len(_QUERY) if self.level == _UNKNOWN else _PICTURE_W

    def draw(self, fb, x, y, colour=1):
        """The level at (x, y), 7 pixels high: a battery filled as far as the cells are, "USB", or an
        empty battery and "?"."""
        if self.level == USB:
            draw_columns(fb, _USB, 0, len(_USB), x, y + 1, colour)
            return
        fb.rect(x, y, _BODY_W, 7, colour)
        fb.fill_rect(x + _BODY_W, y + 2, _PICTURE_W - _BODY_W, 3, colour)
        if self.level == _UNKNOWN:
            draw_columns(fb, _QUERY, 0, len(_QUERY), x + _PICTURE_W + 1, y + 1, colour)
            return
        lit = (self.level * (_BODY_W - 2) + 50) // 100
        if lit:
            fb.fill_rect(x + 1, y + 1, lit, 5, colour)


class EmptyScreen(Screen):
    """What stays up once the cells are empty: the game is saved, nothing more is written or searched.
    On USB power (a cable plugged in), A restarts the device."""

    def handle(self, action):
        if action == keys.OK and self.app.gauge.level == USB:
            self.app.device.reset()

    def draw(self, fb):
        usb = self.app.gauge.level == USB
        gfx.message(fb, "Battery empty", "The game is saved. Fit fresh cells or plug in USB to go on.",
                    self.app.keymap.label(keys.OK) + ": restart" if usb else "switch off")
