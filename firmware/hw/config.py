"""Board configs: how a Pico is wired to its display, buttons and buzzer.

A config is a JSON object (docs/HARDWARE.md has the wiring of every file in
board_configs/):

    {"name": "...", "description": "...", "notes": ["..."],
     "display": {"controller": "ssd1306" | "sh1106", "width": 128, "height": 64,
                 "rotation": 0 | 180, "addressing": "horizontal" | "page",
                 "bus": "i2c", "i2c": {"sda": 4, "scl": 5, "freq": 400000, "address": "0x3C"},
                 "reset": 9},
     "buttons": {"a": {"pin": 20, "pull": "up", "active": "low"}, ...},
     "buzzer": {"pin": 15},
     "battery": {"adc": 29, "divider": 3, "chemistry": "alkaline_2aa", "vbus": 24},
     "cpu_mhz_max": 200,
     "link": {"uart": 0, "tx": 0, "rx": 1, "baudrate": 19200}}

or with "bus": "spi" and "spi": {"sck": 18, "mosi": 19, "cs": 17, "dc": 20,
"baudrate": 10000000}. Optional: description, notes, rotation (0),
addressing (horizontal on the SSD1306, page on the SH1106, which has no
other), the bus id (derived from the pins), freq/baudrate, address (0x3C),
display.reset, buzzer, battery (the battery gauge: its ADC pin, GP26-GP29;
the divider from VSYS to it, a ratio or {"top": ohms, "bottom": ohms},
3 by default on GP29, the Pico's own VSYS/3; the chemistry, one of
CHEMISTRIES; optional full, low and empty voltages at VSYS overriding the
chemistry's; vbus, the pin that reads high on USB power, GP24 on the Pico),
cpu_mhz_max (the clock of the computer's searches: 200 MHz, the RP2040's
certified top with the core voltage raised; 125 keeps a chip that misbehaves
at 200 at MicroPython's default), link (the link-play cable's UART: the
number is derived from the pins when not given; baudrate 19200). Pins are
GPIO numbers (or "GP5").

Validation checks everything a wrong file could get wrong before any pin is
touched (pin functions of the RP2040, pins used twice, a pull that makes a
button unreadable) and reports every problem as "field: problem".

The device needs this module only at power-up: hw.boot() imports it and
releases it once the Device is open. What a running device keeps (the
BoardConfig holders, the paths, the errors) is in hw/board.py.
"""

import json

from othello.compat import const
from hw.board import (BUTTON_NAMES, CPU_MHZ_MAX, CPU_MHZ_MIN, PANEL_HEIGHT, PANEL_WIDTH, BatterySpec, BoardConfig,
                      ButtonSpec, ConfigError, DisplaySpec, LinkSpec)

_CONTROLLERS = const(("ssd1306", "sh1106"))
_PULLS = const(("up", "down", "none"))
LEVELS = ("low", "high")
_I2C_ADDRESSES = const((0x3C, 0x3D))
# The fastest serial clock each controller's datasheet allows on SPI.
SPI_MAX_BAUDRATE = {"ssd1306": 10000000, "sh1106": 4000000}
_I2C_FREQ_RANGE = const((10000, 1000000))
_SPI_MIN_BAUDRATE = const(100000)
_LINK_BAUDRATE = const(19200)  # ample for a game's messages, and 500 ms of them fit the UART's receive buffer
_LINK_BAUDRATE_RANGE = const((1200, 921600))
GPIO_COUNT = 30
# GPIOs of the RP2040 that the Pico board keeps for itself (the Pico W uses
# the same four for its wireless chip).
NOT_ON_HEADER = {23: "power-supply mode", 24: "VBUS sensing", 25: "the on-board LED", 29: "VSYS measurement"}


def i2c_role(pin):
    """(bus id, "sda" or "scl") of a GPIO on the RP2040's I2C function."""
    return (pin >> 1) & 1, ("sda", "scl")[pin & 1]


def spi_role(pin):
    """(bus id, "miso", "cs", "sck" or "mosi") of a GPIO on the RP2040's SPI function."""
    return (pin >> 3) & 1, ("miso", "cs", "sck", "mosi")[pin & 3]


def uart_role(pin):
    """(UART id, "tx", "rx", "cts" or "rts") of a GPIO on the RP2040's UART function (datasheet, GPIO function
    table: UART0 on GP0-3, 12-15, 16-19, 28-29; UART1 on GP4-7, 8-11, 20-23, 24-27)."""
    return ((pin >> 2) ^ (pin >> 3)) & 1, ("tx", "rx", "cts", "rts")[pin & 3]


