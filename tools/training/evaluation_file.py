"""Writing the player's weight files (eval*.bin, version 4: firmware/player/evaluation.py describes the format).

Both trainers write through write(): tools/training/training_fit.py (the pattern
evaluation of 8x8 Othello and Anti-Othello) and tools/training/train_evaluation.py
(the edge evaluation of the other boards).
"""

import os
import struct
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "firmware")]

from player.evaluation import HEADER_SIZE, MAGIC, SCALARS, TABLE_OFFSET, VERSION  # noqa: E402

WEIGHT_UNITS = 256  # scalar weights are stored in 1/256 disc
ENTRY_LIMIT = 127  # an entry is a signed byte stored + TABLE_OFFSET


class Pattern:
    """A pattern as the device reads it: `fixed` places, two groups of `half` places, and its images, each a
    list of squares in that order (fixed, first group, second group)."""

    def __init__(self, fixed, half, images):
        self.fixed = fixed
        self.half = half
        self.images = [list(image) for image in images]
        if any(len(image) != fixed + 2 * half for image in self.images):
            raise ValueError("every image needs %d squares" % (fixed + 2 * half))

    def entries(self):
        pairs = 3 ** self.half * (3 ** self.half + 1) // 2
        return 3 ** self.fixed * pairs


def layout_bytes(patterns):
    """The pattern section of the file."""
    data = bytearray()
    for pattern in patterns:
        data += bytes((pattern.fixed, pattern.half, len(pattern.images)))
        for image in pattern.images:
            data += bytes(image)
    return bytes(data)


def write(path, size, phase_of, patterns, weights, tables, unit_shift):
    """Write a weight file atomically; returns its length in bytes.

    phase_of: the phase of each number of empty squares (size * size + 1 values); weights: per phase SCALARS
    numbers in discs per unit; tables: per phase the concatenated entries of every pattern, in discs;
    unit_shift: an entry is stored in 1/2**unit_shift disc. Values beyond what the file can hold are clipped.
    """
    phases = len(weights)
    table_bytes = sum(pattern.entries() for pattern in patterns)
    if len(phase_of) != size * size + 1 or max(phase_of) >= phases or len(tables) != phases:
        raise ValueError("the phases do not match")
    if any(len(phase) != SCALARS for phase in weights) or any(len(table) != table_bytes for table in tables):
        raise ValueError("a phase's weights or tables have the wrong length")
    images = sum(len(pattern.images) for pattern in patterns)
    header = MAGIC + bytes((VERSION, size, phases, SCALARS, len(patterns), images, unit_shift, 0))
    header += struct.pack("<I", table_bytes)
    assert len(header) == HEADER_SIZE
    words = [max(-32768, min(32767, int(round(value * WEIGHT_UNITS)))) for phase in weights for value in phase]
    entries = bytearray()
    for table in tables:
        for value in table:
            entries.append(max(-ENTRY_LIMIT, min(ENTRY_LIMIT, int(round(value * (1 << unit_shift))))) + TABLE_OFFSET)
    data = header + bytes(phase_of) + layout_bytes(patterns) + struct.pack("<%dh" % len(words), *words) + bytes(entries)
    temporary = Path(str(path) + ".tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)  # never leave a half-written file where the firmware reads it
    return len(data)
