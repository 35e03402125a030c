"""Drivers for the 128x64 OLED controllers: SSD1306 and SH1106, over I2C or SPI.

The picture is drawn on `fb`, a framebuf.FrameBuffer in MONO_VLSB: byte
`page * 128 + x` holds the column of eight pixels x, page*8 .. page*8+7, low
bit on top. That is the controllers' own RAM layout, so show() sends the
buffer as it is:
- SSD1306, horizontal addressing: one column/page window, then all 1024
  bytes in one transfer (the pointer wraps to the next page by itself);
- page addressing (the SH1106 knows no other; optional on the SSD1306): one
  transfer per page after setting the page and column. The SH1106 has 132
  columns of RAM and 128-pixel panels show columns 2..129, hence the offset.

Rotation 180 mirrors the segments (SEG remap, applied to data as it is
written) and reverses the COM scan (applied at once), so show() follows any
change of rotation. On the I2C bus every transfer starts with a control byte:
0x00 for a stream of commands, 0x40 for a stream of data. On SPI the D/C pin
says which it is (low: command), framed by CS.
"""

import framebuf
from othello.compat import const

WIDTH = const(128)
HEIGHT = const(64)
PAGES = const(8)

_SET_CONTRAST = const(0x81)
_RESUME_RAM = const(0xA4)  # A5 would light every pixel
_NORMAL = const(0xA6)  # A7 inverts
_DISPLAY_OFF = const(0xAE)  # AF turns it on
_MEMORY_MODE = const(0x20)  # SSD1306 only
_COLUMN_WINDOW = const(0x21)  # SSD1306 only
_PAGE_WINDOW = const(0x22)  # SSD1306 only
_START_LINE = const(0x40)
_SEGMENT_REMAP = const(0xA0)  # | 1: column 0 on the last segment
_MULTIPLEX = const(0xA8)
_COM_SCAN = const(0xC0)  # | 8: scan from the last COM to COM0
_DISPLAY_OFFSET = const(0xD3)
_COM_PINS = const(0xDA)
_CLOCK = const(0xD5)
_PRECHARGE = const(0xD9)
_VCOM_LEVEL = const(0xDB)
_CHARGE_PUMP = const(0x8D)  # SSD1306
_DC_DC = const(0xAD)  # SH1106
_PAGE_ADDRESS = const(0xB0)
_LOW_COLUMN = const(0x00)
_HIGH_COLUMN = const(0x10)

_HORIZONTAL = const(0x00)
_PAGE = const(0x02)
_WHOLE_SCREEN = bytes((_COLUMN_WINDOW, 0, WIDTH - 1, _PAGE_WINDOW, 0, PAGES - 1))


class I2CLink:
    """Commands and data to a controller at `address` on a machine.I2C bus."""

    def __init__(self, i2c, address):
        self.i2c = i2c
        self.address = address
        self._commands = [b"\x00", None]
        self._data = [b"\x40", None]

    def command(self, codes):
        self._commands[1] = codes
        self.i2c.writevto(self.address, self._commands)

    def data(self, buffer):
        self._data[1] = buffer
        self.i2c.writevto(self.address, self._data)


class SPILink:
    """Commands and data over a machine.SPI bus with D/C and CS as output Pins."""

    def __init__(self, spi, dc, cs):
        self.spi = spi
        self.dc = dc
        self.cs = cs
        cs(1)

    def _send(self, level, payload):
        self.cs(1)
        self.dc(level)
        self.cs(0)
        self.spi.write(payload)
        self.cs(1)

    def command(self, codes):
        self._send(0, codes)

    def data(self, buffer):
        self._send(1, buffer)


class Display:
    """A 128x64 panel: draw on `fb`, then show().

    `controller` is "ssd1306" or "sh1106"; `addressing` "horizontal" or
    "page" (the SH1106 always pages). `reset` is the Pin of the RES line (or
    None) and `sleep_ms` waits while it is pulsed.
    """

    def __init__(self, link, controller="ssd1306", rotation=0, addressing="horizontal", reset=None, sleep_ms=None, contrast=0x7F):
        if controller not in ("ssd1306", "sh1106"):
            raise ValueError("display controller %r is not supported" % (controller,))
        self.link = link
        self.controller = controller
        self.width = WIDTH
        self.height = HEIGHT
        self.buffer = bytearray(WIDTH * PAGES)
        self.fb = framebuf.FrameBuffer(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self._pages = memoryview(self.buffer)
        self._page_mode = controller == "sh1106" or addressing == "page"
        self._column_offset = 2 if controller == "sh1106" else 0
        self._page_command = bytearray(3)
        self.rotation = rotation
        self.contrast_level = contrast
        self.inverted = False
        self.is_on = False
        if reset is not None:
            reset(1)
            sleep_ms(1)
            reset(0)
            sleep_ms(10)
            reset(1)
            sleep_ms(10)
        self._configure()

    def _configure(self):
        if self.controller == "ssd1306":
            specific = (_MEMORY_MODE, _PAGE if self._page_mode else _HORIZONTAL, _CHARGE_PUMP, 0x14, _PRECHARGE, 0xF1, _VCOM_LEVEL, 0x30)
        else:
            specific = (_DC_DC, 0x8B, _PRECHARGE, 0x22, _VCOM_LEVEL, 0x35)
        self.link.command(
            bytes(
                (_DISPLAY_OFF, _CLOCK, 0x80, _MULTIPLEX, HEIGHT - 1, _DISPLAY_OFFSET, 0, _START_LINE, _COM_PINS, 0x12)
                + specific
                + (_SET_CONTRAST, self.contrast_level, _RESUME_RAM, _NORMAL)
                + self._orientation()
            )
        )
        self.fb.fill(0)
        self.show()
        self.power(True)

    def _orientation(self):
        upright = self.rotation != 180
        return (_SEGMENT_REMAP | (1 if upright else 0), _COM_SCAN | (8 if upright else 0))

    def show(self):
        """Send the whole frame buffer to the panel."""
        link = self.link
        if self._page_mode:
            command = self._page_command
            command[1] = _LOW_COLUMN | (self._column_offset & 0x0F)
            command[2] = _HIGH_COLUMN | (self._column_offset >> 4)
            for page in range(PAGES):
                command[0] = _PAGE_ADDRESS | page
                link.command(command)
                link.data(self._pages[page * WIDTH : (page + 1) * WIDTH])
        else:
            link.command(_WHOLE_SCREEN)
            link.data(self.buffer)

    def contrast(self, level):
        """Panel brightness, 0..255."""
        self.contrast_level = max(0, min(255, level))
        self.link.command(bytes((_SET_CONTRAST, self.contrast_level)))

    def invert(self, on):
        self.inverted = bool(on)
        self.link.command(bytes((_NORMAL | (1 if on else 0),)))

    def power(self, on):
        """Panel on or off (off keeps the picture in the controller and saves the OLED)."""
        self.is_on = bool(on)
        self.link.command(bytes((_DISPLAY_OFF | (1 if on else 0),)))

    def rotate(self, rotation):
        """0 or 180 degrees; redraws, since the segment remap only applies to new data."""
        if rotation not in (0, 180):
            raise ValueError("rotation is 0 or 180, not %r" % (rotation,))
        self.rotation = rotation
        self.link.command(bytes(self._orientation()))
        self.show()
