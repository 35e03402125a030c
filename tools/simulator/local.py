"""The simulated board inside this CPython process, for tests that call firmware code directly."""

import sys
from pathlib import Path

from .hardware import Hardware

STANDINS = Path(__file__).resolve().parent / "standins"


def install_standins():
    """Make `import machine` and `import framebuf` find the stand-ins (standins/ first on sys.path)."""
    for name in ("machine", "framebuf"):
        module = sys.modules.get(name)
        if module is not None and Path(getattr(module, "__file__", "") or "").parent != STANDINS:
            raise RuntimeError("a %s module other than the simulator's is already imported: %r" % (name, module))
    if str(STANDINS) not in sys.path:
        sys.path.insert(0, str(STANDINS))


class LocalBoard:
    """A board config's hardware attached to the stand-in machine module of this process.

    Virtual time: `clock` moves when the firmware sleeps, `read_cost_ms` per
    ticks_ms() read, and by advance(ms). The flash is the directory
    `flash_dir`. hw.open_device(config) builds the Device on this board.
    A power cut armed with cut_power_at_flash_step(n) raises machine.PowerCut
    at the n-th flash-changing step; machine.reset() raises machine.DeviceReset.
    While the chip is dormant (switched off), `while_dormant(ms)` is called
    every DORMANT_STEP_MS of virtual time: a test presses a button there to
    wake it (with none set, a dormant chip is an error, as it would never wake).
    """

    DORMANT_STEP_MS = 10
    DORMANT_LIMIT_MS = 24 * 3600 * 1000

    def __init__(self, config, flash_dir, read_cost_ms=1, start_ticks=0, seed=2040):
        install_standins()
        import machine
        import simclock
        import simflash

        self._machine = machine
        self.config = config
        self.hardware = Hardware(config, seed)
        self.panel = self.hardware.panel
        self.clock = simclock.VirtualClock(start_ticks, read_cost_ms)
        self.files = simflash.FlashFiles(str(flash_dir), self._flash_step)
        self.flash_dir = Path(flash_dir)
        self._cut_in = 0
        self.power_cut = False
        self.while_dormant = None
        self.uart_sent = bytearray()  # what the firmware's UARTs sent, for a test to read (and clear)
        machine.attach(self)
        for name in self.hardware.buttons:  # the board's own pull resistors hold released buttons
            self.release(name)
        self.supply(None, True)

    def supply(self, battery_v, usb):
        """Power from cells at battery_v volts at VSYS (None: no cells) and/or a USB cable (usb)."""
        analog, levels = self.hardware.power_inputs(battery_v, usb)
        for gpio, volts in analog:
            self._machine.set_analog(gpio, volts)
        for gpio, level in levels:
            self._machine.set_external(gpio, level)

    # --- the board, as machine.py calls it ---

    def output(self, gpio, level):
        self.hardware.output(gpio, level)

    def i2c_write(self, scl, sda, address, data):
        return self.hardware.i2c_write(scl, sda, address, data)

    def spi_write(self, sck, mosi, data):
        self.hardware.spi_write(sck, mosi, data)

    def pwm(self, gpio, freq, duty):
        self.hardware.pwm(self.clock.elapsed, gpio, freq, duty)

    def uart_write(self, tx, data):
        self.uart_sent += data

    def reset(self):
        raise self._machine.DeviceReset()

    def dormant(self, woken):
        asleep = 0
        while not woken():
            if self.while_dormant is None or asleep > self.DORMANT_LIMIT_MS:
                raise RuntimeError("the simulated Pico is dormant and nothing wakes it (set while_dormant)")
            self.clock.sleep_ms(self.DORMANT_STEP_MS)
            asleep += self.DORMANT_STEP_MS
            self.while_dormant(asleep)

    def _flash_step(self, op, path):
        if self.power_cut:
            raise self._machine.PowerCut("the power is off")
        if self._cut_in:
            self._cut_in -= 1
            if not self._cut_in:
                self.power_cut = True
                raise self._machine.PowerCut("power cut before %s of %s" % (op, path))
        self.hardware.flash_step(self.clock.elapsed, op, path)

    # --- the world outside ---

    def press(self, name):
        level = self.hardware.button_level(name, True)
        self._machine.set_external(self.hardware.buttons[name].pin, level)

    def release(self, name):
        level = self.hardware.button_level(name, False)
        self._machine.set_external(self.hardware.buttons[name].pin, level)

    def uart_receive(self, rx, data):
        """Bytes arrive on GPIO `rx` (a UART's receive pin)."""
        self._machine.uart_receive(rx, data)

    def advance(self, ms):
        self.clock.advance(ms)

    def cut_power_at_flash_step(self, step):
        """The power goes just before the step-th flash-changing step from now (1 = the next)."""
        self._cut_in = step

    def screen(self):
        return self.panel.pixels()
