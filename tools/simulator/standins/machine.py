"""Stand-in for MicroPython's `machine` module on an RP2040, for the simulator.

Runs under CPython and under MicroPython (a machine.py on the path shadows
the unix port's built-in module). It models the chip side of the Pico: the
GPIO pads (mode, pull, output level, edge interrupts), the I2C and SPI
controllers with the RP2040's pin functions, PWM and reset. Everything
outside the chip (the display, the buttons, the buzzer, time and the flash)
belongs to a *board* attached with attach(board) before the firmware starts:
- in the simulator's firmware process, standins/hostlink.py: a pipe to the
  host, which decodes the bus traffic into a simulated panel;
- in a CPython test, tools/simulator/local.py, wired to the panel directly.

A board provides: clock (ticks_ms, ticks_diff, ticks_add, sleep_ms), files
(the flash, for hw.storage), output(gpio, level or None), i2c_write(scl,
sda, address, data) -> acknowledged, spi_write(sck, mosi, data) (data: the
caller's own buffer, valid during the call only), uart_write(tx, data),
pwm(gpio, freq, duty_u16), reset() and dormant(woken) (the crystal stopped:
return once woken() says a wake pin has its level); it drives inputs back
with set_external(), the voltage on an ADC pin with set_analog(), and bytes
into a UART's RX pin with uart_receive().
`host_platform` is what firmware/hw/device.py takes its clock and flash from.

The chip's power, as the rp2 port (ports/rp2/modmachine.c) does it:
freq(hz) refuses a clock the PLL cannot make ("cannot change frequency")
and makes clk_peri 48 MHz; lightsleep(ms) sleeps on the board's clock and
comes back at the power-up clock (125 MHz, clk_peri = clk_sys); lightsleep()
stops the crystal until a pin enabled in IO_BANK0's DORMANT_WAKE_INTE
registers has its level. mem32 holds those registers and the core voltage
regulator's (VREG). A clock above 133 MHz with the core under 1.15 V raises
CoreVoltageError: the real chip may crash there. Every change goes to
`power_log` as (virtual ms, event, value) so tests can assert it:
("freq", hz), ("vsel", volts), ("lightsleep", ms), ("dormant", ms asleep); it keeps the last
POWER_LOG_KEPT to POWER_LOG_KEPT * 2 (a long simulation naps 50 times a second).
"""

import errno

_board = None
_gpios = {}

GPIO_COUNT = 30
CPU_FREQ = 125000000
# The slowest PWM the RP2040 makes at 125 MHz: divider 256 and a 16-bit wrap.
PWM_MIN_FREQ = 8
PWM_MAX_FREQ = CPU_FREQ // 2


class PowerCut(BaseException):
    """Raised in an in-process simulation when the power goes at a chosen flash step.

    A BaseException, so the firmware's `except Exception` crash handler does
    not catch it: nothing runs after a power cut.
    """


class DeviceReset(BaseException):
    """Raised by machine.reset() in an in-process simulation, which cannot restart the process."""


def attach(board):
    """Connect the chip to a board; the GPIOs start as after a reset (inputs, pulled down)."""
    global _board
    _board = board
    _gpios.clear()
    freq_reset()
    _uarts.clear()


def _the_board():
    if _board is None:
        raise RuntimeError("no simulated board attached: call machine.attach(board) first (tools/simulator does)")
    return _board


class _HostPlatform:
    """The simulator's time and flash, for firmware/hw/device.py."""

    @property
    def clock(self):
        return _the_board().clock

    @property
    def files(self):
        return _the_board().files


host_platform = _HostPlatform()


class _Gpio:
    """One GPIO as the RP2040's pad and SIO registers hold it."""

    def __init__(self, number):
        self.number = number
        self.mode = Pin.IN
        self.pull = Pin.PULL_DOWN  # the RP2040's reset state
        self.out = 0
        self.external = None  # the level something outside drives, or None
        self.reported = None  # the output level the board last heard of
        self.handler = None
        self.trigger = 0
        self.pin = None
        self.volts = 0.0  # what the board puts on the pin for the ADC (an unwired ADC pin reads 0 here)

    def level(self):
        if self.mode == Pin.OUT or (self.mode == Pin.OPEN_DRAIN and self.out == 0):
            return self.out
        if self.external is not None:
            return self.external
        return 1 if self.pull == Pin.PULL_UP else 0  # a floating input reads low here

    def change(self, attribute, value):
        before = self.level()
        setattr(self, attribute, value)
        after = self.level()
        driven = after if self.mode == Pin.OUT else None
        if driven != self.reported:
            self.reported = driven
            _the_board().output(self.number, driven)
        if after != before and self.handler is not None:
            edge = Pin.IRQ_RISING if after else Pin.IRQ_FALLING
            if self.trigger & edge:
                self.handler(self.pin)


