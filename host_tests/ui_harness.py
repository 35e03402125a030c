"""UI tests on CPython: the App on the simulator's board, a stand-in computer player, pictures and reference images.

BoardDriver runs the firmware's App in this process on tools/simulator's
LocalBoard through the real hardware layer (firmware/hw): the display
driver's bus traffic is decoded by the simulated SSD1306, the buttons are
pins with debouncing, the flash is a directory, and time is virtual (it
moves when the firmware sleeps, and by 1 ms at every clock read).
"""

import os
import tempfile
from pathlib import Path

import simulator
from simulator import LocalBoard, board_config

simulator.install_standins()

import hw  # noqa: E402  (after the stand-ins: hw.open_device imports machine)
import player as real_player  # noqa: E402
from ui_fakes import Driver  # noqa: E402

REFERENCE_IMAGES = Path(__file__).resolve().parent / "reference_images"
BOARD_CONFIGS = Path(simulator.BOARD_CONFIGS)


class BoardDriver(Driver):
    """The App on a simulated board: `board` names a file in board_configs/ (or is a config dict)."""

    def __init__(self, board="pico_breadboard_i2c", flash_dir=None, player=None):
        source = BOARD_CONFIGS / (board + ".json") if isinstance(board, str) else board
        self.config = board_config(source)[0]
        self.flash_dir = Path(flash_dir or tempfile.mkdtemp(prefix="ui-flash-"))
        self.board = LocalBoard(self.config, self.flash_dir)
        device = hw.open_device(self.config)
        if isinstance(player, StandInPlayer):
            player.driver = self
        Driver.__init__(self, device, player)

    def tap(self, name, times=1):
        for _ in range(times):
            self.board.press(name)
            self.run(2)
            self.board.release(name)
            self.run(2)

    def hold_down(self, name):
        self.board.press(name)
        self.wait(self.device.buttons.long_ms + 60)
        self.board.release(name)
        self.run(2)

    def keys_pending(self):
        return False

    def rows(self):
        return ["".join("#" if value else "." for value in row) for row in self.board.screen()]

    def power_cycle(self, player=None):
        """The same flash in a freshly started device: a new board, device and App."""
        return BoardDriver(self.config.source, self.flash_dir, player)

    @property
    def display_on(self):
        return self.board.panel.display_on

    def tones(self):
        """The frequencies the buzzer has sounded, in order (rests left out)."""
        return [freq for _, freq in self.board.hardware.buzzer_log if freq]


class Decision:
    def __init__(self, square):
        self.square = square

    def describe(self):
        return "%d +2" % self.square


class StandInPlayer:
    """A computer player with known timing: it plays the first legal move after thinking for `budget_ms`.

    Like the real search it calls should_stop() all the time and stops when
    told; every clock read costs a millisecond on the simulated board, so
    thinking takes virtual time. `at(ms, action)` runs an action that many
    milliseconds into the next search (a button pressed while it thinks).
    """

    LEVELS = real_player.LEVELS

    def __init__(self, budget_ms=3000):
        self.budget_ms = budget_ms
        self.calls = []  # (what, started ms, ended ms)
        self.clocks = []  # (the mhz its budgets were given for, the chip's clock in Hz while it searched)
        self.scheduled = []
        self.driver = None

    def prepare(self, variant):
        """Nothing to build: this player keeps no tables."""

    def release(self):
        """Nothing to let go."""

    def at(self, ms, action):
        self.scheduled.append((ms, action))

    def _search(self, what, board, should_stop, now, mhz):
        import machine  # the stand-in: what clock the chip runs at during the search

        self.clocks.append((mhz, machine.freq()))
        start = now()
        while True:
            elapsed = now() - start
            while self.scheduled and self.scheduled[0][0] <= elapsed:
                self.scheduled.pop(0)[1]()
            if elapsed >= self.budget_ms or should_stop():
                break
        self.calls.append((what, start, now()))
        return Decision(board.legal_squares()[0])

    def think(self, board, level, should_stop=None, now=None, mhz=real_player.BASE_MHZ, **limits):
        return self._search("think", board, should_stop, now, mhz)

    def hint(self, board, should_stop=None, now=None, time_limit_ms=None, mhz=real_player.BASE_MHZ):
        return self._search("hint", board, should_stop, now, mhz)


def image(rows, scale=1):
    from PIL import Image

    picture = Image.new("L", (len(rows[0]), len(rows)))
    data = picture.load()
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            data[x, y] = 255 if char == "#" else 0
    if scale != 1:
        picture = picture.resize((picture.width * scale, picture.height * scale), Image.NEAREST)
    return picture


def check_reference(name, rows, tmp_path=None):
    """Compare a picture (rows of '#' and '.') with host_tests/reference_images/<name>.png pixel for pixel.

    With UPDATE_REFERENCE_IMAGES=1 in the environment the picture is (re)written
    instead: look at it before committing it.
    """
    from PIL import Image

    path = REFERENCE_IMAGES / (name + ".png")
    if os.environ.get("UPDATE_REFERENCE_IMAGES"):
        REFERENCE_IMAGES.mkdir(exist_ok=True)
        image(rows).convert("1").save(path)
        return
    assert path.exists(), "no reference image %s: run with UPDATE_REFERENCE_IMAGES=1, then review it" % path
    expected = Image.open(path).convert("L")
    wrong = [
        (x, y) for y, row in enumerate(rows) for x, char in enumerate(row) if (char == "#") != (expected.getpixel((x, y)) > 127)
    ]
    if wrong and tmp_path is not None:
        image(rows).save(tmp_path / (name + "-actual.png"))
    assert not wrong, "%s: %d pixels differ from the reference, first at %s" % (name, len(wrong), wrong[:5])
