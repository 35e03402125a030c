"""Drivers for the 128x64 OLED controllers: SSD1306 and SH1106, over I2C or SPI.

The picture is drawn on `fb`, a framebuf.FrameBuffer in MONO_VLSB over
`buffer`: byte `page * 128 + x` holds the column of eight pixels x,
page*8 .. page*8+7, low bit on top. That is the controllers' own RAM layout,
so show() sends the buffer as it is:
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

Every buffer handed to a link starts with one byte of room: the I2C link
writes the control byte there and sends the whole buffer with one writeto,
the SPI link sends what follows the room. The frame buffer is such a buffer
(room, then the 1024 bytes of the picture); in page mode a page goes out
with the byte before it as its room (the previous page's last byte, put back
after the transfer). The views each link sends are cut once, at start-up, so
show() allocates nothing, not even inside the rp2 port's I2C driver, which
copies the parts of a writevto into a new buffer (1 KB for a frame: late in
a game the heap may have no such block left).
"""

import framebuf
from othello.compat import const

_WIDTH = const(128)
_HEIGHT = const(64)
_PAGES = const(8)

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
_WHOLE_SCREEN = const((_COLUMN_WINDOW, 0, _WIDTH - 1, _PAGE_WINDOW, 0, _PAGES - 1))
_COMMAND_STREAM = const(0x00)  # I2C control bytes: Co = 0, then D/C
_DATA_STREAM = const(0x40)


class I2CLink:
    """Commands and data to a controller at `address` on a machine.I2C bus."""

    def __init__(self, i2c, address):
        self.i2c = i2c
        self.address = address

    def payload(self, chunk):
        """What command() and data() take for `chunk`: a byte of room, then the bytes to send."""
        return chunk

    def command(self, payload):
        self._send(_COMMAND_STREAM, payload)

    def data(self, payload):
        self._send(_DATA_STREAM, payload)

    def _send(self, control, payload):
        # The control byte goes into the room, then one writeto: the rp2 port
        # copies the parts of a writevto into a new buffer (1 KB for a frame).
        room = payload[0]
        payload[0] = control
        try:
            self.i2c.writeto(self.address, payload)
        finally:
            payload[0] = room


class SPILink:
    """Commands and data over a machine.SPI bus with D/C and CS as output Pins."""

    def __init__(self, spi, dc, cs):
        self.spi = spi
        self.dc = dc
        self.cs = cs
        cs(1)

    def payload(self, chunk):
        """What command() and data() take for `chunk`: a byte of room, then the bytes to send."""
        return memoryview(chunk)[1:]  # the D/C pin, not a control byte, tells commands from data

    def command(self, payload):
        self._send(0, payload)

    def data(self, payload):
        self._send(1, payload)

    def _send(self, level, payload):
        self.cs(1)
        self.dc(level)
        self.cs(0)
        self.spi.write(payload)
        self.cs(1)


class Display:
    """A 128x64 panel: draw on `fb` (over `buffer`, the 1024 bytes of the picture), then show().

    `controller` is "ssd1306" or "sh1106"; `addressing` "horizontal" or
    "page" (the SH1106 always pages). `reset` is the Pin of the RES line (or
    None) and `sleep_ms` waits while it is pulsed.
    """

    def __init__(self, link, controller="ssd1306", rotation=0, addressing="horizontal", reset=None, sleep_ms=None, contrast=0x7F):
        if controller not in ("ssd1306", "sh1106"):
            raise ValueError("display controller %r is not supported" % (controller,))
        self.link = link
        self.controller = controller
        self.width = _WIDTH
        self.height = _HEIGHT
        frame = bytearray(1 + _WIDTH * _PAGES)  # a byte of room, then the picture
        self.buffer = memoryview(frame)[1:]
        self.fb = framebuf.FrameBuffer(self.buffer, _WIDTH, _HEIGHT, framebuf.MONO_VLSB)
        self._page_mode = controller == "sh1106" or addressing == "page"
        if self._page_mode:
            column = 2 if controller == "sh1106" else 0
            # room, the page (show() sets it), the column in two halves
            self._page_command = bytearray((0, 0, _LOW_COLUMN | (column & 0x0F), _HIGH_COLUMN | (column >> 4)))
            self._page_command_payload = link.payload(self._page_command)
            # Each page's room is the last byte of the page before it (page 0's is the frame's own).
            pages = memoryview(frame)
            self._payloads = tuple(link.payload(pages[page * _WIDTH : (page + 1) * _WIDTH + 1]) for page in range(_PAGES))
        else:
            self._window_payload = link.payload(bytearray((0,) + _WHOLE_SCREEN))
            self._payloads = (link.payload(frame),)
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

    def _command(self, codes):
        """Commands sent now and then (not per frame, so their buffer may be new)."""
        self.link.command(self.link.payload(bytearray((0,) + codes)))

    def _configure(self):
        if self.controller == "ssd1306":
            specific = (_MEMORY_MODE, _PAGE if self._page_mode else _HORIZONTAL, _CHARGE_PUMP, 0x14, _PRECHARGE, 0xF1, _VCOM_LEVEL, 0x30)
        else:
            specific = (_DC_DC, 0x8B, _PRECHARGE, 0x22, _VCOM_LEVEL, 0x35)
        self._command(
            (_DISPLAY_OFF, _CLOCK, 0x80, _MULTIPLEX, _HEIGHT - 1, _DISPLAY_OFFSET, 0, _START_LINE, _COM_PINS, 0x12)
            + specific
            + (_SET_CONTRAST, self.contrast_level, _RESUME_RAM, _NORMAL)
            + self._orientation()
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
        payloads = self._payloads
        if self._page_mode:
            command = self._page_command
            for page in range(_PAGES):
                command[1] = _PAGE_ADDRESS | page
                link.command(self._page_command_payload)
                link.data(payloads[page])
        else:
            link.command(self._window_payload)
            link.data(payloads[0])

    def contrast(self, level):
        """Panel brightness, 0..255."""
        self.contrast_level = max(0, min(255, level))
        self._command((_SET_CONTRAST, self.contrast_level))

    def invert(self, on):
        self.inverted = bool(on)
        self._command((_NORMAL | (1 if on else 0),))

    def power(self, on):
        """Panel on or off (off keeps the picture in the controller and saves the OLED)."""
        self.is_on = bool(on)
        self._command((_DISPLAY_OFF | (1 if on else 0),))

    def rotate(self, rotation):
        """0 or 180 degrees; redraws, since the segment remap only applies to new data."""
        if rotation not in (0, 180):
            raise ValueError("rotation is 0 or 180, not %r" % (rotation,))
        self.rotation = rotation
        self._command(self._orientation())
        self.show()
