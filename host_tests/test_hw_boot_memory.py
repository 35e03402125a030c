"""hw.boot() lets go of the board-config validator: after power-up its code leaves the heap; once a config
has passed, the next power-ups build it from its checked form and never load the validator.

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
    import micropython

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
    micropython.qstr_info()
"""


def boot_under_micropython(firmware, config_path, flash_dir, keep_validator=False):
    """(heap bytes the boot left allocated, and the program's other lines but the names' count).

    config_path is the board config; its checked form is kept beside it."""
    flash_dir.mkdir(exist_ok=True)
    code = PROGRAM + "main(%r, %r, %r)\n" % (str(config_path), str(flash_dir), keep_validator)
    lines = micropython_runner.run_unix(code, heap="192K", firmware=firmware, path=(simulator.STANDINS,)).splitlines()
    return int(lines[0]), lines[1:-1]


def boot_names(firmware, config_path, flash_dir):
    """(the names a power-up interned, the program's lines as boot_under_micropython gives them)."""
    flash_dir.mkdir(exist_ok=True)
    code = PROGRAM + "main(%r, %r, False)\n" % (str(config_path), str(flash_dir))
    lines = micropython_runner.run_unix(code, heap="192K", firmware=firmware, path=(simulator.STANDINS,)).splitlines()
    return int(lines[-1].split("n_qstr=")[1].split(",")[0]), lines[1:-1]


def installed(tmp_path, text=None):
    """A flash root holding board.json (the breadboard's, or `text`): its path."""
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "board.json"
    path.write_text(BOARD.read_text() if text is None else text)
    return path


def test_boot_releases_the_config_validator_and_its_heap(compiled_firmware, tmp_path):
    released, lines = boot_under_micropython(compiled_firmware, installed(tmp_path / "a"), tmp_path / "flash")
    name = json.loads(BOARD.read_text())["name"]
    assert lines == ["False False False", "None", "%s ('up', 'down', 'left', 'right', 'a', 'b')" % name]
    kept, lines = boot_under_micropython(compiled_firmware, installed(tmp_path / "b"), tmp_path / "flash",
                                         keep_validator=True)
    assert lines[0] == "False False True"
    validator_file = (compiled_firmware / "hw" / "config.mpy").stat().st_size
    assert kept - released > validator_file // 2, "released %d bytes, kept %d: the validator's code stayed" % (released, kept)


def test_a_broken_config_still_boots_the_rescue_display_and_releases_the_validator(compiled_firmware, tmp_path):
    broken = installed(tmp_path, BOARD.read_text().replace('"pin": 14', '"pin": 44'))
    _, lines = boot_under_micropython(compiled_firmware, broken, tmp_path / "flash")
    assert lines == [
        "False False False",
        "['buttons.a.pin: 44 is not a GPIO of the Pico (0-29)']",
        "rescue ()",
    ]
    assert not (tmp_path / "board.checked.json").exists(), "a broken config has no checked form"


def test_the_next_power_up_builds_the_config_from_its_checked_form_without_the_validator(compiled_firmware,
                                                                                         tmp_path):
    config = installed(tmp_path / "a")
    first, lines = boot_names(compiled_firmware, config, tmp_path / "flash")
    name = json.loads(BOARD.read_text())["name"]
    assert lines == ["False False False", "None", "%s ('up', 'down', 'left', 'right', 'a', 'b')" % name]
    assert (tmp_path / "a" / "board.checked.json").exists()
    again, lines_again = boot_names(compiled_firmware, config, tmp_path / "flash")
    assert lines_again == lines
    # The validator's code interns some 80 names for the whole session: none of them the second time.
    assert first - again >= 50, "%d names at the first power-up, %d at the next" % (first, again)


def test_an_edited_config_is_checked_again_and_its_errors_shown(compiled_firmware, tmp_path):
    config = installed(tmp_path)
    boot_names(compiled_firmware, config, tmp_path / "flash")
    config.write_text(BOARD.read_text().replace('"pin": 14', '"pin": 44'))
    _, lines = boot_names(compiled_firmware, config, tmp_path / "flash")
    assert lines == ["False False False", "['buttons.a.pin: 44 is not a GPIO of the Pico (0-29)']", "rescue ()"]


def test_a_damaged_or_foreign_checked_form_is_checked_again_and_replaced(compiled_firmware, tmp_path):
    config = installed(tmp_path)
    first, lines = boot_names(compiled_firmware, config, tmp_path / "flash")
    checked = tmp_path / "board.checked.json"
    good = checked.read_text()
    fingerprint, row = json.loads(good)
    row[2][0] = "sh1106"  # what another firmware's layout, or a stray edit, would claim
    for damaged in ('["', "\x00garbage", json.dumps(["0" * 64, row]), json.dumps([fingerprint, row[:3]])):
        checked.write_text(damaged)
        names, lines_again = boot_names(compiled_firmware, config, tmp_path / "flash")
        assert (names, lines_again) == (first, lines), damaged
        assert checked.read_text() == good, damaged
