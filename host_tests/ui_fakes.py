"""A small fake device and a Driver that plays button scripts into the App: for running the UI under MicroPython.

On CPython the tests drive the App on the simulator's board instead
(ui_harness.BoardDriver); MicroPython runs (both interpreters, through the
`micropython` fixture) use this FakeDevice, which follows the hardware
layer's contract (firmware/hw/__init__.py): MicroPython's own framebuf,
buttons as a queue of (name, kind) events delivered one per poll, recorded
sound, dict storage (or files in a directory: FlashDirectory), and virtual
time that moves when the firmware sleeps.
"""

import io

import othello
from ui import keys
from ui.app import App


class FakeDisplay:
    def __init__(self, width=128, height=64):
        import framebuf

        self.width = width
        self.height = height
        self.buffer = bytearray(width * height // 8)
        self.fb = framebuf.FrameBuffer(self.buffer, width, height, framebuf.MONO_VLSB)
        self.shown = bytearray(self.buffer)  # what the panel shows: copied in place, as a panel holds it
        self.contrast_level = 255
        self.is_on = True

    def show(self):
        self.shown[:] = self.buffer

    def contrast(self, level):
        self.contrast_level = level

    def power(self, on):
        self.is_on = bool(on)

    def invert(self, inverted):
        pass


def shown_rows(display):
    """The picture a FakeDisplay shows, as rows of '#' (lit) and '.'."""
    shown = display.shown
    return [
        "".join("#" if shown[(y >> 3) * display.width + x] >> (y & 7) & 1 else "." for x in range(display.width))
        for y in range(display.height)
    ]


class FakeButtons:
    def __init__(self, names):
        self.names = tuple(names)
        self.queue = []

    def poll(self, now_ms):
        if self.queue:
            return [self.queue.pop(0)]
        return []


class FakeSound:
    """Keeps the last tune and a count, not every tune: a list of them would grow through a game
    and count against the heap the memory runs measure."""

    def __init__(self):
        self.last_tune = None
        self.tunes_played = 0
        self.enabled = True

    def play(self, tune):
        self.last_tune = tuple(tune)
        self.tunes_played += 1

    def update(self, now_ms):
        pass

    def stop(self):
        pass


class FakeStorage:
    """The flash as a dict of bytes; its files are io.BytesIO streams, which json.load and json.dump take."""

    def __init__(self, files=None):
        self.files = dict(files or {})

    def read(self, name):
        return self.files.get(name)

    def open_read(self, name):
        data = self.files.get(name)
        return None if data is None else io.BytesIO(data)

    def replace(self, name):
        return FakeReplacement(self.files, name)

    def write_atomic(self, name, data):
        with self.replace(name) as file:
            file.write(data)

    def remove(self, name):
        return self.files.pop(name, None) is not None

    def names(self):
        return sorted(self.files)


class FakeReplacement:
    """FakeStorage.replace: the new bytes take the name only if the with block ends normally."""

    def __init__(self, files, name):
        self.files = files
        self.name = name
        self.file = io.BytesIO()

    def __enter__(self):
        return self.file

    def __exit__(self, kind, value, traceback):
        if kind is None:
            self.files[self.name] = self.file.getvalue()
        return False


class FlashDirectory:
    """FakeStorage's contract on files in `root`: outside the heap, as the Pico's flash is (the memory runs).

    A dict of bytes keeps every saved file in the heap the firmware is measured in,
    and each save's new copy among the game's own objects."""

    def __init__(self, root):
        import os

        try:
            os.mkdir(root)
        except OSError:  # there already
            pass
        self.root = root

    def read(self, name):
        file = self.open_read(name)
        if file is None:
            return None
        with file:
            return file.read()

    def open_read(self, name):
        try:
            return open(self.root + "/" + name, "rb")
        except OSError:
            return None

    def replace(self, name):
        return open(self.root + "/" + name, "wb")

    def write_atomic(self, name, data):
        with self.replace(name) as file:
            file.write(data)

    def remove(self, name):
        import os

        try:
            os.remove(self.root + "/" + name)
        except OSError:
            return False
        return True

    def names(self):
        import os

        return sorted(os.listdir(self.root))


class Reset(BaseException):
    """Raised by the fake device's reset(), which on the Pico never returns."""


class FakeConfig:
    """The board config's part the app reads: this board has no link cable."""

    link = None


class FakeDevice:
    def __init__(self, buttons=("up", "down", "left", "right", "a", "b"), storage=None):
        self.config = FakeConfig()
        self.display = FakeDisplay()
        self.buttons = FakeButtons(buttons)
        self.sound = FakeSound()
        self.storage = FakeStorage() if storage is None else storage
        self.battery = None  # a board without a battery gauge
        self.now = 0

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, end, start):
        return end - start

    def ticks_add(self, ticks, delta):
        return ticks + delta

    search_mhz = 125

    def sleep_ms(self, ms):
        self.now += ms

    def nap(self, ms, deep=True):
        """As Device.nap: the fake never sleeps deeper than sleep_ms."""
        self.now += ms

    def full_speed(self):
        pass

    def base_speed(self):
        pass

    def sleep_until_pressed(self):
        """Switched off: a nap; a queued key wakes it."""
        self.now += 100
        return bool(self.buttons.queue)

    def reset(self):
        raise Reset()


