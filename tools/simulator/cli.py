"""tools/sim: play the firmware on the desktop (terminal, window) or run a headless script."""

import argparse
import sys
from pathlib import Path

from . import BOARD_CONFIGS, DEFAULT_APP, DEFAULT_BOARD, REPO, cable
from .simulated import INTERPRETERS, MAX_BATTERY_V, SimulatedDevice, SimulatorError


def build_parser():
    parser = argparse.ArgumentParser(
        prog="sim",
        description="Pocket Othello's simulator: the firmware on simulated Pico hardware. "
        "Default: play in this terminal (arrows, Enter/Z = A, Esc/X = B, M = menu, Q quits; "
        "on a board with a battery gauge, v / V lower / raise the cells' voltage and u plugs or pulls USB).",
    )
    parser.add_argument("--board", default=DEFAULT_BOARD.stem, help="board config: a file stem in %s, or a JSON file's path "
                        "(default: %%(default)s)" % BOARD_CONFIGS)
    parser.add_argument("--interpreter", choices=INTERPRETERS, default="cpython", help="run the firmware under CPython or MicroPython's unix port")
    parser.add_argument("--app", default=str(DEFAULT_APP), help="the script the device runs at power-up (default: firmware/main.py)")
    parser.add_argument("--flash", help="directory standing for the Pico's flash (default: sim_flash/ when playing, empty for --headless)")
    front = parser.add_mutually_exclusive_group()
    front.add_argument("--window", action="store_true", help="play in a pygame window instead of the terminal")
    front.add_argument("--headless", metavar="SCRIPT", help="run a script of presses and waits (docs/SIMULATOR.md) and write its screenshots")
    parser.add_argument("--out", default="build/sim", help="where --headless writes PNG and GIF files (default: %(default)s)")
    parser.add_argument("--scale", type=int, default=6, help="pixel size in the window (default: %(default)s)")
    parser.add_argument("--heap", default="512K", help="MicroPython heap size (default: %(default)s)")
    parser.add_argument("--battery", metavar="VOLTS", help="run from cells at VOLTS at VSYS (e.g. 2.6; default: no cells, "
                        "USB power); keys v and V lower and raise it by 0.05 V, u plugs and pulls the USB cable (docs/POWER.md)")
    parser.add_argument("--usb", action="store_true", help="with --battery: a USB cable gives power too")
    parser.add_argument("--link", metavar="listen:PORT|connect:PORT", help="join this simulator's link cable to another "
                        "simulator's on this machine (TCP on 127.0.0.1): one listens, the other connects (docs/LINK.md)")
    parser.add_argument("--pico", action="store_true", help="run MicroPython's own RP2040 build on an emulated Pico "
                        "(tools/device/pico_emulator.py; slower than real time) instead of --interpreter")
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        args.board = resolve_board(args.board)
    except ValueError as error:
        print("sim: %s" % error, file=sys.stderr)
        return 2
    if args.window:
        from .window import NoDisplay, check_display

        try:
            check_display()  # before the firmware starts, and before SDL picks a driver that draws nowhere
        except NoDisplay as error:
            print("sim: %s" % error, file=sys.stderr)
            return 2
    flash = args.flash
    if flash is None and not args.headless:
        flash = str(REPO / "sim_flash")
    try:
        battery = battery_volts(args.battery)
        if args.link:
            cable.parse(args.link)  # a bad --link is refused before a firmware starts
        if args.pico:
            return run_pico(args, flash, battery)
        sim = SimulatedDevice(
            args.board,
            flash_dir=flash,
            interpreter=args.interpreter,
            app=args.app,
            # Linked simulators share the wall clock: in lockstep each would run its own virtual time.
            realtime=not args.headless or bool(args.link),
            heap=args.heap,
            battery=battery,
            usb=args.usb or battery is None,
        )
    except (OSError, ValueError) as error:
        print("sim: %s" % error, file=sys.stderr)
        return 2
    return run_linked(args, sim, SimulatorError)


def run_linked(args, sim, failure):
    """The front end on `sim`, its link cable joined to another simulator's with --link; `failure` is the
    error class of sim's firmware stopping (exit status 1). Closes sim."""
    joined = None
    try:
        if args.link:
            joined = cable.TcpCable(args.link, sim.feed_link)
            sim.link = joined.send
        return front_end(args, sim)
    except ValueError as error:
        print("sim: %s" % error, file=sys.stderr)
        return 2
    except failure as error:
        print("sim: %s" % error, file=sys.stderr)
        return 1
    finally:
        if joined is not None:
            joined.close()
        sim.close()


def battery_volts(text):
    """--battery's value in volts (None when not given); ValueError in one line for anything else."""
    if text is None:
        return None
    try:
        volts = float(text)
    except ValueError:
        raise ValueError("--battery takes the cells' voltage at VSYS in volts (e.g. 2.6), not %r" % text)
    if not 0 <= volts <= MAX_BATTERY_V:
        raise ValueError("--battery %s is out of range: 0 to %g V at VSYS" % (text, MAX_BATTERY_V))
    return volts


def resolve_board(board):
    """The checked path of board config `board`, named as `make flash` names it (tools/device/firmware_build.py)."""
    from device import firmware_build

    try:
        return firmware_build.board_config(board, firmware_build.Paths())
    except firmware_build.DeployError as error:
        raise ValueError(str(error))


def front_end(args, sim):
    """Run the front end the arguments ask for on `sim` (SimulatedDevice or EmulatedPico); the exit status."""
    if args.headless:
        from .script import ScriptError, run

        try:
            text = Path(args.headless).read_text()
            sim.power_on()
            for path in run(sim, text, args.out):
                print(path)
        except (ScriptError, OSError) as error:
            print("sim: %s" % error, file=sys.stderr)
            return 2
        if sim.console.strip():
            sys.stderr.write(sim.console)
        return 0 if sim.exit_status in (None, 0) else 1
    if args.window:
        from .window import NoDisplay, run_window

        try:
            run_window(sim, scale=args.scale)
        except NoDisplay as error:
            print("sim: %s" % error, file=sys.stderr)
            return 2
    else:
        from .terminal import run_terminal

        run_terminal(sim)
    return 0


def run_pico(args, flash, battery):
    """The same front ends on the emulated Pico; its flash image is kept in the --flash directory."""
    from device import pico_emulator

    try:
        keep = None if flash is None else Path(flash) / "pico_flash.bin"
        sim = pico_emulator.EmulatedPico(args.board, realtime=not args.headless or bool(args.link), keep=keep,
                                         battery=battery, usb=args.usb or battery is None)
    except (pico_emulator.PicoError, OSError, ValueError) as error:
        print("sim: %s" % error, file=sys.stderr)
        return 2
    return run_linked(args, sim, pico_emulator.PicoError)


if __name__ == "__main__":
    sys.exit(main())
