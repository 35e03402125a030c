"""Time for the simulated Pico: virtual milliseconds with MicroPython's ticks arithmetic.

Ticks wrap at 2**30 ms as on the Pico (start_ticks near the wrap tests code
that forgets ticks_diff). Virtual time moves on when the firmware sleeps,
and by `read_cost_ms` at each ticks_ms() read, so a loop that waits by
watching the clock (a search with a time budget) ends after a fixed,
repeatable number of reads. With a `sync` callback the clock hands control
to the host whenever it reaches `target` (the host's lockstep).
"""

TICKS_PERIOD = 1 << 30
TICKS_MAX = TICKS_PERIOD - 1
_HALF_PERIOD = TICKS_PERIOD // 2


def ticks_diff(end, start):
    return ((end - start + _HALF_PERIOD) & TICKS_MAX) - _HALF_PERIOD


def ticks_add(ticks, delta):
    return (ticks + delta) & TICKS_MAX


class VirtualClock:
    ticks_diff = staticmethod(ticks_diff)
    ticks_add = staticmethod(ticks_add)

    def __init__(self, start_ticks=0, read_cost_ms=1, sync=None):
        self.start = start_ticks
        self.read_cost_ms = read_cost_ms
        self.elapsed = 0  # virtual ms since power-up
        self.target = 0  # with sync: the host wants control back at this time
        self._sync = sync
        self._syncing = False

    def ticks_ms(self):
        # Reads from an interrupt handler the host triggers during a sync see the time as it stands.
        if not self._syncing:
            self.elapsed += self.read_cost_ms
            if self._sync is not None and self.elapsed >= self.target:
                self._hand_over()
        return (self.start + self.elapsed) & TICKS_MAX

    def _hand_over(self):
        self._syncing = True
        try:
            self._sync()
        finally:
            self._syncing = False

    def sleep_ms(self, ms):
        end = self.elapsed + max(0, ms)
        while self._sync is not None and self.target <= end:
            if self.target > self.elapsed:
                self.elapsed = self.target
            self._hand_over()
        self.elapsed = end

    def advance(self, ms):
        """Let `ms` pass from outside (an in-process test's wait)."""
        self.elapsed += ms
