"""The one place where CPython and MicroPython differ for the game logic.

Everything else in `othello` imports these names instead of probing the
interpreter itself.
"""

import sys
import time

try:
    from micropython import const
except ImportError:  # CPython

    def const(value):
        return value


try:
    int.bit_count  # CPython 3.10+

    popcount = int.bit_count

    def bit_index(bit):
        """Square number of a single-bit mask."""
        return bit.bit_length() - 1

except AttributeError:  # MicroPython ints have neither bit_count nor bit_length

    def popcount(x):
        return bin(x).count("1")

    # 2 generates every residue modulo the prime 101, so the powers 2**0 .. 2**99
    # (every square up to 10x10) leave 100 different remainders: a 101-byte
    # table finds the square, where a dict of 100 big-integer keys took 5 KB.
    _SQUARE_OF_REMAINDER = bytearray(101)
    for _square in range(100):
        _SQUARE_OF_REMAINDER[(1 << _square) % 101] = _square
    del _square

    def bit_index(bit):
        """Square number of a single-bit mask."""
        return _SQUARE_OF_REMAINDER[bit % 101]


if hasattr(time, "ticks_ms"):
    ticks_ms = time.ticks_ms
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
    ticks_add = time.ticks_add
else:  # CPython: the same counters, wrapping as they do on the Pico

    # MicroPython's tick counters wrap at 2**30 on the RP2040; code that
    # measures time only through ticks_diff/ticks_add then works the same on
    # both, including with the simulator's clock, which wraps too.
    _TICKS_PERIOD = 1 << 30
    _TICKS_MASK = _TICKS_PERIOD - 1
    _TICKS_HALF = _TICKS_PERIOD >> 1

    def ticks_ms():
        return (time.monotonic_ns() // 1000000) & _TICKS_MASK

    def ticks_us():
        return (time.perf_counter_ns() // 1000) & _TICKS_MASK

    def ticks_diff(end, start):
        return ((end - start + _TICKS_HALF) & _TICKS_MASK) - _TICKS_HALF

    def ticks_add(ticks, delta):
        return (ticks + delta) & _TICKS_MASK


def release_module(name):
    """Forget the imported module `name` (a dotted name), so that the garbage collector can free its code
    once nothing else refers to it; the next import loads it again.

    The firmware lets go of code it does not need for a while (the menus
    during a game, the board-config checks after power-up): on the Pico a
    module's code lives in the heap. On CPython this does nothing: memory is
    plentiful there, and tests and tools hold the classes of these modules,
    which a reload would replace with new ones that isinstance() does not
    recognise.
    """
    if sys.implementation.name != "micropython":
        return
    module = sys.modules.pop(name, None)
    parent, _, child = name.rpartition(".")
    if module is not None and parent in sys.modules and hasattr(sys.modules[parent], child):
        delattr(sys.modules[parent], child)
