"""A small fake device for UI tests, following the hardware layer's contract (firmware/hw/__init__.py).

Runs under CPython and MicroPython: `framebuf` is MicroPython's own module
there, and on CPython the simulator's faithful port (ui_harness loads it).
Buttons are a queue of (name, kind) events delivered one per poll, sound is
recorded, storage is a dict, and time is virtual: it moves only when the
firmware sleeps.
"""

import framebuf

from ui import keys


class FakeDisplay:
    def __init__(self, width=128, height=64):
        self.width = width
        self.height = height
        self.buffer = bytearray(width * height // 8)
        self.fb = framebuf.FrameBuffer(self.buffer, width, height, framebuf.MONO_VLSB)
        self.shown = bytes(self.buffer)
        self.frames = 0
        self.contrast_level = 255
        self.on = True
        self.inverted = False

    def show(self):
        self.shown = bytes(self.buffer)
        self.frames += 1

    def contrast(self, level):
        self.contrast_level = level

    def power(self, on):
        self.on = bool(on)

    def invert(self, inverted):
        self.inverted = bool(inverted)


class FakeButtons:
    """Delivers queued (name, kind) events one per poll, as a debouncer would over time.

    press_at() schedules a press for a moment of virtual time, ahead of the
    queue: to test what happens while the computer thinks.
    """

    def __init__(self, names=("up", "down", "left", "right", "a", "b", "menu")):
        self.names = tuple(names)
        self.queue = []
        self.timed = []  # (not before ms, name, kind)
        self.polls = 0

    def poll(self, now_ms):
        self.polls += 1
        if self.timed and self.timed[0][0] <= now_ms:
            _, name, kind = self.timed.pop(0)
            return [(name, kind)]
        if self.queue:
            return [self.queue.pop(0)]
        return []

    def press(self, name, times=1):
        for _ in range(times):
            self.queue += [(name, keys.PRESS), (name, keys.RELEASE)]

    def press_at(self, ms, name):
        self.timed += [(ms, name, keys.PRESS), (ms, name, keys.RELEASE)]
        self.timed.sort()

    def hold(self, name):
        self.queue += [(name, keys.PRESS), (name, keys.LONG), (name, keys.RELEASE)]


class FakeSound:
    def __init__(self):
        self.played = []
        self.enabled = True

    def tone(self, freq, ms):
        self.played.append(((freq, ms),))

    def play(self, tune):
        self.played.append(tuple(tune))

    def update(self, now_ms):
        pass

    def stop(self):
        pass


class FakeStorage:
    def __init__(self, files=None):
        self.files = dict(files or {})

    def read(self, name):
        return self.files.get(name)

    def write_atomic(self, name, data):
        self.files[name] = bytes(data)

    def remove(self, name):
        self.files.pop(name, None)

    def names(self):
        return sorted(self.files)


class Reset(BaseException):
    """Raised by the fake device's reset(), which on the Pico never returns."""


class FakeDevice:
    def __init__(self, buttons=None, storage=None):
        self.display = FakeDisplay()
        self.buttons = FakeButtons(buttons) if buttons else FakeButtons()
        self.sound = FakeSound()
        self.storage = storage if storage is not None else FakeStorage()
        self.now = 0
        self.resets = 0

    def ticks_ms(self):
        return self.now

    def sleep_ms(self, ms):
        self.now += ms

    def reset(self):
        self.resets += 1
        raise Reset()
