"""Buttons: debounced press and release, auto-repeat on the directions, long press on the others.

poll(now) reads each pin once and returns the events since the last poll as
(name, kind) pairs, kind one of PRESS, REPEAT, LONG, RELEASE:
- a press counts as soon as a poll sees it, unless the button changed less
  than `debounce_ms` ago (contact bounce); a release likewise;
- a press and release that both happen between two polls (a quick tap while
  the computer thinks) are caught by the pin's edge interrupt and reported
  as a PRESS, then a RELEASE at the next poll; so are a release and a new
  press between two polls (the same key tapped again while a screen
  redraws): a RELEASE, then a PRESS at the next poll; edges within
  `debounce_ms` of the last change are bounce and do not count;
- directions held for `repeat_delay_ms` repeat every `repeat_ms`;
- any other button held for `long_ms` reports LONG once, before its RELEASE;
- a button already down when Buttons starts (held through a reset) reports
  nothing until it has been released.
poll() allocates nothing when nothing happened, so it can run often while
the computer thinks.
"""

PRESS = "press"
REPEAT = "repeat"
LONG = "long"
RELEASE = "release"

DIRECTIONS = ("up", "down", "left", "right")
_NO_EVENTS = ()


def _latch(latched, edge_at, index, ticks_ms):
    def on_edge(pin):
        latched[index] = 1
        edge_at[index] = ticks_ms()

    return on_edge


class Buttons:
    """`pins` is a list of (name, Pin, level when pressed); `clock` has ticks_ms/ticks_diff/ticks_add.

    With `irq_trigger` (Pin.IRQ_FALLING | Pin.IRQ_RISING), each pin's edge
    interrupt latches taps shorter than the time between two polls.
    """

    def __init__(self, pins, clock, irq_trigger=None, debounce_ms=25, repeat_delay_ms=400, repeat_ms=120, long_ms=700):
        self.names = tuple(name for name, _, _ in pins)
        self.debounce_ms = debounce_ms
        self.repeat_delay_ms = repeat_delay_ms
        self.repeat_ms = repeat_ms
        self.long_ms = long_ms
        self._pins = [pin for _, pin, _ in pins]
        self._active = [level for _, _, level in pins]
        self._repeats = [name in DIRECTIONS for name in self.names]
        self._clock = clock
        count = len(pins)
        self._down = bytearray(count)
        self._held_at_start = bytearray(1 if pin.value() == level else 0 for _, pin, level in pins)
        self._latched = bytearray(count)
        self._long_sent = bytearray(count)
        settled = clock.ticks_add(clock.ticks_ms(), -debounce_ms)
        self._changed_at = [settled] * count
        self._edge_at = [settled] * count  # when the interrupt last saw an edge
        self._due = [settled] * count  # next REPEAT or the LONG, while held
        if irq_trigger is not None:
            for index in range(count):
                handler = _latch(self._latched, self._edge_at, index, clock.ticks_ms)
                self._pins[index].irq(handler=handler, trigger=irq_trigger)

    def is_down(self, name):
        """The debounced state of a button."""
        return bool(self._down[self.names.index(name)])

    def poll(self, now):
        """Events since the last poll: a list of (name, kind), or () when there are none."""
        events = _NO_EVENTS
        ticks_diff = self._clock.ticks_diff
        for index in range(len(self._pins)):
            pressed = self._pins[index].value() == self._active[index]
            latched = self._latched[index]
            self._latched[index] = 0
            changed_at = self._changed_at[index]
            if ticks_diff(now, changed_at) < self.debounce_ms:
                continue
            if latched and ticks_diff(self._edge_at[index], changed_at) < self.debounce_ms:
                latched = 0  # the bounce of the last change
            if self._held_at_start[index]:
                if not pressed:
                    self._held_at_start[index] = 0
                    self._changed_at[index] = now
                continue
            kind = None
            if not self._down[index]:
                if pressed or latched:
                    kind = PRESS
                    self._down[index] = 1
                    self._long_sent[index] = 0
                    self._changed_at[index] = now
                    wait = self.repeat_delay_ms if self._repeats[index] else self.long_ms
                    self._due[index] = self._clock.ticks_add(now, wait)
            elif not pressed or latched:  # latched while still down: released and pressed again since
                kind = RELEASE
                self._down[index] = 0
                self._changed_at[index] = now
            elif ticks_diff(now, self._due[index]) >= 0:
                if self._repeats[index]:
                    kind = REPEAT
                    self._due[index] = self._clock.ticks_add(now, self.repeat_ms)
                elif not self._long_sent[index]:
                    kind = LONG
                    self._long_sent[index] = 1
            if kind is not None:
                if events is _NO_EVENTS:
                    events = []
                events.append((self.names[index], kind))
        return events
