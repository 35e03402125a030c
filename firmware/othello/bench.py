"""Engine speed on the interpreter it runs on: move generation and perft.

Runs unchanged on CPython, MicroPython's unix port, its 32-bit WASI build and
the Pico (`from othello import bench; bench.main()`) and prints one
`name value` line per figure; `tools/othello bench` runs it under each
interpreter and tabulates the lines.

- Move generation: `Geometry.moves` on a fixed set of positions (from
  pseudo-random games that are the same everywhere), and `Geometry.flips`
  for every legal move of each: calls per second, and the children
  generated per second when both are counted.
- Perft from the start (othello.perft) through the plain kernel and, where
  the interpreter has it, the kernel make_kernel() picks (the viper fast
  path): leaves per second and interior nodes (positions expanded) per
  second.
- Where gc.mem_alloc exists (MicroPython), the bytes allocated per call and
  per generated child, and per perft node, measured with collection held off.
"""

import gc

from othello.board import Board
from othello.compat import ticks_diff, ticks_ms, ticks_us
from othello.kernel import Kernel
from othello.kernels import make_kernel
from othello.perft import perft

ALLOCATION_SAMPLE_STEP = 8  # every 8th position: 30 of the 240, across all stages of the game


def sample_positions(games=4, seed=1, variant=None):
    """(player, opponent, legal squares) for every position of `games` fixed pseudo-random games (of `variant`,
    standard Othello without one)."""
    out = []
    for _ in range(games):
        board = Board(variant)
        while not board.is_game_over():
            squares = board.legal_squares()
            if not squares:
                board.pass_turn()
                continue
            out.append((board.player_discs(), board.opponent_discs(), tuple(squares)))
            seed = (seed * 75 + 74) % 65537  # the ZX81 generator: small ints on every port
            board.play(squares[seed % len(squares)])
    return out


def _generate_moves(moves, positions):
    for player, opponent, _ in positions:
        moves(player, opponent)


def _generate_flips(flips, positions):
    for player, opponent, squares in positions:
        for square in squares:
            flips(player, opponent, square)


def _fastest_ms(work, seconds):
    """Milliseconds of the fastest of repeated work() calls made for `seconds` (at least three).

    The fastest run is the one least disturbed by whatever else the machine is doing.
    """
    start = ticks_ms()
    best = None
    runs = 0
    while runs < 3 or ticks_diff(ticks_ms(), start) < seconds * 1000:
        began = ticks_us()
        work()
        took = ticks_diff(ticks_us(), began)
        if best is None or took < best:
            best = took
        runs += 1
    return max(best, 1) / 1000


def allocated(work):
    """Bytes that work() allocates, or None where gc.mem_alloc is missing (CPython).

    Collection is held off meanwhile so that the counter only grows. Where
    it was off already (the runner's WASI build, whose collector is broken)
    it is neither run nor turned back on.
    """
    if not hasattr(gc, "mem_alloc"):
        return None
    was_enabled = gc.isenabled()
    if was_enabled:
        gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    work()
    used = gc.mem_alloc() - before
    if was_enabled:
        gc.enable()
    return used


def measure(seconds=1.0, perft_depth=6, games=4):
    """The figures as a list of (name, value)."""
    board = Board()
    geometry = board.geometry
    positions = sample_positions(games)
    children = 0
    for _, _, squares in positions:
        children += len(squares)
    moves = geometry.moves
    flips = geometry.flips
    figures = [("positions", len(positions)), ("children", children)]

    moves_ms = _fastest_ms(lambda: _generate_moves(moves, positions), seconds)
    figures.append(("moves_per_s", int(len(positions) * 1000 / moves_ms)))
    flips_ms = _fastest_ms(lambda: _generate_flips(flips, positions), seconds)
    figures.append(("flips_per_s", int(children * 1000 / flips_ms)))
    figures.append(("generated_per_s", int(children * 1000 / (moves_ms + flips_ms))))

    # Allocations on a sample: with collection held off the heap only grows.
    sample = positions[::ALLOCATION_SAMPLE_STEP]
    sample_children = 0
    for _, _, squares in sample:
        sample_children += len(squares)
    used = allocated(lambda: _generate_moves(moves, sample))
    if used is not None:
        figures.append(("bytes_per_moves_call", used // len(sample)))
        flips_used = allocated(lambda: _generate_flips(flips, sample))
        figures.append(("bytes_per_flips_call", flips_used // sample_children))
        figures.append(("bytes_per_generated", (used + flips_used) // sample_children))

    player, opponent = board.player_discs(), board.opponent_discs()
    kernels = [Kernel(geometry, perft_depth)]
    picked = make_kernel(geometry, perft_depth)
    if picked.name != Kernel.name:
        kernels.append(picked)  # the device fast path, where this interpreter has it
    figures.append(("perft_depth", perft_depth))
    for kernel in kernels:
        figures.extend(measure_perft(kernel, geometry, player, opponent, perft_depth))
    return figures


def measure_perft(kernel, geometry, player, opponent, depth):
    """Perft figures through one kernel, named perft_<kernel name>_..."""
    interior = 0
    for shallower in range(depth):
        interior += perft(geometry, player, opponent, shallower, kernel)
    leaves = perft(geometry, player, opponent, depth, kernel)
    ms = _fastest_ms(lambda: perft(geometry, player, opponent, depth, kernel), 0)
    prefix = "perft_" + kernel.name + "_"
    figures = [
        (prefix + "leaves", leaves),
        (prefix + "leaves_per_s", int(leaves * 1000 / ms)),
        (prefix + "nodes_per_s", int(interior * 1000 / ms)),
    ]
    # A shallower perft for the allocation count: without collection the heap only grows.
    shallow = min(depth, 4)
    used = allocated(lambda: perft(geometry, player, opponent, shallow, kernel))
    if used is not None:
        nodes = 0
        for shallower in range(shallow):
            nodes += perft(geometry, player, opponent, shallower, kernel)
        figures.append((prefix + "bytes_per_node", used // nodes))
    return figures


def main(seconds=1.0, perft_depth=6, games=4):
    for name, value in measure(seconds, perft_depth, games):
        print(name, value)
