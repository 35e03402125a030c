"""Board configs: every shipped file is valid, and every kind of mistake is rejected with the field named."""

import copy
import json
from pathlib import Path

import pytest

import hw

REPO = Path(__file__).resolve().parent.parent
CONFIG_FILES = sorted((REPO / "board_configs").glob("*.json"))


def test_there_are_the_promised_configs():
    names = {path.name for path in CONFIG_FILES}
    assert {"pico_breadboard_i2c.json", "pico_breadboard_spi.json"} <= names
    buses = {hw.read_config(path).display.bus for path in CONFIG_FILES}
    assert buses == {"i2c", "spi"}
    # at least one board with fewer than four directions, which must still be playable
    assert any(len(hw.read_config(path).buttons) <= 3 for path in CONFIG_FILES)


@pytest.mark.parametrize("path", CONFIG_FILES, ids=lambda p: p.name)
def test_shipped_config_is_valid(path):
    config = hw.read_config(path)
    assert config.name
    assert config.display.width == 128 and config.display.height == 64
    assert "a" in config.button_names and len(config.button_names) >= 2
    assert list(config.button_names) == [name for name in hw.BUTTON_NAMES if name in config.button_names]


def _first_button(data):
    return next(iter(data["buttons"]))


def _wrong_function(data):
    """Swap the bus's two signal pins: each is then a pin of the other function."""
    settings = data["display"][data["display"]["bus"]]
    first, second = ("sda", "scl") if data["display"]["bus"] == "i2c" else ("sck", "mosi")
    settings[first], settings[second] = settings[second], settings[first]


def _mistakes():
    """(what, how to break a config dict, the field the message must start with, a word it must contain)."""
    return [
        ("pin beyond the chip", lambda d: d["buttons"][_first_button(d)].update(pin=40), "buttons.{b}.pin", "0-29"),
        ("pin off the header", lambda d: d["buttons"][_first_button(d)].update(pin=25), "buttons.{b}.pin", "header"),
        ("pin as text", lambda d: d["buttons"][_first_button(d)].update(pin="left"), "buttons.{b}.pin", "GPIO"),
        ("pin used twice", lambda d: d["buttons"][_first_button(d)].update(pin=d["buzzer"]["pin"]), "buzzer.pin", "already used"),
        ("missing pin", lambda d: d["buttons"][_first_button(d)].pop("pin"), "buttons.{b}.pin", "missing"),
        ("unknown pull", lambda d: d["buttons"][_first_button(d)].update(pull="sideways"), "buttons.{b}.pull", "up, down, none"),
        ("pull fights the level", lambda d: d["buttons"][_first_button(d)].update(active="high"), "buttons.{b}.active", "never reads pressed"),
        ("unknown button", lambda d: d["buttons"].update(start={"pin": 0, "pull": "up", "active": "low"}), "buttons.start", "unknown"),
        ("no A button", lambda d: d["buttons"].pop("a"), "buttons.a", "missing"),
        ("typo in a field", lambda d: d["buttons"][_first_button(d)].update(pul="up"), "buttons.{b}.pul", "unknown"),
        ("unknown controller", lambda d: d["display"].update(controller="st7735"), "display.controller", "ssd1306"),
        ("wrong size", lambda d: d["display"].update(height=32), "display.height", "128x64"),
        ("rotation by 90", lambda d: d["display"].update(rotation=90), "display.rotation", "0, 180"),
        ("unknown bus", lambda d: d["display"].update(bus="uart"), "display.bus", "i2c, spi"),
        ("bus pin without that function", _wrong_function, "display.{bus}.", "cannot be"),
        ("no display", lambda d: d.pop("display"), "display", "missing"),
        ("buzzer pin out of range", lambda d: d["buzzer"].update(pin=-1), "buzzer.pin", "0-29"),
        ("no name", lambda d: d.pop("name"), "name", "missing"),
        ("unknown top-level field", lambda d: d.update(colour="blue"), "colour", "unknown"),
    ]


