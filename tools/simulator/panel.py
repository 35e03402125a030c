"""A simulated OLED module: an SSD1306 or SH1106 controller behind a 128x64 glass.

The controller is fed the bytes the driver really sends (command(), data(),
or whole bus transfers through I2CTarget and SPITarget) and keeps the state
its datasheet describes: display RAM, addressing mode and pointers, segment
remap, COM scan direction and pin configuration, multiplex ratio, display
offset and start line, contrast, inversion, entire-display-on, display on/off
and the SSD1306's charge pump. pixels() is what the glass shows, so a wrong
addressing mode, page order, rotation or COM setting gives a wrong picture.

How the glass is wired (as on the common 0.96" and 1.3" modules): with the
segment remap on (A1) and the COM scan reversed (C8), the init every usual
driver sends, RAM column 0, page 0 bit 0 is the top-left pixel. The rows are
on the COM pads in the "alternative" order that COM pin configuration 0x12
selects. The SH1106's 132 columns drive 132 segments of which the glass has
the middle 128 (segments 2..129).

Choices where the datasheets leave room: the segment remap applies to data
as it is written (SSD1306 datasheet, 10.1.8), also on the SH1106; in page
addressing the SSD1306's column pointer wraps to the column set with
00h-1Fh, the SH1106's stops at column 131; bytes the controller does not
know are recorded in `unknown_commands` and otherwise ignored, as is the
hardware scroll (recorded in `unsupported`). Power-up fills the RAM with
noise, as a real controller's RAM holds whatever it holds.
"""

import random
import threading

WIDTH = 128
HEIGHT = 64
PAGES = 8

