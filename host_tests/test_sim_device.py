"""The simulator runs firmware in its own process, under CPython and MicroPython's unix port, in lockstep time.

The app here is a small stand-in for main.py that exercises every part of
the Device: it moves a block with left/right, counts releases of A on the
top bar and saves the count atomically, beeps, resets on a long A and
crashes on B.
"""

import json
from pathlib import Path

import pytest

import simulator

REPO = Path(__file__).resolve().parent.parent
I2C_BOARD = REPO / "board_configs" / "pico_breadboard_i2c.json"
INTERPRETERS = ("cpython", "micropython")

DEMO = """
import hw

def main():
    device, error = hw.boot()
    fb = device.display.fb
    if error is not None:
        print("CONFIG ERROR:", str(error).replace("\\n", "; "))
        fb.fill(1)
        device.display.show()
        while True:
            device.sleep_ms(100)
    count = int((device.storage.read("count") or b"0").decode())
    x = 0
    while True:
        now = device.ticks_ms()
        for name, kind in device.buttons.poll(now):
            print("event", name, kind)
            if name in ("left", "right") and kind in (hw.PRESS, hw.REPEAT):
                x += 1 if name == "right" else -1
            elif name == "a" and kind == hw.RELEASE:
                count += 1
                device.storage.write_atomic("count", str(count).encode())
                device.sound.play([(880, 40), (0, 20), (1320, 40)])
            elif name == "a" and kind == hw.LONG:
                device.reset()
            elif name == "b" and kind == hw.PRESS:
                raise RuntimeError("B means crash")
        device.sound.update(now)
        fb.fill(0)
        fb.fill_rect(0, 0, 4 * count, 4, 1)
        fb.fill_rect(60 + 4 * x, 30, 4, 4, 1)
        device.display.show()
        device.sleep_ms(20)

main()
"""


@pytest.fixture
def demo(tmp_path):
    path = tmp_path / "demo_main.py"
    path.write_text(DEMO)
    return path


def start(demo, tmp_path, interpreter, board=I2C_BOARD, **options):
    sim = simulator.SimulatedDevice(board, flash_dir=tmp_path / "flash", interpreter=interpreter, app=demo, timeout_s=20, **options)
    return sim.power_on()


def block_x(sim):
    row = sim.screen()[31]
    return (row.index(1) - 60) // 4 if 1 in row else None


def count_bar(sim):
    return sum(sim.screen()[1]) // 4


def play(sim):
    sim.run_for(100)
    sim.tap("right")
    sim.tap("right")
    sim.press("left")
    sim.run_for(700)  # a press and three repeats
    sim.release("left")
    sim.run_for(50)
    sim.tap("a")
    sim.run_for(200)


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_buttons_screen_sound_and_flash(demo, tmp_path, interpreter):
    with start(demo, tmp_path, interpreter) as sim:
        assert sim.state == "running" and block_x(sim) is None, "nothing drawn before time runs"
        play(sim)
        assert block_x(sim) == 2 - 4 and count_bar(sim) == 1
        assert [hz for _, hz, _ in sim.notes()] == [880, 1320]
        assert all(38 <= ms <= 70 for _, _, ms in sim.notes())
        assert sim.flash_files()["data/count"] == sim.flash_file("data/count") == b"1"
        assert sim.flash_file("data/none") is None
        assert json.loads(sim.flash_files()["board.json"]) == json.loads(I2C_BOARD.read_text())
        assert "event left repeat" in sim.console