def _pins_with_role(role_of, bus_id, role):
    return ", ".join(str(p) for p in range(GPIO_COUNT) if p not in NOT_ON_HEADER and role_of(p) == (bus_id, role))


class _Checker:
    """Collects problems while reading a config dict; every read names its field."""

    def __init__(self):
        self.errors = []
        self.pins_used = {}

    def fail(self, field, problem):
        self.errors.append("%s: %s" % (field, problem))

    def section(self, data, field, required=True):
        value = data.get(field.split(".")[-1])
        if value is None:
            if required:
                self.fail(field, "missing (an object)")
            return None
        if not isinstance(value, dict):
            self.fail(field, "must be an object, not %s" % _describe(value))
            return None
        return value

    def known_keys(self, data, field, allowed):
        for key in sorted(data):
            if key not in allowed:
                self.fail("%s.%s" % (field, key) if field else key, "unknown field (expected one of: %s)" % ", ".join(allowed))

    def text(self, data, key, field, required=True):
        value = data.get(key)
        if value is None:
            if required:
                self.fail(field, "missing (a string)")
            return None
        if not isinstance(value, str) or not value.strip():
            self.fail(field, "must be a non-empty string, not %s" % _describe(value))
            return None
        return value

    def choice(self, data, key, field, choices, default=None):
        value = data.get(key)
        if value is None:
            if default is None:
                self.fail(field, "missing (one of: %s)" % ", ".join(str(c) for c in choices))
            return default
        if isinstance(value, str):
            value = value.lower()
        if value not in choices:
            self.fail(field, "%s is not one of: %s" % (_describe(value), ", ".join(str(c) for c in choices)))
            return None
        return value

    def number(self, data, key, field, low, high, default=None, unit=""):
        """An int or a float from low to high (both allowed), or default when it is absent."""
        value = data.get(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(field, "must be a number, not %s" % _describe(value))
            return None
        if not low <= value <= high:
            self.fail(field, "%s is out of range (%s to %s%s)" % (_describe(value), low, high, unit))
            return None
        return value

    def integer(self, data, key, field, low, high, default=None, unit=""):
        value = data.get(key)
        if value is None:
            if default is None:
                self.fail(field, "missing (a number from %d to %d%s)" % (low, high, unit))
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(field, "must be a whole number, not %s" % _describe(value))
            return None
        if not low <= value <= high:
            self.fail(field, "%d is out of range (%d to %d%s)" % (value, low, high, unit))
            return None
        return value

    def pin(self, data, key, field, required=True, board_pin=None):
        """A GPIO number; board_pin: the one GPIO off the header this field may name (the Pico's own wiring)."""
        value = data.get(key)
        if value is None:
            if required:
                self.fail(field, "missing (a GPIO number, 0-29)")
            return None
        if isinstance(value, str):
            digits = value.upper()
            for prefix in ("GPIO", "GP"):
                if digits.startswith(prefix):
                    digits = digits[len(prefix) :]
                    break
            if digits.isdigit():
                value = int(digits)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(field, "%s is not a GPIO number (0-29)" % _describe(value))
            return None
        if not 0 <= value < GPIO_COUNT:
            self.fail(field, "%d is not a GPIO of the Pico (0-29)" % value)
            return None
        if value in NOT_ON_HEADER and value != board_pin:
            self.fail(field, "GP%d is not on the Pico's header (the board uses it for %s)" % (value, NOT_ON_HEADER[value]))
            return None
        if value in self.pins_used:
            self.fail(field, "GP%d is already used by %s" % (value, self.pins_used[value]))
            return None
        self.pins_used[value] = field
        return value


def _describe(value):
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return "null" if value is None else type(value).__name__


def _i2c_address(check, data, field):
    value = data.get("address")
    if value is None:
        return _I2C_ADDRESSES[0]
    if isinstance(value, str):
        text = value.strip().lower()
        try:
            value = int(text[2:], 16) if text.startswith("0x") else int(text)
        except ValueError:
            check.fail(field, "%r is not an I2C address (0x3C or 0x3D)" % value)
            return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in _I2C_ADDRESSES:
        shown = ("0x%02X" % value) if isinstance(value, int) and not isinstance(value, bool) else _describe(value)
        check.fail(field, "%s is not an address of the display (0x3C, or 0x3D with SA0 high)" % shown)
        return None
    return value


def _check_bus_pins(check, field, pins, role_of, bus_name, given_id, key="id"):
    """The common bus id of `pins` ({role: gpio}), reporting pins on the wrong function or bus."""
    bus_id, decided_by = given_id, "%s.%s" % (field, key)
    for role in sorted(pins):
        pin = pins[role]
        if pin is None:
            continue
        pin_bus, pin_role = role_of(pin)
        if pin_role != role:
            check.fail(
                "%s.%s" % (field, role),
                "GP%d is the %s of %s%d and cannot be %s (%s: %s on %s0; %s on %s1)"
                % (
                    pin, pin_role.upper(), bus_name, pin_bus, role.upper(), role.upper(),
                    _pins_with_role(role_of, 0, role), bus_name, _pins_with_role(role_of, 1, role), bus_name,
                ),
            )
            return None
        if bus_id is None:
            bus_id, decided_by = pin_bus, "%s.%s GP%d" % (field, role, pin)
        elif pin_bus != bus_id:
            check.fail("%s.%s" % (field, role), "GP%d is on %s%d but %s is on %s%d: one bus needs both" % (pin, bus_name, pin_bus, decided_by, bus_name, bus_id))
            return None
    return bus_id


def _display(check, data):
    field = "display"
    section = check.section(data, field)
    if section is None:
        return None
    check.known_keys(section, field, ("controller", "width", "height", "rotation", "addressing", "bus", "i2c", "spi", "reset"))
    controller = check.choice(section, "controller", "display.controller", _CONTROLLERS)
    for key, size in (("width", PANEL_WIDTH), ("height", PANEL_HEIGHT)):
        value = section.get(key)
        if value is None:
            check.fail("display." + key, "missing (%d)" % size)
        elif value != size or isinstance(value, bool):
            check.fail("display." + key, "%s is not supported: the game is drawn for a %dx%d panel" % (_describe(value), PANEL_WIDTH, PANEL_HEIGHT))
    rotation = check.choice(section, "rotation", "display.rotation", (0, 180), default=0)
    modes = ("page",) if controller == "sh1106" else ("horizontal", "page")
    addressing = check.choice(section, "addressing", "display.addressing", modes, default=modes[0])
    bus = check.choice(section, "bus", "display.bus", ("i2c", "spi"))
    other = "spi" if bus == "i2c" else "i2c"
    if bus is not None and section.get(other) is not None:
        check.fail("display." + other, "given, but display.bus is %r" % bus)
    bus_id = pins = freq = address = None
    if bus == "i2c":
        settings = check.section(section, "display.i2c")
        if settings is not None:
            check.known_keys(settings, "display.i2c", ("id", "sda", "scl", "freq", "address"))
            given_id = check.integer(settings, "id", "display.i2c.id", 0, 1, default=-1)
            pins = {"sda": check.pin(settings, "sda", "display.i2c.sda"), "scl": check.pin(settings, "scl", "display.i2c.scl")}
            bus_id = _check_bus_pins(check, "display.i2c", pins, i2c_role, "I2C", None if given_id in (-1, None) else given_id)
            freq = check.integer(settings, "freq", "display.i2c.freq", _I2C_FREQ_RANGE[0], _I2C_FREQ_RANGE[1], default=400000, unit=" Hz")
            address = _i2c_address(check, settings, "display.i2c.address")
    elif bus == "spi":
        settings = check.section(section, "display.spi")
        if settings is not None:
            check.known_keys(settings, "display.spi", ("id", "sck", "mosi", "cs", "dc", "baudrate"))
            given_id = check.integer(settings, "id", "display.spi.id", 0, 1, default=-1)
            pins = {"sck": check.pin(settings, "sck", "display.spi.sck"), "mosi": check.pin(settings, "mosi", "display.spi.mosi")}
            bus_id = _check_bus_pins(check, "display.spi", pins, spi_role, "SPI", None if given_id in (-1, None) else given_id)
            # CS and D/C are driven as plain GPIOs by the driver: any free pin will do.
            pins["cs"] = check.pin(settings, "cs", "display.spi.cs")
            pins["dc"] = check.pin(settings, "dc", "display.spi.dc")
            top = SPI_MAX_BAUDRATE.get(controller, SPI_MAX_BAUDRATE["ssd1306"])
            freq = check.integer(settings, "baudrate", "display.spi.baudrate", _SPI_MIN_BAUDRATE, top, default=top, unit=" Hz")
    reset = check.pin(section, "reset", "display.reset", required=False)
    return DisplaySpec(controller, rotation, addressing, bus, bus_id, pins, freq, address, reset)


def _buttons(check, data):
    section = check.section(data, "buttons")
    if section is None:
        return []
    check.known_keys(section, "buttons", BUTTON_NAMES)
    specs = []
    for name in BUTTON_NAMES:
        if name not in section:
            continue
        field = "buttons." + name
        spec = section[name]
        if not isinstance(spec, dict):
            check.fail(field, "must be an object like {\"pin\": 2, \"pull\": \"up\", \"active\": \"low\"}, not %s" % _describe(spec))
            continue
        check.known_keys(spec, field, ("pin", "pull", "active"))
        pin = check.pin(spec, "pin", field + ".pin")
        pull = check.choice(spec, "pull", field + ".pull", _PULLS)
        active = check.choice(spec, "active", field + ".active", LEVELS)
        if pull == "up" and active == "high":
            check.fail(field + ".active", "'high' with pull 'up' never reads pressed: a button to GND is active 'low'; one to 3V3 needs pull 'down'")
        elif pull == "down" and active == "low":
            check.fail(field + ".active", "'low' with pull 'down' never reads pressed: a button to 3V3 is active 'high'; one to GND needs pull 'up'")
        elif None not in (pin, pull, active):
            specs.append(ButtonSpec(name, pin, pull, 1 if active == "high" else 0))
    if "a" not in section:
        check.fail("buttons.a", "missing: every board needs an A (select) button")
    if len(section) < 2:
        check.fail("buttons", "the game needs at least two buttons, found %d" % len(section))
    return specs


def _buzzer(check, data):
    section = check.section(data, "buzzer", required=False)
    if section is None:
        return None
    check.known_keys(section, "buzzer", ("pin",))
    return check.pin(section, "pin", "buzzer.pin")


# The cells a board may run from, each with its voltages at VSYS, after the Schottky diode that joins the
# cells to the Pico's VSYS (about 0.25 V dropped at the Pico's tens of mA): (full, low, empty, discharge
# curve). "low" gives the one warning, at 11-15% on the curve; at "empty" the game is saved and the
# device stops (docs/POWER.md says why each voltage is where it is). A curve is (fraction of the way from empty to full, percent left)
# points, so a config's own full and empty voltages stretch it.
# The names are split from one string: each written as a string of 10 characters or fewer would be
# interned for the whole session.
CHEMISTRIES = dict(zip("alkaline_2aa nimh_2aa alkaline_3aaa nimh_3aaa lipo".split(), (
    (2.95, 2.2, 2.0, ((0.0, 0), (0.15, 5), (0.4, 30), (0.7, 70), (0.9, 92), (1.0, 100))),
    (2.5, 2.1, 2.0, ((0.0, 0), (0.15, 8), (0.3, 30), (0.6, 80), (0.85, 95), (1.0, 100))),
    (4.55, 3.15, 2.75, ((0.0, 0), (0.15, 5), (0.4, 30), (0.7, 70), (0.9, 92), (1.0, 100))),
    (3.95, 3.1, 2.9, ((0.0, 0), (0.15, 8), (0.3, 30), (0.6, 80), (0.85, 95), (1.0, 100))),
    (3.95, 3.27, 3.05, ((0.0, 0), (0.2, 8), (0.45, 40), (0.65, 68), (0.85, 90), (1.0, 100))),
)))
# Module names here are interned for the whole session (hw.boot() lets this module go, not its names):
# the constants below are const() and private, which leaves no name behind.
_ADC_PINS = const((26, 27, 28, 29))
_ADC_RANGE_MV = const(3300)  # the ADC's reference on the Pico: its 3.3 V rail
_VSYS_PIN = const(29)  # on the Pico board, VSYS/3 through its own 200k/100k divider
_VSYS_DIVIDER = const(3)
_VBUS_PIN = const(24)  # on the Pico board, high while USB gives power
_DIVIDER_RANGE = const((1, 20))  # above 20, a full cell is a few dozen ADC steps: no gauge
# The Pico's regulator (RT6150) needs 1.8 V at VSYS: below that nothing runs, so nothing can save first.
_REGULATOR_MIN_MV = const(1800)
_CELL_RANGE_V = const((1.0, 6.0))


def _divider(check, section, adc):
    """The divider's ratio (volts at VSYS per volt at the ADC pin): a number, or {"top": ohms, "bottom": ohms}."""
    field = "battery.divider"
    value = section.get("divider")
    if value is None:
        if adc == _VSYS_PIN:
            return _VSYS_DIVIDER
        check.fail(field, "missing (the ratio, e.g. 2 for two equal resistors, or {\"top\": ohms, \"bottom\": ohms})")
        return None
    if isinstance(value, dict):
        check.known_keys(value, field, ("top", "bottom"))
        top = check.number(value, "top", "battery.divider.top", 0, 10000000, unit=" ohms")
        bottom = check.number(value, "bottom", "battery.divider.bottom", 1, 10000000, unit=" ohms")
        if value.get("top") is None:
            check.fail("battery.divider.top", "missing (the resistor to VSYS, in ohms)")
        if value.get("bottom") is None:
            check.fail("battery.divider.bottom", "missing (the resistor to GND, in ohms)")
        if top is None or bottom is None:
            return None
        ratio = (top + bottom) / bottom
    elif isinstance(value, bool) or not isinstance(value, (int, float)):
        check.fail(field, "must be a number or {\"top\": ohms, \"bottom\": ohms}, not %s" % _describe(value))
        return None
    else:
        ratio = value
    low, high = _DIVIDER_RANGE
    if not low <= ratio <= high:
        check.fail(field, "a ratio of %.3g cannot be right (a divider gives %d to %d: VSYS over the ADC pin's voltage)" % (ratio, low, high))
        return None
    if adc == _VSYS_PIN and abs(ratio - _VSYS_DIVIDER) > 0.01:
        check.fail(field, "%.3g, but GP29 reads VSYS through the Pico's own 200k/100k divider: 3" % ratio)
        return None
    return ratio


def _battery(check, data):
    field = "battery"
    section = check.section(data, field, required=False)
    if section is None:
        return None
    check.known_keys(section, field, ("adc", "divider", "chemistry", "full", "low", "empty", "vbus"))
    adc = check.pin(section, "adc", "battery.adc", board_pin=_VSYS_PIN)
    if adc is not None and adc not in _ADC_PINS:
        check.fail("battery.adc", "GP%d is not an ADC pin (the RP2040's ADC is on GP26, GP27, GP28 and GP29)" % adc)
        adc = None
    ratio = _divider(check, section, adc)
    chemistry = check.choice(section, "chemistry", "battery.chemistry", tuple(sorted(CHEMISTRIES)))
    full = low = empty = curve = None
    if chemistry is not None:
        full, low, empty, curve = CHEMISTRIES[chemistry]
    voltages = []
    for key, field, default in (("empty", "battery.empty", empty), ("low", "battery.low", low), ("full", "battery.full", full)):
        voltages.append(check.number(section, key, field, _CELL_RANGE_V[0], _CELL_RANGE_V[1], default, " V"))
    empty, low, full = voltages
    if empty is not None and empty * 1000 < _REGULATOR_MIN_MV:
        check.fail("battery.empty", "%.3g V is below the %.3g V the Pico's regulator needs: the game could not be saved in time" % (empty, _REGULATOR_MIN_MV / 1000))
    if None not in (empty, low, full):
        if not empty < low:
            check.fail("battery.low", "%.3g V must be above battery.empty (%.3g V)" % (low, empty))
        if not low < full:
            check.fail("battery.full", "%.3g V must be above battery.low (%.3g V)" % (full, low))
    top = _ADC_RANGE_MV / 1000
    if None not in (full, ratio, adc) and full / ratio > top:
        check.fail("battery.divider", "%.3g puts a full battery (%.3g V) at %.3g V on GP%d, above the ADC's %.3g V: use at least %.3g"
                   % (ratio, full, full / ratio, adc, top, full / top))
    vbus = check.pin(section, "vbus", "battery.vbus", required=False, board_pin=_VBUS_PIN)
    if check.errors or None in (adc, ratio, chemistry, full, low, empty):
        return None
    return BatterySpec(adc, ratio, chemistry, full, low, empty, curve, vbus)


def _link(check, data):
    section = check.section(data, "link", required=False)
    if section is None:
        return None
    check.known_keys(section, "link", ("uart", "tx", "rx", "baudrate"))
    # The fields' names built here: written out, "link.uart", "link.tx" and "link.rx" would be interned.
    given_id = check.integer(section, "uart", "link." + "uart", 0, 1, default=-1)
    pins = {}
    for role in ("tx", "rx"):
        pins[role] = check.pin(section, role, "link." + role)
    uart_id = _check_bus_pins(check, "link", pins, uart_role, "UART", None if given_id in (-1, None) else given_id, "uart")
    baudrate = check.integer(section, "baudrate", "link.baudrate", _LINK_BAUDRATE_RANGE[0], _LINK_BAUDRATE_RANGE[1], default=_LINK_BAUDRATE, unit=" baud")
    if None in (uart_id, pins["tx"], pins["rx"], baudrate):
        return None
    return LinkSpec(uart_id, pins["tx"], pins["rx"], baudrate)


_UTF8_BOM = const(b"\xef\xbb\xbf")  # what Windows Notepad puts before UTF-8 text


def pll_makes(mhz):
    """Whether the RP2040's system PLL makes exactly `mhz` from the Pico's 12 MHz crystal, as the SDK's
    check_sys_clock_khz searches it (VCO 750-1600 MHz, feedback divider 16-320, post dividers 1-7)."""
    for feedback in range(16, 321):
        vco = 12 * feedback
        if not 750 <= vco <= 1600:
            continue
        for first in range(1, 8):
            for second in range(1, first + 1):
                if vco == mhz * first * second:
                    return True
    return False


def _json_text(data):
    """The text of a config file's bytes: UTF-8, with or without a byte-order mark."""
    if data[:3] == _UTF8_BOM:
        data = data[3:]
    try:
        return data.decode()
    except UnicodeError:  # (CPython's UnicodeDecodeError is one)
        raise ConfigError(["not UTF-8 text: a board config is JSON saved as UTF-8"])


def load_config(source):
    """A BoardConfig from a dict or JSON text; raises ConfigError listing every problem."""
    if isinstance(source, (bytes, bytearray)):
        source = _json_text(bytes(source))
    if isinstance(source, str):
        try:
            source = json.loads(source)
        except ValueError as error:
            raise ConfigError(["not valid JSON (%s)" % (error,)])
    if not isinstance(source, dict):
        raise ConfigError(["a board config is a JSON object, not %s" % _describe(source)])
    check = _Checker()
    check.known_keys(source, "", ("name", "description", "notes", "display", "buttons", "buzzer", "battery",
                                  "cpu_mhz_max", "link"))
    name = check.text(source, "name", "name")
    description = check.text(source, "description", "description", required=False)
    notes = source.get("notes")
    if notes is not None and not (isinstance(notes, str) or (isinstance(notes, list) and all(isinstance(n, str) for n in notes))):
        check.fail("notes", "must be a string or a list of strings")
    display = _display(check, source)
    buttons = _buttons(check, source)
    buzzer_pin = _buzzer(check, source)
    battery = _battery(check, source)
    cpu_mhz_max = check.integer(source, "cpu_mhz_max", "cpu_mhz_max", CPU_MHZ_MIN, CPU_MHZ_MAX, default=CPU_MHZ_MAX, unit=" MHz")
    if cpu_mhz_max is not None and not pll_makes(cpu_mhz_max):
        check.fail("cpu_mhz_max", "%d MHz is not a clock the RP2040's PLL makes from the 12 MHz crystal "
                   "(125, 150, 200 are)" % cpu_mhz_max)
    link = _link(check, source)
    if check.errors:
        raise ConfigError(check.errors)
    return BoardConfig(source, name, description or "", display, buttons, buzzer_pin, battery, cpu_mhz_max, link)


def read_config(path):
    """load_config() of a file; a missing or unreadable file is a ConfigError too."""
    try:
        with open(path, "rb") as file:
            text = file.read()
    except OSError as error:
        raise ConfigError(["%s: cannot be read (%s)" % (path, error)])
    return load_config(text)


# The wiring a board most likely has when its config is broken: the I2C
# breadboard's display, used only to show what is wrong with the config.
RESCUE_DISPLAY = {"controller": "ssd1306", "width": 128, "height": 64, "bus": "i2c", "i2c": {"sda": 4, "scl": 5}}


def rescue_config(path):
    """A display-only config for showing what is wrong with the config file at `path`.

    Its display section if that part is sound, else RESCUE_DISPLAY.
    """
    display = RESCUE_DISPLAY
    source = _raw_json(path)
    if isinstance(source, dict) and isinstance(source.get("display"), dict):
        check = _Checker()
        _display(check, source)
        if not check.errors:
            display = source["display"]
    check = _Checker()
    spec = _display(check, {"display": display})
    return BoardConfig({"name": "rescue", "display": display}, "rescue", "", spec, [], None)


def _raw_json(path):
    try:
        with open(path) as file:
            return json.load(file)
    except (OSError, ValueError):
        return None
