"""The board around the simulated Pico, wired as a board config says: OLED module, buttons, buzzer.

The Pico side (tools/simulator/standins/machine.py, in whichever process
runs the firmware) reports what its pins and buses do; Hardware turns that
into a picture on the panel, tones in the buzzer log, and tells which
level a button puts on its pin.
"""

from .panel import I2CTarget, Panel, SPITarget

USB_VSYS_V = 4.7  # VSYS on USB power: VBUS's 5 V less the drop of the Pico's own Schottky diode
ADC_REFERENCE_V = 3.3  # the Pico's ADC reference, its 3.3 V rail


def adc_counts(volts):
    """The RP2040 ADC's 12-bit reading of `volts` on its pin (what an emulated chip's ADC returns)."""
    return min(4095, max(0, int(volts / ADC_REFERENCE_V * 4096)))


class Hardware:
    def __init__(self, config, seed=2040):
        self.config = config
        spec = config.display
        self.panel = Panel(spec.controller, seed)
        self.display_spec = spec
        self.levels = {}  # gpio -> the level the Pico drives, None when it is not an output
        self._i2c = I2CTarget(self.panel, spec.address) if spec.bus == "i2c" else None
        self._spi = SPITarget(self.panel) if spec.bus == "spi" else None
        self.buttons = {button.name: button for button in config.buttons}
        self.buzzer_pin = config.buzzer_pin
        self.buzzer_log = []  # (ms, Hz), Hz 0 when silent: each change of what the buzzer sounds
        self.flash_log = []  # (ms, op, path): every step that changed the flash

    @property
    def protocol_errors(self):
        return self._i2c.protocol_errors if self._i2c else []

    def i2c_devices(self):
        """(scl, sda, address) of every device on an I2C bus."""
        if self._i2c is None:
            return []
        return [(self.display_spec.pins["scl"], self.display_spec.pins["sda"], self.display_spec.address)]

    def _in_reset(self):
        return self.display_spec.reset is not None and self.levels.get(self.display_spec.reset) == 0

    # --- what the Pico does ---

    def i2c_write(self, scl, sda, address, data):
        """One I2C write; True if a device acknowledged its address."""
        if (scl, sda, address) not in self.i2c_devices():
            return False
        if not self._in_reset():
            self._i2c.transfer(data)
        return True

    def spi_write(self, sck, mosi, data):
        pins = self.display_spec.pins
        if self._spi is None or (sck, mosi) != (pins["sck"], pins["mosi"]) or self._in_reset():
            return
        self._spi.transfer(data, self.levels.get(pins["dc"]), self.levels.get(pins["cs"]))

    def output(self, gpio, level):
        before = self.levels.get(gpio)
        self.levels[gpio] = level
        if gpio == self.display_spec.reset and level == 0 and before != 0:
            self.panel.reset()

    def pwm(self, ms, gpio, freq, duty):
        if gpio != self.buzzer_pin:
            return
        sound = freq if duty else 0
        if not self.buzzer_log or self.buzzer_log[-1][1] != sound:
            self.buzzer_log.append((ms, sound))

    def flash_step(self, ms, op, path):
        self.flash_log.append((ms, op, path))

    # --- the buttons ---

    def button_level(self, name, pressed):
        """The level the button puts on its pin: its active level when pressed; when released,
        the level its external resistor gives (pull "none") or nothing (the Pico's pull decides)."""
        if name not in self.buttons:
            raise KeyError("this board has no %r button (it has: %s)" % (name, ", ".join(self.buttons)))
        button = self.buttons[name]
        if pressed:
            return button.active
        return (1 - button.active) if button.pull == "none" else None

    # --- the power supply ---

    def power_inputs(self, battery_v, usb):
        """What the supply puts on the Pico's sense pins: ([(ADC gpio, volts)], [(VBUS gpio, level)]).

        battery_v: the cells' voltage at VSYS (after their diode), or None with no cells fitted; usb: a
        cable gives power. The diodes let the higher of the two through to VSYS."""
        spec = self.config.battery
        if spec is None:
            return [], []
        vsys = max(battery_v or 0.0, USB_VSYS_V if usb else 0.0)
        levels = [] if spec.vbus is None else [(spec.vbus, 1 if usb else 0)]
        return [(spec.adc, vsys / spec.divider)], levels

    def notes(self, until_ms=None):
        """The buzzer log as (start ms, Hz, duration ms) of each tone (rests left out)."""
        notes = []
        log = self.buzzer_log
        for index, (start, freq) in enumerate(log):
            end = log[index + 1][0] if index + 1 < len(log) else until_ms
            if freq and end is not None:
                notes.append((start, freq, end - start))
        return notes
