"""The firmware's own power-up and a whole game, in a limited heap, on the simulator's stand-in `machine`.

    import device_memory; device_memory.main(8, "/firmware")

main(level, root, games=1) runs `root`/main.py as the Pico runs it at power-up (source,
executed from the flash root, with board.json next to it): hw.boot() opens
the real display driver, Buttons, Sound and Storage through
tools/simulator/standins/machine.py, and the App runs. A scripted human
presses the board's buttons through the stand-in pins (80 ms down, 120 ms
up, as the simulator's tap): title, Play computer, the level stepped up to
`level`, Start, then every turn the first legal move (the cursor walked there
with right and down, or stepped with NEXT on boards without a d-pad, placed
with A; A also passes). With games > 1 the human plays on as a player would
without switching the device off: the second game with A at the result
("Play again"), the third from the main menu (BACK opens the game menu,
"Main menu", then Play computer and Start, so the menus' code comes back
and goes again), and so on in turn; boards with no key that means BACK at
a tap play again each time. The human reads the App's state (caught at its first
loop) only while the firmware sleeps between two turns of its loop. The
computer answers at `level` with its own budget (its opening book picks with
a seed from the interpreter's clock, so games vary from run to run). Time is
virtual (standins/simclock.py: 1 ms per clock read, sleeps move it on). When
the last result has been on screen 500 ms the run ends (GameFinished unwinds
App.run(), which catches Exception only).

What is not the Pico's (the board, in this heap; its cost is printed):
- the stand-in modules (machine, simclock), this driver and the GPIO models
  of the buttons: built into the Pico's firmware or absent there; measured
  before main.py starts (harness_live);
- the bus: bytes the display driver sends are counted and dropped (the
  simulator decodes them in another process). A frame goes out with one
  writeto of the driver's own buffer, which neither the stand-in nor the
  rp2 port copies.

The flash is the interpreter's own filesystem under `root` (the WASI build
mounts it writable), so its files stay out of this heap as LittleFS keeps
them out of the Pico's; the saved files are removed before power-up, so
every run starts with no game to resume. (LittleFS also takes a 1 KB cache
in the heap for each open file, which these files do not.)

Printed: one line per move (the live heap after it), a line per game
    game N result ... moves M live L
where L is the heap in use after a collection once that game's result has
been on screen (the same moment in every game: a leak across games shows as
L growing from game to game), then
    boot_live    heap hw.boot() left in use after a collection: the hw
                 modules, the device and its frame buffer, the othello
                 package (hw.display imports othello.compat), stand-in pins
    harness_live the stand-ins and this driver before main.py starts
    standin_gpio_bytes  the stand-in's GPIO models at the end (those of the
                 buttons are in harness_live)
    peak_alloc   the largest gc.mem_alloc() seen at any clock read
    peak_live    the largest heap in use after a collection: at every 8th
                 clock read (each poll of the search reads the clock once)
                 and after every move
    heap_total   gc.mem_alloc() + gc.mem_free()
A MemoryError the App catches is written to its error.log, printed at the
end; the human stops at the crash screen ("stopped: ..."), and the games
line counts only the games finished.
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
SAVED_FILES = "data"  # hw.STORAGE_ROOT
GIVE_UP_MS = 10 * 60 * 1000  # a game (of `games`) takes about a minute of virtual time; main.py's crash screen waits forever
SAMPLE_EVERY = 8

PEAKS = [0, 0, 0]  # peak_alloc, peak_live, clock reads


class GameFinished(BaseException):
    """The human saw the result: ends App.run() (not an Exception, so the App does not catch it)."""


def sample(collect):
    """Updates the peaks; returns the heap in use (after a collection if `collect`)."""
    if collect:
        gc.collect()
        live = gc.mem_alloc()
        if live > PEAKS[1]:
            PEAKS[1] = live
    used = gc.mem_alloc()
    if used > PEAKS[0]:
        PEAKS[0] = used
    return used


class SampledClock(simclock.VirtualClock):
    """The simulator's virtual clock, sampling the heap at its reads; `resting` while the firmware sleeps."""

    resting = False

    def ticks_ms(self):
        if not self._syncing:
            PEAKS[2] += 1
            sample(PEAKS[2] % SAMPLE_EVERY == 0)
        return simclock.VirtualClock.ticks_ms(self)

    def sleep_ms(self, ms):
        self.resting = True
        try:
            simclock.VirtualClock.sleep_ms(self, ms)
        finally:
            self.resting = False


