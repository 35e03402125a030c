"""firmware/hw under both MicroPython interpreters: the same bus bytes, button events and tones as on CPython.

Hardware is faked at the lowest level (a bus that records, pins whose level
a script sets, a clock the script moves), so the check covers the drivers'
and the logic's code on the 32-bit WASI build too, which has no machine module.
"""

import simulator

simulator.install_standins()  # CPython's framebuf is the stand-in

PROGRAM = """
import hw
from hw.buttons import Buttons
from hw.display import Display, I2CLink, SPILink
from hw.sound import Sound

class Clock:
    def __init__(self):
        self.now = 1000
    def ticks_ms(self):
        return self.now
    def ticks_diff(self, a, b):
        return a - b
    def ticks_add(self, t, d):
        return t + d
    def sleep_ms(self, ms):
        self.now += ms

try:
    from micropython import heap_lock, heap_unlock
except ImportError:  # CPython: nothing to lock
    heap_lock = heap_unlock = lambda: None

class Bus:
    def __init__(self, log):
        self.log = log
    def writeto(self, address, data):
        self.log.append("i2c %02x %s" % (address, "".join("%02x" % b for b in data)))
    def write(self, data):
        self.log.append("spi %s" % "".join("%02x" % b for b in data))

class Pin:
    def __init__(self, log, name, level=1):
        self.log, self.name, self.level, self.handler = log, name, level, None
    def __call__(self, level=None):
        if level is None:
            return self.level
        self.log.append("%s=%d" % (self.name, level))
    value = __call__
    def irq(self, handler=None, trigger=0, hard=False):
        self.handler, self.hard = handler, hard
    def set(self, level):
        if level != self.level:
            self.level = level
            if self.handler:
                # a hard interrupt's handler runs with the heap locked: an allocation there is a MemoryError
                if self.hard:
                    heap_lock()
                try:
                    self.handler(self)
                finally:
                    if self.hard:
                        heap_unlock()

class PWM:
    def __init__(self, log, clock):
        self.log, self.clock = log, clock
    def freq(self, hz):
        self.log.append("%d freq %d" % (self.clock.now, hz))
    def duty_u16(self, duty):
        self.log.append("%d duty %d" % (self.clock.now, duty))

def displays():
    for controller, addressing, rotation in (("ssd1306", "horizontal", 0), ("ssd1306", "page", 180), ("sh1106", "page", 0)):
        log = []
        clock = Clock()
        for link in (I2CLink(Bus(log), 0x3C), SPILink(Bus(log), Pin(log, "dc"), Pin(log, "cs"))):
            display = Display(link, controller, rotation, addressing, Pin(log, "res"), clock.sleep_ms)
            fb = display.fb
            fb.fill(0)
            fb.rect(1, 2, 100, 50, 1)
            fb.line(0, 63, 127, 0, 1)
            fb.ellipse(64, 32, 20, 12, 1, True)
            display.show()
            display.contrast(300)
            display.invert(True)
            display.power(False)
            display.rotate(0)
        print(controller, addressing, rotation, "|".join(log))

def buttons():
    clock = Clock()
    log = []
    pins = [Pin(log, "up"), Pin(log, "a"), Pin(log, "b", 0)]
    keys = Buttons([("up", pins[0], 0), ("a", pins[1], 0), ("b", pins[2], 0)], clock, irq_trigger=12)
    script = [(10, 0, 0), (12, 0, 1), (13, 0, 0), (900, 0, 1), (1000, 1, 0), (1030, 1, 1), (1200, 2, 1), (1300, 1, 0), (2200, 1, 1)]
    for t in range(0, 2400, 10):
        for when, index, level in script:
            if t - 10 < when <= t:
                pins[index].set(level)
        clock.now = 1000 + t
        for name, kind in keys.poll(clock.now):
            print(t, name, kind)

def sound():
    clock = Clock()
    log = []
    sound = Sound(PWM(log, clock), clock)
    sound.play(((440, 100), (0, 30), (880, 60)))
    for t in range(0, 300, 7):
        clock.now = 1000 + t
        sound.update(clock.now)
    sound.enabled = False
    sound.tone(1000, 10)
    print(" ".join(log))

displays()
buttons()
sound()
"""


def _run_here():
    lines = []
    scope = {"print": lambda *args: lines.append(" ".join(str(a) for a in args))}
    exec(compile(PROGRAM, "hw_program", "exec"), scope)
    return lines


def test_hw_code_behaves_the_same_under_micropython(micropython):
    expected = _run_here()
    assert expected[3:] != [] and any("long" in line for line in expected)
    assert micropython(PROGRAM, heap="1M").splitlines() == expected
