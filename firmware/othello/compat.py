"""The one place where CPython and MicroPython differ for the game logic.

Everything else in `othello` imports these names instead of probing the
interpreter itself.
"""

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

    # 100 squares covers every board size up to 10x10.
    _INDEX_OF_BIT = {}
    for _sq in range(100):
        _INDEX_OF_BIT[1 << _sq] = _sq
    del _sq

    def bit_index(bit):
        """Square number of a single-bit mask."""
        return _INDEX_OF_BIT[bit]


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
