"""The display drivers against the simulated panel, which decodes their real bus traffic into pixels."""

import copy
import json
import random
from pathlib import Path

import pytest

import hw
import simulator
from simulator.panel import Panel

REPO = Path(__file__).resolve().parent.parent
I2C_BOARD = json.loads((REPO / "board_configs" / "pico_breadboard_i2c.json").read_text())
SPI_BOARD = json.loads((REPO / "board_configs" / "pico_breadboard_spi.json").read_text())


def board_dict(bus="i2c", controller="ssd1306", rotation=0, addressing=None):
    data = copy.deepcopy(I2C_BOARD if bus == "i2c" else SPI_BOARD)
    data["display"]["controller"] = controller
    data["display"]["rotation"] = rotation
    if controller == "sh1106" and bus == "spi":
        data["display"]["spi"]["baudrate"] = 4000000
    if addressing:
        data["display"]["addressing"] = addressing
    return data


def open_device(tmp_path, data):
    config = hw.load_config(data)
    board = simulator.LocalBoard(config, tmp_path)
    return hw.open_device(config), board


def random_frame(display, seed):
    rng = random.Random(seed)
    display.buffer[:] = bytes(rng.getrandbits(8) for _ in range(len(display.buffer)))
    fb = display.fb
    fb.rect(0, 0, 128, 64, 1)
    fb.line(3, 60, 120, 2, 0)
    fb.fill_rect(rng.randrange(100), rng.randrange(50), 17, 9, 1)


def expected_glass(fb, rotation):
    if rotation == 180:
        return [[fb.pixel(127 - x, 63 - y) for x in range(128)] for y in range(64)]
    return [[fb.pixel(x, y) for x in range(128)] for y in range(64)]


SETUPS = [
    ("i2c", "ssd1306", 0, "horizontal"),
    ("i2c", "ssd1306", 180, "horizontal"),
    ("i2c", "ssd1306", 0, "page"),
    ("spi", "ssd1306", 0, "horizontal"),
    ("spi", "ssd1306", 180, "page"),
    ("i2c", "sh1106", 0, None),
    ("i2c", "sh1106", 180, None),
    ("spi", "sh1106", 0, None),
]


@pytest.mark.parametrize("bus, controller, rotation, addressing", SETUPS)
def test_frames_reach_the_glass_as_drawn(tmp_path, bus, controller, rotation, addressing):
    device, board = open_device(tmp_path, board_dict(bus, controller, rotation, addressing))
    display = device.display
    assert (display.width, display.height) == (128, 64)
    assert board.screen() == [[0] * 128 for _ in range(64)], "the driver clears the noise of power-up"
    for seed in range(3):
        random_frame(display, seed)
        display.show()
        assert board.screen() == expected_glass(display.fb, rotation)
    panel = board.panel
    assert panel.lit and panel.unknown_commands == [] and board.hardware.protocol_errors == []


def test_i2c_transfers_start_with_the_control_byte(tmp_path):
    device, board = open_device(tmp_path, board_dict("i2c"))
    transfers = []
    feed = board.hardware.i2c_write
    board.hardware.i2c_write = lambda scl, sda, address, data: transfers.append(bytes(data)) or feed(scl, sda, address, data)
    device.display.contrast(10)
    device.display.show()
    assert [t[0] for t in transfers] == [0x00, 0x00, 0x40]  # contrast, window, then the frame
    assert transfers[0] == bytes((0x00, 0x81, 10))
    assert transfers[1] == bytes((0x00, 0x21, 0, 127, 0x22, 0, 7))
    assert len(transfers[2]) == 1 + 1024


def test_spi_frames_commands_and_data_with_dc_and_cs(tmp_path):
    device, board = open_device(tmp_path, board_dict("spi"))
    pins = board.config.display.pins
    seen = []
    feed = board.hardware.spi_write
    levels = board.hardware.levels

    def spy(sck, mosi, data):
        seen.append((levels.get(pins["dc"]), levels.get(pins["cs"]), len(data)))
        feed(sck, mosi, data)

    board.hardware.spi_write = spy
    device.display.show()
    assert seen == [(0, 0, 6), (1, 0, 1024)]
    assert levels[pins["cs"]] == 1, "CS is released after each transfer"
    assert levels[board.config.display.reset] == 1, "the RES line is held high after the start-up pulse"


def test_runtime_rotation_contrast_invert_and_power(tmp_path):
    device, board = open_device(tmp_path, board_dict("i2c"))
    display, panel = device.display, board.panel
    random_frame(display, 7)
    display.show()
    display.rotate(180)
    assert board.screen() == expected_glass(display.fb, 180)
    display.rotate(0)
    display.contrast(200)
    assert panel.contrast == 200 and display.contrast_level == 200
    display.invert(True)
    assert board.screen() == [[1 - v for v in row] for row in expected_glass(display.fb, 0)]
    display.invert(False)
    display.power(False)
    assert not panel.lit and board.screen() == [[0] * 128 for _ in range(64)]
    display.power(True)
    assert board.screen() == expected_glass(display.fb, 0)
    with pytest.raises(ValueError):
        display.rotate(90)


