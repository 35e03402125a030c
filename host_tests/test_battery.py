"""The battery: the board config's section refused field by field, the gauge's judgement, the stand-in ADC,
and the whole firmware on a simulated supply (tools/sim --battery): level, USB, "?", one warning, empty."""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

import hw
import simulator

REPO = Path(__file__).resolve().parent.parent
CONFIG_FILES = sorted((REPO / "board_configs").glob("*.json"))
BOARD = REPO / "board_configs" / "pico_breadboard_i2c.json"


def _board(battery):
    data = json.loads(BOARD.read_text())
    if battery is None:
        data.pop("battery")
    else:
        data["battery"] = battery
    return data


# ----- the config ----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", CONFIG_FILES, ids=lambda p: p.name)
def test_every_shipped_board_reads_vsys_on_gp29_and_usb_on_gp24(path):
    battery = hw.read_config(path).battery
    assert (battery.adc, battery.divider, battery.vbus, battery.chemistry) == (29, 3, 24, "alkaline_2aa")
    assert battery.empty < battery.low < battery.full


def test_a_board_without_a_battery_section_has_no_gauge():
    assert hw.load_config(_board(None)).battery is None


def test_the_section_accepts_resistors_named_pins_and_own_voltages():
    battery = hw.load_config(_board({"adc": "GP26", "divider": {"top": 100000, "bottom": 100000},
                                     "chemistry": "LiPo", "full": 4.0, "low": 3.4, "empty": 3.1})).battery
    assert (battery.adc, battery.divider, battery.chemistry, battery.full, battery.low, battery.empty, battery.vbus) == \
        (26, 2, "lipo", 4.0, 3.4, 3.1, None)


GOOD = {"adc": 29, "divider": 3, "chemistry": "alkaline_2aa", "vbus": 24}

BAD_SECTIONS = [
    # (what, changes to GOOD (None removes a key), the field the message starts with, a word in it)
    ("not an object", "2xAA", "battery", "object"),
    ("unknown field", {"cells": 2}, "battery.cells", "unknown"),
    ("no pin", {"adc": None}, "battery.adc", "missing"),
    ("a pin that is no ADC pin", {"adc": 16}, "battery.adc", "not an ADC pin"),
    ("an ADC pin the display has", {"adc": 4}, "battery.adc", "already used"),
    ("a pin beyond the chip", {"adc": 31}, "battery.adc", "0-29"),
    ("a pin as words", {"adc": "vsys"}, "battery.adc", "GPIO"),
    ("a pin as true", {"adc": True}, "battery.adc", "GPIO"),
    ("the LED pin", {"adc": 25}, "battery.adc", "header"),
    ("VBUS sensed on VSYS's pin", {"vbus": 29}, "battery.vbus", "header"),
    ("VBUS on the LED", {"vbus": 25}, "battery.vbus", "header"),
    ("VBUS on the buzzer's pin", {"vbus": 22}, "battery.vbus", "already used"),
    ("a divider below 1", {"divider": 0.5}, "battery.divider", "cannot be right"),
    ("a divider of zero", {"divider": 0}, "battery.divider", "cannot be right"),
    ("a negative divider", {"divider": -3}, "battery.divider", "cannot be right"),
    ("an absurd divider", {"divider": 300}, "battery.divider", "cannot be right"),
    ("GP29 with another divider", {"divider": 2}, "battery.divider", "200k/100k"),
    ("a divider as text", {"divider": "3"}, "battery.divider", "number"),
    ("a divider as true", {"divider": True}, "battery.divider", "number"),
    ("no divider off GP29", {"adc": 27, "divider": None}, "battery.divider", "missing"),
    ("a divider that overloads the ADC", {"adc": 27, "divider": 1, "chemistry": "lipo"}, "battery.divider", "3.3 V"),
    ("resistors to nothing", {"adc": 27, "divider": {"top": 100000, "bottom": 0}}, "battery.divider.bottom", "range"),
    ("a resistor missing", {"adc": 27, "divider": {"top": 100000}}, "battery.divider.bottom", "missing"),
    ("a resistor as text", {"adc": 27, "divider": {"top": "100k", "bottom": 100000}}, "battery.divider.top", "number"),
    ("a resistor typo", {"adc": 27, "divider": {"top": 1, "botom": 1}}, "battery.divider.botom", "unknown"),
    ("resistors that overload the ADC", {"adc": 27, "divider": {"top": 1000, "bottom": 100000}, "chemistry": "nimh_3aaa"},
     "battery.divider", "3.3 V"),
    ("no chemistry", {"chemistry": None}, "battery.chemistry", "missing"),
    ("unknown chemistry", {"chemistry": "lead_acid"}, "battery.chemistry", "alkaline_2aa"),
    ("chemistry as a number", {"chemistry": 2}, "battery.chemistry", "lipo"),
    ("empty above full", {"empty": 3.2, "full": 2.9}, "battery.low", "above battery.empty"),
    ("empty equal to low", {"empty": 2.2}, "battery.low", "above battery.empty"),
    ("low above full", {"low": 3.1}, "battery.full", "above battery.low"),
    ("empty below the regulator", {"empty": 1.5}, "battery.empty", "1.8 V"),
    ("a voltage as text", {"full": "3V"}, "battery.full", "number"),
    ("an absurd voltage", {"full": 40}, "battery.full", "range"),
    ("a voltage as false", {"low": False}, "battery.low", "number"),
]


