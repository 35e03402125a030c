"""The chip's power: the search clock with its core voltage, the naps between key polls, and switching off.

    power = Power(machine, clock, search_mhz, button_pins, usb_sense)
    power.full_speed(); ...search...; power.base_speed()
    power.nap(ms)            # between two polls of the buttons
    power.sleep_until_pressed()   # auto-off: True once a button is down

Why it is built this way (docs/POWER.md has the figures):
- The RP2040 runs at 200 MHz only with its core voltage at 1.15 V or more
  (the default is 1.10 V). full_speed() raises the voltage first, waits for
  the regulator to say it is in regulation, then raises the clock;
  base_speed() lowers the clock first, then the voltage. The voltage is the
  VREG register's VSEL field (RP2040 datasheet, VREG_AND_CHIP_RESET), which
  MicroPython has no call for.
- machine.freq(hz) makes clk_peri 48 MHz from the USB PLL, and
  machine.lightsleep() returns with every clock as at power-up (125 MHz,
  clk_peri = clk_sys). The display's bus divider is set when the bus opens,
  so full_speed() calls `retime` (the Device opens the bus again at its
  configured rate), and base_speed() restores the power-up clocks exactly
  (machine.freq(125 MHz, 125 MHz): clk_peri = clk_sys) and retimes once:
  from then on the bus is right after every lightsleep too, and a nap
  costs no bus set-up.
- nap(ms) on batteries is machine.lightsleep(ms): the PLLs stop, clk_sys
  runs from the 12 MHz crystal and only the timer is clocked until its
  alarm. On USB power it is time.sleep_ms (the core waits for an event at
  the base clock): MicroPython before 1.24 stops USB in every lightsleep,
  which would cut the REPL and mpremote, and USB power needs no saving.
  While the GPIO clock is stopped the buttons' edge interrupts cannot count
  a press, so after a lightsleep the buttons trust the pin level at once
  (Buttons.slept()).
- sleep_until_pressed() is the deepest sleep the rp2 port offers with a
  wake: machine.lightsleep() with no period stops the crystal (DORMANT),
  and a pin wakes it when its IO_BANK0 DORMANT_WAKE_INTE bit is set, which
  MicroPython has no call for either: the buttons' pressed levels are set
  there before and cleared after. On USB power the REPL must live, so the
  chip naps in 100 ms steps and looks at the buttons instead.
"""

from othello.compat import const

_VREG = const(0x40064000)  # VREG_AND_CHIP_RESET: VREG register (EN bit 0, HIZ bit 1, VSEL bits 4-7, ROK bit 12)
_VSEL_SHIFT = const(4)
_VSEL_MASK = const(0xF0)
_VREG_ROK = const(0x1000)
_VSEL_FAST = const(0b1100)  # 1.15 V: the RP2040's certified voltage for 200 MHz (pico-sdk 2.1.1 notes)
_IO_BANK0_DORMANT_WAKE_INTE0 = const(0x40014160)  # 4 registers of 8 GPIOs, 4 bits each
_LEVEL_LOW = const(1)  # a GPIO's bits in DORMANT_WAKE_INTE: LEVEL_LOW, LEVEL_HIGH, EDGE_LOW, EDGE_HIGH
_LEVEL_HIGH = const(2)
_USB_NAP_MS = const(100)  # switched off on USB power: how often the buttons are looked at


class Power:
    """`machine` the MicroPython module, `clock` the time module (ticks_ms, sleep_ms), `search_mhz` the
    clock for searches (the board config's cpu_mhz_max), `buttons` a list of (GPIO number, Pin, level when
    pressed),
    `usb_sense` the Pin that reads VBUS (GP24 on the Pico) or None, `retime` called after a clock change."""

    def __init__(self, machine, clock, search_mhz, buttons, usb_sense=None, retime=None):
        self.machine = machine
        self.clock = clock
        self.base_hz = machine.freq()
        # The clock a search runs at (what the player's budgets follow): never below the base clock.
        self.search_mhz = max(search_mhz, self.base_hz // 1000000)
        self.buttons = buttons
        self.usb_sense = usb_sense
        self.retime = retime or (lambda: None)
        self.fast = None  # at the search clock: the VREG register as it was before, for base_speed()

    def on_usb(self):
        """Whether USB powers the board (then naps keep USB and the REPL alive)."""
        return self.usb_sense is not None and self.usb_sense.value() == 1

    def full_speed(self):
        """The search clock, the core voltage raised first when it needs more than the default."""
        if self.fast is not None or self.search_mhz * 1000000 <= self.base_hz:
            return
        mem32 = self.machine.mem32
        vreg = mem32[_VREG]
        if (vreg & _VSEL_MASK) >> _VSEL_SHIFT < _VSEL_FAST:
            mem32[_VREG] = (vreg & ~_VSEL_MASK) | (_VSEL_FAST << _VSEL_SHIFT)
            for _ in range(10):  # the regulator settles in microseconds; ROK says so
                if mem32[_VREG] & _VREG_ROK:
                    break
                self.clock.sleep_ms(1)
        self.machine.freq(self.search_mhz * 1000000)
        self.fast = vreg
        self.retime()

    def base_speed(self):
        """Back to the base clock, then the voltage as it was."""
        if self.fast is None:
            return
        self.machine.freq(self.base_hz, self.base_hz)  # clk_peri = clk_sys, as at power-up and after lightsleep
        self.machine.mem32[_VREG] = self.fast
        self.fast = None
        self.retime()

    def nap(self, ms):
        """Sleep `ms` between two polls of the buttons; True when the GPIO clock stopped (lightsleep)."""
        if ms <= 1 or self.fast is not None or self.on_usb():
            self.clock.sleep_ms(ms)
            return False
        self.machine.lightsleep(ms)  # back at the power-up clocks, which the bus was opened for
        return True

    def any_pressed(self):
        for _, pin, level in self.buttons:
            if pin.value() == level:
                return True
        return False

    def sleep_until_pressed(self):
        """Switched off (the caller has saved and put the display to sleep): sleep as deeply as the port
        allows until a button is down, and say whether one is. On batteries that is DORMANT until a
        button's level wakes the chip; on USB power one nap of _USB_NAP_MS, so the caller's loop goes on."""
        if self.any_pressed():
            return True
        if self.on_usb():
            self.clock.sleep_ms(_USB_NAP_MS)
        else:
            mem32 = self.machine.mem32
            masks = [0, 0, 0, 0]
            for gpio, _, level in self.buttons:
                masks[gpio >> 3] |= (_LEVEL_HIGH if level else _LEVEL_LOW) << ((gpio & 7) * 4)
            for index in range(4):
                mem32[_IO_BANK0_DORMANT_WAKE_INTE0 + 4 * index] = masks[index]
            try:
                self.machine.lightsleep()  # the crystal stops until a button's level wakes it
            finally:
                for index in range(4):
                    mem32[_IO_BANK0_DORMANT_WAKE_INTE0 + 4 * index] = 0
        return self.any_pressed()

