"""The chip's power on the simulated board: the search clock, the naps between key polls, auto-off and waking.

The stand-in machine module (tools/simulator/standins/machine.py) models the
rp2 port's freq(), lightsleep() and the registers the firmware writes through
mem32, and records every change in machine.power_log.
"""

import json

import pytest
from test_ui_app import configure, stand_in_driver, start
from ui_harness import BOARD_CONFIGS, BoardDriver, StandInPlayer

import machine  # noqa: I001  (the simulator's, which ui_harness puts on the path)

import hw
from player.levels import BASE_MHZ, LEVELS, at_clock
from ui.play import GameScreen
from ui.store import GAME

BOARD = "pico_breadboard_i2c"


def on_cells(driver):
    """Cells at 2.9 V and no USB cable (the simulated board starts on USB power)."""
    driver.board.supply(2.9, False)
    return driver


def events(kind):
    return [value for _, event, value in machine.power_log if event == kind]


def test_a_search_runs_at_200_mhz_with_the_core_voltage_raised_first_and_both_come_back():
    driver, stand_in = stand_in_driver(budget_ms=300)
    start(driver, "Play computer", "Start")
    del machine.power_log[:]
    driver.press("a")  # the human's move: the computer answers
    driver.wait(1000)
    assert stand_in.clocks == [(200, 200000000)]  # its budgets were given for the clock it ran at
    changes = [(event, value) for _, event, value in machine.power_log if event in ("freq", "vsel")]
    assert changes[:2] == [("vsel", 1.15), ("freq", 200000000)]  # the voltage before the clock
    assert changes[2:4] == [("freq", 125000000), ("vsel", 1.1)]  # the clock before the voltage
    assert machine.freq() == 125000000


def test_a_board_config_can_keep_the_search_at_125_mhz():
    source = json.loads((BOARD_CONFIGS / (BOARD + ".json")).read_text())
    source["cpu_mhz_max"] = 125
    stand_in = StandInPlayer(300)
    driver = BoardDriver(source, player=stand_in)
    start(driver, "Play computer", "Start")
    del machine.power_log[:]
    driver.press("a")
    driver.wait(1000)
    assert stand_in.clocks == [(125, 125000000)]
    assert not events("freq") and not events("vsel")


@pytest.mark.parametrize("value, problem", [
    (300, "300 is out of range (125 to 200 MHz)"),
    (100, "100 is out of range (125 to 200 MHz)"),
    (137, "137 MHz is not a clock the RP2040's PLL makes"),
    ("200", "must be a whole number"),
    (True, "must be a whole number"),
])
def test_check_config_refuses_a_bad_search_clock(value, problem):
    source = json.loads((BOARD_CONFIGS / (BOARD + ".json")).read_text())
    source["cpu_mhz_max"] = value
    with pytest.raises(hw.ConfigError) as error:
        hw.load_config(source)
    assert any(line.startswith("cpu_mhz_max: ") and problem in line for line in error.value.errors), error.value.errors


def test_the_budgets_follow_the_clock():
    top = LEVELS[-1]
    fast = at_clock(top, 200)
    assert fast.nodes == top.nodes * 8 // 5 and fast.solve_nodes == top.solve_nodes * 8 // 5
    assert fast.time_ms == top.time_ms and at_clock(top, BASE_MHZ) is top
    with pytest.raises(ValueError):
        at_clock(top, 0)


def test_the_idle_loop_naps_and_a_key_still_answers_in_the_next_frame():
    driver = on_cells(BoardDriver(BOARD))
    driver.press("a")  # the main menu
    del machine.power_log[:]
    driver.wait(2000)
    naps = events("lightsleep")
    assert len(naps) >= 80 and set(naps) == {20}  # most of the time asleep (each clock read costs 1 ms here)
    index = driver.screen.index
    driver.board.press("down")
    driver.run(1)  # one nap, one poll: the press counts although the edge came while the GPIOs slept
    assert driver.screen.index == index + 1
    driver.board.release("down")
    driver.run(2)


def test_on_usb_power_the_loop_waits_without_lightsleep_and_auto_off_keeps_usb_alive():
    driver = BoardDriver(BOARD)
    driver.board.supply(2.9, True)  # cells and a USB cable: VBUS high
    driver.press("a")
    del machine.power_log[:]
    driver.wait(1000)
    assert not events("lightsleep")
    driver.wait(5 * 60000)
    assert driver.app.switched_off and not driver.board.panel.display_on
    assert not events("dormant") and not events("lightsleep")  # DORMANT would stop USB: the REPL
    index = driver.screen.index
    driver.board.press("down")
    driver.run(3)
    assert not driver.app.switched_off and driver.board.panel.display_on
    driver.board.release("down")
    driver.run(3)
    assert driver.screen.index == index