class Human:
    """Looks at the App's screen and presses the board's buttons; `app` is caught at the App's first loop."""

    def __init__(self, level, buttons, games=1):
        self.level = level
        self.buttons = buttons  # name -> (gpio, level when pressed, level when released or None)
        self.games = games
        self.games_played = 0
        self.to_main_menu = False  # on the way from a result to the main menu
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
        """Called by the clock every LOOK_MS: lets go of a button in time whenever that is, but looks at
        the screen and presses only while the firmware sleeps (the App's state is whole then)."""
        clock = self.clock
        now = clock.elapsed
        clock.target = now + LOOK_MS
        if self.down is not None:
            if now - self.since >= TAP_MS:
                self.set_button(self.down, False)
                self.down = None
                self.since = now
            return
        if not clock.resting:
            return
        if now > GIVE_UP_MS * self.games:
            raise GameFinished("no result after %d ms: the App did not start, or main.py shows its crash screen" % now)
        if self.app is None:
            self.catch_app()
            return
        self.count_moves()
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
        if not self.app.screens:  # between two screens (App.move_to), or after a failure to open one
            return
        session = getattr(self.app.screen, "session", None)
        if session is not None and len(session.game.history) != self.moves:
            self.moves = len(session.game.history)
            if self.moves:  # (0: the next game has begun)
                print("move", self.moves, "live", sample(True))

    def next_button(self, now):
        app = self.app
        if not app.screens:
            return None
        screen = app.screen
        kind = type(screen).__name__  # by name: the firmware reloads the menus' modules
        if kind == "TitleScreen":
            return "a"
        if kind == "Menu":
            return self.in_menu(screen)
        if kind == "GameScreen":
            return self.in_game(screen, now)
        if kind == "ErrorScreen":  # RamFile printed the error as the App logged it
            raise GameFinished("the App crashed")
        raise GameFinished("unexpected screen %s" % kind)

    def step_button(self):
        """The button that moves to the next menu line (with a d-pad: down; else down or right give NEXT)."""
        return "down" if "down" in self.buttons else "right"

    def back_button(self):
        """The button whose tap means BACK, or None (boards where only holding A does)."""
        from ui.keys import BACK  # loaded by the firmware by now: not part of the harness

        for name, role in self.app.keymap.roles.items():
            if role[0] == BACK:
                return name
        return None

    def in_menu(self, menu):
        if menu.title == "Game" and self.to_main_menu:
            target = "Main menu"
        elif menu.title == "Pocket Othello":
            self.to_main_menu = False
            target = "Play computer"
        elif menu.title == "Play computer":
            target = "Level" if self.app.settings["level"] != self.level else "Start"
        else:
            raise GameFinished("unexpected menu %r" % menu.title)
        index = 0
        while menu.items[index].label != target:
            index += 1
        if index != menu.index:
            return self.step_button()
        if target == "Level" and self.app.keymap.scheme == "dpad":
            return "right"  # steps the level up; without a d-pad, A steps it
        return "a"

    def in_game(self, screen, now):
        session = screen.session
        game = session.game
        if screen.state == 2:  # OVER: the result is on screen
            if self.over_at is None:
                self.over_at = now
                self.result = game.result()
                return None
            if now - self.over_at < RESULT_MS:
                return None
            self.games_played += 1
            self.over_at = None
            print("game", self.games_played, "result", self.result, "moves", self.moves, "live", sample(True))
            if self.games_played >= self.games:
                raise GameFinished("over")
            back = self.back_button()
            if self.games_played % 2 == 0 and back is not None:
                self.to_main_menu = True
                return back  # the game menu, then "Main menu"
            return "a"  # "Play again"
        if screen.thinking is not None or screen.flipping or self.app.actions or not screen.humans_turn:
            return None
        if screen.must_pass:  # A passes once the screen says so (PASSING)
            return "a" if screen.state == 1 else None
        from othello.compat import bit_index  # loaded by the firmware by now: not part of the harness

        size = game.board.size
        target = bit_index(screen.legal & -screen.legal)  # the first legal square, from what the screen knows
        if screen.cursor == target:
            return "a"
        if self.app.keymap.scheme != "dpad":
            return self.step_button()  # NEXT: the next legal square
        row, column = divmod(screen.cursor, size)
        target_row, target_column = divmod(target, size)
        return "right" if column != target_column else "down"


class Board:
    """What standins/machine.py asks of a board: the display acknowledging on its bus, the human's buttons."""

    files = None  # hw.storage then uses the interpreter's own open() and os, as on the Pico

    def __init__(self, clock, i2c_display):
        self.clock = clock
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
    setattr(holder, attribute, empty)
    gc.collect()
    return before - gc.mem_alloc()


def clear_saved_files():
    try:
        names = os.listdir(SAVED_FILES)
    except OSError:  # no directory yet: the firmware makes it
        return
    for name in names:
        os.remove(SAVED_FILES + "/" + name)


def print_error_log():
    try:
        with open(SAVED_FILES + "/error.log") as log:
            print("error.log:", log.read())
    except OSError:  # no error was logged
        pass


def main(level, root, games=1):
    os.chdir(root)
    clear_saved_files()
    i2c_display, buttons = wiring("board.json")
    human = Human(level, buttons, games)
    clock = SampledClock(0, 1, sync=human.sync)
    human.clock = clock
    board = Board(clock, i2c_display)
    machine.attach(board)
    # The stand-in's log of clock changes and sleeps is the harness's, not the firmware's: off here, it
    # would grow by some 50 KB in a game and be counted as the firmware's heap.
    machine.POWER_LOG_KEPT = 0
    for gpio, _, released in buttons.values():
        machine.set_external(gpio, released)
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
        __import__("main")  # main.py, compiled from source as the Pico runs it at power-up
        print("main.py returned: the App stopped")
    except GameFinished as finished:
        if human.result is None:
            print("stopped:", finished)
    # The firmware's objects went with main.py's frames; the stand-ins' state is still held.
    gpio_bytes = bytes_held_by(machine, "_gpios", {})
    print_error_log()
    print("result", human.result)
    print("games", human.games_played)
    print("moves", human.moves)
    print("virtual_ms", clock.elapsed)
    print("bus_bytes", board.bus_bytes)
    print("harness_live", harness_live)
    print("standin_gpio_bytes", gpio_bytes)
    print("peak_alloc", PEAKS[0])
    print("peak_live", PEAKS[1])
    print("heap_total", gc.mem_alloc() + gc.mem_free())
