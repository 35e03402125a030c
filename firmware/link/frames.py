"""Frames on the wire: a start byte, then the escaped header, payload and CRC.

    0x7E | type | seq | tag hi | tag lo | length | payload (length bytes) | crc hi | crc lo

Everything after the start byte is escaped: 0x7E and 0x7D inside are sent as
0x7D followed by the byte XOR 0x20, so a 0x7E on the line always starts a
frame and a receiver that lost its place finds the next frame at the next
0x7E. The CRC is CRC-16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF) over
the unescaped type..payload. A frame whose CRC does not match, or that is cut
short by a new start byte, is dropped whole: noise never reaches the game.
"""

from othello.compat import const

START = const(0x7E)
ESCAPE = const(0x7D)
_FLIP = const(0x20)
HEADER = const(5)
MAX_PAYLOAD = const(255)


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of `data` (bytes), continuing from `crc`."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def encode(kind, seq, tag, payload=b""):
    """The bytes of one frame, ready for the UART."""
    body = bytearray((kind, seq, tag >> 8, tag & 0xFF, len(payload)))
    body += payload
    crc = crc16(body)
    body.append(crc >> 8)
    body.append(crc & 0xFF)
    out = bytearray((START,))
    for byte in body:
        if byte == START or byte == ESCAPE:
            out.append(ESCAPE)
            out.append(byte ^ _FLIP)
        else:
            out.append(byte)
    return bytes(out)


class Decoder:
    """Bytes in, whole checked frames out: feed() returns a list of (type, seq, tag, payload)."""

    def __init__(self):
        self.buffer = bytearray(HEADER + MAX_PAYLOAD + 2)
        self.size = -1  # bytes of the current frame so far; -1 while waiting for a start byte
        self.escaped = False
        self.dropped = 0  # frames that failed their CRC or were cut short: for the docs' figures and tests

    def feed(self, data):
        frames = []
        buffer = self.buffer
        for byte in data:
            if byte == START:
                if self.size > 0:
                    self.dropped += 1
                self.size = 0
                self.escaped = False
                continue
            if self.size < 0:
                continue
            if byte == ESCAPE:
                self.escaped = True
                continue
            if self.escaped:
                byte ^= _FLIP
                self.escaped = False
            buffer[self.size] = byte
            self.size += 1
            if self.size >= HEADER and self.size == HEADER + buffer[4] + 2:
                end = self.size - 2
                if crc16(memoryview(buffer)[:end]) == (buffer[end] << 8) | buffer[end + 1]:
                    frames.append((buffer[0], buffer[1], (buffer[2] << 8) | buffer[3], bytes(buffer[HEADER:end])))
                else:
                    self.dropped += 1
                self.size = -1
        return frames
