"""Builds the Device of a board config from machine.Pin, I2C, SPI and PWM, time and os."""

import time

import machine
from machine import I2C, PWM, SPI, Pin

from hw.buttons import Buttons
from hw.board import CONFIG_PATH, STORAGE_ROOT, ConfigError, HardwareError
from hw.display import Display, I2CLink, SPILink
from hw.sound import Sound
from hw.storage import Storage
from othello.compat import release_module

try:
    # Only the simulator's stand-in machine module has it: virtual time and the flash directory.
    from machine import host_platform
except ImportError:
    host_platform = None

_PULLS = {"up": Pin.PULL_UP, "down": Pin.PULL_DOWN, "none": None}


class Device:
    """What the firmware may touch: display, buttons, sound, storage, time, reset.

    ticks_ms/ticks_diff/ticks_add/sleep_ms behave as MicroPython's time
    functions (ticks wrap around: compare them with ticks_diff).
    """

    def __init__(self, config, clock, display, buttons, sound, storage):
        self.config = config
        self.display = display
        self.buttons = buttons
        self.sound = sound
        self.storage = storage
        self.ticks_ms = clock.ticks_ms
        self.ticks_diff = clock.ticks_diff
        self.ticks_add = clock.ticks_add
        self.sleep_ms = clock.sleep_ms

    def reset(self):
        """Restart the device as the reset button would."""
        machine.reset()

    def open_link(self):
        """The link cable's UART (hw/link.py's UartLink, close() it after), or None if the board has none."""
        if self.config.link is None:
            return None
        from hw.link import UartLink

        return UartLink(self.config.link)


def _open_display(spec, clock):
    reset = None if spec.reset is None else Pin(spec.reset, Pin.OUT, value=1)
    if spec.bus == "i2c":
        bus = I2C(spec.bus_id, scl=Pin(spec.pins["scl"]), sda=Pin(spec.pins["sda"]), freq=spec.freq)
        link = I2CLink(bus, spec.address)
        where = "I2C address 0x%02X on I2C%d (SDA GP%d, SCL GP%d)" % (spec.address, spec.bus_id, spec.pins["sda"], spec.pins["scl"])
    else:
        bus = SPI(spec.bus_id, baudrate=spec.freq, polarity=0, phase=0, sck=Pin(spec.pins["sck"]), mosi=Pin(spec.pins["mosi"]))
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
    pwm = None if config.buzzer_pin is None else PWM(Pin(config.buzzer_pin))
    sound = Sound(pwm, clock)
    storage = Storage(storage_root, None if host_platform is None else host_platform.files)
    return Device(config, clock, display, buttons, sound, storage)


def boot(path=CONFIG_PATH):
    """Power-up: (device, None), or with a broken config (rescue device, ConfigError).

    The rescue device has the config's display if that part is sound (else
    the I2C breadboard's), no buttons and no buzzer: enough to show the error.
    The config validator (hw.config) is imported for this and released
    afterwards: nothing the device keeps refers to it, so the garbage
    collector frees its code.
    """
    from hw import config

    try:
        try:
            return open_device(config.read_config(path)), None
        except ConfigError as error:
            return open_device(config.rescue_config(path)), error
    finally:
        release_module("hw.config")
