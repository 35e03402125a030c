"""Constants and tables that the plain kernel and its viper twin share.

They live apart from kernel.py so that the device, which runs the viper
kernel, never loads the plain one.
"""

from array import array

FEATURE_COUNT = 11  # the numbers Kernel.features() writes

# Odd multipliers below 2**29, so that on MicroPython's unix port a 32-bit word
# times one stays a small int; one per 32-bit word (4 words cover 10x10).
HASH_MULTIPLIERS = (0x1B873593, 0x0E6546B5, 0x1D2A3A1F, 0x0C2B2AE3, 0x127A3F35, 0x09E3779B, 0x17F4A7C1, 0x0A5A5A6B)
LOCK_MULTIPLIERS = (0x165667B1, 0x0D3A2647, 0x1B3A7F2D, 0x0C8A4E29, 0x1F3D5B79, 0x0B4F3C8F, 0x12E15E35, 0x1D1F2A43)
FINAL_MULTIPLIER = 0x1CC9E2D5

_EDGE_CODES = {}


def edge_code_table(size):
    """Base-3 value of each set of squares of one edge (bit i = place i), for edge_indices."""
    found = _EDGE_CODES.get(size)
    if found is None:
        found = array("H", bytes(2 << size))
        for bits in range(1 << size):
            value = 0
            weight = 1
            for place in range(size):
                if size == 10 and 4 <= place < 6:
                    continue  # the middle of a 10-square edge is not read
                if bits >> place & 1:
                    value += weight
                weight *= 3
            found[bits] = value
        _EDGE_CODES[size] = found
    return found
