"""SimulatedDevice: the whole firmware in its own process, under CPython or MicroPython, on simulated hardware.

The firmware process (standins/simboot.py) runs the app the way the Pico
runs main.py at power-up, with the stand-in machine module talking to this
side over pipes (protocol in standins/hostlink.py). Here the records are
decoded into the panel, the buzzer log and the flash log (hardware.py).

Lockstep (the default): time is virtual and only moves when run_for() lets
it; a press or release happens at the current virtual instant. Runs are
deterministic: the same calls give the same pixels on every machine.
Real time (realtime=True, for the interactive front ends): the firmware
runs freely on the wall clock and button changes reach it as they happen.
"""

import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from . import DEFAULT_APP, FIRMWARE, STANDINS
from .hardware import Hardware
from .render import half_blocks, oled_image

RECORD = b"\x1e"
MAX_BATTERY_V = 6.0  # more at VSYS would destroy the Pico's regulator (5.5 V): the gauge's "?" can be tried up to here
SUPPLY_STEP_V = 0.05  # what a front end's v / V key takes from or gives to the cells
INTERPRETERS = ("cpython", "micropython")


def check_supply(config, battery, usb):
    """ValueError, in words, for a supply that cannot be: nothing at all, a voltage out of range, or cells
    on a board with no battery section."""
    if battery is None and not usb:
        raise ValueError("no power: fit cells (a battery voltage) or plug in USB")
    if battery is not None:
        if isinstance(battery, bool) or not isinstance(battery, (int, float)) or not 0 <= battery <= MAX_BATTERY_V:
            raise ValueError("the battery voltage must be a number of volts from 0 to %g, not %r" % (MAX_BATTERY_V, battery))
        if config.battery is None:
            raise ValueError("the board config has no battery section: nothing on the board measures a battery")


def change_supply(device, key):
    """A front end's supply key on `device` (a SimulatedDevice or an EmulatedPico): "drain" / "charge" move
    the cells' voltage by SUPPLY_STEP_V (fitting full cells first if there are none), "usb" plugs or pulls
    the cable (not the last supply). Returns the supply in words, or None on a board without a gauge."""
    if device.config.battery is None:
        return None
    battery, usb = device.battery, device.usb
    if key == "usb":
        usb = not usb
    else:
        if battery is None:
            battery = device.config.battery.full
        step = SUPPLY_STEP_V if key == "charge" else -SUPPLY_STEP_V
        battery = round(min(MAX_BATTERY_V, max(0.0, battery + step)), 2)
    if battery is not None or usb:
        device.set_supply(battery, usb)
    return supply_text(device.battery, device.usb)


def supply_text(battery, usb):
    """The supply in words for a status line: "2.60 V", "2.60 V + USB" or "USB"."""
    return " + ".join(([] if battery is None else ["%.2f V" % battery]) + (["USB"] if usb else []))


class SimulatorError(RuntimeError):
    """The simulation cannot go on (the firmware hangs, a process cannot start); the message has its console."""


def board_config(source):
    """(BoardConfig, source dict) from a BoardConfig, a dict, or a JSON file path."""
    import hw

    if isinstance(source, hw.BoardConfig):
        return source, source.source
    if isinstance(source, (str, Path)):
        source = json.loads(Path(source).read_text())
    return hw.load_config(source), source


def _process_end(returncode):
    """A process's return code in words: 'killed by signal 9 (SIGKILL)' or 'exit status 3'."""
    if returncode < 0:
        import signal

        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = "?"
        return "its process was killed by signal %d (%s)" % (-returncode, name)
    return "its process ended with exit status %d" % returncode


def _micropython_binary():
    tools = str(Path(__file__).resolve().parent.parent)
    if tools not in sys.path:
        sys.path.insert(0, tools)
    from runners import micropython_runner

    return micropython_runner.unix_binary()


