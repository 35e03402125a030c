"""What the viper endgame solver costs the heap where it runs, as the player holds it.

    .venv/bin/python tools/device/bench.py solver-heap

On the Pico a module's code lives in the heap: the player imports the solver
only for the endgame, in place of the viper midgame search (player.engine),
and lends it the midgame search's table. Prints, after a collection each:
solver_import_bytes (its module), solver_made_bytes (its stacks and tables,
the table lent as the player lends it) and solver_total_bytes. (The unix
port keeps machine code outside its heap: there only the stacks count.)
"""

import gc

from othello.geometry import geometry
from player.engine import SOLVER_EMPTIES, SOLVER_TABLE_BITS, TABLE_BITS
from player.search import TranspositionTable

table = TranspositionTable(TABLE_BITS)
gc.collect()
before = gc.mem_free()
from player.endgame_viper import ViperSolver  # noqa: E402

gc.collect()
imported = gc.mem_free()
solver = ViperSolver(geometry(8), SOLVER_EMPTIES, SOLVER_TABLE_BITS, table)
gc.collect()
made = gc.mem_free()
print("solver_import_bytes", before - imported)
print("solver_made_bytes", imported - made)
print("solver_total_bytes", before - made)
