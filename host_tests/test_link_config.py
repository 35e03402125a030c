"""The link cable's wiring: the board config's `link` section, check-config, and the stand-in UART."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import hw
from hw.config import uart_role
from simulator import LocalBoard, board_config

REPO = Path(__file__).resolve().parent.parent
CONFIGS = sorted((REPO / "board_configs").glob("*.json"))
BREADBOARD = json.loads((REPO / "board_configs" / "pico_breadboard_i2c.json").read_text())

# The RP2040 datasheet's GPIO function table, UART column (F2), as the Pico's header offers it.
UART_PINS = {
    (0, "tx"): {0, 12, 16, 28}, (0, "rx"): {1, 13, 17}, (1, "tx"): {4, 8, 20}, (1, "rx"): {5, 9, 21},
}


def test_uart_roles_follow_the_datasheet_table():
    for (uart, role), pins in UART_PINS.items():
        for pin in pins:
            assert uart_role(pin) == (uart, role)
    assert uart_role(2) == (0, "cts") and uart_role(7) == (1, "rts")


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_every_wired_board_has_a_link_on_pins_its_layout_leaves_free(path):
    config = hw.load_config(path.read_bytes())
    link = config.link
    assert link is not None and link.baudrate == 19200
    assert link.tx in UART_PINS[(link.uart_id, "tx")] and link.rx in UART_PINS[(link.uart_id, "rx")]
    used = set(config.display.pins.values()) | {spec.pin for spec in config.buttons} | {config.buzzer_pin, config.display.reset}
    assert not {link.tx, link.rx} & used


@pytest.mark.parametrize("link, problem", [
    ({"tx": 1, "rx": 0}, "link.rx: GP0 is the TX of UART0 and cannot be RX (RX: 1, 13, 17 on UART0; 5, 9, 21 on UART1)"),
    ({"tx": 0, "rx": 5}, "link.rx: GP5 is already used by display.i2c.scl"),
    ({"tx": 16, "rx": 13}, "link.rx: GP13 is already used by buttons.right.pin"),
    ({"tx": 0, "rx": 1, "uart": 1}, "link.rx: GP1 is on UART0 but link.uart is on UART1: one bus needs both"),
    ({"tx": 20, "rx": 22}, "link.rx: GP22 is already used by buzzer.pin"),
    ({"tx": 0}, "link.rx: missing (a GPIO number, 0-29)"),
    ({"tx": 0, "rx": 1, "baudrate": 300}, "link.baudrate: 300 is out of range (1200 to 921600 baud)"),
    ({"tx": 0, "rx": 1, "speed": 9600}, "link.speed: unknown field (expected one of: uart, tx, rx, baudrate)"),
    ("GP0", "link: must be an object, not 'GP0'"),
])
def test_a_wrong_link_section_names_its_field(link, problem):
    with pytest.raises(hw.ConfigError) as error:
        hw.load_config(dict(BREADBOARD, link=link))
    assert problem in error.value.errors


def test_the_uart_number_may_be_given_or_left_to_the_pins():
    config = hw.load_config(dict(BREADBOARD, link={"tx": 8, "rx": 9, "baudrate": 115200}))
    assert (config.link.uart_id, config.link.tx, config.link.rx, config.link.baudrate) == (1, 8, 9, 115200)
    assert hw.load_config(dict(BREADBOARD, link={"uart": 0, "tx": "GP16", "rx": "GP17"})).link.rx == 17
    assert hw.load_config({k: v for k, v in BREADBOARD.items() if k != "link"}).link is None


def test_check_config_shows_the_link_and_its_errors(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(BREADBOARD, link={"tx": 1, "rx": 0})))
    good = REPO / "board_configs" / "pico_breadboard_spi.json"
    run = subprocess.run([sys.executable, str(REPO / "tools" / "othello"), "check-config", str(good), str(bad)],
                         capture_output=True, text=True)
    assert run.returncode == 1
    assert "link on UART0 (TX GP0, RX GP1, 19200 baud)" in run.stdout
    assert "%s: link.rx: GP0 is the TX of UART0 and cannot be RX" % bad in run.stdout


def test_the_stand_in_uart_is_the_rp2_ports(tmp_path):
    board = LocalBoard(board_config(REPO / "board_configs" / "pico_breadboard_i2c.json")[0], tmp_path)
    import machine

    with pytest.raises(ValueError, match="UART\\(2\\) doesn't exist"):
        machine.UART(2)
    with pytest.raises(ValueError, match="bad TX pin"):
        machine.UART(0, tx=machine.Pin(4), rx=machine.Pin(1))
    with pytest.raises(ValueError, match="bad RX pin"):
        machine.UART(1, tx=machine.Pin(4), rx=machine.Pin(1))
    uart = machine.UART(0, baudrate=19200, tx=machine.Pin(0), rx=machine.Pin(1), rxbuf=64)
    assert uart.read() is None and uart.any() == 0
    assert uart.write(b"\x7e\x01") == 2 and bytes(board.uart_sent) == b"\x7e\x01"
    board.uart_receive(1, bytes(range(100)))  # more than the receive buffer holds: the rest is lost
    assert uart.any() == 64 and uart.read(10) == bytes(range(10)) and uart.read() == bytes(range(10, 64))
    board.uart_receive(17, b"nobody listens")
    assert uart.any() == 0
    uart.deinit()
    board.uart_receive(1, b"after deinit")
    assert uart.any() == 0
