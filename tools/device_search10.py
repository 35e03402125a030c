"""The computer player on the 10x10 board: tools/device_search.py's figures there.

    .venv/bin/python tools/pico_emulator.py run tools/device_search10.py --lib tools/device_search.py
    MICROPYPATH=firmware:tools .venv/bin/micropython tools/device_search10.py     # on the host

The Pico plays 10x10 with the plain kernel and search (every mask a multi-word big integer), slower than
the levels' node budgets assume, so the deadline ends its moves: the `level` lines say how close to its
time each level keeps (docs/DEVICE_SPEED.md, "10x10").
"""

from device_search import main
from othello.variant import Variant

PLIES = (20, 40)  # 76 and 56 empty squares

main(Variant(size=10), PLIES)
