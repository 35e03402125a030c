#!/usr/bin/env python3
"""The real firmware on an emulated Raspberry Pi Pico: MicroPython's own RP2040 build on npm rp2040js.

    pico_emulator.py run SCRIPT.py [--lib FILE ...]  run a script through the raw REPL (as `mpremote run`),
                                                    with more modules in /lib
    pico_emulator.py boot [--board NAME] [--ms N]   power up into main.py: when each new picture appears,
                                                    when the menu is usable, a key's redraw
    pico_emulator.py speed [--board NAME]           how fast the emulation runs here against real time

The device benchmarks (device/bench.py) run their workloads through it.

The chip (tools/device/pico/chip.mjs, one Node process) runs the firmware and reports its pins and buses; this
side wires it as a board config says with the simulator's models (tools/simulator/hardware.py: the
OLED's controller decodes the real I2C or SPI bytes, buttons drive GPIO levels, the buzzer's PWM is
logged). Time is the emulated chip's: what time.ticks_ms() reads on the device.

The flash holds MicroPython (the .uf2 `make firmware` saves in build/, else ../shared/pico/) and a
littlefs2 filesystem with the rp2 port's geometry holding the `make flash` build (device/firmware_build.py:
the same files in the same places, compiled by mpy-cross). Flash writes go through the emulated bootrom's
routines, so saved files survive a reset or a power cycle and can be read back. Or the flash is what a
.uf2 installs (EmulatedPico(uf2=...)): the one file `make uf2` writes (device/uf2.py) boots as on a Pico.
"""