def _gpio(number):
    gpio = _gpios.get(number)
    if gpio is None:
        gpio = _gpios[number] = _Gpio(number)
    return gpio


def set_external(number, level):
    """The board drives GPIO `number` to 0 or 1, or lets go (None); edge interrupts fire."""
    _gpio(number).change("external", level)


def set_analog(number, volts):
    """The board puts `volts` on GPIO `number` (what machine.ADC reads there)."""
    _gpio(number).volts = volts


def _pin_number(pin_id):
    if isinstance(pin_id, Pin):
        return pin_id.id
    if isinstance(pin_id, str):
        name = pin_id.upper()
        if name == "LED":
            return 25
        if name.startswith("GP") and name[2:].isdigit():
            pin_id = int(name[2:])
        else:
            raise ValueError("unknown named pin \"%s\"" % pin_id)
    if not isinstance(pin_id, int) or not 0 <= pin_id < GPIO_COUNT:
        raise ValueError("invalid pin")
    return pin_id


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, *, value=None, alt=-1):
        self.id = _pin_number(id)
        _the_board()
        if mode != -1 or pull != -1 or value is not None:
            self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None, alt=-1):
        gpio = _gpio(self.id)
        if value is not None:
            gpio.change("out", 1 if value else 0)
        if mode != -1:
            gpio.change("mode", mode)
        # As on the rp2 port: pulls are set on every init, None (or no argument) meaning none.
        gpio.change("pull", None if pull in (-1, None) else pull)

    def value(self, level=None):
        gpio = _gpio(self.id)
        if level is None:
            return gpio.level()
        gpio.change("out", 1 if level else 0)
        return None

    def __call__(self, level=None):
        return self.value(level)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    high = on
    low = off

    def toggle(self):
        gpio = _gpio(self.id)
        gpio.change("out", 1 - gpio.out)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        # The handler runs at the edge, hard or soft: the firmware here computes in no virtual time, so
        # a soft handler would come no later (host_tests/test_hw_micropython checks that the buttons'
        # hard handler allocates nothing, as the Pico's locked heap requires).
        gpio = _gpio(self.id)
        gpio.handler = handler
        gpio.trigger = trigger
        gpio.pin = self
        return None

    def __repr__(self):
        return "Pin(GPIO%d)" % self.id


def _check_function(bus_id, role, pin, role_of):
    if role_of(pin) != (bus_id, role):
        raise ValueError("bad %s pin" % role.upper())


def _i2c_role(pin):
    return (pin >> 1) & 1, ("sda", "scl")[pin & 1]


def _spi_role(pin):
    return (pin >> 3) & 1, ("miso", "cs", "sck", "mosi")[pin & 3]


class I2C:
    """A hardware I2C controller; only writes are modelled (the displays are write-only)."""

    _DEFAULT_PINS = {0: (9, 8), 1: (7, 6)}  # (scl, sda)

    def __init__(self, id, *, scl=None, sda=None, freq=400000, timeout=50000):
        if id not in (0, 1):
            raise ValueError("I2C(%s) doesn't exist" % (id,))
        default_scl, default_sda = self._DEFAULT_PINS[id]
        self.scl = default_scl if scl is None else _pin_number(scl)
        self.sda = default_sda if sda is None else _pin_number(sda)
        _check_function(id, "scl", self.scl, _i2c_role)
        _check_function(id, "sda", self.sda, _i2c_role)
        self.id = id
        self.freq = freq

    def writeto(self, addr, buf, stop=True):
        # The caller's buffer, not a copy: the rp2 port's writeto allocates nothing.
        if not _the_board().i2c_write(self.scl, self.sda, addr, buf):
            raise OSError(errno.EIO)
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        return self.writeto(addr, b"".join(bytes(part) for part in vector), stop)

    def scan(self):
        board = _the_board()
        return [addr for addr in range(0x08, 0x78) if board.i2c_write(self.scl, self.sda, addr, b"")]


def _reverse_bits(byte):
    mirrored = 0
    for bit in range(8):
        mirrored = (mirrored << 1) | ((byte >> bit) & 1)
    return mirrored