class Driver:
    """Runs an App and presses its buttons: press() and hold() return when the app has done what they asked.

    This one works the FakeDevice's event queue; ui_harness.BoardDriver
    presses the simulated board's buttons instead.
    """

    def __init__(self, device=None, player=None):
        if player is None:
            import player
        self.device = device if device is not None else FakeDevice()
        self.app = App(self.device, player, othello.VERSION)
        self.crash_expected = False

    # ----- the buttons (the part a board driver does differently) -----

    def tap(self, name, times=1):
        for _ in range(times):
            self.device.buttons.queue += [(name, keys.PRESS), (name, keys.RELEASE)]

    def hold_down(self, name):
        self.device.buttons.queue += [(name, keys.PRESS), (name, keys.LONG), (name, keys.RELEASE)]

    def keys_pending(self):
        return bool(self.device.buttons.queue)

    def rows(self):
        return shown_rows(self.device.display)

    # ----- running the app -----

    @property
    def screen(self):
        return self.app.screen

    def step(self):
        """One turn of the app's loop; an unexpected crash screen fails the test with the logged traceback."""
        self.app.step()
        # by name: ui.screens is let go during games, and a new ErrorScreen class comes with its reload
        if type(self.app.screen).__name__ == "ErrorScreen" and not self.crash_expected:
            raise AssertionError("the app crashed:\n%s" % (self.device.storage.read("error.log") or b"").decode())

    def run(self, steps=1):
        for _ in range(steps):
            self.step()

    def wait(self, ms):
        end = self.device.ticks_add(self.device.ticks_ms(), ms)
        while self.device.ticks_diff(end, self.device.ticks_ms()) > 0:
            self.step()

    def settle(self, limit=3000):
        """Step until the keys are handled and the game screen waits for the player (no animation or pending move)."""
        for _ in range(limit):
            self.step()
            if not self.keys_pending() and not self.app.actions and not self.busy():
                self.step()
                return
        raise AssertionError("the app did not settle in %d steps" % limit)

    def busy(self):
        """The game screen has something to do before the player's next key: animate, think, pass, end."""
        screen = self.app.screen
        session = getattr(screen, "session", None)
        if session is None:
            return False
        if screen.flipping:
            return True
        # ui.play is loaded now (a game screen is up); importing it at the top would hold it in
        # the heap through power-up and the menus, where the device does not have it
        from ui.play import OVER, PASSING

        if screen.state == OVER:
            return False
        game = session.game
        if game.is_over():
            return True
        computer = session.level_of(game.turn) is not None
        if screen.state == PASSING:  # the computer's pass goes by itself, a person's waits
            return computer
        return computer or game.board.must_pass()

    def press(self, name, times=1):
        self.tap(name, times)
        self.settle()

    def hold(self, name):
        self.hold_down(name)
        self.settle()

    def menu_to(self, label):
        """Move the highlight of the current menu onto `label` and select it."""
        self.press("down", self.downs_to(label))
        self.press("a")

    def downs_to(self, label):
        # A frame of its own: MicroPython's collector reads a running frame's whole value stack, so the
        # menu, had menu_to() held it, would have kept the menus' code in the heap while a game starts.
        menu = self.app.screen
        labels = [item.label for item in menu.items]
        assert label in labels, "%r not in menu %r: %r" % (label, menu.title, labels)
        return (labels.index(label) - menu.index) % len(labels)

    def cursor_to(self, square):
        screen = self.app.screen
        n = screen.view.size
        row, column = divmod(screen.cursor, n)
        target_row, target_column = divmod(square, n)
        self.tap("right", (target_column - column) % n)
        self.tap("down", (target_row - row) % n)
        self.settle()
        assert self.app.screen.cursor == square

    def play(self, square):
        self.cursor_to(square)
        self.press("a")

    def play_out(self, choose=None):
        """Play the person's moves with the d-pad (choose(legal squares) -> square, the first by default),
        a pass with A, until the game is over; returns the number of moves played."""
        from ui.play import PASSING  # loaded now: a game screen is up (see busy())

        moves = 0
        game = self.app.session.game
        while not game.is_over():
            if self.screen.state == PASSING:
                self.press("a")
                continue
            assert self.screen.humans_turn, "the game screen waits for the computer"
            legal = game.board.legal_squares()
            self.play(legal[0] if choose is None else choose(legal))
            moves += 1
        return moves

    def play_level_one_game(self):
        """From the title: a game against the computer at level 1, started from the main menu and played out
        with the first legal move each time."""
        self.app.settings["level"] = 1
        self.press("a")
        self.menu_to("Play computer")
        self.menu_to("Start")
        self.play_out()
