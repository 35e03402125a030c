"""PatternEvaluator.pattern_sum in viper: the plain evaluation's pattern tables on the device.

The viper midgame search evaluates its own leaves (player/search_viper.py); the leaves it does not see
(each root move in a search's first iteration, the weak levels' one- and two-ply searches) are evaluated
by PatternEvaluator.evaluate, whose pattern sum in Python takes about 8 ms on the Pico. This is the
same sum over the file's layout (evaluation.py says how it is numbered), with no allocation; the plain
pattern_sum is its twin (host_tests/test_player_mpy.py proves them equal).
"""

import sys

if sys.implementation.name != "micropython":
    # CPython may have a `micropython` stub package, but viper annotations only compile here
    raise ImportError("viper code runs on MicroPython only")

import micropython  # noqa: E402


@micropython.viper
def pattern_sum(layout, end: int, cells, table) -> int:
    """The sum of `table`'s entries (stored bytes) for every image of the patterns in layout[:end], with
    the squares' values (0 empty, 1 mover, 2 opponent) in `cells`."""
    lay = ptr8(layout)
    cell = ptr8(cells)
    entries = ptr8(table)
    at = 0
    offset = 0
    total = 0
    while at < end:
        fixed = lay[at]
        half = lay[at + 1]
        count = lay[at + 2]
        at += 3
        places = fixed + 2 * half
        side = 1  # 3 ** half: the values of one of the two swapped groups
        i = 0
        while i < half:
            side *= 3
            i += 1
        pairs = (side * (side + 1)) >> 1
        kept = 1  # 3 ** fixed
        i = 0
        while i < fixed:
            kept *= 3
            i += 1
        image = 0
        while image < count:
            square = at + image * places
            number = 0
            weight = 1
            i = 0
            while i < fixed:
                number += cell[lay[square + i]] * weight
                weight *= 3
                i += 1
            square += fixed
            high = 0
            weight = 1
            i = 0
            while i < half:
                high += cell[lay[square + i]] * weight
                weight *= 3
                i += 1
            square += half
            low = 0
            weight = 1
            i = 0
            while i < half:
                low += cell[lay[square + i]] * weight
                weight *= 3
                i += 1
            if high < low:
                i = high
                high = low
                low = i
            total += entries[offset + number * pairs + ((high * (high + 1)) >> 1) + low]
            image += 1
        at += count * places
        offset += kept * pairs
    return total