def test_both_interpreters_show_and_sound_the_same(demo, tmp_path):
    results = []
    for interpreter in INTERPRETERS:
        with start(demo, tmp_path / interpreter, interpreter) as sim:
            play(sim)
            results.append((sim.screen(), sim.buzzer_log, sim.flash_log, sim.console, sim.now))
    assert results[0] == results[1]


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_power_cycle_keeps_the_flash(demo, tmp_path, interpreter):
    with start(demo, tmp_path, interpreter) as sim:
        sim.run_for(50)
        sim.tap("a")
        sim.power_off()
        assert sim.state == "off" and not sim.panel.lit
        sim.run_for(500)
        sim.power_on()
        sim.run_for(100)
        assert count_bar(sim) == 1 and sim.boots == 2


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_power_cut_during_a_save_leaves_old_or_new(demo, tmp_path, interpreter):
    outcomes = []
    for step in range(1, 6):  # create, write, close, rename; 5 is after the save
        flash = tmp_path / ("cut%d" % step)
        (flash / "data").mkdir(parents=True)
        (flash / "data" / "count").write_bytes(b"7")
        sim = simulator.SimulatedDevice(I2C_BOARD, flash_dir=flash, interpreter=interpreter, app=demo, timeout_s=20)
        with sim.power_on():
            sim.run_for(50)
            sim.cut_power_at_flash_step(step)
            sim.tap("a")
            outcomes.append(sim.state)
            sim.power_on()
            sim.run_for(50)
            assert count_bar(sim) in (7, 8)
            outcomes.append(sim.flash_files()["data/count"])
    assert outcomes == ["cut", b"7"] * 4 + ["running", b"8"]


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_reset_and_crash(demo, tmp_path, interpreter):
    with start(demo, tmp_path, interpreter) as sim:
        sim.run_for(50)
        sim.press("a")
        sim.run_for(800)
        sim.release("a")
        sim.run_for(100)
        assert (sim.resets, sim.boots, sim.state) == (1, 2, "running")
        assert count_bar(sim) == 0, "the release after the reset is no press"
        sim.tap("b")
        assert sim.state == "halted" and sim.exit_status == 1
        assert "RuntimeError: B means crash" in sim.console
        picture = sim.screen()
        sim.run_for(1000)
        assert sim.screen() == picture, "a halted Pico leaves the panel as it was"


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_a_corrupt_board_config_is_reported(demo, tmp_path, interpreter):
    sim = simulator.SimulatedDevice(I2C_BOARD, flash_dir=tmp_path, interpreter=interpreter, app=demo)
    (tmp_path / "board.json").write_text(I2C_BOARD.read_text().replace('"pin": 14', '"pin": 44'))
    with sim.power_on():
        sim.run_for(50)
        assert "CONFIG ERROR: buttons.a.pin: 44 is not a GPIO of the Pico (0-29)" in sim.console
        assert all(all(row) for row in sim.screen()), "the rescue display is the one the board has"


@pytest.mark.parametrize("board", ["pico_breadboard_spi.json", "cytron_maker_pi_pico_grove_oled.json", "pico_breadboard_sh1106.json"])
@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_other_boards(demo, tmp_path, interpreter, board):
    with start(demo, tmp_path, interpreter, board=REPO / "board_configs" / board) as sim:
        sim.run_for(50)
        sim.tap("right")
        assert block_x(sim) == 1
        assert sim.panel.unknown_commands == []


def test_time_is_virtual_and_wraps_like_the_pico(demo, tmp_path):
    with start(demo, tmp_path, "micropython", start_ticks=(1 << 30) - 300) as sim:
        sim.run_for(50)
        sim.press("right")
        sim.run_for(700)
        assert block_x(sim) == 4, "a press and three repeats across the ticks wrap"
        assert sim.now == 750


def test_a_firmware_that_never_yields_is_reported(tmp_path):
    app = tmp_path / "spin.py"
    app.write_text("while True:\n    pass\n")
    sim = simulator.SimulatedDevice(I2C_BOARD, flash_dir=tmp_path / "flash", app=app, timeout_s=1)
    with pytest.raises(simulator.SimulatorError, match="without letting time pass"):
        sim.power_on()
    sim.close()


def test_missing_firmware_is_reported(tmp_path):
    sim = simulator.SimulatedDevice(I2C_BOARD, flash_dir=tmp_path, app=tmp_path / "nothing.py")
    with pytest.raises(simulator.SimulatorError, match="does not exist"):
        sim.power_on()


def test_contact_bounce_is_one_press(demo, tmp_path):
    with start(demo, tmp_path, "cpython") as sim:
        sim.run_for(50)
        sim.bounce("right", True)
        sim.run_for(100)
        sim.bounce("right", False)
        sim.run_for(100)
        assert sim.console.count("event right press") == 1 and sim.console.count("event right release") == 1
        assert block_x(sim) == 1
