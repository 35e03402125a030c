"""Cross-check: a frame sent by our driver and by adafruit-circuitpython-ssd1306 decodes to the same pixels.

Adafruit's driver talks CircuitPython's busio/digitalio; the fakes below
hand its bytes to a simulated panel exactly as the bus would.
"""

import copy
import json
import random
from pathlib import Path

import pytest

import hw
import simulator
from simulator.panel import I2CTarget, Panel, SPITarget

simulator.install_standins()
import adafruit_ssd1306  # noqa: E402  (its `import framebuf` must find the stand-in)

REPO = Path(__file__).resolve().parent.parent


class FakeI2C:
    """busio.I2C for one device: locking, and writes delivered as I2C transfers."""

    def __init__(self, target):
        self.target = target

    def try_lock(self):
        return True

    def unlock(self):
        pass

    def writeto(self, address, buffer, *, start=0, end=None):
        if address != self.target.address:
            raise OSError(5, "no acknowledge")
        self.target.transfer(bytes(buffer[start:end]))

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        raise OSError(5, "the display is write-only")


class FakePin:
    """digitalio.DigitalInOut as an output whose level the fake SPI reads."""

    def __init__(self):
        self.value = None

    def switch_to_output(self, value=False):
        self.value = int(bool(value))


class FakeSPI:
    def __init__(self, target, dc, cs):
        self.target, self.dc, self.cs = target, dc, cs

    def try_lock(self):
        return True

    def unlock(self):
        pass

    def configure(self, baudrate=100000, polarity=0, phase=0, bits=8):
        assert (polarity, phase) == (0, 0)

    def write(self, buffer, *, start=0, end=None):
        self.target.transfer(bytes(buffer[start:end]), int(bool(self.dc.value)), int(bool(self.cs.value)))


def adafruit_display(bus):
    panel = Panel()
    if bus == "i2c":
        return adafruit_ssd1306.SSD1306_I2C(128, 64, FakeI2C(I2CTarget(panel, 0x3C))), panel
    dc, cs = FakePin(), FakePin()
    return adafruit_ssd1306.SSD1306_SPI(128, 64, FakeSPI(SPITarget(panel), dc, cs), dc, None, cs), panel


def draw(fb, seed):
    rng = random.Random(seed)
    fb.fill(0)
    for _ in range(25):
        fb.line(rng.randrange(-10, 138), rng.randrange(-10, 74), rng.randrange(-10, 138), rng.randrange(-10, 74), 1)
        fb.fill_rect(rng.randrange(-5, 128), rng.randrange(-5, 64), rng.randrange(1, 30), rng.randrange(1, 20), rng.randrange(2))
        fb.ellipse(rng.randrange(128), rng.randrange(64), rng.randrange(1, 12), rng.randrange(1, 12), rng.randrange(2), bool(rng.randrange(2)))
    fb.rect(0, 0, 128, 64, 1)


@pytest.mark.parametrize("bus", ["i2c", "spi"])
@pytest.mark.parametrize("rotation", [0, 180])
def test_our_driver_and_adafruits_show_the_same_picture(tmp_path, bus, rotation):
    data = json.loads((REPO / "board_configs" / ("pico_breadboard_%s.json" % bus)).read_text())
    data["display"]["rotation"] = rotation
    config = hw.load_config(copy.deepcopy(data))
    board = simulator.LocalBoard(config, tmp_path)
    ours = hw.open_device(config).display
    theirs, their_panel = adafruit_display(bus)
    if rotation == 180:
        theirs.rotate(False)  # adafruit: False flips its default orientation by 180 degrees
    for seed in range(3):
        draw(ours.fb, seed)
        draw(theirs, seed)
        assert bytes(ours.buffer) == bytes(theirs.buffer[-1024:]), "both framebuffers hold the same drawing"
        ours.show()
        theirs.show()
        glass = board.screen()
        assert glass == their_panel.pixels()
        upright = [[ours.fb.pixel(x, y) for x in range(128)] for y in range(64)]
        assert glass == (upright if rotation == 0 else [row[::-1] for row in upright[::-1]])
    assert board.panel.unknown_commands == [] and their_panel.unknown_commands == []