def test_auto_off_saves_the_game_then_sleeps_and_a_key_wakes_the_same_screen():
    driver = on_cells(BoardDriver(BOARD))
    start(driver, "Two players")
    driver.press("a")  # Black's first move
    game = driver.app.session.game
    played = len(game.history)
    driver.press("right")
    driver.wait(5000)  # the battery gauge has read the cells and is drawn
    cursor = driver.screen.cursor
    panel = [row[64:] for row in driver.rows()]  # right of the board (where the cursor blinks): the panel
    seen = {}

    def while_dormant(asleep_ms):
        if not seen:
            saved = json.loads((driver.flash_dir / hw.STORAGE_ROOT / GAME).read_text())
            seen["saved"] = saved
            seen["display_on"] = driver.board.panel.display_on
            seen["log"] = list(machine.power_log)
        if asleep_ms >= 60000:
            seen["pressed_at"] = driver.device.ticks_ms()
            driver.board.press("b")

    driver.board.while_dormant = while_dormant
    driver.wait(5 * 60000 + 100)  # the default auto-off: 5 minutes
    assert "saved" in seen and not seen["display_on"]
    assert [event for _, event, _ in seen["log"]][-1] != "dormant"  # saved and the display off, then asleep
    assert events("dormant") and events("dormant")[0] >= 60000
    assert seen["saved"]["game"] == game.to_dict()  # the game as it stands was on the flash before the sleep
    driver.run(1)
    assert driver.board.panel.display_on
    assert driver.device.ticks_diff(driver.device.ticks_ms(), seen["pressed_at"]) <= 300
    driver.board.release("b")
    driver.run(3)
    assert isinstance(driver.screen, GameScreen) and driver.app.session.game is game
    assert driver.screen.cursor == cursor and len(game.history) == played  # the waking key did nothing
    assert [row[64:] for row in driver.rows()] == panel


def test_auto_off_waits_for_a_review_to_finish():
    from ui.screen import Screen

    driver = on_cells(BoardDriver(BOARD))
    driver.press("a")

    class Computing(Screen):
        steps = 0

        def busy(self):
            return self.steps < 3

        def tick(self, now):
            if self.busy() and self.app.ticks_diff(now, self.app.last_input) >= 5 * 60000:
                self.steps += 1

    screen = Computing(driver.app)
    driver.app.push(screen)
    driver.board.while_dormant = lambda ms: driver.board.press("a")
    driver.wait(5 * 60000 + 200)
    assert screen.steps == 3 and events("dormant")  # it switched off only once the work was done


def test_auto_off_can_be_switched_off():
    driver = BoardDriver(BOARD)
    configure(driver, off=0)
    driver.press("a")
    driver.wait(20 * 60000)
    assert not events("dormant")



def test_a_replay_log_carries_the_clock_of_each_move_and_the_budgets_follow_it(tmp_path):
    from device import replay

    position = "-" * 27 + "OX------XO" + "-" * 27 + " X"
    squares, side = position.split()
    log = tmp_path / "device.log"
    empties = position.count("-")
    fast_nodes, base_nodes = at_clock(LEVELS[7], 200).midgame_nodes(empties), LEVELS[7].midgame_nodes(empties)
    log.write_text("move 8 0 0 %s %s 7 f5 8 %d 0 1102 0 0 200\nmove 8 0 1 %s %s 7 f5 8 %d 0 1500 0 0\n"
                   % (squares, side, fast_nodes, squares, side, base_nodes))
    fast, old = replay.read_log(log)
    assert fast.mhz == 200 and fast.empties == empties and fast.budgets().midgame_nodes(empties) == fast_nodes
    assert old.mhz == BASE_MHZ and old.budgets() is LEVELS[7]  # a log without the clock: 125 MHz
    assert replay.how_decided(fast.budgets(), empties, 8, fast_nodes, 0, False, False) == "search to budget"
    # the 125 MHz budget at 200 MHz ended early: the deadline, not the budget
    assert replay.how_decided(fast.budgets(), empties, 8, base_nodes, 0, False, False) == "search to deadline"
    # the search deepens to the kernel's plies halved at most (player.engine.MAX_PLY): its depth ended it
    assert replay.how_decided(fast.budgets(), empties, 17, base_nodes, 0, False, False) == "search to depth"
