"""Exact labels for held-out training positions, run under MicroPython's unix port by tools/training/training_data.py.

The host prepends the settings as globals:

    POSITIONS = [(player, opponent), ...]   the side to move's discs and the other side's, 8x8
    MOST_EMPTIES = 22                       the most empty squares among them (the solver's stacks)
    SOLVER_TABLE_BITS = 16
    ANTI = False                            Anti-Othello: fewer discs win

Each position is solved by the exact viper solver from an empty table, so its label does not depend on
which positions this worker solved before it, and printed when done as `exact <player hex> <opponent
hex> <score>`: the WOF score in discs from the side to move's view.
"""

from othello.geometry import geometry
from player.endgame_viper import ViperSolver


def main():
    solver = ViperSolver(geometry(8), MOST_EMPTIES, SOLVER_TABLE_BITS)
    for player, opponent in POSITIONS:
        solver.clear_table()
        score = solver.solve_exact(player, opponent, ANTI)[0]
        print("exact %x %x %d" % (player, opponent, score))


main()
