#!/usr/bin/env python3
"""The device benchmarks: what the firmware does on the Pico's own CPU, one subcommand a workload.

    bench.py overview [--quick]            perft, the search, every level's move time, the free heap
                                           (`make bench-device`; deploy.py bench runs it on a real Pico)
    bench.py search [--size 6|8|10] [--plain]   the midgame search's nodes per second and each level's
                                           move times (6x6 also the levels' solves; --plain without
                                           the viper fast paths, as a full heap refuses them)
    bench.py endgame [--mhz 125|200]       the exact endgame: the player's solves, the solver alone,
                                           the top level's budgets at that clock
    bench.py game [--size 6] [--anti]      a whole game of level 8 against itself (--anti: 8x8
                                           Anti-Othello; 6x6: levels 5-8, Othello and Anti-Othello)
    bench.py book [--book FILE]            the opening book: a lookup's time, its module's heap
    bench.py review                        the post-game review's time per position, how far it is exact
    bench.py solver-heap                   the heap the viper solver takes as the player holds it
    bench.py solver-tree [EMPTIES [TABLE_BITS [ORACLE_PLIES]]]   the solver's tree with a bigger table
                                           or an oracle's moves (node counts: the unix port by default)
    bench.py ui-heap [--level 8] [--games N] [--period-ms 100] [--size 6] [--anti]   the lowest free heap
                                           of whole games through the UI (emulated Pico only)
    bench.py profile [--empties 14] [--out FILE]   the viper solver's cycles per function (emulated Pico only)

Every workload but ui-heap and profile is a MicroPython script in device/workloads/, which this tool
runs with its settings prepended as globals and the modules it needs beside it: on the emulated Pico
(--port emulated, the default: MicroPython's RP2040 build on rp2040js, the `make flash` build of --board
in its flash, device time) or on MicroPython's unix port (--port unix: the same moves and node counts
wherever the viper code runs, host time). On a real Pico, `mpremote mount firmware run
tools/device/workloads/NAME.py` runs a workload with its default settings.
"""

import argparse
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1]
REPO = TOOLS.parent
for _path in (str(TOOLS), str(REPO / "firmware")):
    if _path not in sys.path:  # run as a script
        sys.path.insert(0, _path)

from device import cycle_profile, pico_emulator, ui_heap  # noqa: E402
from player.levels import BASE_MHZ  # noqa: E402
from runners import micropython_runner  # noqa: E402

# The endgame positions from play the endgame, review and solver workloads read (host_tests/mpy).
POSITIONS = REPO / "host_tests" / "mpy" / "fastpath_positions.py"
PORTS = ("emulated", "unix")


def workload_path(name, tools=TOOLS):
    """The MicroPython script of a workload (tools: another tree's tools/, as deploy.Paths names it)."""
    return Path(tools) / "device" / "workloads" / (name + ".py")


def workload_code(name, argv=None, **settings):
    """A workload's source after its settings (Python literals, as globals it reads) and, when argv is
    given, sys.argv as a command line would set it."""
    lines = ["%s = %r\n" % item for item in sorted(settings.items())]
    if argv is not None:
        lines.insert(0, "import sys\nsys.argv[:] = %r\n" % ([name + ".py"] + [str(word) for word in argv],))
    return "".join(lines) + workload_path(name).read_text()


def run_workload(args, code, libs=(), files=None):
    """Run a workload's code where --port says, its output streamed to stdout; libs are modules it imports
    (in the emulated Pico's /lib, on the unix port's path), files more {board path: local file} to flash."""
    if args.port == "unix":
        for line in micropython_runner.unix_lines(code, path=sorted({lib.parent for lib in libs})):
            sys.stdout.write(line)
            sys.stdout.flush()
        return 0
    extra = {"/lib/" + lib.name: lib.read_bytes() for lib in libs}
    extra.update({board_path: Path(local).read_bytes() for board_path, local in (files or {}).items()})
    with pico_emulator.EmulatedPico(args.board, files=pico_emulator.build_files(args.board, main=False,
                                                                                extra=extra)) as pico:
        pico.enter_raw_repl()
        pico.run_script(code, echo=sys.stdout)
    return 0


# ----- the subcommands: each makes its workload's code from the command line ---------------------------------


