"""Where the viper solver's or midgame search's time goes on the emulated Pico: cycles per function (`bench.py profile`).

    .venv/bin/python tools/device/bench.py profile [--empties 14] [--out FILE]
    .venv/bin/python tools/device/bench.py profile --midgame [--out FILE]

Solves the positions of --empties empty squares from play (host_tests/mpy/fastpath_positions.py) with
the viper solver, as `bench.py endgame`'s solver part does (the player's solver, a clear table of
its 2**10 entries before each), while the emulated chip counts its cycles at every instruction address
(tools/device/pico/chip.mjs, `profile`). Emulated time runs as without the count, so the device time and nodes
per second it prints are the device's. Then it attributes the cycles to the functions of
player/endgame_viper.py that are viper code, and to player/endgame_thumb.py's machine code (each
function's code lies in the heap from the address its function object holds, MicroPython v1.27's
mp_obj_fun_bc_t or mp_obj_fun_asm_t, to the next one's), to
MicroPython's own code in flash (the interpreter, and the runtime a viper function calls: a call, an
argument's conversion, a global's lookup) and to the rest. --out writes the counts per address as JSON
with the functions' addresses, for a closer look at a function's machine code.

--midgame: the top level's moves on `bench.py search`'s four midgame positions (othello.bench's sample game,
plies 20, 26, 32 and 38) with its 125 MHz node budget, the cycles attributed to player/search_viper.py's
viper code and player/search_thumb.py's machine code.
"""

import ast
import json
from pathlib import Path

from device import pico_emulator

REPO = Path(__file__).resolve().parents[2]
MODULE = REPO / "firmware" / "player" / "endgame_viper.py"
THUMB_MODULE = REPO / "firmware" / "player" / "endgame_thumb.py"
MIDGAME_MODULE = REPO / "firmware" / "player" / "search_viper.py"
MIDGAME_THUMB_MODULE = REPO / "firmware" / "player" / "search_thumb.py"
POSITIONS = REPO / "host_tests" / "mpy" / "fastpath_positions.py"
FLASH = (0x10000000, 0x10200000)  # the XIP flash: MicroPython's code (the .uf2)
RAM = (0x20000000, 0x20042000)

# after a setup: where each function's code starts (module: the viper one, thumb: the machine code's)
CODE_ADDRESSES = """
for name in %(names)r:
    print('code', name, machine.mem32[id(getattr(module, name)) + 12])
for name in %(thumb_names)r:
    print('code', name, machine.mem32[id(getattr(thumb, name)) + 8])
"""
SETUP = """
import machine
from fastpath_positions import ENDGAMES
from othello.board import Board
from othello.geometry import geometry
from player.engine import SOLVER_TABLE_BITS
from player.endgame_viper import ViperSolver
import player.endgame_viper as module
import player.endgame_thumb as thumb
solver = ViperSolver(geometry(8), %(empties)d, SOLVER_TABLE_BITS)
boards = [Board.from_position(text) for text in ENDGAMES[%(empties)d]]
""" + CODE_ADDRESSES
SOLVE = """
from time import ticks_diff, ticks_us
elapsed = nodes = 0
for board in boards:
    solver.clear_table()
    started = ticks_us()
    solver.solve_exact(board.player_discs(), board.opponent_discs(), board.variant.anti)
    elapsed += ticks_diff(ticks_us(), started)
    nodes += solver.nodes
print('solved', len(boards), elapsed, nodes)
"""


MIDGAME_SETUP = """
import machine
import player
from othello.bench import sample_positions
from othello.board import Board
from othello.variant import BLACK
player.think(Board(), 8, node_limit=1, rng_seed=1)  # the engine's tables first, as a game builds them
game = sample_positions(1)
boards = []
for ply in (20, 26, 32, 38):
    board = Board()
    board.set_discs(game[ply][0], game[ply][1], BLACK)
    boards.append(board)
player.think(boards[0], 8, node_limit=100, rng_seed=1)  # the midgame search's modules imported
import player.search_viper as module
import player.search_thumb as thumb
""" + CODE_ADDRESSES
MIDGAME_SEARCH = """
elapsed = nodes = 0
for board in boards:
    decision = player.think(board, 8, rng_seed=1)
    elapsed += decision.elapsed_ms * 1000
    nodes += decision.nodes
print('searched', len(boards), elapsed, nodes)
"""


