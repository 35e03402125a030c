"""Whole 6x6 games of the computer against itself, levels 5 to 8, Othello and Anti-Othello: tools/device_game.py's
lines for each (a `game <variant> level <n>` line first).

    .venv/bin/python tools/pico_emulator.py run tools/device_game6.py --lib tools/device_game.py
    MICROPYPATH=firmware:tools .venv/bin/micropython tools/device_game6.py     # on the host
"""

from device_game import main
from othello.variant import Variant

for variant in (Variant(size=6), Variant(size=6, anti=True)):
    for level in (5, 6, 7, 8):
        print("game", variant.describe(), "level", level)
        main(variant, level)