_REVERSED = bytes(_reverse_bits(b) for b in range(256))


class SPI:
    MSB = 1
    LSB = 0
    _DEFAULT_PINS = {0: (18, 19, 16), 1: (10, 11, 8)}  # (sck, mosi, miso) of the Pico

    def __init__(self, id, baudrate=1000000, *, polarity=0, phase=0, bits=8, firstbit=MSB, sck=None, mosi=None, miso=None):
        if id not in (0, 1):
            raise ValueError("SPI(%s) doesn't exist" % (id,))
        default_sck, default_mosi, _ = self._DEFAULT_PINS[id]
        self.sck = default_sck if sck is None else _pin_number(sck)
        self.mosi = default_mosi if mosi is None else _pin_number(mosi)
        _check_function(id, "sck", self.sck, _spi_role)
        _check_function(id, "mosi", self.mosi, _spi_role)
        if miso is not None:
            _check_function(id, "miso", _pin_number(miso), _spi_role)
        self.id = id
        self.init(baudrate, polarity=polarity, phase=phase, bits=bits, firstbit=firstbit)

    def init(self, baudrate=1000000, *, polarity=0, phase=0, bits=8, firstbit=MSB, **pins):
        if bits != 8:
            raise ValueError("bits must be 8")
        self.baudrate = baudrate
        self.firstbit = firstbit
        # The OLED controllers sample on the rising clock edge (mode 0 or 3):
        # in mode 1 or 2 they read each bit one position late.
        self.late_sampling = polarity != phase

    def write(self, buf):
        data = buf  # the caller's buffer, not a copy, as on the rp2 port
        if self.firstbit == SPI.LSB:
            data = bytes(_REVERSED[b] for b in data)
        if self.late_sampling and data:
            stream = int.from_bytes(data, "big") >> 1
            data = stream.to_bytes(len(data), "big")
        _the_board().spi_write(self.sck, self.mosi, data)
        return None

    def deinit(self):
        return None


def _uart_role(pin):
    return ((pin >> 2) ^ (pin >> 3)) & 1, ("tx", "rx", "cts", "rts")[pin & 3]


_uarts = {}  # RX pin -> the UART listening on it


def uart_receive(rx, data):
    """Bytes arrive on GPIO `rx`: a UART listening there keeps what fits its receive buffer, as the rp2
    port's does (the rest is lost); on a pin no UART listens on they are lost too."""
    uart = _uarts.get(rx)
    if uart is not None:
        room = uart.rxbuf - len(uart.received)
        uart.received += bytes(data[: max(0, room)])


class UART:
    """The RP2040's UART as the rp2 port drives it, bytes only: what write() sends goes to the board at
    once (its timing is not modelled), what the board sends waits in the receive buffer for read()."""

    _DEFAULT_PINS = {0: (0, 1), 1: (4, 5)}  # (tx, rx) of the Pico

    def __init__(self, id, baudrate=115200, bits=8, parity=None, stop=1, **options):
        if id not in (0, 1):
            raise ValueError("UART(%s) doesn't exist" % (id,))
        self.id = id
        self.tx, self.rx = self._DEFAULT_PINS[id]
        self.rxbuf = 256
        self.received = bytearray()
        self.init(baudrate, bits, parity, stop, **options)

    def init(self, baudrate=115200, bits=8, parity=None, stop=1, *, tx=None, rx=None, txbuf=None, rxbuf=None,
             timeout=0, timeout_char=0, invert=0, flow=0, cts=None, rts=None):
        if bits not in (5, 6, 7, 8) or parity not in (None, 0, 1) or stop not in (1, 2):
            raise ValueError("invalid UART framing")
        tx = self.tx if tx is None else _pin_number(tx)
        rx = self.rx if rx is None else _pin_number(rx)
        _check_function(self.id, "tx", tx, _uart_role)
        _check_function(self.id, "rx", rx, _uart_role)
        _the_board()
        if _uarts.get(self.rx) is self:
            del _uarts[self.rx]
        self.tx, self.rx = tx, rx
        self.baudrate = baudrate
        if rxbuf is not None:
            self.rxbuf = max(32, rxbuf)
        _uarts[rx] = self

    def any(self):
        return len(self.received)

    def read(self, nbytes=None):
        if not self.received:
            return None  # timeout 0: nothing waiting
        count = len(self.received) if nbytes is None else min(nbytes, len(self.received))
        data = bytes(self.received[:count])
        self.received = self.received[count:]
        return data

    def write(self, buf):
        data = bytes(buf)
        if data:
            _the_board().uart_write(self.tx, data)
        return len(data)

    def deinit(self):
        if _uarts.get(self.rx) is self:
            del _uarts[self.rx]
        self.received = bytearray()


