"""The one place where CPython and MicroPython differ for the game logic, and the heap's upkeep.

Everything else in `othello` imports these names instead of probing the
interpreter itself. The heap's upkeep on the device (release_module,
collect_every: main.py, the UI and the player use them) does nothing on
CPython.
"""

import gc
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
    _TICKS_MASK = const((1 << 30) - 1)
    _TICKS_HALF = const(1 << 29)

    def ticks_ms():
        return (time.monotonic_ns() // 1000000) & _TICKS_MASK

    def ticks_us():
        return (time.perf_counter_ns() // 1000) & _TICKS_MASK

    def ticks_diff(end, start):
        return ((end - start + _TICKS_HALF) & _TICKS_MASK) - _TICKS_HALF

    def ticks_add(ticks, delta):
        return (ticks + delta) & _TICKS_MASK


def release_module(name):
    """Forget the imported module `name` (a dotted name) and empty its namespace, so that the garbage
    collector can free its code; the next import loads it again.

    The firmware lets go of code it does not need for a while (the menus
    during a game, the board-config checks after power-up, the opening book
    past the opening): on the Pico a module's code lives in the heap.
    Emptying the namespace frees the code even while some word still points
    at the module object: MicroPython's collector takes every word on the C
    stack that looks like a pointer for one, and this function's frame, just
    ended, lies where the collection that follows runs (that kept the menus'
    code in the heap through the game screen's import on the 32-bit build).
    So nothing may still use the module's code when it is let go.

    On CPython this does nothing: memory is plentiful there, and tests and
    tools hold the classes of these modules, which a reload would replace
    with new ones that isinstance() does not recognise.
    """
    if sys.implementation.name != "micropython":
        return
    module = sys.modules.pop(name, None)
    if module is None:
        return
    parent, _, child = name.rpartition(".")
    if parent in sys.modules and hasattr(sys.modules[parent], child):
        delattr(sys.modules[parent], child)
    module.__dict__.clear()


COLLECT_EVERY = 8192  # bytes allocated between the collections main.py asks for at power-up (collect_every)


def collect_every(amount):
    """Have MicroPython collect after every `amount` bytes allocated as well as when an allocation finds no
    room (None: only then); returns the setting it replaces. On CPython this does nothing (returns None).

    Collecting only when the heap is full leaves what each moment allocated
    and dropped scattered through it, and what lives on (a game's moves, a
    screen's code) is placed between the remains: the free room ends in
    holes too small for the next screen's code, with 30 KB free in all.
    main.py collects every COLLECT_EVERY bytes from power-up on. The game
    screen stops it while the computer thinks: what the search allocates is
    its call frames, each freed as the call returns, about 500 bytes a node,
    and a collection every few dozen nodes would cost the Pico a good part of
    each move.
    """
    if not hasattr(gc, "threshold"):
        return None
    previous = gc.threshold()
    gc.threshold(-1 if amount is None else amount)
    return None if previous < 0 else previous
