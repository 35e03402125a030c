"""Test helpers for the UI on CPython: a Driver that plays button scripts into the App, and screen pictures.

The device is ui_fakes.FakeDevice; its framebuffer is the simulator's port
of MicroPython's framebuf (tools/simulator/standins/framebuf.py), so the
pixels are the ones the device draws.
"""

import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if "framebuf" not in sys.modules:
    _spec = importlib.util.spec_from_file_location("framebuf", REPO / "tools" / "simulator" / "standins" / "framebuf.py")
    _framebuf = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_framebuf)
    sys.modules["framebuf"] = _framebuf

from ui_fakes import FakeDevice, FakeDisplay, FakeStorage, Reset  # noqa: E402, F401  (needs framebuf above)

REFERENCE_IMAGES = Path(__file__).resolve().parent / "reference_images"


def pixels(display):
    """The shown frame as rows of '#' and '.', for readable assertions."""
    rows = []
    for y in range(display.height):
        row = []
        for x in range(display.width):
            row.append("#" if display.shown[(y >> 3) * display.width + x] >> (y & 7) & 1 else ".")
        rows.append("".join(row))
    return rows


def image(display, scale=1):
    from PIL import Image

    picture = Image.new("L", (display.width, display.height))
    data = picture.load()
    for y, row in enumerate(pixels(display)):
        for x, char in enumerate(row):
            data[x, y] = 255 if char == "#" else 0
    if scale != 1:
        picture = picture.resize((display.width * scale, display.height * scale), Image.NEAREST)
    return picture


class Driver:
    """Runs an App on a FakeDevice and plays button scripts into it."""

    def __init__(self, device=None, player=None, buttons=None, storage=None):
        import othello

        if player is None:
            import player
        self.device = device or FakeDevice(buttons, storage)
        from ui.app import App

        self.app = App(self.device, player, othello.VERSION)
        self.crash_expected = False

    def step(self):
        """One turn of the app's loop; an unexpected crash screen fails the test with the logged traceback."""
        from ui.screens import ErrorScreen

        self.app.step()
        if isinstance(self.app.screen, ErrorScreen) and not self.crash_expected:
            raise AssertionError("the app crashed:\n%s" % (self.device.storage.read("error.log") or b"").decode())

    @property
    def screen(self):
        return self.app.screen

    def run(self, steps=1):
        for _ in range(steps):
            self.step()

    def settle(self, limit=2000):
        """Step until every queued event is handled and the screen is quiet (no animation, no pending move)."""
        for _ in range(limit):
            self.step()
            if not self.device.buttons.queue and not self.app.actions and not self.busy():
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
        if screen.state == 2:  # game over, shown
            return False
        game = session.game
        if game.is_over():
            return True
        computer = session.level_of(game.turn) is not None
        if screen.state == 1:  # a pass announced: the computer's goes by itself, a person's waits
            return computer
        return computer or game.board.must_pass()

    def press(self, name, times=1):
        self.device.buttons.press(name, times)
        self.settle()

    def hold(self, name):
        self.device.buttons.hold(name)
        self.settle()

    def wait(self, ms):
        end = self.device.now + ms
        while self.device.now < end:
            self.step()

    def menu_to(self, label):
        """Move the highlight of the current menu onto `label` and select it."""
        menu = self.app.screen
        labels = [item.label for item in menu.items]
        assert label in labels, "%r not in menu %r: %r" % (label, menu.title, labels)
        steps = (labels.index(label) - menu.index) % len(labels)
        self.press("down", steps)
        self.press("a")

    def cursor_to(self, square):
        screen = self.app.screen
        n = screen.view.size
        row, column = divmod(screen.cursor, n)
        target_row, target_column = divmod(square, n)
        self.device.buttons.press("right", (target_column - column) % n)
        self.device.buttons.press("down", (target_row - row) % n)
        self.settle()
        assert self.app.screen.cursor == square

    def play(self, square):
        self.cursor_to(square)
        self.press("a")

    def picture(self):
        return pixels(self.device.display)


def check_reference(name, display, tmp_path=None):
    """Compare the shown frame with host_tests/reference_images/<name>.png pixel for pixel.

    With UPDATE_REFERENCE_IMAGES=1 in the environment the picture is (re)written
    instead: look at it before committing it.
    """
    import os

    from PIL import Image

    path = REFERENCE_IMAGES / (name + ".png")
    if os.environ.get("UPDATE_REFERENCE_IMAGES"):
        REFERENCE_IMAGES.mkdir(exist_ok=True)
        image(display).convert("1").save(path)
        return
    assert path.exists(), "no reference image %s: run with UPDATE_REFERENCE_IMAGES=1, then review it" % path
    expected = Image.open(path).convert("L")
    actual = pixels(display)
    wrong = []
    for y, row in enumerate(actual):
        for x, char in enumerate(row):
            if (char == "#") != (expected.getpixel((x, y)) > 127):
                wrong.append((x, y))
    if wrong and tmp_path is not None:
        image(display).save(tmp_path / (name + "-actual.png"))
    assert not wrong, "%s: %d pixels differ from the reference, first at %s" % (name, len(wrong), wrong[:5])