class PWM:
    def __init__(self, dest, *, freq=None, duty_u16=None, duty_ns=None, invert=False):
        self.pin = _pin_number(dest)
        self._freq = 1000
        self._duty = 0
        if freq is not None:
            self.freq(freq)
        if duty_u16 is not None:
            self.duty_u16(duty_u16)
        self._report()

    def _report(self):
        _the_board().pwm(self.pin, self._freq, self._duty)

    def freq(self, value=None):
        if value is None:
            return self._freq
        if value < PWM_MIN_FREQ:
            raise ValueError("freq too small")
        if value > PWM_MAX_FREQ:
            raise ValueError("freq too large")
        self._freq = int(value)
        self._report()
        return None

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        if not 0 <= value <= 65535:
            raise ValueError("duty_u16 must be from 0 to 65535")
        self._duty = int(value)
        self._report()
        return None

    def deinit(self):
        self._duty = 0
        self._report()


ADC_REFERENCE_V = 3.3  # the Pico's ADC reference: its 3.3 V rail
_ADC_GPIOS = (26, 27, 28, 29)  # channels 0-3
_TEMP_CHANNEL = 4
_TEMP_SENSOR_V = 0.706  # the RP2040 datasheet's sensor voltage at 27 C


class ADC:
    """The RP2040's 12-bit ADC as the rp2 port gives it: ADC(channel 0-4, or GPIO 26-29, or a Pin)."""

    CORE_TEMP = _TEMP_CHANNEL

    def __init__(self, id):
        if isinstance(id, int) and not isinstance(id, bool):
            if not (0 <= id <= _TEMP_CHANNEL or id in _ADC_GPIOS):
                raise ValueError("invalid channel")
            gpio = _ADC_GPIOS[id] if id < _TEMP_CHANNEL else (None if id == _TEMP_CHANNEL else id)
        else:
            gpio = _pin_number(id)
            if gpio not in _ADC_GPIOS:
                raise ValueError("Pin doesn't have ADC capabilities")
        _the_board()
        self.gpio = gpio  # None: the temperature sensor

    def read_u16(self):
        volts = _TEMP_SENSOR_V if self.gpio is None else _gpio(self.gpio).volts
        raw = min(4095, max(0, int(volts / ADC_REFERENCE_V * 4096)))
        # The port widens the 12-bit reading to 16 bits by repeating its top bits below it.
        return raw << 4 | raw >> 8

    def __repr__(self):
        return "<ADC channel=%d>" % (_TEMP_CHANNEL if self.gpio is None else self.gpio - 26)


def reset():
    _the_board().reset()


soft_reset = reset


# ----- the chip's clock, voltage and sleep -------------------------------------------------------

XOSC_MHZ = 12
PERI_HZ_AFTER_FREQ = 48000000  # the SDK's set_sys_clock_khz takes clk_peri from the USB PLL
VREG_ADDRESS = 0x40064000
_VREG_RESET = 0xB1  # EN, VSEL 1.10 V
_VREG_WRITABLE = 0xF3  # EN (bit 0), HIZ (bit 1), VSEL (bits 4-7)
_VREG_ROK = 0x1000
DORMANT_WAKE_INTE0 = 0x40014160
_SAFE_MHZ_AT_1_10_V = 133  # the RP2040's top clock at its default voltage (RP2040 datasheet)
_VSEL_1_15 = 0b1100

power_log = []
POWER_LOG_KEPT = 500
_power = {"hz": CPU_FREQ, "peri_hz": CPU_FREQ, "vreg": _VREG_RESET, "wake": [0, 0, 0, 0]}


class CoreVoltageError(BaseException):
    """The clock went above what the chip runs at its core voltage: on a real Pico, a crash or worse."""


def _log(event, value):
    if not POWER_LOG_KEPT:  # a memory measurement keeps the heap for the firmware (host_tests/mpy/device_memory.py)
        return
    try:
        elapsed = _the_board().clock.elapsed
    except (RuntimeError, AttributeError):
        elapsed = 0
    power_log.append((elapsed, event, value))
    if len(power_log) > 2 * POWER_LOG_KEPT:
        del power_log[:POWER_LOG_KEPT]


