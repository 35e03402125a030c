"""Key presses to button presses, one for one, in order: the front ends' queue.

A key can come and go faster than the firmware can see it: a tap shorter
than the buttons' debounce (25 ms, firmware/hw/buttons.py) or two taps
closer than that would merge or vanish. So the front ends queue the level
changes they want, and each change waits until the previous one has lasted
long enough to be read: a press at least PRESS_MS, a release at least
GAP_MS, on the clock the firmware reads (an emulated Pico runs slower than
the wall clock). Ten taps a second, faster than anyone taps, all come through.
Keys pressed while the firmware starts (it reads no buttons until its main
loop runs) wait in the queue until it does: a player who types at once
sees every press take effect.
"""

PRESS_MS = 50
GAP_MS = 50


class PressQueue:
    """Button changes for a SimulatedDevice (or anything with press/release), played in order at a readable pace."""

    def __init__(self, sim):
        self.sim = sim
        self.buttons = set(sim.hardware.buttons)
        self.steps = []  # [name, pressed, ms the new level lasts at least, not before (s)]
        self.down = set()
        self.ready_at = 0.0  # when the last change has lasted long enough for the next (sim.input_clock())

    def change(self, name, pressed, lasting_ms=None):
        """Queue a press (kept at least lasting_ms, PRESS_MS by default) or a release of a button the board has."""
        if name not in self.buttons:
            return
        if lasting_ms is None:
            lasting_ms = PRESS_MS if pressed else GAP_MS
        self.steps.append([name, pressed, lasting_ms, 0.0])

    def tap(self, name, hold_ms=PRESS_MS):
        self.change(name, True, hold_ms)
        self.change(name, False)

    def hold_on(self, name, until):
        """Keep the button's coming or current press down until `until` (s): True if it has one to keep."""
        for step in reversed(self.steps):
            if step[0] == name:
                if step[1]:
                    return False
                step[3] = max(step[3], until)
                return True
        return False

    def tick(self, now):
        """Make every change that is due at `now` (monotonic seconds) and that the firmware can read now."""
        while self.steps and now >= self.steps[0][3] and self.sim.reading_buttons():
            clock = self.sim.input_clock()
            if clock < self.ready_at:
                break
            name, pressed, lasting_ms, _ = self.steps.pop(0)
            if pressed == (name in self.down):
                continue
            if pressed:
                self.sim.press(name)
                self.down.add(name)
            else:
                self.sim.release(name)
                self.down.discard(name)
            self.ready_at = clock + lasting_ms / 1000