def test_a_missing_display_is_reported_with_what_answers(tmp_path):
    config = hw.load_config(board_dict("i2c"))
    simulator.LocalBoard(config, tmp_path)
    elsewhere = board_dict("i2c")
    elsewhere["display"]["i2c"]["address"] = "0x3D"
    with pytest.raises(hw.HardwareError) as caught:
        hw.open_device(hw.load_config(elsewhere))
    message = str(caught.value)
    assert "0x3D on I2C0 (SDA GP4, SCL GP5)" in message and "answers at: 0x3C" in message


# --- the panel model shows wrong driving as a wrong picture ---


def ssd1306_init(panel, extra=()):
    panel.commands([0xAE, 0x8D, 0x14, 0x20, 0x00, 0xA1, 0xC8, 0xDA, 0x12] + list(extra) + [0xAF])


def glass_of_frame(frame):
    return [[(frame[(y >> 3) * 128 + x] >> (y & 7)) & 1 for x in range(128)] for y in range(64)]


FRAME = bytes(random.Random(1).getrandbits(8) for _ in range(1024))


def test_panel_shows_a_frame_sent_as_the_drivers_do():
    panel = Panel()
    ssd1306_init(panel)
    panel.commands([0x21, 0, 127, 0x22, 0, 7])
    panel.data(FRAME)
    assert panel.pixels() == glass_of_frame(FRAME)


def test_panel_without_charge_pump_stays_dark():
    panel = Panel()
    panel.commands([0xA1, 0xC8, 0xAF])
    panel.data(FRAME)
    assert not panel.lit and panel.pixels() == [[0] * 128 for _ in range(64)]


def test_wrong_addressing_mode_gives_a_wrong_picture():
    panel = Panel()
    ssd1306_init(panel, [0x20, 0x02])  # page addressing, then the frame sent as for horizontal
    panel.commands([0xB0, 0x00, 0x10])
    panel.data(FRAME)
    glass = panel.pixels()
    assert glass != glass_of_frame(FRAME)
    # every byte went into page 0, so its last 128 bytes are what the top 8 rows show
    assert glass[:8] == glass_of_frame(FRAME[-128:] + bytes(896))[:8]


def test_wrong_com_configuration_interleaves_the_rows():
    panel = Panel()
    ssd1306_init(panel, [0xDA, 0x02])  # sequential COM pins on a panel wired for alternative
    frame = bytearray(1024)
    frame[0:128] = b"\x02" * 128  # RAM row 1
    frame[512:640] = b"\x01" * 128  # RAM row 32
    panel.commands([0x21, 0, 127, 0x22, 0, 7])
    panel.data(frame)
    lit_rows = [y for y, row in enumerate(panel.pixels()) if any(row)]
    assert lit_rows == [1, 2]  # the glass shows RAM rows 0, 32, 1, 33, ...


def test_segment_remap_applies_to_new_data_and_com_scan_at_once():
    panel = Panel()
    ssd1306_init(panel)
    panel.commands([0x21, 0, 127, 0x22, 0, 7])
    panel.data(FRAME)
    panel.commands([0xA0])  # remap off: nothing changes until data is written again
    assert panel.pixels() == glass_of_frame(FRAME)
    panel.commands([0xC0])  # COM scan: the picture flips upside down at once
    assert panel.pixels() == glass_of_frame(FRAME)[::-1]


def test_sh1106_needs_the_column_offset():
    panel = Panel("sh1106")
    panel.commands([0xAE, 0xA1, 0xC8, 0xAF])
    for page in range(8):
        panel.commands([0xB0 | page, 0x00, 0x10])  # column 0: the offset forgotten
        panel.data(FRAME[page * 128 : (page + 1) * 128])
    glass, expected = panel.pixels(), glass_of_frame(FRAME)
    assert [row[:-2] for row in glass] == [row[2:] for row in expected], "the picture is 2 pixels off"
    for page in range(8):
        panel.commands([0xB0 | page, 0x02, 0x10])
        panel.data(FRAME[page * 128 : (page + 1) * 128])
    assert panel.pixels() == expected


def test_i2c_control_bytes_with_continuation():
    panel = Panel()
    target = simulator.I2CTarget(panel)
    # Co=1 pairs, as adafruit's driver sends its commands, then a data stream
    for code in (0x8D, 0x14, 0xA1, 0xC8, 0x20, 0x00, 0xAF):
        target.transfer(bytes((0x80, code)))
    target.transfer(b"\x40" + FRAME)
    assert panel.pixels() == glass_of_frame(FRAME)
    target.transfer(b"\x13\x00")
    assert target.protocol_errors == ["control byte 0x13 has bits besides Co and D/C"]


def test_unknown_commands_and_power_up_noise_are_visible():
    panel = Panel()
    panel.commands([0x8D, 0x14, 0xAF])
    assert any(panel.pixels()[y][x] for y in range(64) for x in range(128)), "the RAM holds noise at power-up"
    panel.command(0xFC)
    assert panel.unknown_commands == [("0xFC", b"")]