def overview(args, parser):
    return run_workload(args, workload_code("overview", QUICK=args.quick))


def search(args, parser):
    if args.plain and args.size != 8:
        parser.error("--plain is for the 8x8 board")
    return run_workload(args, workload_code("search", SIZE=args.size, PLAIN=args.plain))


def endgame(args, parser):
    return run_workload(args, workload_code("endgame", MHZ=args.mhz), libs=[POSITIONS])


def game(args, parser):
    if args.anti and args.size != 8:
        parser.error("--anti is for the 8x8 board: --size 6 plays both variants")
    return run_workload(args, workload_code("game", SIZE=args.size, ANTI=args.anti))


def book(args, parser):
    if not args.book:
        return run_workload(args, workload_code("book"))
    if args.port == "unix":
        return run_workload(args, workload_code("book", BOOK=str(Path(args.book).resolve())))
    return run_workload(args, workload_code("book"), files={"/lib/book8.bin": args.book})


def review(args, parser):
    return run_workload(args, workload_code("review"), libs=[POSITIONS])


def solver_heap(args, parser):
    return run_workload(args, workload_code("solver_heap"))


def solver_tree(args, parser):
    return run_workload(args, workload_code("solver_tree", argv=args.values), libs=[POSITIONS])


def parser_of():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[2:]))
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name, run, help, port="emulated", ports=PORTS):
        sub = commands.add_parser(name, help=help, description=help)
        sub.add_argument("--board", default=pico_emulator.DEFAULT_BOARD,
                         help="for the emulated Pico: its board config, a file stem in board_configs/")
        sub.add_argument("--port", choices=ports, default=port,
                         help="where it runs: the emulated Pico (device time) or the unix port (default: %s)" % port)
        sub.set_defaults(run=run)
        return sub

    command("overview", overview, "perft, the search and every level's move time, the free heap"
            ).add_argument("--quick", action="store_true", help="every workload tiny: a smoke check")
    sub = command("search", search, "the midgame search's speed and each level's move times")
    sub.add_argument("--size", type=int, choices=(6, 8, 10), default=8, help="the board (6x6: also the solves)")
    sub.add_argument("--plain", action="store_true", help="the engine refused its viper search and solver")
    sub = command("endgame", endgame, "the exact endgame: the player's solves, the solver alone, the top level")
    sub.add_argument("--mhz", type=int, choices=(BASE_MHZ, 200), default=BASE_MHZ,
                     help="the clock the top level's moves are searched at, its budgets following it (default: %d)"
                          % BASE_MHZ)
    sub = command("game", game, "whole games of the computer against itself")
    sub.add_argument("--size", type=int, choices=(6, 8), default=8, help="6: levels 5-8, Othello and Anti-Othello")
    sub.add_argument("--anti", action="store_true", help="8x8 Anti-Othello (fewer discs wins)")
    command("book", book, "the opening book's lookup time and heap").add_argument(
        "--book", help="another book file, read in place of the shipped one (in /lib on the emulated Pico)")
    command("review", review, "the post-game review's time per position and how far it is exact")
    command("solver-heap", solver_heap, "the heap the viper solver takes as the player holds it")
    command("solver-tree", solver_tree, "the exact solver's tree with a bigger table or an oracle's moves",
            port="unix").add_argument("values", nargs="*", metavar="EMPTIES [TABLE_BITS [ORACLE_PLIES]]")
    ui_heap.add_arguments(command("ui-heap", ui_heap.run, ui_heap.__doc__.splitlines()[0], ports=("emulated",)))
    cycle_profile.add_arguments(command("profile", cycle_profile.run, cycle_profile.__doc__.splitlines()[0],
                                        ports=("emulated",)))
    return parser


def main(argv=None):
    parser = parser_of()
    args = parser.parse_args(argv)
    try:
        return args.run(args, parser) or 0
    except pico_emulator.ScriptError as error:  # the workload raised on the device: its output and traceback
        print(error, file=sys.stderr)
        return 1
    except micropython_runner.MicroPythonError as error:
        print(error, file=sys.stderr)
        return 1
    except (pico_emulator.PicoError, OSError) as error:
        print("error: %s" % error, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
