"""The firmware's own power-up and a whole game, in a limited heap, on the simulator's stand-in `machine`.

    import device_memory; device_memory.main(8, "/firmware")

main(level, root) runs `root`/main.py as the Pico runs it at power-up (source,
executed from the flash root, with board.json next to it): hw.boot() opens
the real SSD1306 driver, Buttons, Sound and Storage through
tools/simulator/standins/machine.py, and the App runs. A scripted human
presses the board's buttons through the stand-in pins (80 ms down, 120 ms
up, as the simulator's tap): title, Play computer, the level stepped up to
`level`, Start, then every turn the first legal move (the cursor walked there
with right and down, placed with A; A also passes). The computer answers at
`level` with its own budget. Time is virtual (standins/simclock.py: 1 ms per
clock read, sleeps move it on). When the result has been on screen 500 ms
the run ends (GameFinished unwinds App.run(), which catches Exception only).

What is not the Pico's (the board, in this heap; its cost is printed):
- the stand-in modules (machine, simclock) and this driver: built into the
  Pico's firmware or absent there; measured before main.py starts
  (harness_live);
- the GPIO models the stand-in keeps for the pins the firmware opened
  (standin_gpio_bytes, measured at the end by dropping them);
- the flash: a dict of bytes here, LittleFS outside the heap on the Pico
  (flash_bytes, measured at the end by dropping it; the files only grow
  during a game, so this bounds their share of any earlier peak);
- the bus: bytes the display driver sends are counted and dropped (no panel
  model here; the simulator decodes them in another process), but the
  stand-in's I2C.writevto joins each frame into a new 1 KB bytes object,
  garbage the rp2 port's C code does not make.

Printed: one line per move, then
    boot_live    heap hw.boot() left in use (device, drivers, frame buffer,
                 hw modules' code, stand-in pins), after a collection
    harness_live the stand-ins and this driver before main.py starts
    peak_alloc   the largest gc.mem_alloc() seen at any clock read
    peak_live    the largest heap in use after a collection: at every 8th
                 clock read (each poll of the search reads the clock once)
                 and after every move
    standin_gpio_bytes, flash_bytes  as above
    heap_total   gc.mem_alloc() + gc.mem_free()
A MemoryError is caught by the App, which logs it and shows its crash
screen: the human sees that screen and the run stops with its traceback.
"""

import gc
import json
import os
import sys

import machine
import simclock

TAP_MS = 80
GAP_MS = 120
LOOK_MS = 10  # the human looks at the device every 10 ms of virtual time
RESULT_MS = 500
SAMPLE_EVERY = 8

PEAKS = [0, 0, 0]  # peak_alloc, peak_live, clock reads


class GameFinished(BaseException):
    """The human saw the result: ends App.run() (not an Exception, so the App does not catch it)."""


def sample(collect):
    if collect:
        gc.collect()
        live = gc.mem_alloc()
        if live > PEAKS[1]:
            PEAKS[1] = live
    used = gc.mem_alloc()
    if used > PEAKS[0]:
        PEAKS[0] = used


class SampledClock(simclock.VirtualClock):
    def ticks_ms(self):
        if not self._syncing:
            PEAKS[2] += 1
            sample(PEAKS[2] % SAMPLE_EVERY == 0)
        return simclock.VirtualClock.ticks_ms(self)


class RamFile:
    def __init__(self, flash, path, data=None):
        self._flash = flash
        self._path = path
        self._data = data
        self._parts = [] if data is None else None

    def read(self):
        return self._data

    def write(self, data):
        self._parts.append(bytes(data))
        return len(data)

    def close(self):
        if self._parts is not None:
            self._flash.files[self._path] = b"".join(self._parts)
            self._parts = None

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.close()
        return False


class RamFlash:
    """open/rename/remove/listdir/mkdir for hw.storage (standins/simflash.py's interface), held in this heap."""

    def __init__(self):
        self.files = {}
        self.dirs = [""]

    def _missing(self, path):
        if path not in self.files:
            raise OSError(2)  # ENOENT

    def open(self, path, mode="r"):
        if "w" in mode:
            return RamFile(self, path)
        self._missing(path)
        return RamFile(self, path, self.files[path])

    def rename(self, old, new):
        self._missing(old)
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        self._missing(path)
        del self.files[path]

    def mkdir(self, path):
        if path in self.dirs:
            raise OSError(17)  # EEXIST
        self.dirs.append(path)

    def listdir(self, path):
        prefix = path + "/"
        return [name[len(prefix):] for name in self.files if name.startswith(prefix)]