class SimulatedDevice:
    """A Pico wired as `config` (BoardConfig, dict or JSON path) running `app` (default firmware/main.py).

    flash_dir: the flash (a temporary directory, removed by close(), if not
    given). The config is installed there as board.json unless
    install_config is False. interpreter: "cpython" or "micropython" (the
    unix port, heap `heap`). read_cost_ms and start_ticks: see simclock.py.
    timeout_s: wall-clock seconds the firmware may compute without letting
    virtual time move before SimulatorError. battery: the cells' voltage at
    VSYS (None: no cells, powered by USB); usb: a USB cable gives power too
    (default: only without cells). set_supply() changes either while it runs.
    """

    def __init__(
        self,
        config,
        flash_dir=None,
        interpreter="cpython",
        app=None,
        realtime=False,
        read_cost_ms=1,
        start_ticks=0,
        heap="512K",
        timeout_s=120,
        install_config=True,
        seed=2040,
        battery=None,
        usb=None,
    ):
        if interpreter not in INTERPRETERS:
            raise ValueError("interpreter is one of %s, not %r" % (INTERPRETERS, interpreter))
        self.config, source = board_config(config)
        self.interpreter = interpreter
        self.app = Path(app or DEFAULT_APP).resolve()
        self.realtime = realtime
        self.read_cost_ms = read_cost_ms
        self.start_ticks = start_ticks
        self.heap = heap
        self.timeout_s = timeout_s
        self.seed = seed
        self._own_flash = flash_dir is None
        self.flash_dir = Path(tempfile.mkdtemp(prefix="pocket-othello-flash-") if flash_dir is None else flash_dir)
        self.flash_dir.mkdir(parents=True, exist_ok=True)
        if install_config:
            (self.flash_dir / "board.json").write_text(json.dumps(source, indent=2) + "\n")
        self.hardware = Hardware(self.config, seed)
        self.panel = self.hardware.panel
        self.battery = None
        self.usb = True
        self.set_supply(battery, battery is None if usb is None else usb)
        self.now = 0  # ms since the simulation began (virtual in lockstep, wall clock in real time)
        self.state = "off"  # off, running, halted (the app ended), cut (power cut)
        self.exit_status = None
        self.ending = None  # how the firmware process ended, in words, when it did on its own (halted)
        self.boots = 0
        self.resets = 0
        self._console = []
        self._process = None
        self._reader = None
        self._events = None
        self._boot_at = 0
        self._wall_origin = time.monotonic()
        self._pressed = set()
        self._recording = None
        self.frames = []  # images kept by record()
        self.frame_ms = 100
        # The link cable's far end: called with the bytes the board config's link UART sends (on the
        # thread that reads the firmware's output); feed_link() carries bytes the other way.
        self.link = None
        self._send_lock = threading.Lock()

    # --- power ---

    def power_on(self):
        """Apply power: the panel powers up (noise in its RAM) and the firmware starts from main.py."""
        if self.state == "running":
            return self
        if not self.app.exists():
            raise SimulatorError("no firmware to run: %s does not exist" % self.app)
        self.panel.power_up(self.seed + self.boots)
        self.hardware.levels.clear()
        self._start()
        return self

    def power_off(self):
        """Take the power away (the flash keeps what was written)."""
        self._stop()
        self.state = "off"
        self.panel.power_up(self.seed + self.boots)  # an unpowered panel is dark; its RAM is lost

    def power_cycle(self, off_ms=0):
        self.power_off()
        self.run_for(off_ms)
        return self.power_on()

    def cut_power_at_flash_step(self, step):
        """The power goes just before the step-th flash-changing step from now (1 = the next one)."""
        self._send("C %d" % step)

    # --- the power supply ---

    def set_supply(self, battery=None, usb=False):
        """Cells at `battery` volts at VSYS (None: none fitted) and/or a USB cable (usb); a running firmware
        sees the new voltage at its next ADC reading. ValueError for a supply that cannot be."""
        check_supply(self.config, battery, usb)
        self.battery, self.usb = battery, bool(usb)
        if getattr(self, "_process", None) is not None:
            self._send_supply()

    def change_supply(self, key):
        """A front end's supply key (change_supply() below); supply_text() after it, or None without a gauge."""
        return change_supply(self, key)

    def supply_text(self):
        return supply_text(self.battery, self.usb)

    def _supply_inputs(self):
        return self.hardware.power_inputs(self.battery, self.usb)

    def _send_supply(self):
        analog, levels = self._supply_inputs()
        for gpio, volts in analog:
            self._send("A %d %d" % (gpio, round(volts * 1000)))
        for gpio, level in levels:
            self._send("L %d %d" % (gpio, level))

    def _command_line(self):
        paths = ":".join((str(STANDINS), str(FIRMWARE)))
        mode = "realtime" if self.realtime else "lockstep"
        wiring = ["i2c:%d:%d:%d" % device for device in self.hardware.i2c_devices()]
        wiring += ["pin:%d:%d" % (gpio, level) for gpio, level in self._pin_levels() if level is not None]
        analog, levels = self._supply_inputs()
        wiring += ["pin:%d:%d" % pin for pin in levels] + ["adc:%d:%d" % (gpio, round(volts * 1000)) for gpio, volts in analog]
        boot = [str(STANDINS / "simboot.py"), paths, str(self.app), mode, str(self.read_cost_ms), str(self.start_ticks)]
        if self.interpreter == "micropython":
            return [_micropython_binary(), "-X", "heapsize=%s" % self.heap] + boot + wiring
        return [sys.executable, "-I", "-S", "-u"] + boot + wiring

    def _start(self):
        self._process = subprocess.Popen(
            self._command_line(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=str(self.flash_dir),
            bufsize=0,
        )
        self._events = queue.Queue()
        self.dormant = False  # switched off (auto-off): the crystal stopped until a button
        self.state = "running"
        self.exit_status = None
        self.ending = None
        self.boots += 1
        self._boot_at = self.now
        self._reader = threading.Thread(target=self._read, args=(self._process, self._events), daemon=True)
        self._reader.start()
        if not self.realtime:
            self._wait_for_control()  # the firmware runs until it first looks at the clock

    def _pin_levels(self):
        for name in self.hardware.buttons:
            yield self.hardware.buttons[name].pin, self.hardware.button_level(name, name in self._pressed)

    def _stop(self):
        process = self._process
        self._process = None
        if process is not None:
            if process.poll() is None:
                process.kill()
            process.wait()
            process.stdin.close()
            # stdout is the reader thread's to close: closing it here could hand its descriptor
            # number to the next process's pipe while the thread still reads from it.
            self._reader.join(5)  # everything the process sent is decoded before anything else happens

    def close(self):
        self._stop()
        self.state = "off"
        if self._own_flash:
            shutil.rmtree(self.flash_dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    # --- the pipe ---

    def _send(self, line):
        process = self._process
        if process is None or process.poll() is not None:
            return
        try:
            with self._send_lock:  # the link cable's thread sends too (feed_link)
                process.stdin.write(line.encode() + b"\n")
                process.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass  # the firmware process has ended; its end is in the event queue

    def _read(self, process, events):
        buffer = bytearray()
        descriptor = process.stdout.fileno()
        while True:
            try:
                chunk = os.read(descriptor, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            buffer += chunk
            self._parse(buffer, events)
        process.stdout.close()
        if buffer:
            self._console.append(buffer.decode("utf-8", "replace"))
        events.put(("gone", [process.wait()]))

    def _parse(self, buffer, events):
        while buffer:
            mark = buffer.find(RECORD)
            if mark:
                text = buffer if mark < 0 else buffer[:mark]
                self._console.append(bytes(text).decode("utf-8", "replace"))
                del buffer[: len(text)]
                if mark < 0:
                    return
            end = buffer.find(b"\n")
            if end < 0:
                return
            words = bytes(buffer[1:end]).decode().split()
            payload = b""
            if words[0] in ("I", "S", "U"):
                size = int(words[-1])
                if len(buffer) < end + 1 + size:
                    return
                payload = bytes(buffer[end + 1 : end + 1 + size])
                del buffer[: end + 1 + size]
            else:
                del buffer[: end + 1]
            self._record(words, payload, events)

    def _record(self, words, payload, events):
        kind = words[0]
        hardware = self.hardware
        if kind == "I":
            hardware.i2c_write(int(words[1]), int(words[2]), int(words[3]), payload)
        elif kind == "S":
            hardware.spi_write(int(words[1]), int(words[2]), payload)
        elif kind == "U":
            if self.link is not None and self.config.link is not None and int(words[1]) == self.config.link.tx:
                self.link(payload)
        elif kind == "O":
            hardware.output(int(words[1]), None if words[2] == "-" else int(words[2]))
        elif kind == "P":
            hardware.pwm(self._time_of(words[1]), int(words[2]), int(words[3]), int(words[4]))
        elif kind == "F":
            hardware.flash_step(self._time_of(words[1]), words[2], " ".join(words[3:]))
        elif kind == "Z":  # auto-off: the chip stopped its crystal until a button wakes it, or woke
            self.dormant = words[2] == "asleep"
        else:
            events.put((kind, words[1:]))

    def _time_of(self, child_ms):
        if self.realtime:
            return self._wall_now()
        return self._boot_at + int(child_ms)

    def _wall_now(self):
        return int((time.monotonic() - self._wall_origin) * 1000)

    def _wait_for_control(self):
        """The next Y/X/C/E from the firmware; handles all but Y. Returns the virtual time reached, or None."""
        try:
            kind, args = self._events.get(timeout=self.timeout_s)
        except queue.Empty:
            self._stop()
            self.state = "halted"
            self.ending = "hung"
            raise SimulatorError(
                "the firmware ran %s s without letting time pass (an endless loop that neither sleeps nor reads the clock?)\n%s"
                % (self.timeout_s, self.console[-3000:])
            )
        if kind == "Y":
            return self._boot_at + int(args[0])
        return self._handle(kind, args)

    def _handle(self, kind, args):
        """A reset, a power cut or the end of the firmware; the virtual time reached, or None when it stopped."""
        if kind == "X":  # machine.reset(): the chip restarts, the board keeps its power
            self.now = self._time_of(args[0])
            self.resets += 1
            self._stop()
            self.hardware.levels.clear()  # a resetting RP2040 lets go of its outputs
            self._start()
            return self.now
        if kind == "C":
            self.now = self._time_of(args[0])
            self.hardware.flash_step(self.now, "power cut before " + args[1], " ".join(args[2:]))
            self._stop()
            self.state = "cut"
            self.panel.power_up(self.seed + self.boots)
            return None
        if kind == "E":
            self.exit_status = int(args[0])
            self.ending = "its main script ended with status %d" % self.exit_status
        else:  # "gone": the process ended without saying so
            self.ending = _process_end(args[0])
        self._stop()
        self.state = "halted"
        return None

    def poll(self):
        """Real time: act on what the firmware reported (a reset restarts it, its end halts it); the state."""
        while self.state == "running":
            try:
                kind, args = self._events.get_nowait()
            except queue.Empty:
                break
            if kind != "Y":
                self._handle(kind, args)
        return self.state

    def failure(self):
        """Why the firmware stopped, with the end of what it printed: for a front end to show. None while it runs."""
        if self.state != "halted":
            return None
        tail = self.console.strip()[-2000:]
        said = ("its last output:\n" + tail) if tail else "it printed nothing"
        return "the firmware stopped: %s; %s" % (self.ending, said)

    # --- time ---

    def run_for(self, ms):
        """Let ms milliseconds pass (the firmware runs; if it is off or halted, time just passes)."""
        end = self.now + ms
        if self.realtime:
            time.sleep(ms / 1000)
            self.now = self._wall_now()
            return
        while self.now < end:
            if self.state != "running":
                self.now = end
                break
            if self._recording is not None and self._recording[1] <= self.now:
                self._capture_frame()
                continue
            stop = end if self._recording is None else min(end, self._recording[1])
            self._send("R %d" % (stop - self._boot_at))  # always ahead of the firmware's clock
            reached = self._wait_for_control()
            if reached is not None:
                self.now = max(self.now, reached)
            if self._recording is not None and self.now >= self._recording[1]:
                self._capture_frame()
        if self._recording is not None and self.state != "running":
            while self._recording[1] <= end:
                self._capture_frame()

    def run_until(self, condition, timeout_ms, step_ms=10):
        """Run in steps until condition(self) holds; False if timeout_ms pass first."""
        deadline = self.now + timeout_ms
        while not condition(self):
            if self.now >= deadline:
                return False
            self.run_for(min(step_ms, deadline - self.now))
        return True

    # --- the link cable ---

    def feed_link(self, data):
        """Bytes arrive on the link UART's RX pin (lost, as on a board, if the firmware has no UART there)."""
        if data and self.config.link is not None:
            self._send(self._link_bytes_command(bytes(data).hex()))

    def _link_bytes_command(self, hex_bytes):
        return "B %d %s" % (self.config.link.rx, hex_bytes)

    # --- buttons ---

    def press(self, name):
        """Press a button and keep it down."""
        self._set_button(name, True)

    def release(self, name):
        self._set_button(name, False)

    def _set_button(self, name, pressed):
        level = self.hardware.button_level(name, pressed)
        (self._pressed.add if pressed else self._pressed.discard)(name)
        self._send("L %d %s" % (self.hardware.buttons[name].pin, "-" if level is None else level))

    def input_clock(self):
        """Seconds on the clock the firmware reads its buttons by: the front ends pace their presses by it."""
        return time.monotonic() if self.realtime else self.now / 1000

    def reading_buttons(self):
        """Whether a press made now is read by the firmware (here, from power-up: its start is quick)."""
        return self.state == "running"

    def until_reading_buttons(self, timeout_ms=60000):
        """Let time pass until a button change made now is read in turn (reading_buttons()): at once here,
        where the firmware computes in no virtual time; on an emulated Pico, once its loop polls again.
        False if timeout_ms pass first."""
        return self.run_until(lambda sim: sim.state != "running" or sim.reading_buttons(), timeout_ms)

    def tap(self, name, hold_ms=80, after_ms=120):
        """Press, hold for hold_ms, release, then let after_ms pass (each change once the firmware reads it)."""
        self.until_reading_buttons()
        self.press(name)
        self.run_for(hold_ms)
        self.until_reading_buttons()
        self.release(name)
        self.run_for(after_ms)

    def bounce(self, name, pressed, bounces=3, every_ms=1):
        """Change a button with contact bounce: it flips bounces times, every_ms apart, before settling."""
        for flip in range(bounces * 2):
            self._set_button(name, pressed if flip % 2 == 0 else not pressed)
            self.run_for(every_ms)
        self._set_button(name, pressed)

    # --- what can be seen and heard ---

    def screen(self):
        """The glass: 64 rows of 128 values, 1 where a pixel glows."""
        return self.panel.pixels()

    def screen_text(self, on="#", off="."):
        return ["".join(on if value else off for value in row) for row in self.screen()]

    def half_blocks(self):
        return half_blocks(self.screen())

    def image(self, scale=4):
        """The panel as a PIL image with the look of an OLED (brightness follows the contrast)."""
        return oled_image(self.screen(), self.panel.brightness(), scale)

    @property
    def buzzer_log(self):
        """(ms, Hz) at each change of what the buzzer sounds, 0 Hz = silent."""
        return list(self.hardware.buzzer_log)

    def notes(self):
        """(start ms, Hz, duration ms) of each tone heard so far."""
        return self.hardware.notes(self.now)

    @property
    def flash_log(self):
        """(ms, op, path) of every step that changed the flash."""
        return list(self.hardware.flash_log)

    def flash_files(self):
        """{relative path: bytes} of every file on the flash."""
        files = {}
        for path in sorted(self.flash_dir.rglob("*")):
            if path.is_file():
                files[path.relative_to(self.flash_dir).as_posix()] = path.read_bytes()
        return files

    def flash_file(self, path):
        """The bytes of the file at `path` (relative) on the flash, or None where there is none."""
        found = self.flash_dir / path
        return found.read_bytes() if found.is_file() else None

    @property
    def console(self):
        """Everything the firmware printed (tracebacks included)."""
        return "".join(self._console)

    # --- recording ---

    def record(self, every_ms=100, scale=3):
        """From now on, keep an image of the panel every every_ms of virtual time (see frames)."""
        self.frames = []
        self.frame_ms = every_ms
        self._recording = [every_ms, self.now, scale]
        self._capture_frame()

    def stop_recording(self):
        self._recording = None
        return self.frames

    def _capture_frame(self):
        every_ms, _, scale = self._recording
        self.frames.append(self.image(scale))
        self._recording[1] += every_ms