def decorated_functions(path, decorator_name="micropython.viper"):
    """The names of the module's functions with that decorator."""
    tree = ast.parse(path.read_text())
    return [node.name for node in tree.body if isinstance(node, ast.FunctionDef)
            and any(ast.unparse(decorator) == decorator_name for decorator in node.decorator_list)]


def code_ranges(starts):
    """[(start, end, name)] of the functions' machine code by address: each up to the next one's start, the
    last up to the end of the RAM."""
    ordered = sorted((address, name) for name, address in starts.items())
    ends = [address for address, _ in ordered[1:]] + [RAM[1]]
    return [(start, end, name) for (start, name), end in zip(ordered, ends)]


def attribute(counts, starts):
    """{place: cycles}: each address to the viper function whose code it lies in, else flash or other."""
    ranges = code_ranges(starts)
    places = {}
    for address, cycles in counts.items():
        place = "MicroPython's code (flash)" if FLASH[0] <= address < FLASH[1] else "other"
        if RAM[0] <= address < RAM[1]:
            for start, end, name in ranges:
                if start <= address < end:
                    place = name
                    break
        places[place] = places.get(place, 0) + cycles
    return places


def add_arguments(parser):
    parser.add_argument("--empties", type=int, default=14, choices=(12, 14, 16), help="the positions' size")
    parser.add_argument("--midgame", action="store_true", help="the midgame search instead of the solver")
    parser.add_argument("--out", help="the counts per address and the functions' addresses, as JSON")


def run(args, parser):
    module, thumb_module, setup, workload = ((MIDGAME_MODULE, MIDGAME_THUMB_MODULE, MIDGAME_SETUP, MIDGAME_SEARCH)
                                             if args.midgame else (MODULE, THUMB_MODULE, SETUP, SOLVE))
    names = decorated_functions(module)
    thumb_names = decorated_functions(thumb_module, "micropython.asm_thumb")
    files = pico_emulator.build_files(args.board, main=False, extra={"/lib/" + POSITIONS.name: POSITIONS.read_bytes()})
    with pico_emulator.EmulatedPico(args.board, files=files) as pico:
        pico.enter_raw_repl()
        starts = {}
        for line in pico.run_script(setup % dict(empties=args.empties, names=names, thumb_names=thumb_names)).splitlines():
            word = line.split()
            if word and word[0] == "code":
                starts[word[1]] = int(word[2])
        pico.profile(True)
        done = pico.run_script(workload).split()
        pico.profile(False)
        counts = pico.profile_counts()
    positions, elapsed_us, nodes = (int(word) for word in done[1:4])
    print("%s: %d positions, %d nodes in %d ms of device time, %d nodes/s"
          % ("midgame" if args.midgame else "solver_%d" % args.empties, positions, nodes, elapsed_us // 1000,
             nodes * 1000000 // max(elapsed_us, 1)))
    places = attribute(counts, starts)
    total = sum(places.values())
    sizes = {name: end - start for start, end, name in code_ranges(starts)[:-1]}  # the last one's end is unknown
    print("%-28s %14s %7s %11s" % ("where", "cycles", "share", "code bytes"))
    for place, cycles in sorted(places.items(), key=lambda item: -item[1]):
        print("%-28s %14d %6.1f%% %11s" % (place, cycles, 100 * cycles / total, sizes.get(place, "")))
    print("%-28s %14d (%.2f s at 125 MHz)" % ("all", total, total / 125e6))
    if args.out:
        Path(args.out).write_text(json.dumps({"functions": starts, "cycles": sorted(counts.items())}))
