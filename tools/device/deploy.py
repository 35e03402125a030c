#!/usr/bin/env python3
"""Put the firmware on a Raspberry Pi Pico running MicroPython (the Makefile's flash, run, repl, bench-device).

    deploy.py build --board NAME     compile firmware/ into build/NAME/ and print where each file goes
    deploy.py flash --board NAME     build, then bring the board up to date and reset it into the game
    deploy.py run --board NAME       build, then run the build from this computer (mpremote mount): nothing installed
    deploy.py repl                   MicroPython prompt on the board
    deploy.py bench                  the device benchmark's overview (device/bench.py overview) on the
                                     board's installed firmware, then reset
    deploy.py bench --port emulated  the same on the emulated Pico, with the build of --board (device/pico_emulator.py)

NAME is a file stem in board_configs/ (with or without .json) or a JSON file's path; --port picks the serial port (default: mpremote's auto).
The build is device/firmware_build.py's: the board's layout, mirrored in build/NAME/.

Flashing asks the board for SHA-256 hashes of the files it owns in one `mpremote exec`, then, in one
more mpremote session, removes stale files, copies what differs and resets. Files the firmware
writes at run time (settings, saved games) and packages installed with mip are never touched.
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1]
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))

from device.firmware_build import BOARD_HELP, CONFIG_ON_BOARD, MANIFEST, MARCH, DeployError, Paths, board_config, build  # noqa: E402

EMULATED = "emulated"  # --port: the emulated Pico of device/pico_emulator.py
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
More in docs/FLASHING.md, Troubleshooting."""
# How the advice names the port: for make's targets, and for host tools that take --port (tools/othello).
MAKE_PORT = "adding PORT=/dev/ttyACM0 (Windows: PORT=COM3) to the make command"
OPTION_PORT = "adding --port /dev/ttyACM0 (Windows: --port COM3) to the command"


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
                "If that fails, wipe its filesystem (docs/FLASHING.md, Troubleshooting).")
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

    def interactive(self, *commands, hint="docs/FLASHING.md, Troubleshooting, may help."):
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
    from device import bench as device_bench

    if port == EMULATED:
        return device_bench.main(["overview"] + (["--board", board] if board else []))
    return Mpremote(port).interactive("run", str(device_bench.workload_path("overview", paths.tools)), "+", "reset",
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
