"""What a running device knows of its board: the wiring as a BoardConfig, where its files are, its errors.

hw/config.py reads and checks board.json and builds these holders; that
validator is needed only when board.json is new to the device, and hw.boot()
releases it (on the Pico a module's code takes heap for as long as it stays
imported), so everything the running firmware keeps is defined here, in a
module small enough to keep.

A config that passed the validator is kept as its checked form beside it,
board.checked.json: [fingerprint, row]. The power-ups after build the
BoardConfig from the row and never load the validator, whose code would
intern some 80 names for the whole session (docs/MEMORY.md, Interned
names). The fingerprint is a SHA-256 of board.json's bytes and of the code
of hw/board and hw/config as installed, so an edited file or another
firmware is checked again. `make flash` writes the form with the firmware,
so even the first power-up needs no check.
"""

import hashlib
import json

BUTTON_NAMES = ("up", "down", "left", "right", "a", "b", "menu")
PANEL_WIDTH = 128
PANEL_HEIGHT = 64

# The RP2040's certified clock with the core voltage raised (pico-sdk 2.1.1 notes): the searches run at it
# unless a board config's cpu_mhz_max keeps a chip that misbehaves there at MicroPython's 125 MHz.
CPU_MHZ_MAX = 200
CPU_MHZ_MIN = 125

CONFIG_PATH = "board.json"  # next to main.py, relative to the flash root
STORAGE_ROOT = "data"  # the directory of the firmware's saved files


class HardwareError(OSError):
    """The board does not answer as its config says (e.g. no display at the I2C address)."""


class ConfigError(ValueError):
    """A board config that cannot be used. `errors` lists every problem as "field: problem"."""

    def __init__(self, errors):
        super().__init__("\n".join(errors))
        self.errors = list(errors)


class ButtonSpec:
    def __init__(self, name, pin, pull, active):
        self.name = name
        self.pin = pin
        self.pull = pull  # "up", "down" or "none"
        self.active = active  # the level a pressed button reads: 0 or 1


class DisplaySpec:
    def __init__(self, controller, rotation, addressing, bus, bus_id, pins, freq, address, reset):
        self.controller = controller
        self.width = PANEL_WIDTH
        self.height = PANEL_HEIGHT
        self.rotation = rotation
        self.addressing = addressing
        self.bus = bus  # "i2c" or "spi"
        self.bus_id = bus_id
        self.pins = pins  # i2c: {"sda", "scl"}; spi: {"sck", "mosi", "cs", "dc"}
        self.freq = freq  # I2C clock or SPI baudrate, Hz
        self.address = address  # I2C only
        self.reset = reset  # GPIO of the display's RES line, or None


class BatterySpec:
    """The battery gauge's wiring and cells (hw/config.py's CHEMISTRIES explains the voltages)."""

    def __init__(self, adc, divider, chemistry, full, low, empty, curve, vbus):
        self.adc = adc  # the GPIO of the ADC input, 26-29
        self.divider = divider  # volts at VSYS per volt at the ADC pin
        self.chemistry = chemistry
        self.full = full  # volts at VSYS: full cells, the one warning, save and stop
        self.low = low
        self.empty = empty
        self.curve = curve  # ((fraction from empty to full, percent left), ...)
        self.vbus = vbus  # the GPIO that reads high on USB power, or None
class LinkSpec:
    """The link cable's UART (docs/LINK.md): its number, pins and speed."""

    def __init__(self, uart_id, tx, rx, baudrate):
        self.uart_id = uart_id
        self.tx = tx
        self.rx = rx
        self.baudrate = baudrate


class BoardConfig:
    """A validated board config; `source` is the dict it came from."""

    def __init__(self, source, name, description, display, buttons, buzzer_pin, battery=None, cpu_mhz_max=CPU_MHZ_MAX,
                 link=None):
        self.source = source
        self.name = name
        self.description = description
        self.display = display
        self.buttons = buttons  # ButtonSpecs in BUTTON_NAMES order
        self.buzzer_pin = buzzer_pin
        self.battery = battery  # a BatterySpec, or None without a gauge
        self.cpu_mhz_max = cpu_mhz_max  # the clock of the computer's searches (hw/power.py)
        self.link = link  # LinkSpec, or None: the board has no link cable

    @property
    def button_names(self):
        return tuple(spec.name for spec in self.buttons)


def checked_path(path):
    """Where the checked form of the board config at `path` (board.json) is kept: board.checked.json."""
    return path[:-4] + "checked.json"


def fingerprint(text, holders):
    """SHA-256 of a config file's bytes `text` and of the code files of hw/board (at `holders`) and
    hw/config (beside it), as a list of numbers (JSON has no bytes)."""
    digest = hashlib.sha256(text)
    at = holders.rfind("board")
    for name in (holders, holders[:at] + "config" + holders[at + 5:]):
        with open(name, "rb") as file:
            digest.update(file.read())
    return list(digest.digest())


def checked_config(path, text):
    """The BoardConfig of the config file's bytes `text` at `path` from its checked form, or None: none kept,
    or kept for another file or firmware, or damaged (the validator then checks the file)."""
    try:
        with open(checked_path(path)) as file:
            kept, row = json.load(file)
        if kept != fingerprint(text, __file__):
            return None
        name, description, display, buttons, buzzer_pin, battery, cpu_mhz_max, link = row
        return BoardConfig(json.loads(text), name, description, DisplaySpec(*display),
                           [ButtonSpec(*button) for button in buttons], buzzer_pin,
                           None if battery is None else BatterySpec(*battery), cpu_mhz_max,
                           None if link is None else LinkSpec(*link))
    except Exception:  # missing, unreadable or not of this layout: the validator decides
        return None


def save_checked(path, text, config, holders=__file__):
    """Keep the checked form of a validated `config` read from the bytes `text` at `path`, fingerprinted
    with hw/board's code file at `holders` (default: this firmware's). checked_config() reads the row back
    in the holders' argument order. A flash that cannot take it costs only the next power-up's check."""
    display, battery, link = config.display, config.battery, config.link
    row = [config.name, config.description,
           [display.controller, display.rotation, display.addressing, display.bus, display.bus_id, display.pins,
            display.freq, display.address, display.reset],
           [[button.name, button.pin, button.pull, button.active] for button in config.buttons], config.buzzer_pin,
           None if battery is None else [battery.adc, battery.divider, battery.chemistry, battery.full, battery.low,
                                         battery.empty, battery.curve, battery.vbus],
           config.cpu_mhz_max, None if link is None else [link.uart_id, link.tx, link.rx, link.baudrate]]
    try:
        with open(checked_path(path), "wb") as file:
            file.write(json.dumps([fingerprint(text, holders), row]).encode())
    except OSError:
        pass