# Commands and how many argument bytes follow them.
_SSD1306_ARGUMENTS = {
    0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1,
    0xA3: 2, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD6: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1,
}
_SH1106_ARGUMENTS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class Panel:
    def __init__(self, controller="ssd1306", seed=2040):
        if controller not in ("ssd1306", "sh1106"):
            raise ValueError("no model of the %r controller" % controller)
        self.controller = controller
        self.sh1106 = controller == "sh1106"
        self.columns = 132 if self.sh1106 else 128
        self.first_segment = 2 if self.sh1106 else 0
        self.arguments = _SH1106_ARGUMENTS if self.sh1106 else _SSD1306_ARGUMENTS
        self.lock = threading.RLock()
        self.version = 0  # counts changes, for front ends that redraw on change
        self.power_up(seed)

    def power_up(self, seed=2040):
        """Power applied: the RAM holds noise and the registers their reset values."""
        with self.lock:
            self.ram = bytearray(random.Random(seed).getrandbits(8) for _ in range(PAGES * self.columns))
            self.unknown_commands = []
            self.unsupported = []
            self.data_bytes = 0
            self.reset()

    def reset(self):
        """The RES line pulsed: registers to their reset values; the RAM keeps its contents."""
        with self.lock:
            self.display_on = False
            self.contrast = 0x80 if self.sh1106 else 0x7F
            self.inverted = False
            self.entire_on = False
            self.segment_remap = False
            self.com_reversed = False
            self.multiplex = 64
            self.display_offset = 0
            self.start_line = 0
            self.com_pins = 0x12
            self.charge_pump = False  # SSD1306: off after reset, the panel stays dark without it
            self.dc_dc = True  # SH1106: on after reset
            self.addressing = 2  # page addressing
            self.column_start, self.column_end = 0, 127
            self.page_start, self.page_end = 0, 7
            self.page_mode_start = 0
            self.column = 0
            self.page = 0
            self.saved_column = None  # SH1106 read-modify-write
            self._pending = None
            self._args = []
            self.version += 1

    # --- the serial interface ---

    def command(self, byte):
        with self.lock:
            if self._pending is not None:
                self._args.append(byte)
                if len(self._args) == self.arguments[self._pending]:
                    code, args = self._pending, self._args
                    self._pending, self._args = None, []
                    self._execute(code, args)
                return
            if byte in self.arguments:
                self._pending = byte
                return
            self._execute(byte, ())

    def commands(self, codes):
        for byte in codes:
            self.command(byte)

    def data(self, payload):
        with self.lock:
            if self._pending is not None:
                self.unknown_commands.append(("data during command 0x%02X" % self._pending, bytes(self._args)))
                self._pending, self._args = None, []
            for byte in payload:
                self._write(byte)
            self.data_bytes += len(payload)
            self.version += 1

    def _write(self, byte):
        column = self.column
        if 0 <= column < self.columns:
            segment = (self.columns - 1 - column) if self.segment_remap else column
            self.ram[self.page * self.columns + segment] = byte
        if self.sh1106:
            if self.column < self.columns:
                self.column += 1
            return
        mode = self.addressing
        if mode == 2:  # page
            self.column = self.page_mode_start if self.column >= 127 else self.column + 1
        elif mode == 0:  # horizontal
            if self.column >= self.column_end:
                self.column = self.column_start
                self.page = self.page_start if self.page >= self.page_end else self.page + 1
            else:
                self.column += 1
        elif mode == 1:  # vertical
            if self.page >= self.page_end:
                self.page = self.page_start
                self.column = self.column_start if self.column >= self.column_end else self.column + 1
            else:
                self.page += 1

    def _execute(self, code, args):
        self.version += 1
        if code <= 0x0F:
            self.column = (self.column & 0xF0) | code
            self.page_mode_start = (self.page_mode_start & 0xF0) | code
        elif code <= 0x1F:
            high = (code & (0x0F if self.sh1106 else 0x07)) << 4
            self.column = (self.column & 0x0F) | high
            self.page_mode_start = (self.page_mode_start & 0x0F) | high
        elif 0x40 <= code <= 0x7F:
            self.start_line = code & 0x3F
        elif 0xB0 <= code <= 0xB7:
            self.page = code & 0x07
        elif 0xC0 <= code <= 0xCF:
            self.com_reversed = bool(code & 0x08)
        elif code in (0xA0, 0xA1):
            self.segment_remap = code == 0xA1
        elif code in (0xA4, 0xA5):
            self.entire_on = code == 0xA5
        elif code in (0xA6, 0xA7):
            self.inverted = code == 0xA7
        elif code in (0xAE, 0xAF):
            self.display_on = code == 0xAF
        elif code == 0x81:
            self.contrast = args[0]
        elif code == 0xA8:
            self.multiplex = (args[0] & 0x3F) + 1
        elif code == 0xD3:
            self.display_offset = args[0] & 0x3F
        elif code == 0xDA:
            self.com_pins = args[0]
        elif code in (0xD5, 0xD9, 0xDB, 0xE3):
            pass  # clock, pre-charge, VCOM level, no-op: no visible effect
        elif self.sh1106:
            self._execute_sh1106(code, args)
        else:
            self._execute_ssd1306(code, args)

    def _execute_ssd1306(self, code, args):
        if code == 0x20:
            self.addressing = args[0] & 0x03
            if self.addressing == 3:
                self.unknown_commands.append(("invalid addressing mode", bytes(args)))
        elif code == 0x21:
            self.column_start, self.column_end = args[0] & 0x7F, args[1] & 0x7F
            self.column = self.column_start
        elif code == 0x22:
            self.page_start, self.page_end = args[0] & 0x07, args[1] & 0x07
            self.page = self.page_start
        elif code == 0x8D:
            self.charge_pump = bool(args[0] & 0x04)
        elif code in (0xAD, 0xD6, 0x26, 0x27, 0x29, 0x2A, 0xA3, 0x2E):
            pass  # IREF, zoom, scroll set-up and scroll off: nothing to show
        elif code == 0x2F:
            self.unsupported.append("hardware scrolling")
        else:
            self.unknown_commands.append(("0x%02X" % code, bytes(args)))

    def _execute_sh1106(self, code, args):
        if code == 0xAD:
            self.dc_dc = bool(args[0] & 0x01)
        elif 0x30 <= code <= 0x33:
            pass  # charge pump voltage
        elif code == 0xE0:
            self.saved_column = self.column
        elif code == 0xEE:
            if self.saved_column is not None:
                self.column = self.saved_column
            self.saved_column = None
        else:
            self.unknown_commands.append(("0x%02X" % code, bytes(args)))

    # --- the glass ---

    @property
    def lit(self):
        """True if the panel emits light at all (on, and its supply running)."""
        supply = self.dc_dc if self.sh1106 else self.charge_pump
        return self.display_on and supply

    def _row_of_glass(self, y):
        """The RAM row glass row y shows, or None if its COM line is not driven."""
        pad = HEIGHT - 1 - y
        alternative = self.com_pins & 0x10
        left_right = self.com_pins & 0x20
        if alternative:
            com = pad ^ 1 if left_right else pad
        else:
            com = pad // 2 if pad % 2 == 0 else 32 + pad // 2
            if left_right:
                com = (com + 32) % 64
        if com >= self.multiplex:
            return None
        scan = self.multiplex - 1 - com if self.com_reversed else com
        return (scan + self.start_line + self.display_offset) % 64

    def pixels(self):
        """The glass: HEIGHT rows of WIDTH values, 1 where a pixel glows."""
        with self.lock:
            if not self.lit:
                return [[0] * WIDTH for _ in range(HEIGHT)]
            if self.entire_on:
                return [[1] * WIDTH for _ in range(HEIGHT)]
            flip = 1 if self.inverted else 0
            ram, columns = self.ram, self.columns
            segments = [self.first_segment + WIDTH - 1 - x for x in range(WIDTH)]
            rows = []
            for y in range(HEIGHT):
                row = self._row_of_glass(y)
                if row is None:
                    rows.append([flip] * WIDTH)
                    continue
                base, shift = (row >> 3) * columns, row & 7
                rows.append([((ram[base + segment] >> shift) & 1) ^ flip for segment in segments])
            return rows

    def brightness(self):
        """0.0 (dark) to 1.0: how bright lit pixels are, from the contrast setting."""
        if not self.lit:
            return 0.0
        return 0.3 + 0.7 * self.contrast / 255


class I2CTarget:
    """The panel on an I2C bus: each transfer is control byte(s) then commands or data."""

    def __init__(self, panel, address=0x3C):
        self.panel = panel
        self.address = address
        self.protocol_errors = []

    def transfer(self, payload):
        """One I2C write (START, address, payload, STOP)."""
        index = 0
        while index < len(payload):
            control = payload[index]
            index += 1
            if control & 0x3F:
                self.protocol_errors.append("control byte 0x%02X has bits besides Co and D/C" % control)
                return
            feed = self.panel.data if control & 0x40 else self.panel.commands
            if control & 0x80:  # Co = 1: one byte, then another control byte
                feed(payload[index : index + 1])
                index += 1
            else:  # Co = 0: the rest of the transfer
                feed(payload[index:])
                return


class SPITarget:
    """The panel on a 4-wire SPI bus: bytes count while CS is low; D/C low means commands."""

    def __init__(self, panel):
        self.panel = panel

    def transfer(self, payload, dc, cs):
        """One SPI write with the levels D/C and CS had (None: the Pico does not drive the pin)."""
        if cs != 0 or dc is None:
            return  # not selected, or a floating D/C: the controller takes nothing sensible
        (self.panel.data if dc else self.panel.commands)(payload)