@pytest.mark.parametrize("what, changes, field, word", BAD_SECTIONS, ids=[case[0] for case in BAD_SECTIONS])
def test_each_bad_battery_section_is_refused_naming_its_field(what, changes, field, word):
    if isinstance(changes, dict):
        section = dict(GOOD)
        for key, value in changes.items():
            if value is None:
                section.pop(key)
            else:
                section[key] = value
    else:
        section = changes
    with pytest.raises(hw.ConfigError) as caught:
        hw.load_config(_board(section))
    errors = caught.value.errors
    assert any(line.startswith(field + ": ") and word in line for line in errors), errors
    assert all("\n" not in line for line in errors)


def test_check_config_names_the_field_and_fails(tmp_path):
    path = tmp_path / "board.json"
    path.write_text(json.dumps(_board(dict(GOOD, adc=16))))
    done = subprocess.run([sys.executable, str(REPO / "tools" / "othello"), "check-config", str(path), str(BOARD)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "%s: battery.adc: GP16 is not an ADC pin" % path in done.stdout
    assert "battery alkaline_2aa on GP29 (VSYS/3, empty at 2 V), USB sensed on GP24" in done.stdout


# ----- the gauge's judgement ------------------------------------------------------------------------------


class Supply:
    """read() as hw.battery.Battery gives it, from volts and usb set by the test."""

    def __init__(self, volts, usb=False):
        self.volts = volts
        self.usb = usb
        self.reads = 0

    def read(self):
        self.reads += 1
        return self.volts, self.usb


def _gauge(supply, chemistry="alkaline_2aa"):
    from ui.gauge import Gauge

    spec = hw.load_config(_board(dict(GOOD, chemistry=chemistry))).battery
    return Gauge(spec, supply.read, lambda a, b: a - b, lambda a, b: a + b)


def _run(gauge, ms, start=0):
    """The events of every reading due in ms of frames (20 ms apart)."""
    events = []
    for now in range(start, start + ms, 20):
        if gauge.due(now):
            event = gauge.update(now)
            if event is not None:
                events.append((now, event))
    return events


def test_levels_follow_the_chemistrys_curve_from_empty_to_full():
    from ui.gauge import _UNKNOWN as UNKNOWN  # private: a name on the device costs heap

    supply = Supply(2.95)
    gauge = _gauge(supply)
    assert gauge.level == UNKNOWN
    levels = []
    for volts in (2.95, 2.9, 2.7, 2.4, 2.2, 2.05, 2.0):
        supply.volts = volts
        gauge.update(0)
        levels.append(gauge.level)
    assert levels[0] == 100 and levels[-1] == 0
    assert levels == sorted(levels, reverse=True) and len(set(levels)) == len(levels)
    lipo = _gauge(Supply(3.7), "lipo")
    lipo.update(0)
    assert 40 < lipo.level < 80  # a LiPo's long flat middle


def test_usb_is_shown_while_vbus_is_high_whatever_the_cells_say():
    from ui.gauge import USB

    gauge = _gauge(Supply(1.9, usb=True))
    assert _run(gauge, 60000) == []
    assert gauge.level == USB


@pytest.mark.parametrize("volts", [None, 0.0, 0.3, 1.2, 3.7, 5.0, 5.9])
def test_an_implausible_reading_shows_a_question_mark_and_never_warns(volts):
    from ui.gauge import _UNKNOWN as UNKNOWN  # private: a name on the device costs heap

    gauge = _gauge(Supply(volts))
    assert _run(gauge, 60000) == []
    assert gauge.level == UNKNOWN


def test_the_low_warning_comes_once_and_again_only_after_fresh_cells():
    from ui.gauge import LOW

    supply = Supply(2.8)
    gauge = _gauge(supply)
    assert _run(gauge, 10000) == []
    supply.volts = 2.1
    events = _run(gauge, 60000, 10000)
    assert [event for _, event in events] == [LOW]
    assert events[0][0] - 10000 <= 4000 + 500 + 20  # the next reading, then one confirmation
    supply.volts = 2.3  # a rest lets alkaline cells recover a little: no second warning when they sag again
    _run(gauge, 10000, 70000)
    supply.volts = 2.1
    assert _run(gauge, 20000, 80000) == []
    supply.volts = 2.9  # fresh cells
    _run(gauge, 10000, 100000)
    supply.volts = 2.1
    assert [event for _, event in _run(gauge, 20000, 110000)] == [LOW]


def test_a_single_dip_is_no_alarm_and_readings_stay_rare():
    supply = Supply(2.8)
    gauge = _gauge(supply)
    _run(gauge, 4000)
    supply.volts = 1.95  # one sagging reading (the buzzer, a flash write)
    gauge.update(4000)
    supply.volts = 2.8
    assert _run(gauge, 60000, 4020) == []
    assert supply.reads <= 2 + 60000 // 4000 + 1


def test_empty_comes_after_two_readings_below_it():
    from ui.gauge import EMPTY

    supply = Supply(1.95)
    gauge = _gauge(supply)
    events = _run(gauge, 2000)
    assert events and events[0] == (500, EMPTY)


def test_the_gauge_module_imports_nothing_from_the_hardware():
    import ast

    tree = ast.parse((REPO / "firmware" / "ui" / "gauge.py").read_text())
    names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    names |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not {name for name in names if name.split(".")[0] in ("hw", "machine", "time", "framebuf")}


# ----- the stand-in ADC -------------------------------------------------------------------------------------


@pytest.fixture
def machine(tmp_path):
    board = simulator.LocalBoard(hw.load_config(_board(GOOD)), tmp_path)
    import machine

    yield machine
    del board


def test_the_standin_adc_takes_what_the_rp2_port_takes(machine):
    for bad in (5, 25, 30, -1):
        with pytest.raises(ValueError, match="invalid channel"):
            machine.ADC(bad)
    for bad in (machine.Pin(16), "GP2", machine.Pin(25)):
        with pytest.raises(ValueError, match="Pin doesn't have ADC capabilities"):
            machine.ADC(bad)
    assert repr(machine.ADC(machine.Pin(29))) == repr(machine.ADC(3)) == repr(machine.ADC(29)) == "<ADC channel=3>"
    assert repr(machine.ADC(machine.ADC.CORE_TEMP)) == "<ADC channel=4>"


def test_the_standin_adc_scales_twelve_bits_to_sixteen_as_the_port_does(machine):
    adc = machine.ADC(machine.Pin(28))
    for volts, raw in ((0.0, 0), (3.3, 4095), (9.0, 4095), (1.65, 2048), (1.0, 1241)):
        machine.set_analog(28, volts)
        assert adc.read_u16() == (raw << 4 | raw >> 8)
    assert machine.ADC(4).read_u16() >> 4 == int(0.706 / 3.3 * 4096)  # the sensor at 27 C


def test_the_battery_reads_vsys_through_the_divider_and_vbus(tmp_path):
    board = simulator.LocalBoard(hw.load_config(_board(GOOD)), tmp_path)
    from hw.battery import Battery

    battery = Battery(board.config.battery)
    volts, usb = battery.read()  # a LocalBoard starts on USB: VSYS 4.7 V (VBUS less the Pico's diode)
    assert usb and volts == pytest.approx(4.7, abs=0.005)
    board.supply(2.6, False)
    volts, usb = battery.read()
    assert not usb and volts == pytest.approx(2.6, abs=0.005)


# ----- the whole firmware on a simulated supply (main.py, its own process) ---------------------------------------


def _until(sim, text, timeout_ms=60000):
    from simulator.reading import shows

    assert sim.run_until(lambda s: shows(s.screen(), text), timeout_ms), "\n".join(sim.screen_text())


def _menu_gauge(sim):
    """The levels (USB, UNKNOWN or percent) whose picture is where the main menu shows the gauge."""
    simulator.install_standins()
    import framebuf
    from ui.gauge import _UNKNOWN as UNKNOWN, USB, Gauge

    screen = sim.screen()
    found = []
    for level in [USB, UNKNOWN] + list(range(101)):
        fb = framebuf.FrameBuffer(bytearray(128 * 8), 128, 64, framebuf.MONO_VLSB)
        fb.fill_rect(0, 0, 128, 9, 1)
        gauge = Gauge.__new__(Gauge)
        gauge.level = level
        gauge.draw(fb, 1, 1, 0)
        if all(fb.pixel(x, y) == screen[y][x] for x in range(20) for y in range(9)):
            found.append(level)
    return found


def test_low_then_empty_saves_the_game_and_the_empty_screen_stays(tmp_path):
    flash = tmp_path / "flash"
    with simulator.SimulatedDevice(BOARD, flash_dir=flash, battery=2.9) as sim:
        sim.power_on()
        _until(sim, "Play computer")
        sim.tap("down")
        sim.tap("a")  # Two players
        _until(sim, "to move")
        sim.tap("a")  # the first legal move
        _until(sim, "Move 2")
        sim.set_supply(2.1)
        _until(sim, "Battery low", 10000)
        from simulator.reading import shows

        assert sim.run_until(lambda s: not shows(s.screen(), "Battery low"), 5000)  # it goes by itself
        # one warning only (a notice stays 2.5 s: a look every 0.5 s cannot miss one)
        assert not sim.run_until(lambda s: shows(s.screen(), "Battery low"), 40000, step_ms=500)
        before = len(sim.flash_log)
        sim.set_supply(1.95)
        _until(sim, "Battery empty", 10000)
        written = sim.flash_log[before:]
        assert any("game" in path for _, op, path in written), written
        after = len(sim.flash_log)
        for name in ("a", "b", "right", "a", "down"):
            sim.tap(name)
        sim.run_for(200000)  # the screen dims and goes dark as any idle screen does; a key shows it again
        sim.tap("b")
        assert len(sim.flash_log) == after  # nothing more written
        assert shows(sim.screen(), "Battery empty")
        sim.power_off()
        sim.set_supply(2.9)  # fresh cells
        sim.power_on()
        _until(sim, "Continue")
        sim.tap("a")
        _until(sim, "Move 2")


def test_usb_shows_and_a_key_restarts_from_the_empty_screen(tmp_path):
    from simulator.reading import shows
    from ui.gauge import USB

    with simulator.SimulatedDevice(BOARD, battery=1.95) as sim:
        sim.power_on()
        _until(sim, "Battery empty")
        assert shows(sim.screen(), "switch off")
        sim.set_supply(1.95, usb=True)
        _until(sim, "A: restart", 10000)
        sim.tap("a")
        assert sim.resets == 1
        _until(sim, "Play computer")
        assert _menu_gauge(sim) == [USB]


def test_the_menu_shows_usb_the_level_and_a_question_mark(tmp_path):
    from ui.gauge import _UNKNOWN as UNKNOWN, USB

    with simulator.SimulatedDevice(BOARD) as sim:  # no cells: USB power
        sim.power_on()
        _until(sim, "Play computer")
        assert _menu_gauge(sim) == [USB]
        sim.set_supply(5.9)  # impossible from two cells
        sim.run_for(4500)
        assert _menu_gauge(sim) == [UNKNOWN]
        sim.set_supply(2.95)
        sim.run_for(4500)
        assert 100 in _menu_gauge(sim)
        sim.set_supply(2.4)
        sim.run_for(4500)
        assert all(20 < level < 60 for level in _menu_gauge(sim)) and _menu_gauge(sim)


def _sim(*args):
    return subprocess.run([sys.executable, str(REPO / "tools" / "sim")] + list(args), capture_output=True, text=True,
                          timeout=300)


@pytest.mark.parametrize("value, words", [("abc", "volts"), ("7", "out of range"), ("-1", "out of range"),
                                          ("nan", "out of range")])
def test_sim_refuses_a_bad_battery_voltage_in_one_line(tmp_path, value, words):
    done = _sim("--battery", value, "--headless", str(tmp_path / "none.sim"), "--out", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and words in done.stderr and "--battery" in done.stderr


def test_sim_refuses_a_battery_on_a_board_without_a_gauge(tmp_path):
    board = tmp_path / "board.json"
    board.write_text(json.dumps(_board(None)))
    done = _sim("--board", str(board), "--battery", "2.6", "--headless", str(tmp_path / "none.sim"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "no battery section" in done.stderr


def test_sim_battery_through_the_real_process_and_the_script(tmp_path):
    script = tmp_path / "battery.sim"
    script.write_text('until "Play computer"\nsettle\nshot full.png\nbattery 2.1\nuntil "Battery low" 10000\n'
                      'battery 1.95\nuntil "Battery empty" 10000\nusb on\nuntil "A: restart" 10000\n')
    done = _sim("--battery", "2.9", "--headless", str(script), "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    bad = tmp_path / "bad.sim"
    bad.write_text("battery lots\n")
    done = _sim("--headless", str(bad), "--out", str(tmp_path / "out"))
    assert done.returncode == 2 and "line 1: battery is followed by a voltage" in done.stderr


def test_the_front_ends_supply_keys_drain_charge_and_plug(tmp_path):
    from simulator.terminal import decode_keys

    assert decode_keys(b"vVu") == ["drain", "charge", "usb"]
    with simulator.SimulatedDevice(BOARD) as sim:
        assert sim.supply_text() == "USB"
        assert sim.change_supply("drain") == "2.90 V + USB"  # full cells fitted, then 0.05 V less
        assert sim.change_supply("usb") == "2.90 V"
        assert sim.change_supply("charge") == "2.95 V"
    board = tmp_path / "board.json"
    board.write_text(json.dumps(_board(None)))
    with simulator.SimulatedDevice(board) as sim:
        assert sim.change_supply("drain") is None


def test_the_emulated_pico_reads_the_supply_through_rp2040js(tmp_path):
    """The real firmware on the emulated chip: the voltage goes in as rp2040js's ADC reading, VBUS as GP24's
    level; the warning, then the empty screen with the game saved (here the settings' file is the flash)."""
    from device import pico_emulator

    missing = pico_emulator.available()
    if missing:
        pytest.skip(missing)
    from simulator.reading import shows
    from ui.gauge import USB

    with pico_emulator.EmulatedPico("pico_breadboard_i2c", battery=2.9) as pico:
        pico.power_on()
        assert pico.run_until(lambda p: shows(p.screen(), "Play computer"), 60000, 100), pico.console
        pico.run_for(300)
        assert 96 in _menu_gauge(pico)  # 2.9 V of 2.95 (the ADC reads 2.898 V)
        pico.set_supply(2.1)
        assert pico.run_until(lambda p: shows(p.screen(), "Battery low"), 20000, 100)
        pico.set_supply(1.95)
        assert pico.run_until(lambda p: shows(p.screen(), "Battery empty"), 20000, 100)
        pico.set_supply(1.95, usb=True)
        assert pico.run_until(lambda p: shows(p.screen(), "A: restart"), 20000, 100)
        pico.tap("a")
        assert pico.run_until(lambda p: shows(p.screen(), "Play computer"), 60000, 100), pico.console
        pico.run_for(300)
        assert _menu_gauge(pico) == [USB]
        assert "Traceback" not in pico.console


def test_micropython_judges_the_readings_as_cpython_does(micropython):
    """The device's interpreter (31-bit small ints, single-precision floats on the Pico): the same levels and
    events from the same readings."""
    readings = [None, 0.3, 2.95, 2.7, 2.4, 2.16, 2.1, 2.1, 2.1, 2.5, 2.1, 2.1, 1.99, 1.99, 6.0]
    code = (
        "import hw\nfrom ui.gauge import Gauge\n"
        "spec = hw.load_config(%r).battery\n" % json.dumps(_board(GOOD))
        + "readings = %r\n" % readings
        + "def read():\n    return readings.pop(0), False\n"
        "gauge = Gauge(spec, read, lambda a, b: a - b, lambda a, b: a + b)\n"
        "out = []\n"
        "for now in range(%d):\n" % len(readings)
        + "    event = gauge.update(now)\n    out.append((gauge.level, event))\n"
        "print(out)\n"
    )
    supply = iter(readings)
    gauge = _gauge(Supply(None))
    gauge.read = lambda: (next(supply), False)
    expected = []
    for now in range(len(readings)):
        event = gauge.update(now)
        expected.append((gauge.level, event))
    assert micropython(code).strip().splitlines()[-1] == str(expected)