import argparse
import json
import os
import queue
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1]
REPO = TOOLS.parent
for _path in (str(TOOLS), str(REPO / "firmware")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from device import fetch_firmware, firmware_build  # noqa: E402
from simulator.hardware import Hardware, adc_counts  # noqa: E402
from simulator.simulated import SimulatedDevice, board_config, change_supply, check_supply, supply_text  # noqa: E402

CHIP_DIR = TOOLS / "device" / "pico"
CHIP = CHIP_DIR / "chip.mjs"
RP2040JS = CHIP_DIR / "node_modules" / "rp2040js" / "package.json"
SHARED_PICO = Path(os.environ.get("POCKET_OTHELLO_SHARED", REPO.parent / "shared")) / "pico"
BUILD = REPO / "build"
FIRMWARE_NAME = fetch_firmware.file_name("RPI_PICO")
DEFAULT_BOARD = "pico_breadboard_i2c"
STORAGE_ROOT = "data"  # where the firmware keeps its files (hw.STORAGE_ROOT)

# MicroPython v1.27 rp2, board RPI_PICO: the filesystem is the last 1408 KiB of the 2 MiB flash, mounted
# by ports/rp2/modules/_boot.py as vfs.VfsLfs2(bdev, progsize=256) (read 32, lookahead 32: extmod/vfs_lfs.c).
FLASH_SIZE = 2 * 1024 * 1024
FS_OFFSET = 0xA0000
FS_BLOCK_SIZE = 4096
FS_BLOCK_COUNT = (FLASH_SIZE - FS_OFFSET) // FS_BLOCK_SIZE
FS_GEOMETRY = dict(block_size=FS_BLOCK_SIZE, block_count=FS_BLOCK_COUNT, read_size=32, prog_size=256,
                   lookahead_size=32, cache_size=1024, name_max=255)
FS_DISK_VERSION = 0x00020001  # littlefs 2.1, what MicroPython's lib/littlefs writes

RAW_PROMPT = b"raw REPL; CTRL-B to exit\r\n>"
RUN_STEP_MS = 20  # real time: the chip runs in steps of this much emulated time
# Entering the raw REPL: no Ctrl-C until the chip has run this long since it started (its boot scripts mount
# the filesystem undisturbed), and at most this long for the prompt that follows a Ctrl-C.
BOOT_SETTLE_MS = 200
PROMPT_WAIT_MS = 300


class PicoError(Exception):
    """The emulated Pico cannot run: the message says what to run or fix."""


class ScriptError(PicoError):
    """A script run through the raw REPL raised: the message holds its output and traceback."""


# ----- what the emulator needs ------------------------------------------------


def firmware_file():
    """MicroPython's .uf2: the one `make firmware` saved in build/, else the one in ../shared/pico/."""
    for folder in (BUILD, SHARED_PICO):
        if (folder / FIRMWARE_NAME).exists():
            return folder / FIRMWARE_NAME
    raise PicoError("no MicroPython firmware for the Pico: run `make firmware` "
                    "(it saves build/%s)" % FIRMWARE_NAME)


def bootrom_file():
    """The RP2040's boot ROM (revision B1): ../shared/pico/, else the copy `make firmware` fetched into build/."""
    for folder in (SHARED_PICO, BUILD):
        if (folder / fetch_firmware.BOOTROM_NAME).exists():
            return folder / fetch_firmware.BOOTROM_NAME
    raise PicoError("no RP2040 boot ROM for the emulated Pico: run `make firmware` on a computer with "
                    "internet (it fetches build/%s and checks it)" % fetch_firmware.BOOTROM_NAME)


def node_program():
    if not RP2040JS.exists():
        raise PicoError("the emulator (npm rp2040js) is not installed: run `make pico-deps`")
    node = shutil.which("node")
    if not node:
        raise PicoError("Node.js is not installed: the emulated Pico needs Node 20 or later (nodejs.org)")
    return node


def available():
    """None when the emulated Pico can run here, else the reason it cannot."""
    try:
        firmware_file()
        bootrom_file()
        node_program()
    except PicoError as error:
        return str(error)
    return None


def uf2_payload(data):
    """{flash offset: bytes} of a UF2 image (checked by fetch_firmware's rules)."""
    problem = fetch_firmware.uf2_problem(data)
    if problem:
        raise PicoError("not a usable firmware file: " + problem)
    blocks = {}
    for at in range(0, len(data), fetch_firmware.UF2_BLOCK):
        address, size = struct.unpack_from("<II", data, at + 12)
        blocks[address - 0x10000000] = data[at + 32 : at + 32 + size]
    return blocks


# ----- the filesystem ---------------------------------------------------------


def _littlefs(mount=True, image=None):
    from littlefs import LittleFS, UserContext

    class QuietContext(UserContext):
        """littlefs-python's flash in memory, without its debug log call at every read: reading one file of
        an image takes hundreds of reads, and the call took half their time."""

        def read(self, cfg, block, off, size):
            start = block * cfg.block_size + off
            return self.buffer[start:start + size]

    context = QuietContext(FS_BLOCK_SIZE * FS_BLOCK_COUNT if image is None else None,
                           None if image is None else bytearray(image))
    fs = LittleFS(context, disk_version=FS_DISK_VERSION, mount=False, **FS_GEOMETRY)
    if image is None:
        fs.format()
    if mount:
        fs.mount()
    return fs


def filesystem_image(files):
    """The littlefs2 image (bytes) of {board path: bytes}, as MicroPython's rp2 port would have written it."""
    fs = _littlefs()
    folders = set()
    for board_path, data in sorted(files.items()):
        parts = board_path.strip("/").split("/")
        for depth in range(1, len(parts)):
            folder = "/" + "/".join(parts[:depth])
            if folder not in folders:
                fs.mkdir(folder)
                folders.add(folder)
        with fs.open(board_path, "wb") as file:
            file.write(data)
    fs.unmount()
    return bytes(fs.context.buffer)


def files_of_image(image):
    """{board path: bytes} of every file in a littlefs2 image."""
    fs = _littlefs(image=image)
    found = {}
    for root, _, names in fs.walk("/"):
        for name in names:
            board_path = "/" + "/".join(part for part in (root.strip("/"), name) if part)
            with fs.open(board_path, "rb") as file:
                found[board_path] = file.read()
    return found


def file_of_image(image, board_path):
    """The bytes of the file at `board_path` in a littlefs2 image, or None where there is none."""
    fs = _littlefs(image=image)
    try:
        with fs.open(board_path, "rb") as file:
            return file.read()
    except FileNotFoundError:
        return None


def build_files(board=DEFAULT_BOARD, main=True, extra=None, paths=None):
    """{board path: bytes} of `make flash BOARD=board` (device/firmware_build.py), without /main.py unless main.

    Built in a directory of its own, not in build/<board>/, which each build empties first: two
    emulations started side by side (device/replay.py's two commands) removed each other's files there.
    """
    paths = paths or firmware_build.Paths()
    with tempfile.TemporaryDirectory(prefix="pico-files-") as build:
        try:
            plan = firmware_build.build(board, firmware_build.Paths(paths.firmware, paths.configs, build, paths.tools))
        except firmware_build.DeployError as error:
            raise PicoError(str(error))
        files = {board_path: Path(local).read_bytes() for board_path, local in plan.items()}
    if not main:
        files.pop("/main.py")
    files.update(extra or {})
    return files


def installed(uf2, flash=None):
    """The flash (default: erased) after the boot ROM wrote each block of the .uf2 bytes `uf2` where it says."""
    flash = bytearray(b"\xff" * FLASH_SIZE) if flash is None else flash
    for offset, data in uf2_payload(uf2).items():
        if not 0 <= offset <= FLASH_SIZE - len(data):
            raise PicoError("a block of the .uf2 is for address 0x%08x, outside the Pico's 2 MiB flash"
                            % (offset + 0x10000000))
        flash[offset : offset + len(data)] = data
    return flash


def flash_image(files):
    """The whole 2 MiB flash: MicroPython at 0, the filesystem of {board path: bytes} at FS_OFFSET."""
    flash = installed(firmware_file().read_bytes())
    flash[FS_OFFSET:] = filesystem_image(files)
    return flash


# ----- the emulated Pico ------------------------------------------------------


class EmulatedPico(SimulatedDevice):
    """A Pico wired as `config` (board config: file stem, JSON path, dict) running MicroPython on rp2040js.

    files: {board path: bytes} on its filesystem (default: the `make flash` build of the config,
    build_files()). uf2: a .uf2 file installed instead of both (firmware and files), as when it is
    dropped on the RPI-RP2 drive of a Pico with an erased flash (device/uf2.py makes one with the game). Lockstep by default: emulated time moves only in run_for() and friends; with
    realtime=True it runs freely (as fast as the emulation goes) for the interactive front ends.
    A SimulatedDevice (tools/simulator/simulated.py) with another chip: what it shares (taps, the
    screen, the buzzer log, recording) is inherited, so the front ends and the headless scripts drive
    either; run_script() adds the raw REPL.
    """

    def __init__(self, config=DEFAULT_BOARD, files=None, realtime=False, seed=2040, timeout_s=600, main=True,
                 keep=None, uf2=None, battery=None, usb=None):
        source = config
        if isinstance(config, (str, Path)):  # named as every entry point names a board (firmware_build.board_config)
            try:
                source = firmware_build.board_config(config, firmware_build.Paths())
            except firmware_build.DeployError as error:
                raise PicoError(str(error))
        self.config, self.config_source = board_config(source)
        if uf2 is not None and (files is not None or keep is not None):
            raise PicoError("a .uf2 brings its own files: give uf2 without files or keep")
        if files is None and uf2 is None:
            if isinstance(config, (str, Path)):
                files = build_files(source, main=main)  # `make flash BOARD=config`, with the checked form it writes
            else:
                # A config given as a dict is a board.json new to the device: no checked form, so the
                # firmware checks it at power-up.
                files = build_files(main=main)
                files["/board.json"] = (json.dumps(self.config_source, indent=2) + "\n").encode()
                files.pop(firmware_build.CHECKED_ON_BOARD, None)
        self.keep = Path(keep) if keep else None
        if self.keep is not None and self.keep.exists():  # the saved files of the last session come back
            saved = files_of_image(self.keep.read_bytes()[FS_OFFSET:FLASH_SIZE])
            files.update((path, data) for path, data in saved.items() if path.startswith("/%s/" % STORAGE_ROOT))
        self.realtime = realtime
        self.seed = seed
        self.timeout_s = timeout_s
        self._work = Path(tempfile.mkdtemp(prefix="pocket-othello-pico-"))
        self._flash_path = self._work / "flash.bin"
        self._flash_path.write_bytes(installed(Path(uf2).read_bytes()) if uf2 is not None else flash_image(files))
        self.hardware = Hardware(self.config, seed)
        self.panel = self.hardware.panel
        self._process = None
        self.battery = None
        self.usb = True
        self.set_supply(battery, battery is None if usb is None else usb)
        self.now = 0  # emulated ms since the first power-up
        self._ns = 0
        self._started_ns = 0
        self.state = "off"
        self.exit_status = None
        self.ending = None  # why the emulator stopped, when it did on its own (halted)
        self.boots = 0
        self.resets = 0
        self.buttons_read_ms = None  # emulated ms of the firmware's last read of its button pins
        self._button_changed_ms = None
        self._console = []
        self._usb = bytearray()  # what the device wrote to USB, not yet read by the raw REPL
        self._usb_open = False
        self._replies = None
        self._lock = threading.Lock()
        self._pressed = set()
        self._runner = None
        self._recording = None
        self.frames = []
        self.frame_ms = 100
        self.power_lost_ns = 0  # emulated time spent off
        self.dormant = False  # the chip's crystal is stopped (machine.lightsleep() with no period)
        # The link cable's far end, as on SimulatedDevice: called with the bytes the board config's link UART
        # sends (on the thread that reads the chip); feed_link() carries bytes the other way.
        self.link = None

    # --- power ---

    def _chip_command(self):
        spec = self.config.display
        watch = [spec.reset] if spec.reset is not None else []
        if spec.bus == "spi":
            watch += [spec.pins["dc"], spec.pins["cs"]]
        command = [node_program(), str(CHIP), "--bootrom", str(bootrom_file()), "--flash", str(self._flash_path),
                   "--watch", ",".join(str(pin) for pin in watch if pin is not None)]
        if spec.bus == "i2c":
            command += ["--i2c", "%d:%d" % (spec.bus_id, spec.address)]
        if self.config.buzzer_pin is not None:
            command += ["--pwm", str(self.config.buzzer_pin)]
        if self.config.link is not None:
            command += ["--uart", str(self.config.link.uart_id)]
        return command

    def power_on(self):
        """Apply power: the panel powers up (noise in its RAM), the chip boots MicroPython, which runs main.py."""
        if self.state == "running":
            return self
        self.panel.power_up(self.seed + self.boots)
        self.hardware.levels.clear()
        self._replies = queue.Queue()
        self._usb_open = False
        self._usb.clear()
        self._process = subprocess.Popen(self._chip_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, bufsize=0)
        self._boot_ns = self._ns
        self._started_ns = self._ns  # the last power-up or machine.reset()
        threading.Thread(target=self._read, args=(self._process, self._replies), daemon=True).start()
        self.state = "running"
        self.exit_status = None
        self.ending = None
        self.buttons_read_ms = None
        self.boots += 1
        for name in self.hardware.buttons:
            self._set_button(name, name in self._pressed)
        self._send_supply()
        if self.realtime:
            self._runner = threading.Thread(target=self._run_freely, daemon=True)
            self._runner.start()
        return self

    def power_off(self):
        """Take the power away; the flash keeps what was written."""
        self._stop_runner()
        if self.state == "running":
            self._dump_flash()
        self._stop()
        self.state = "off"
        self.panel.power_up(self.seed + self.boots)

    def cut_power_at_flash_step(self, step):
        raise PicoError("the emulated Pico cannot cut its power at a flash write: use the simulator for that")

    def _stop_runner(self):
        runner, self._runner = self._runner, None
        if runner is not None:
            runner.join(self.timeout_s)

    def _stop(self):
        self._stop_runner()
        process, self._process = self._process, None
        if process is not None:
            if process.poll() is None:
                process.kill()
            process.wait()
            process.stdin.close()

    def close(self):
        if self.keep is not None and self.state == "running":
            self.power_off()
            self.keep.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(self._flash_path, self.keep)
        self._stop()
        self.state = "off"
        shutil.rmtree(self._work, ignore_errors=True)

    # --- the chip process ---

    def _send(self, line):
        process = self._process
        if process is None:
            return
        with self._lock:
            try:
                process.stdin.write(line.encode() + b"\n")
            except (BrokenPipeError, ValueError):
                pass  # the chip has gone; its end is in the reply queue

    def _read(self, process, replies):
        for raw in process.stdout:
            words = raw.decode().split()
            if not words:
                continue
            kind = words[0]
            if kind == "U":
                data = bytes.fromhex(words[1]) if len(words) > 1 else b""
                self._usb += data
                self._console.append(data.decode("utf-8", "replace"))
            elif kind == "I":
                spec = self.config.display
                if int(words[2]) == spec.bus_id:
                    self.hardware.i2c_write(spec.pins["scl"], spec.pins["sda"], int(words[3]), bytes.fromhex(words[4]))
            elif kind == "S":
                spec = self.config.display
                if spec.bus == "spi" and int(words[2]) == spec.bus_id:
                    self.hardware.spi_write(spec.pins["sck"], spec.pins["mosi"], bytes.fromhex(words[3]))
            elif kind == "O":
                self.hardware.output(int(words[2]), None if words[3] == "-" else int(words[3]))
            elif kind == "P":
                self.hardware.pwm(self._ms(words[1]), int(words[2]), int(words[3]), int(words[4]))
            elif kind == "L":
                if self.link is not None:
                    self.link(bytes.fromhex(words[1]))
            elif kind == "C":
                self._usb_open = True
            elif kind == "Z":  # the crystal stopped (auto-off's DORMANT) or a wake pin restarted it
                self.dormant = words[2] == "asleep"
            elif kind == "X":  # machine.reset(): the chip restarts, the board keeps its power
                self.resets += 1
                self._started_ns = self._boot_ns + int(words[1])
                self.buttons_read_ms = None
                self.hardware.levels.clear()
                self._usb_open = False
            else:
                replies.put(words)
        errors = process.stderr.read().decode("utf-8", "replace")
        replies.put(["gone", errors])

    def _ms(self, chip_ns):
        return (self._boot_ns + int(chip_ns)) // 1000000

    def _reply(self, kind):
        try:
            words = self._replies.get(timeout=self.timeout_s)
        except queue.Empty:
            raise PicoError("the emulated Pico did not answer in %d s" % self.timeout_s)
        if words[0] == "gone":
            said = " ".join(words[1:])[-3000:]
            self.state = "halted"
            self.ending = "the emulator stopped" + (":\n" + said if said.strip() else "")
            raise PicoError(self.ending)
        if words[0] != kind:
            raise PicoError("the emulator answered %r, not %s" % (" ".join(words), kind))
        return words

    def _dump_flash(self):
        self._send("dump %s" % self._flash_path)
        self._reply("D")

    def profile(self, counting):
        """Start counting the chip's cycles at each instruction address, afresh (counting=True), or stop.
        Emulated time runs as before: the counts are the device's own cycles."""
        self._send("profile on" if counting else "profile off")

    def profile_counts(self):
        """{instruction address: cycles spent there} counted while profiling."""
        path = self._work / "profile.json"
        self._send("profile %s" % path)
        self._reply("D")
        return {address: cycles for address, cycles in json.loads(path.read_text())}

    # --- time ---

    def _advance(self, ms):
        target = self._ns - self._boot_ns + ms * 1000000
        self._send("run %d" % target)
        reached, read = (int(word) for word in self._reply("T")[1:3])
        self._ns = self._boot_ns + reached
        self.now = self._ns // 1000000
        self.buttons_read_ms = None if read < 0 else (self._boot_ns + read) // 1000000

    def run_for(self, ms):
        """Let ms milliseconds of emulated time pass (the firmware runs; if the Pico is off, time just passes)."""
        if self.realtime:
            time.sleep(ms / 1000)
            return
        end = self.now + ms
        while self.now < end:
            if self.state != "running":
                self._ns = end * 1000000
                self.now = end
            elif self._recording is not None and self._recording[1] <= self.now:
                self._capture_frame()
            else:
                stop = end if self._recording is None else min(end, self._recording[1])
                self._advance(stop - self.now)
        while self._recording is not None and self._recording[1] <= self.now:
            self._capture_frame()

    def _run_freely(self):
        process = self._process
        runner = threading.current_thread()
        try:
            while self._runner is runner and process.poll() is None:
                self._advance(RUN_STEP_MS)
        except PicoError:
            pass  # _reply() said why: the front end shows it (poll, failure)
        if self._runner is runner:  # not stopped by power_off() or close(): the chip stopped by itself
            self.ending = self.ending or "the emulator's process ended with status %s" % process.wait()
            self.state = "halted"

    def poll(self):
        """Real time: the state ("halted" once the emulator stopped by itself; failure() says why)."""
        return self.state

    def input_clock(self):
        return self.now / 1000

    def reading_buttons(self):
        """Whether a button change made now is read in turn: the firmware has read its buttons since the
        last change (the buttons exist: hw.boot() made them; and the last change was seen).

        From power-up until the game's loop polls (about 1.5 s, longer in wall time), and while it loads
        a screen or redraws, the pins are not read: one change is latched by the pin's interrupt, but a
        second would merge with it or come out in pin order. So the front ends and scripts make one
        change per read (and each lasts at least the debounce time): every press counts, in order.
        """
        last = self.buttons_read_ms
        # In real time the chip runs up to RUN_STEP_MS ahead of self.now: a change lands within that.
        return last is not None and (self._button_changed_ms is None or last > self._button_changed_ms + RUN_STEP_MS)

    # --- the link cable: SimulatedDevice.feed_link, its bytes reach the RX pin a frame's time apart at the
    # firmware's baud rate (lost, as on a board, while the firmware has not opened its UART) ---

    def _link_bytes_command(self, hex_bytes):
        return "uart %s" % hex_bytes

    # --- the power supply (as SimulatedDevice's) ---

    def set_supply(self, battery=None, usb=False):
        """Cells at `battery` volts at VSYS (None: none) and/or USB: fed to the chip's ADC and VBUS pin."""
        check_supply(self.config, battery, usb)
        self.battery, self.usb = battery, bool(usb)
        if self._process is not None:
            self._send_supply()

    def change_supply(self, key):
        return change_supply(self, key)

    def supply_text(self):
        return supply_text(self.battery, self.usb)

    def _send_supply(self):
        analog, levels = self.hardware.power_inputs(self.battery, self.usb)
        for gpio, volts in analog:
            self._send("adc %d %d" % (gpio - 26, adc_counts(volts)))
        for gpio, level in levels:
            self._send("in %d %d" % (gpio, level))

    # --- the chip's power ---

    def power_account(self):
        """The chip's emulated time since the first power-up by what it did: {"run": {clk_sys Hz: ns},
        "wait": {clk_sys Hz: ns in WFI/WFE}, "dormant": ns, "undervolted": ns run above 133 MHz with the
        core under 1.15 V, "clk_sys": Hz now, "vsel": the VREG register's voltage field now}."""
        self._send("power")
        account = json.loads(self._reply("W")[2])
        for part in ("run", "wait"):
            account[part] = {int(hz): ns for hz, ns in account[part].items()}
        return account

    # --- buttons ---

    def _set_button(self, name, pressed):
        self._button_changed_ms = self.now
        level = self.hardware.button_level(name, pressed)
        (self._pressed.add if pressed else self._pressed.discard)(name)
        self._send("in %d %s" % (self.hardware.buttons[name].pin, "-" if level is None else level))

    def flash_files(self):
        """{path without the leading /: bytes} of every file on the emulated flash's filesystem."""
        return {path.lstrip("/"): data for path, data in files_of_image(self._flash_image()).items()}

    def flash_file(self, path):
        """The bytes of the file at `path` (without the leading /) on the emulated flash, or None where there
        is none: one file read, where flash_files() reads every file of the firmware."""
        return file_of_image(self._flash_image(), "/" + path)

    def _flash_image(self):
        if self.state == "running":
            self._dump_flash()
        return self._flash_path.read_bytes()[FS_OFFSET:FLASH_SIZE]

    def write_files(self, files):
        """Write {board path: bytes} into the filesystem while the Pico is off (as a host tool would)."""
        if self.state == "running":
            raise PicoError("write_files() needs the Pico off: power_off() first")
        flash = bytearray(self._flash_path.read_bytes())
        fs = _littlefs(image=flash[FS_OFFSET:])
        for board_path, data in files.items():
            fs.makedirs(board_path.rsplit("/", 1)[0] or "/", exist_ok=True)
            with fs.open(board_path, "wb") as file:
                file.write(data)
        fs.unmount()
        flash[FS_OFFSET:] = fs.context.buffer
        self._flash_path.write_bytes(flash)

    # --- the raw REPL over USB (what `mpremote run` does) ---

    def _expect(self, marker, timeout_ms, step_ms=20):
        if not self.run_until(lambda _: marker in self._usb, timeout_ms, step_ms):
            raise PicoError("the emulated Pico did not say %r in %d ms; it said:\n%s"
                            % (marker.decode(), timeout_ms, self.console[-2000:]))
        index = self._usb.index(marker)
        before = bytes(self._usb[:index])
        del self._usb[: index + len(marker)]
        return before

    def write_usb(self, data):
        """Bytes to the device's USB serial port, as a terminal sends them."""
        self._send("usb " + bytes(data).hex())

    def enter_raw_repl(self, soft_reset=True):
        """Stop whatever runs (Ctrl-C) and enter the raw REPL; soft_reset gives a fresh heap, as mpremote does."""
        if self.state != "running":
            self.power_on()
        if not self.run_until(lambda _: self._usb_open, 10000):
            raise PicoError("the emulated Pico's USB serial port did not open:\n" + self.console[-2000:])
        settle_ms = (self._started_ns - self._ns) // 1000000 + BOOT_SETTLE_MS
        if settle_ms > 0:
            self.run_for(settle_ms)
        self.write_usb(b"\r\x03\x03")
        # What the interrupted program printed, then the REPL's prompt (the raw REPL is asked for either way)
        self.run_until(lambda _: b">>> " in self._usb, PROMPT_WAIT_MS, 5)
        self._usb.clear()
        self.write_usb(b"\r\x01")
        self._expect(RAW_PROMPT, 5000)
        if soft_reset:
            self.write_usb(b"\x04")
            self._expect(b"soft reboot", 5000)
            self._expect(RAW_PROMPT, 10000)

    def run_script(self, code, timeout_ms=3600000, echo=None):
        """Run `code` in the raw REPL (enter_raw_repl() first); its output, or ScriptError with the traceback.

        echo: a file the output is copied to as it comes (e.g. sys.stdout for long benchmarks).
        """
        self.start_script(code)
        return self.script_output(timeout_ms, echo)

    def start_script(self, code):
        """Start `code` in the raw REPL and return while it runs (emulated time moves only as the caller
        lets it: buttons can change while the script runs); script_output() then waits for its end."""
        if isinstance(code, str):
            code = code.encode()
        self._usb.clear()
        self.write_usb(code + b"\x04")
        self._expect(b"OK", 10000)

    def script_output(self, timeout_ms=3600000, echo=None):
        """The output of the script start_script() started, once it ends, or ScriptError (run_script)."""
        output = bytearray()
        deadline = self.now + timeout_ms
        while True:
            done = self._usb.find(b"\x04")
            chunk = bytes(self._usb if done < 0 else self._usb[:done])
            del self._usb[: len(chunk)]
            output += chunk
            if echo is not None and chunk:
                echo.write(chunk.decode("utf-8", "replace").replace("\r\n", "\n"))
                echo.flush()
            if done >= 0:
                break
            if self.now >= deadline:
                raise PicoError("the script ran for more than %d emulated ms" % timeout_ms)
            self.run_for(100)
        del self._usb[:1]
        errors = self._expect(b"\x04", timeout_ms)
        self._expect(b">", 5000)
        text = output.decode("utf-8", "replace").replace("\r\n", "\n")
        if errors:
            raise ScriptError(text + errors.decode("utf-8", "replace").replace("\r\n", "\n"))
        return text


# ----- the command line ---------------------------------------------------------


def boot(board, ms, out):
    """Power up into main.py and print the emulated time at which each new picture appeared (10 ms steps),
    when the main menu was usable (on the glass, and the firmware read its buttons after drawing it), and
    how long a key then takes to change the picture (down: the menu's highlight moves)."""
    from simulator.reading import shows

    out.mkdir(parents=True, exist_ok=True)
    with EmulatedPico(board) as pico:
        pico.power_on()
        last, count, menu, usable = None, 0, None, None
        while pico.now < ms and usable is None:
            pico.run_for(10)
            screen = pico.screen_text()
            if screen != last:
                last, count = screen, count + 1
                name = out / ("boot_%02d.png" % count)
                pico.image(3).save(name)
                print("%6d ms  %s" % (pico.now, name))
                if menu is None and shows(pico.screen(), "Play computer"):
                    menu = pico.now
            if menu is not None and pico.buttons_read_ms is not None and pico.buttons_read_ms >= menu - 10:
                usable = pico.now
        if usable is None:
            print("no usable main menu within %d ms" % ms)
            print(pico.console, end="")
            return 1
        print("%6d ms  the main menu is usable: on the glass, and the buttons read after it" % usable)
        pico.press("down")
        pressed = pico.now
        if not pico.run_until(lambda p: p.screen_text() != last, 2000, 1):
            print("the down key changed nothing in 2 s")
            return 1
        print("%6d ms  from the down key to the menu's new picture" % (pico.now - pressed))
        pico.release("down")
        print(pico.console, end="")
    return 0



# Counts for 3 s of device time at a clock; the core voltage goes to 1.15 V before 200 MHz, as the firmware's
# power layer does (hw/power.py), and back after.
SPEED_SCRIPT = """
import machine, time
VREG = 0x40064000
machine.mem32[VREG] = (machine.mem32[VREG] & ~0xF0) | ((12 if %(hz)d > 133000000 else 11) << 4)
machine.freq(%(hz)d)
started = time.ticks_ms()
count = 0
while time.ticks_diff(time.ticks_ms(), started) < 3000:
    count = (count * 7 + 1) & 0xFFFF
machine.freq(125000000)
machine.mem32[VREG] = (machine.mem32[VREG] & ~0xF0) | (11 << 4)
"""


def speed(board):
    """Print how fast the emulation runs on this host against real time: computing (a Python loop) at
    125 and 200 MHz, and waiting for a key in the main menu (main.py's loop, napping between polls)."""
    def ratio(pico, action):
        device_ms, started = pico.now, time.monotonic()
        action()
        return (pico.now - device_ms) / 1000 / (time.monotonic() - started)

    with EmulatedPico(board, main=False) as pico:
        pico.enter_raw_repl()
        for hz in (125000000, 200000000):
            times = ratio(pico, lambda: pico.run_script(SPEED_SCRIPT % {"hz": hz}))
            print("computing at %d MHz: %.2fx real time" % (hz // 1000000, times))
    with EmulatedPico(board) as pico:
        pico.power_on()
        pico.run_for(4000)
        print("waiting in the main menu: %.2fx real time" % ratio(pico, lambda: pico.run_for(10000)))
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=("run", "boot", "speed"))
    parser.add_argument("script", nargs="?", help="for run: the MicroPython script")
    parser.add_argument("--board", default=DEFAULT_BOARD, help=firmware_build.BOARD_HELP)
    parser.add_argument("--lib", action="append", default=[], help="for run: one more module for /lib")
    parser.add_argument("--ms", type=int, default=6000, help="for boot: emulated milliseconds to run")
    parser.add_argument("--out", default=str(BUILD / "pico"), help="for boot: where the pictures go as PNG")
    args = parser.parse_args(argv)
    try:
        if args.action == "boot":
            return boot(args.board, args.ms, Path(args.out))
        if args.action == "speed":
            return speed(args.board)
        if not args.script:
            parser.error("run needs a script")
        code = Path(args.script).read_text()
        extra = {"/lib/" + Path(name).name: Path(name).read_bytes() for name in args.lib}
        files = build_files(main=False, extra=extra)
        with EmulatedPico(args.board, files=files) as pico:
            pico.enter_raw_repl()
            pico.run_script(code, echo=sys.stdout)
        return 0
    except ScriptError as error:
        print(error, file=sys.stderr)
        return 1
    except (PicoError, OSError) as error:
        print("error: %s" % error, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
