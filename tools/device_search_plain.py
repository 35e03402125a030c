"""The computer player where the heap has no room for its viper search or solver: how close to each
level's time its moves keep then.

    .venv/bin/python tools/pico_emulator.py run tools/device_search_plain.py --lib tools/device_search.py
    MICROPYPATH=firmware:tools .venv/bin/micropython tools/device_search_plain.py     # on the host

The viper search's and solver's code each need one free block of 20-25 KB. In a heap a long session has
cut up there may be none: the engine then plays the same moves with the plain search and solver over the
viper kernel, 15-25 times slower, and only the deadline ends its moves. Here the engine is refused both
fast paths as a full heap refuses them (MemoryError), and tools/device_search.py's `level` lines say how
long each move took (docs/DEVICE_SPEED.md, "When the fast paths find no room"); the last line,
`fast_path_modules_loaded 0`, that no viper search or solver served.
"""

import sys

from device_search import main
from player import engine


def _no_room(*args):
    raise MemoryError("no block for the fast path's code")


engine._fast_midgame = _no_room
engine._fast_solver = _no_room

PLIES = (20, 32, 46, 50)  # 40 and 28 empty squares: midgame searches; 14 and 10: the levels that solve them

main(plies=PLIES)
print("fast_path_modules_loaded", sum(1 for name in engine.FAST_MODULES if name in sys.modules))
