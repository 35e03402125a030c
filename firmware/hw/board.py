"""What a running device knows of its board: the wiring as a BoardConfig, where its files are, its errors.

hw/config.py reads and checks board.json and builds these holders; that
validator is needed only at power-up and hw.boot() releases it (on the Pico
a module's code takes heap for as long as it stays imported), so everything
the running firmware keeps is defined here, in a module small enough to keep.
"""

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
