"""Builds the Device of a board config from machine.Pin, I2C, SPI and PWM, time and os."""

import time

import machine
from machine import I2C, PWM, SPI, Pin

from hw.buttons import Buttons
from hw.board import CONFIG_PATH, STORAGE_ROOT, ConfigError, HardwareError, checked_config, save_checked
from hw.display import Display, I2CLink, SPILink
from hw.power import Power
from hw.sound import Sound
from hw.storage import Storage
from othello.compat import const, release_module

try:
    # Only the simulator's stand-in machine module has it: virtual time and the flash directory.
    from machine import host_platform
except ImportError:
    host_platform = None

_PULLS = {"up": Pin.PULL_UP, "down": Pin.PULL_DOWN, "none": None}
_VBUS_SENSE = const(24)  # the Pico senses USB power here (high: VBUS present), unless the battery section says



class Device:
    """What the firmware may touch: display, buttons, sound, storage, time, power, reset.

    ticks_ms/ticks_diff/ticks_add/sleep_ms behave as MicroPython's time
    functions (ticks wrap around: compare them with ticks_diff).
    """

    def __init__(self, config, clock, display, buttons, sound, storage, power, battery=None):
        self.config = config
        self.battery = battery  # hw.battery.Battery, or None on a board without a gauge
        self.display = display
        self.buttons = buttons
        self.sound = sound
        self.storage = storage
        self.ticks_ms = clock.ticks_ms
        self.ticks_diff = clock.ticks_diff
        self.ticks_add = clock.ticks_add
        self.sleep_ms = clock.sleep_ms
        self.power = power
        self.search_mhz = power.search_mhz  # the clock full_speed() gives: the player's budgets follow it

    def nap(self, ms, deep=True):
        """Wait `ms` between two polls of the buttons, the chip asleep when it may be (hw/power.py). Not
        while the buzzer sounds, nor when not `deep` (a link cable is open): lightsleep stops the PWM's
        and the UART's clocks, and a UART with no clock receives nothing."""
        if self.sound.playing or not deep:
            self.sleep_ms(ms)
        elif self.power.nap(ms):
            self.buttons.slept()

    def full_speed(self):
        """The search clock (search_mhz), the core voltage raised first; base_speed() undoes it."""
        self.power.full_speed()

    def base_speed(self):
        self.power.base_speed()

    def sleep_until_pressed(self):
        """Switched off: the deepest sleep the port has, until a button is down; whether one is (on USB
        power it returns after a short nap either way: hw/power.py)."""
        if self.power.sleep_until_pressed():
            self.buttons.slept()
            return True
        return False

    def reset(self):
        """Restart the device as the reset button would."""
        machine.reset()


def _open_bus(spec):
    if spec.bus == "i2c":
        return I2C(spec.bus_id, scl=Pin(spec.pins["scl"]), sda=Pin(spec.pins["sda"]), freq=spec.freq)
    return SPI(spec.bus_id, baudrate=spec.freq, polarity=0, phase=0, sck=Pin(spec.pins["sck"]), mosi=Pin(spec.pins["mosi"]))


def _open_display(spec, clock):
    reset = None if spec.reset is None else Pin(spec.reset, Pin.OUT, value=1)
    bus = _open_bus(spec)
    if spec.bus == "i2c":
        link = I2CLink(bus, spec.address)
        where = "I2C address 0x%02X on I2C%d (SDA GP%d, SCL GP%d)" % (spec.address, spec.bus_id, spec.pins["sda"], spec.pins["scl"])
    else:
        link = SPILink(bus, Pin(spec.pins["dc"], Pin.OUT, value=0), Pin(spec.pins["cs"], Pin.OUT, value=1))
        where = "SPI%d" % spec.bus_id
    try:
        return Display(link, spec.controller, spec.rotation, spec.addressing, reset, clock.sleep_ms)
    except OSError as error:
        found = ""
        if spec.bus == "i2c":
            found = "; the bus answers at: %s" % (", ".join("0x%02X" % a for a in bus.scan()) or "no address")
        raise HardwareError("display: no answer from the %s at %s (%s)%s" % (spec.controller.upper(), where, error, found))


def open_device(config, storage_root=STORAGE_ROOT):
    """The Device wired as `config` (a BoardConfig) says."""
    clock = time if host_platform is None else host_platform.clock
    display = _open_display(config.display, clock)
    pins = [(spec.name, Pin(spec.pin, Pin.IN, _PULLS[spec.pull]), spec.active) for spec in config.buttons]
    buttons = Buttons(pins, clock, irq_trigger=Pin.IRQ_FALLING | Pin.IRQ_RISING)
    wake_pins = [(spec.pin, pin, spec.active) for spec, (_, pin, _) in zip(config.buttons, pins)]
    vbus = _VBUS_SENSE if config.battery is None or config.battery.vbus is None else config.battery.vbus
    link, bus_spec = display.link, config.display

    def retime():
        """After a clock change: the display's bus opened again, so that its divider suits the new clk_peri."""
        if bus_spec.bus == "i2c":
            link.i2c = _open_bus(bus_spec)
        else:
            link.spi = _open_bus(bus_spec)

    power = Power(machine, clock, config.cpu_mhz_max, wake_pins, Pin(vbus, Pin.IN, None), retime)
    pwm = None if config.buzzer_pin is None else PWM(Pin(config.buzzer_pin))
    sound = Sound(pwm, clock)
    storage = Storage(storage_root, None if host_platform is None else host_platform.files)
    battery = None
    if config.battery is not None:
        from hw.battery import Battery

        battery = Battery(config.battery)
    return Device(config, clock, display, buttons, sound, storage, power, battery)


def boot(path=CONFIG_PATH):
    """Power-up: (device, None), or with a broken config (rescue device, ConfigError).

    The rescue device has the config's display if that part is sound (else
    the I2C breadboard's), no buttons and no buzzer: enough to show the error.
    A config the validator (hw.config) passed once is read back from its
    checked form (hw/board.py); otherwise the validator is imported
    for this and released afterwards: nothing the device keeps refers to it,
    so the garbage collector frees its code.
    """
    try:
        with open(path, "rb") as file:
            text = file.read()
    except OSError:
        text = None
    config = None if text is None else checked_config(path, text)
    if config is not None:
        return open_device(config), None
    from hw import config as validator

    try:
        try:
            config = validator.read_config(path)
        except ConfigError as error:
            return open_device(validator.rescue_config(path)), error
        save_checked(path, text, config)
    finally:
        release_module("hw.config")
    return open_device(config), None
