"""Buttons: debounced press and release, auto-repeat on the directions, long press on the others.

poll(now) reads each pin once and returns the events since the last poll as
(name, kind) pairs, kind one of PRESS, REPEAT, LONG, RELEASE:
- a press counts as soon as a poll sees it, unless the button changed less
  than `debounce_ms` ago (contact bounce); a release likewise;
- changes between two polls (a quick tap while the computer thinks, the
  same key tapped twice while a screen redraws or a game is saved) are
  counted by the pin's edge interrupt and reported one a poll, in order:
  two taps between polls are PRESS, RELEASE, PRESS, RELEASE over the next
  four polls; an edge within `debounce_ms` of the last one counted is
  bounce and does not count; a change the count missed (a tap shorter than
  `debounce_ms`, whose release looked like bounce) is taken from the pin's
  level once two polls in a row see it (one could read the pin between its
  edge and its handler), or at the first poll after slept() (the chip slept
  with its GPIO clock stopped, so the interrupt could not count);
- directions held for `repeat_delay_ms` repeat every `repeat_ms`;
- any other button held for `long_ms` reports LONG once, before its RELEASE;
- a button already down when Buttons starts (held through a reset) reports
  nothing until it has been released.
poll() allocates nothing when nothing happened, so it can run often while
the computer thinks.
"""

from othello.compat import const

PRESS = "press"
REPEAT = "repeat"
LONG = "long"
RELEASE = "release"

DIRECTIONS = ("up", "down", "left", "right")
_NO_EVENTS = const(())


class Buttons:
    """`pins` is a list of (name, Pin, level when pressed); `clock` has ticks_ms/ticks_diff/ticks_add.

    With `irq_trigger` (Pin.IRQ_FALLING | Pin.IRQ_RISING), each pin's edge
    interrupt counts the changes that come between two polls. It is a hard
    interrupt: its handler runs at the edge, so it times the edge truly.
    A soft one waits for the interpreter's next bytecode, which viper code,
    a redraw or a flash write hold back for tens or hundreds of ms: a tap's
    two edges then came together and the second looked like bounce. A hard
    handler runs with the heap locked, so it allocates nothing.
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
        self._counted = irq_trigger is not None
        self._edges = bytearray(count)  # changes the interrupt counted (mod 256): written by it alone
        self._seen = bytearray(count)  # ... and those poll() has reported: written by poll() alone
        self._unconfirmed = bytearray(count)  # the level differed from the state at the last poll, uncounted
        self._blind = False  # the chip slept since the last poll: a changed level counts at once
        self._long_sent = bytearray(count)
        settled = clock.ticks_add(clock.ticks_ms(), -debounce_ms)
        self._changed_at = [settled] * count
        self._edge_at = [settled] * count  # when the interrupt last counted an edge
        self._due = [settled] * count  # next REPEAT or the LONG, while held
        if irq_trigger is not None:
            handler = self._count_edge  # one bound method for every pin: no closure and cells per pin
            for pin in self._pins:
                pin.irq(handler=handler, trigger=irq_trigger, hard=True)

    def _count_edge(self, pin):
        index = self._pins.index(pin)
        now = self._clock.ticks_ms()
        if self._clock.ticks_diff(now, self._edge_at[index]) >= self.debounce_ms:
            self._edges[index] = (self._edges[index] + 1) & 0xFF
            self._edge_at[index] = now

    def slept(self):
        """The chip slept with its GPIO clock stopped (lightsleep): the next poll takes a level that changed
        as a press or a release at once, as no edge could be counted."""
        self._blind = True

    def is_down(self, name):
        """The debounced state of a button."""
        return bool(self._down[self.names.index(name)])

    def poll(self, now):
        """Events since the last poll: a list of (name, kind), or () when there are none."""
        events = _NO_EVENTS
        ticks_diff = self._clock.ticks_diff
        for index in range(len(self._pins)):
            # The level first: an edge that comes between the two reads is in the count.
            pressed = self._pins[index].value() == self._active[index]
            edges = self._edges[index]
            if ticks_diff(now, self._changed_at[index]) < self.debounce_ms:
                continue
            if self._held_at_start[index]:
                self._seen[index] = edges
                if not pressed:
                    self._held_at_start[index] = 0
                    self._changed_at[index] = now
                continue
            down = self._down[index]
            change = False
            if edges != self._seen[index]:
                self._seen[index] = (self._seen[index] + 1) & 0xFF
                change = True
            elif pressed != down:
                change = not self._counted or self._blind or self._unconfirmed[index]
            self._unconfirmed[index] = 0 if change else pressed != down
            kind = None
            if not down:
                if change:
                    kind = PRESS
                    self._down[index] = 1
                    self._long_sent[index] = 0
                    self._changed_at[index] = now
                    wait = self.repeat_delay_ms if self._repeats[index] else self.long_ms
                    self._due[index] = self._clock.ticks_add(now, wait)
            elif change:
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
        self._blind = False
        return events
