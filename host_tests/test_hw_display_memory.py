"""Under MicroPython, show() allocates nothing, and the bus carries the frame buffer as it is.

The drivers run on the simulator's stand-in machine module (its I2C.writeto
hands the caller's buffer to the board without a copy, as the rp2 port's
does). The board records every transfer into room made beforehand, so the
recording allocates nothing either; the test then feeds the transfers to the
simulated panel, which decodes them as the controller would.
"""

import pytest

import simulator
from simulator.panel import I2CTarget, Panel, SPITarget

simulator.install_standins()  # CPython's framebuf is the stand-in
from hw.display import Display, I2CLink  # noqa: E402

SHOWS = 3
DC, CS = 20, 17  # the SPI set-up's D/C and CS pins

PROGRAM = """
import gc
import machine
from hw.display import Display, I2CLink, SPILink

gc.disable()  # every allocation counts: none may be collected in between


class Board:
    def __init__(self):
        self.stream = bytearray(12 * 1024)
        self.ends = [0] * 160  # where each transfer ends in the stream
        self.dc = [0] * 160  # the D/C level during each SPI transfer
        self.levels = [None] * machine.GPIO_COUNT
        self.count = 0

    def output(self, gpio, level):
        self.levels[gpio] = level

    def i2c_write(self, scl, sda, address, data):
        if address != 0x3C:
            return False
        self.record(data)
        return True

    def spi_write(self, sck, mosi, data):
        if self.levels[%(cs)d] == 0:
            self.dc[self.count] = self.levels[%(dc)d]
            self.record(data)

    def record(self, data):
        start = self.ends[self.count - 1] if self.count else 0
        end = start + len(data)
        self.stream[start:end] = data
        self.ends[self.count] = end
        self.count += 1

    def transfers(self):
        start = 0
        for index in range(self.count):
            end = self.ends[index]
            print(self.dc[index], self.stream[start:end].hex())
            start = end


def link(bus):
    if bus == "i2c":
        return I2CLink(machine.I2C(0, scl=machine.Pin(5), sda=machine.Pin(4)), 0x3C)
    spi = machine.SPI(0, baudrate=8000000, sck=machine.Pin(18), mosi=machine.Pin(19))
    return SPILink(spi, machine.Pin(%(dc)d, machine.Pin.OUT), machine.Pin(%(cs)d, machine.Pin.OUT))


def draw(fb, step):
    fb.fill(step & 1)
    fb.rect(step, 2 * step, 100, 50, 1 - (step & 1))
    fb.line(0, 63, 127, step, 1)
    fb.ellipse(64, 32, 20 + step, 12, 1, True)


def run(bus, controller, addressing):
    board = Board()
    machine.attach(board)
    display = Display(link(bus), controller, 0, addressing)
    draw(display.fb, 0)
    display.show()  # warm-up: anything made on first use is made now
    allocated = 0
    for step in range(1, %(shows)d + 1):
        draw(display.fb, step)
        before = gc.mem_alloc()
        display.show()
        allocated += gc.mem_alloc() - before
    print(bus, controller, addressing, allocated, board.count)
    board.transfers()
    print(bytes(display.buffer).hex())


for setup in SETUPS:
    run(*setup)
""" % {"shows": SHOWS, "dc": DC, "cs": CS}

SETUPS = [
    ("i2c", "ssd1306", "horizontal"),
    ("i2c", "ssd1306", "page"),
    ("i2c", "sh1106", "page"),
    ("spi", "ssd1306", "horizontal"),
    ("spi", "sh1106", "page"),
]


def glass_of_frame(frame):
    return [[(frame[(y >> 3) * 128 + x] >> (y & 7)) & 1 for x in range(128)] for y in range(64)]


def runs(output):
    """{setup: (bytes allocated by the measured show() calls, [(dc, transfer)], frame buffer)}"""
    lines = output.splitlines()
    found = {}
    while lines:
        bus, controller, addressing, allocated, count = lines.pop(0).split()
        transfers = []
        for _ in range(int(count)):
            dc, payload = (lines.pop(0).split() + [""])[:2]
            transfers.append((None if dc == "None" else int(dc), bytes.fromhex(payload)))
        found[(bus, controller, addressing)] = (int(allocated), transfers, bytes.fromhex(lines.pop(0)))
    return found


def test_show_allocates_nothing_and_sends_the_frame_buffer(micropython):
    code = "SETUPS = %r\n%s" % (SETUPS, PROGRAM)
    found = runs(micropython(code, path=(simulator.STANDINS,)))
    assert sorted(found) == sorted(SETUPS)
    for (bus, controller, addressing), (allocated, transfers, frame) in found.items():
        where = "%s %s %s" % (bus, controller, addressing)
        assert allocated == 0, "%s: %d show() calls allocated %d bytes" % (where, SHOWS, allocated)
        assert len(frame) == 1024 and len(set(frame)) > 2, where
        panel = Panel(controller)
        if bus == "i2c":
            target = I2CTarget(panel)
            for _, payload in transfers:
                target.transfer(payload)
            assert target.protocol_errors == [], where
            data = [payload[1:] for _, payload in transfers if payload[:1] == b"\x40"]
        else:
            target = SPITarget(panel)
            for dc, payload in transfers:
                target.transfer(payload, dc, 0)
            data = [payload for dc, payload in transfers if dc == 1]
        per_show = len(data) // (SHOWS + 2)  # the shows: Display's own, the warm-up, the measured ones
        assert per_show == (1 if addressing == "horizontal" else 8) and len(data) == per_show * (SHOWS + 2), where
        sent = b"".join(data[-per_show:])
        assert sent == frame, "%s: the last show() carried the frame buffer as it is" % where
        assert panel.lit and panel.unknown_commands == [], where
        assert panel.pixels() == glass_of_frame(frame), "%s: the glass shows the frame buffer" % where


@pytest.mark.parametrize("addressing", ["horizontal", "page"])
def test_i2c_frame_is_one_transfer_led_by_the_data_control_byte(addressing):
    """On CPython too; and the room in front of each page (the page before's last byte) is put back."""
    sent = []

    class Bus:
        def writeto(self, address, data):
            sent.append(bytes(data))

    display = Display(I2CLink(Bus(), 0x3C), "ssd1306", 0, addressing)
    display.buffer[:] = bytes(range(256)) * 4
    picture = bytes(display.buffer)
    del sent[:]
    display.show()
    assert bytes(display.buffer) == picture
    data = [payload for payload in sent if payload[0] == 0x40]
    if addressing == "horizontal":
        assert data == [b"\x40" + picture]
    else:
        assert data == [b"\x40" + picture[page * 128 : (page + 1) * 128] for page in range(8)]
