"""Constants and tables that the plain kernel and its viper twin share.

They live apart from kernel.py so that the device, which runs the viper
kernel, never loads the plain one.
"""

FEATURE_COUNT = 7  # the numbers Kernel.features() writes

# Odd multipliers below 2**29, so that on MicroPython's unix port a 32-bit word
# times one stays a small int; one per 32-bit word (4 words cover 10x10).
HASH_MULTIPLIERS = (0x1B873593, 0x0E6546B5, 0x1D2A3A1F, 0x0C2B2AE3, 0x127A3F35, 0x09E3779B, 0x17F4A7C1, 0x0A5A5A6B)
LOCK_MULTIPLIERS = (0x165667B1, 0x0D3A2647, 0x1B3A7F2D, 0x0C8A4E29, 0x1F3D5B79, 0x0B4F3C8F, 0x12E15E35, 0x1D1F2A43)
FINAL_MULTIPLIER = 0x1CC9E2D5

_EDGE_HALVES = {}


def read_places(size):
    """The places of an edge (0 = its lower-numbered corner) that its pattern reads.

    Every place but the middle two of a 10-square edge: reading four squares
    at each end keeps 10x10 patterns in the range of 8x8 ones, so the 8x8
    tables serve that board.
    """
    if size == 10:
        return (0, 1, 2, 3, 6, 7, 8, 9)
    return tuple(range(size))


def edge_number_count(size):
    """How many entries an edge's table has on a size x size board: E * (E + 1) // 2, E = 3**half."""
    half_values = 3 ** (len(read_places(size)) // 2)
    return half_values * (half_values + 1) // 2


def edge_half_table(size):
    """The base-3 values of the two halves of an edge: a bytearray of 2 * 2**size (the viper search reads
    pattern squares through its entries).

    An edge's read places are split in two halves, each read from its corner
    inward: entry [bits] (bit i = place i holds a disc) is the near half,
    the first places read from the lower-numbered corner, the j-th counting
    3**j; entry [2**size + bits] is the far half, read from the other corner
    the same way. A disc of the side to move counts 1 and an opponent's 2, so
    a half's value is the mover's entry plus twice the opponent's, below
    3**half; the mirror image of an edge has its two halves swapped.
    """
    found = _EDGE_HALVES.get(size)
    if found is None:
        places = read_places(size)
        last = len(places) - 1
        found = bytearray(2 << size)
        for bits in range(1 << size):
            near = 0
            far = 0
            weight = 1
            for i in range(len(places) // 2):
                near += (bits >> places[i] & 1) * weight
                far += (bits >> places[last - i] & 1) * weight
                weight *= 3
            found[bits] = near
            found[(1 << size) + bits] = far
        _EDGE_HALVES[size] = found
    return found