def _pll_makes(khz):
    # pico-sdk's check_sys_clock_khz: VCO 750-1600 MHz from the 12 MHz crystal, post dividers 1-7.
    for feedback in range(16, 321):
        vco_khz = XOSC_MHZ * 1000 * feedback
        if not 750000 <= vco_khz <= 1600000:
            continue
        for first in range(1, 8):
            for second in range(1, first + 1):
                if vco_khz == khz * first * second:
                    return True
    return False


def _volts(vreg):
    vsel = (vreg >> 4) & 0xF
    return 0.80 + 0.05 * max(0, vsel - 5)


def freq(hz=None, peri_hz=None):
    if hz is None:
        return _power["hz"]
    if not _pll_makes(hz // 1000) or hz % 1000:
        raise ValueError("cannot change frequency")
    if hz > _SAFE_MHZ_AT_1_10_V * 1000000 and (_power["vreg"] >> 4) & 0xF < _VSEL_1_15:
        raise CoreVoltageError("%d MHz with the core at %.2f V: the RP2040 is certified there at 1.15 V or more"
                               % (hz // 1000000, _volts(_power["vreg"])))
    _power["hz"] = hz
    _power["peri_hz"] = PERI_HZ_AFTER_FREQ
    if peri_hz is not None and peri_hz != PERI_HZ_AFTER_FREQ:
        if peri_hz != hz:
            raise ValueError("peripheral freq must be 48_000_000 or the same as the MCU freq")
        _power["peri_hz"] = hz
    _log("freq", hz)
    return None


def peripheral_clock():
    """clk_peri in Hz (what a bus opened now computes its divider from)."""
    return _power["peri_hz"]


def _power_up_clocks():
    _power["hz"] = CPU_FREQ
    _power["peri_hz"] = CPU_FREQ


class _Mem32:
    """The 32-bit registers the firmware may touch: VREG and IO_BANK0's DORMANT_WAKE_INTE0-3."""

    def _wake_index(self, address):
        index = (address - DORMANT_WAKE_INTE0) // 4
        if address % 4 or not 0 <= index < 4:
            raise ValueError("the simulated RP2040 has no register at 0x%08X in mem32 (only VREG and "
                             "DORMANT_WAKE_INTE0-3 are modelled)" % address)
        return index

    def __getitem__(self, address):
        if address == VREG_ADDRESS:
            return _power["vreg"] | _VREG_ROK
        return _power["wake"][self._wake_index(address)]

    def __setitem__(self, address, value):
        value &= 0xFFFFFFFF
        if address == VREG_ADDRESS:
            before = _power["vreg"]
            _power["vreg"] = value & _VREG_WRITABLE
            if _power["hz"] > _SAFE_MHZ_AT_1_10_V * 1000000 and (value >> 4) & 0xF < _VSEL_1_15:
                raise CoreVoltageError("core voltage lowered to %.2f V while the clock is %d MHz"
                                       % (_volts(value), _power["hz"] // 1000000))
            if _power["vreg"] != before:
                _log("vsel", round(_volts(_power["vreg"]), 2))
            return
        _power["wake"][self._wake_index(address)] = value


mem32 = _Mem32()


def _dormant_woken():
    for gpio in range(GPIO_COUNT):
        bits = (_power["wake"][gpio >> 3] >> ((gpio & 7) * 4)) & 0xF
        if not bits:
            continue
        level = _gpio(gpio).level()
        if (bits & 1 and level == 0) or (bits & 2 and level == 1):
            return True
    return False


def lightsleep(ms=None):
    board = _the_board()
    if ms is None:
        if not any(_power["wake"]):
            raise RuntimeError("lightsleep() with no wake pin enabled: the Pico would sleep until reset")
        start = board.clock.elapsed
        board.dormant(_dormant_woken)
        _log("dormant", board.clock.elapsed - start)
    elif ms <= 1:
        board.clock.sleep_ms(ms)
        return None
    else:
        board.clock.sleep_ms(ms)
        _log("lightsleep", ms)
    _power_up_clocks()
    return None


def freq_reset():
    """Power-up state of the clock, the voltage, the wake pins and the log (a new simulated boot)."""
    _power_up_clocks()
    _power["vreg"] = _VREG_RESET
    _power["wake"] = [0, 0, 0, 0]
    del power_log[:]


def unique_id():
    return b"\xe6\x61\x41\x04\x03\x2b\x5e\x2c"


def idle():
    return None


def disable_irq():
    return 0


def enable_irq(state=0):
    return None