@pytest.mark.parametrize("path", CONFIG_FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("what, breaks, field, word", _mistakes(), ids=[m[0] for m in _mistakes()])
def test_each_mistake_names_its_field(path, what, breaks, field, word):
    data = json.loads(path.read_text())
    if "buzzer" not in data:
        data["buzzer"] = {"pin": 28}
    expected_field = field.format(b=_first_button(data), bus=data["display"]["bus"])
    broken = copy.deepcopy(data)
    breaks(broken)
    with pytest.raises(hw.ConfigError) as caught:
        hw.load_config(broken)
    matching = [line for line in caught.value.errors if line.startswith(expected_field)]
    assert matching, "no error names %s: %s" % (expected_field, caught.value.errors)
    assert word in matching[0]
    assert str(caught.value).splitlines() == caught.value.errors


def test_i2c_and_spi_specifics_are_checked():
    data = json.loads((REPO / "board_configs" / "pico_breadboard_i2c.json").read_text())
    data["display"]["i2c"].update(address="0x27", sda=4, scl=7, freq=5000000)
    errors = _errors(data)
    assert any(e.startswith("display.i2c.address: 0x27") for e in errors)
    assert any(e.startswith("display.i2c.sda: GP4 is on I2C0") and "I2C1" in e for e in errors)
    assert any(e.startswith("display.i2c.freq: 5000000") for e in errors)
    data = json.loads((REPO / "board_configs" / "pico_breadboard_spi.json").read_text())
    data["display"]["spi"].update(baudrate=20000000, mosi=11)
    errors = _errors(data)
    assert any(e.startswith("display.spi.baudrate: 20000000") for e in errors)
    assert any(e.startswith("display.spi.sck: GP18 is on SPI0") or e.startswith("display.spi.mosi: GP11 is on SPI1") for e in errors)
    data["display"]["controller"] = "sh1106"
    data["display"]["spi"].update(baudrate=8000000, mosi=19)
    assert any(e.startswith("display.spi.baudrate: 8000000") for e in _errors(data))  # the SH1106 allows 4 MHz


def test_all_problems_are_reported_at_once():
    data = json.loads((REPO / "board_configs" / "pico_breadboard_i2c.json").read_text())
    data["buttons"]["up"]["pin"] = 99
    data["display"]["rotation"] = 45
    data["buzzer"]["pin"] = 25
    fields = [line.split(":")[0] for line in _errors(data)]
    assert fields == ["display.rotation", "buttons.up.pin", "buzzer.pin"]


def test_text_sources_and_friendly_forms():
    text = (REPO / "board_configs" / "pico_breadboard_i2c.json").read_text()
    assert hw.load_config(text).display.address == 0x3C
    assert hw.load_config(text.encode()).display.bus_id == 0
    data = json.loads(text)
    data["buttons"]["a"]["pin"] = "GP16"
    data["display"]["i2c"]["address"] = 61
    config = hw.load_config(data)
    assert config.buttons[[b.name for b in config.buttons].index("a")].pin == 16
    assert config.display.address == 0x3D
    data.pop("buzzer")
    assert hw.load_config(data).buzzer_pin is None
    with pytest.raises(hw.ConfigError, match="not valid JSON"):
        hw.load_config(text[:-20])
    with pytest.raises(hw.ConfigError, match="JSON object"):
        hw.load_config("[1, 2]")


def test_read_config_reports_a_missing_file(tmp_path):
    with pytest.raises(hw.ConfigError, match="cannot be read"):
        hw.read_config(tmp_path / "board.json")


def _errors(data):
    with pytest.raises(hw.ConfigError) as caught:
        hw.load_config(data)
    return caught.value.errors


def test_micropython_validates_the_same_way(micropython):
    """The device runs this validation at power-up: same verdicts and messages under MicroPython."""
    files = {path.name: path.read_text() for path in CONFIG_FILES}
    broken = json.loads(files["pico_breadboard_i2c.json"])
    broken["buttons"]["left"]["pin"] = 40
    broken["display"]["i2c"]["scl"] = 4
    code = "import hw, json\nfiles = %r\nbroken = %r\n" % (files, json.dumps(broken)) + (
        "def main():\n"
        "    for name in sorted(files):\n"
        "        print(name, hw.load_config(files[name]).button_names)\n"
        "    try:\n"
        "        hw.load_config(broken)\n"
        "    except hw.ConfigError as error:\n"
        "        print(error.errors)\n"
        "main()\n"
    )
    output = micropython(code).splitlines()
    expected = ["%s %s" % (name, hw.load_config(files[name]).button_names) for name in sorted(files)]
    assert output[:-1] == expected
    assert output[-1] == str(_errors(json.loads(json.dumps(broken))))


def _check_config(argv, capsys):
    """tools/othello check-config, with only its own module registered (as tools/cli registers it)."""
    import argparse

    import cli
    from cli import hardware

    assert "cli.hardware" in cli.COMMAND_MODULES
    parser = argparse.ArgumentParser()
    hardware.register(parser.add_subparsers())
    args = parser.parse_args(["check-config"] + argv)
    status = args.func(args)
    return status, capsys.readouterr().out


def test_check_config_command(tmp_path, capsys):
    status, out = _check_config([], capsys)
    assert status == 0 and out.count(": ok: ") == len(CONFIG_FILES)
    broken = json.loads(CONFIG_FILES[0].read_text())
    broken["buttons"]["a"]["pin"] = 40
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken))
    status, out = _check_config([str(path), str(CONFIG_FILES[0])], capsys)
    assert status == 1
    assert "%s: buttons.a.pin: 40 is not a GPIO of the Pico (0-29)" % path in out
    assert "%s: ok: " % CONFIG_FILES[0] in out


def plain(value):
    """A config's holders as JSON values: what two BoardConfigs hold, comparable."""
    if hasattr(value, "__dict__"):
        return {key: plain(item) for key, item in vars(value).items()}
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


@pytest.mark.parametrize("path", CONFIG_FILES, ids=lambda path: path.stem)
def test_the_checked_form_gives_back_the_validated_config_and_only_for_the_same_file(path, tmp_path):
    from hw import board

    installed = tmp_path / "board.json"
    text = path.read_bytes()
    installed.write_bytes(text)
    assert board.checked_config(str(installed), text) is None  # nothing kept yet
    validated = hw.read_config(str(installed))
    board.save_checked(str(installed), text, validated)
    assert (tmp_path / "board.checked.json").exists()
    assert plain(board.checked_config(str(installed), text)) == plain(validated)
    assert board.checked_config(str(installed), text + b" ") is None  # an edited file is checked again
