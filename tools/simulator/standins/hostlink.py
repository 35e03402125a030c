"""The firmware process's side of the simulator: a board (see machine.py) that is a pipe to the host.

Runs under MicroPython's unix port and under CPython. Records to the host
go to stdout, each a RECORD byte, a header line and, for bus traffic, that
many payload bytes; anything else on stdout is the firmware's own output:
    I scl sda address n   + n bytes   an I2C write the display acknowledged
    S sck mosi n          + n bytes   an SPI write
    U tx n                + n bytes   a UART sent these bytes from GPIO tx
    O gpio level|-                    an output pin changed (D/C, CS, RES)
    P ms gpio freq duty               the PWM on a pin changed
    F ms op path                      a step that changes the flash
    Y ms                              lockstep: time reached the target, waiting
    X ms                              machine.reset()
    Z ms asleep|awake                 the chip stopped its crystal (switched off) or woke
    C ms op path                      the power was cut before this flash step
    E status                          the firmware's main script ended
Commands from the host, one line each on stdin:
    L gpio 0|1|-     the level the board drives on a pin (- lets go)
    A gpio mV        the voltage on an ADC pin, in millivolts
    B gpio hex       these bytes (in hex) arrive on a UART's RX pin
    R ms             lockstep: run until virtual time ms
    C steps          cut the power at the steps-th flash step from now (0 disarms)
    Q                quit
In lockstep the clock is virtual (simclock.py) and commands are read while
the firmware waits for the host; in real time the clock is the host's and
commands are picked up whenever the firmware reads the clock or sleeps.
"""

import binascii
import select
import sys
import time

import machine
from simclock import TICKS_MAX, VirtualClock, ticks_add, ticks_diff
from simflash import FlashFiles

RECORD = b"\x1e"


def _now_ms():
    if hasattr(time, "ticks_ms"):
        return time.ticks_ms()
    return int(time.monotonic() * 1000) & TICKS_MAX


class RealtimeClock:
    ticks_diff = staticmethod(ticks_diff)
    ticks_add = staticmethod(ticks_add)

    def __init__(self, link):
        self._link = link
        self._origin = _now_ms()

    @property
    def elapsed(self):
        return ticks_diff(_now_ms(), self._origin)

    def ticks_ms(self):
        self._link.take_commands(0)
        return _now_ms()

    def sleep_ms(self, ms):
        end = ticks_add(_now_ms(), max(0, ms))
        while True:
            left = ticks_diff(end, _now_ms())
            if left <= 0:
                return
            self._link.take_commands(left)


class HostLink:
    def __init__(self, realtime, read_cost_ms, start_ticks, i2c_devices):
        self._out = sys.stdout.buffer
        self._flush = getattr(self._out, "flush", None)
        stream = sys.stdin.buffer
        self._in = getattr(stream, "raw", stream)  # unbuffered, so select() sees what is unread
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self.i2c_devices = i2c_devices  # (scl, sda, address) of each display on I2C
        self.cut_in = 0
        if realtime:
            self.clock = RealtimeClock(self)
        else:
            self.clock = VirtualClock(start_ticks, read_cost_ms, sync=self.sync)
        self.files = FlashFiles("", self.flash_step)

    def send(self, header, payload=b""):
        self._out.write(RECORD + header.encode() + b"\n" + payload)
        if self._flush is not None:
            self._flush()

    # --- the board, as machine.py calls it ---

    def output(self, gpio, level):
        self.send("O %d %s" % (gpio, "-" if level is None else level))

    def i2c_write(self, scl, sda, address, data):
        acknowledged = (scl, sda, address) in self.i2c_devices
        if acknowledged and data:
            self.send("I %d %d %d %d" % (scl, sda, address, len(data)), data)
        return acknowledged

    def spi_write(self, sck, mosi, data):
        self.send("S %d %d %d" % (sck, mosi, len(data)), data)

    def uart_write(self, tx, data):
        self.send("U %d %d" % (tx, len(data)), data)

    def pwm(self, gpio, freq, duty):
        self.send("P %d %d %d %d" % (self.clock.elapsed, gpio, freq, duty))

    def reset(self):
        self.send("X %d" % self.clock.elapsed)
        self.halt()

    def dormant(self, woken):
        """The crystal stopped until a wake pin has its level: the host hears of it, its keys wake it."""
        self.send("Z %d asleep" % self.clock.elapsed)
        while not woken():
            self.clock.sleep_ms(10)
        self.send("Z %d awake" % self.clock.elapsed)

    def flash_step(self, op, path):
        if self.cut_in:
            self.cut_in -= 1
            if not self.cut_in:
                self.send("C %d %s %s" % (self.clock.elapsed, op, path))
                self.halt()
        self.send("F %d %s %s" % (self.clock.elapsed, op, path))

    # --- commands from the host ---

    def halt(self):
        """Stop dead (power cut, reset): wait for the host to end this process."""
        while self._in.readline():
            pass
        sys.exit(0)

    def _command(self, line):
        words = line.split()
        if not words:
            return
        kind = words[0]
        if kind == b"L":
            machine.set_external(int(words[1]), None if words[2] == b"-" else int(words[2]))
        elif kind == b"A":
            machine.set_analog(int(words[1]), int(words[2]) / 1000)
        elif kind == b"B":
            machine.uart_receive(int(words[1]), binascii.unhexlify(words[2]))
        elif kind == b"R":
            self.clock.target = int(words[1])
        elif kind == b"C":
            self.cut_in = int(words[1])
        elif kind == b"Q":
            sys.exit(0)

    def _read_command(self):
        line = self._in.readline()
        if not line:  # the host is gone
            sys.exit(0)
        self._command(line)

    def sync(self):
        """Lockstep: report the time and obey the host until it lets time run on."""
        clock = self.clock
        self.send("Y %d" % clock.elapsed)
        clock.target = clock.elapsed
        while clock.target <= clock.elapsed:
            self._read_command()

    def take_commands(self, timeout_ms):
        """Real time: obey whatever the host sent, waiting up to timeout_ms for the first."""
        while self._poll.poll(timeout_ms):
            self._read_command()
            timeout_ms = 0

    def finished(self, status):
        self.send("E %d" % status)
