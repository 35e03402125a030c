"""The link cable: the board config's UART, read and written without ever waiting.

Opened only for link play (ui/linkplay.py, with the board config's LinkSpec) and closed after it, so the
pins stay plain inputs and the receive buffer takes no heap the rest of the time.
"""

from machine import UART, Pin

RECEIVE_BUFFER = 512  # bytes: at 19200 baud, half a second of the peer talking while the flash is written


class UartLink:
    def __init__(self, spec):
        self.uart = UART(spec.uart_id, baudrate=spec.baudrate, tx=Pin(spec.tx), rx=Pin(spec.rx), rxbuf=RECEIVE_BUFFER)

    def read(self):
        """What has arrived since the last read (b"" if nothing)."""
        count = self.uart.any()
        return (self.uart.read(count) or b"") if count else b""

    def write(self, data):
        if data:
            self.uart.write(data)

    def close(self):
        self.uart.deinit()