class Human:
    """Looks at the App's screen and presses the board's buttons; `app` is caught at the App's first loop."""

    def __init__(self, level, buttons):
        self.level = level
        self.buttons = buttons  # name -> (gpio, level when pressed, level when released or None)
        self.clock = None
        self.app = None
        self.hooked = False
        self.down = None
        self.since = 0
        self.moves = 0
        self.over_at = None
        self.result = None

    # --- the hands ---

    def sync(self):
        clock = self.clock
        now = clock.elapsed
        clock.target = now + LOOK_MS
        if self.app is None:
            self.catch_app()
            return
        self.count_moves()
        if self.down is not None:
            if now - self.since >= TAP_MS:
                self.set_button(self.down, False)
                self.down = None
                self.since = now
            return
        if now - self.since < GAP_MS:
            return
        name = self.next_button(now)
        if name is not None:
            self.set_button(name, True)
            self.down = name
            self.since = now

    def set_button(self, name, pressed):
        gpio, active, released = self.buttons[name]
        machine.set_external(gpio, active if pressed else released)

    def catch_app(self):
        """The human needs the App to look at: its first loop_once() hands it over, then the method is restored."""
        module = sys.modules.get("ui.app")
        if module is None or self.hooked:
            return
        self.hooked = True
        app_class = module.App
        loop_once = app_class.loop_once
        human = self

        def first_loop(app):
            human.app = app
            app_class.loop_once = loop_once
            return loop_once(app)

        app_class.loop_once = first_loop

    # --- the eyes ---

    def count_moves(self):
        session = getattr(self.app.screen, "session", None)
        if session is not None and len(session.game.history) != self.moves:
            self.moves = len(session.game.history)
            sample(True)
            print("move", self.moves, "live", PEAKS[1])

    def next_button(self, now):
        app = self.app
        screen = app.screen
        kind = type(screen).__name__  # by name: the firmware reloads the menus' modules
        if kind == "TitleScreen":
            return "a"
        if kind == "Menu":
            return self.in_menu(screen)
        if kind == "GameScreen":
            return self.in_game(screen, now)
        if kind == "ErrorScreen":
            log = app.device.storage.read("error.log") or b""
            raise GameFinished("the App crashed:\n" + log.decode())
        raise GameFinished("unexpected screen %s" % kind)

    def in_menu(self, menu):
        if menu.title == "Pocket Othello":
            target = "Play computer"
        elif menu.title == "Play computer":
            target = "Level" if self.app.settings["level"] != self.level else "Start"
        else:
            raise GameFinished("unexpected menu %r" % menu.title)
        index = 0
        while menu.items[index].label != target:
            index += 1
        if index != menu.index:
            return "down"
        return "right" if target == "Level" else "a"

    def in_game(self, screen, now):
        session = screen.session
        game = session.game
        if screen.state == 2:  # OVER: the result is on screen
            if self.over_at is None:
                self.over_at = now
                self.result = game.result()
            elif now - self.over_at >= RESULT_MS:
                raise GameFinished("over")
            return None
        if screen.thinking is not None or screen.flipping or self.app.actions or not screen.humans_turn:
            return None
        if screen.state == 1:  # PASSING: the human has no move
            return "a"
        board = game.board
        target = board.legal_squares()[0]
        row, column = divmod(screen.cursor, board.size)
        target_row, target_column = divmod(target, board.size)
        if column != target_column:
            return "right"
        if row != target_row:
            return "down"
        return "a"


class Board:
    """What standins/machine.py asks of a board: the display acknowledging on its bus, the human's buttons."""

    def __init__(self, clock, files, i2c_display):
        self.clock = clock
        self.files = files
        self.i2c_display = i2c_display  # (scl, sda, address), or None on SPI
        self.bus_bytes = 0

    def output(self, gpio, level):
        pass

    def i2c_write(self, scl, sda, address, data):
        if (scl, sda, address) != self.i2c_display:
            return False
        self.bus_bytes += len(data)
        return True

    def spi_write(self, sck, mosi, data):
        self.bus_bytes += len(data)

    def pwm(self, gpio, freq, duty):
        pass

    def reset(self):
        raise GameFinished("machine.reset()")


def wiring(config_path):
    """(the I2C display's (scl, sda, address) or None, {button: (gpio, pressed level, released level)})."""
    with open(config_path) as file:
        config = json.load(file)
    display = config["display"]
    i2c_display = None
    if display["bus"] == "i2c":
        bus = display["i2c"]
        address = bus.get("address", "0x3C")
        i2c_display = (bus["scl"], bus["sda"], int(address, 16) if isinstance(address, str) else address)
    buttons = {}
    for name, spec in config["buttons"].items():
        active = 0 if spec.get("active", "low") == "low" else 1
        pull = spec.get("pull", "up")
        buttons[name] = (spec["pin"], active, (1 - active) if pull == "none" else None)
    return i2c_display, buttons


def bytes_held_by(holder, attribute, empty):
    """Heap that `holder.attribute` keeps alive, found by replacing it with `empty` for a collection."""
    gc.collect()
    before = gc.mem_alloc()
    kept = getattr(holder, attribute)
    setattr(holder, attribute, empty)
    kept_id = id(kept)
    kept = None
    gc.collect()
    after = gc.mem_alloc()
    return before - after, kept_id


def main(level, root):
    os.chdir(root)
    i2c_display, buttons = wiring("board.json")
    human = Human(level, buttons)
    clock = SampledClock(0, 1, sync=human.sync)
    human.clock = clock
    board = Board(clock, RamFlash(), i2c_display)
    machine.attach(board)
    for gpio, _, released in buttons.values():
        machine.set_external(gpio, released)
    with open("main.py") as file:
        source = file.read()
    gc.collect()
    harness_live = gc.mem_alloc()
    import hw  # main.py's first statement: imported here so that hw.boot() can be measured

    boot = hw.boot

    def measured_boot(*args):
        gc.collect()
        before = gc.mem_alloc()
        opened = boot(*args)
        gc.collect()
        print("boot_live", gc.mem_alloc() - before)
        hw.boot = boot
        return opened

    hw.boot = measured_boot
    sample(True)
    try:
        exec(source, {"__name__": "__main__"})
        print("main.py returned: the App stopped")
    except GameFinished as finished:
        if human.result is None:
            print("stopped:", finished)
    # The firmware's objects went with main.py's frames; the stand-ins' state is still held.
    gpio_bytes = bytes_held_by(machine, "_gpios", {})[0]
    flash_bytes = bytes_held_by(board.files, "files", {})[0]
    print("result", human.result)
    print("moves", human.moves)
    print("virtual_ms", clock.elapsed)
    print("bus_bytes", board.bus_bytes)
    print("harness_live", harness_live)
    print("standin_gpio_bytes", gpio_bytes)
    print("flash_bytes", flash_bytes)
    print("peak_alloc", PEAKS[0])
    print("peak_live", PEAKS[1])
    print("heap_total", gc.mem_alloc() + gc.mem_free())
