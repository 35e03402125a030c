"""hw.boot() lets go of the board-config validator: after power-up its code leaves the heap.

Runs the firmware compiled as `make flash` compiles it (.mpy files) under
MicroPython's unix port, on the simulator's stand-in machine module with a
board whose display answers at 0x3C. Each run is a fresh interpreter, so
the heap figures of two runs compare directly.
"""

import json
from pathlib import Path

from runners import micropython_runner
import simulator

REPO = Path(__file__).resolve().parent.parent
BOARD = REPO / "board_configs" / "pico_breadboard_i2c.json"

PROGRAM = """
import gc
import sys

import machine
import simclock
import simflash


class Board:
    # What machine.py asks of a board: time, the flash, a display answering at 0x3C.
    def __init__(self, flash_dir):
        self.clock = simclock.VirtualClock()
        self.files = simflash.FlashFiles(flash_dir, self.flash_step)

    def flash_step(self, op, path):
        pass

    def output(self, gpio, level):
        pass

    def i2c_write(self, scl, sda, address, data):
        return address == 0x3C

    def spi_write(self, sck, mosi, data):
        pass

    def pwm(self, gpio, freq, duty):
        pass

    def reset(self):
        pass


def main(config_path, flash_dir, keep_validator):
    machine.attach(Board(flash_dir))
    gc.collect()
    before = gc.mem_alloc()
    kept = None
    if keep_validator:  # what boot() did before it released the validator
        from hw import config as kept
    import hw

    device, error = hw.boot(config_path)
    device.display.fb.fill(1)
    device.display.show()
    gc.collect()
    print(gc.mem_alloc() - before)
    print("hw.config" in sys.modules, hasattr(hw, "config"), kept is not None)
    print(None if error is None else error.errors)
    print(device.config.name, device.buttons.names)
"""


def boot_under_micropython(firmware, config_path, flash_dir, keep_validator=False):
    """(heap bytes the boot left allocated, and the program's other lines)."""
    flash_dir.mkdir()
    code = PROGRAM + "main(%r, %r, %r)\n" % (str(config_path), str(flash_dir), keep_validator)
    lines = micropython_runner.run_unix(code, heap="192K", firmware=firmware, path=(simulator.STANDINS,)).splitlines()
    return int(lines[0]), lines[1:]


def test_boot_releases_the_config_validator_and_its_heap(compiled_firmware, tmp_path):
    released, lines = boot_under_micropython(compiled_firmware, BOARD, tmp_path / "a")
    name = json.loads(BOARD.read_text())["name"]
    assert lines == ["False False False", "None", "%s ('up', 'down', 'left', 'right', 'a', 'b')" % name]
    kept, lines = boot_under_micropython(compiled_firmware, BOARD, tmp_path / "b", keep_validator=True)
    assert lines[0] == "False False True"
    validator_file = (compiled_firmware / "hw" / "config.mpy").stat().st_size
    assert kept - released > validator_file // 2, "released %d bytes, kept %d: the validator's code stayed" % (released, kept)


def test_a_broken_config_still_boots_the_rescue_display_and_releases_the_validator(compiled_firmware, tmp_path):
    broken = tmp_path / "board.json"
    broken.write_text(BOARD.read_text().replace('"pin": 14', '"pin": 44'))
    _, lines = boot_under_micropython(compiled_firmware, broken, tmp_path / "flash")
    assert lines == [
        "False False False",
        "['buttons.a.pin: 44 is not a GPIO of the Pico (0-29)']",
        "rescue ()",
    ]
