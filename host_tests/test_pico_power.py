"""The chip's power on the real firmware on an emulated Pico (tools/device/pico_emulator.py, main.py as on a board).

One boot: the computer's reply searched at 200 MHz and the clock back at 125 after it; the idle menu
napping in lightsleep; auto-off saving the game, the display asleep and the crystal stopped (DORMANT) until
a button's level wakes it, within 300 ms, to the same screen; then the cells, fed to the ADC, run out and
the game is kept under the "Battery empty" screen. The stand-in tests (test_power.py) check the
rules at every setting; this checks the chip: rp2040js's clocks, WFI and the emulator's dormant model.

Auto-off's shortest setting is 2 minutes, 10 to 30 minutes of wall time here: the flash gets a copy of
ui/settings.py whose auto-off choice is 6 seconds (MicroPython imports a .py before the .mpy beside it),
the one change to the firmware. Without the firmware or the boot ROM it skips; in CI it must run.
"""

import json
import os

import pytest

import hw
from device import pico_emulator
from simulator.reading import shows

MISSING = pico_emulator.available()
if MISSING and os.environ.get("CI") != "true":
    pytest.skip(MISSING, allow_module_level=True)

BOARD = "pico_breadboard_i2c"
SETTINGS = pico_emulator.REPO / "firmware" / "ui" / "settings.py"
DEFAULT_OFF = '"off": (300, 0, 120, 900)'
QUICK_OFF_S = 6


def quick_settings():
    text = SETTINGS.read_text()
    assert DEFAULT_OFF in text, "ui/settings.py's auto-off choices changed: update this test"
    return text.replace(DEFAULT_OFF, '"off": (%d, 0, 120, 900)' % QUICK_OFF_S).encode()


def saved_game(pico):
    data = pico.flash_file("%s/game.json" % hw.STORAGE_ROOT)
    return None if data is None else json.loads(data)


def ran_at(before, after, hz):
    return after["run"].get(hz, 0) - before["run"].get(hz, 0)


def test_search_at_200_mhz_naps_between_polls_and_auto_off_sleeps_dormant_until_a_key():
    with pico_emulator.EmulatedPico(BOARD, battery=2.9) as pico:  # fresh cells, no USB cable
        pico.write_files({"/lib/ui/settings.py": quick_settings()})
        pico.power_on()
        assert pico.run_until(lambda p: shows(p.screen(), "Play computer"), 8000, 100), pico.console
        pico.run_for(1000)  # keys pressed while the player's tables are being made are not seen
        for name in ("a", "down", "down", "a"):  # Play computer, then Start (level 2)
            pico.tap(name, 100, 400)
        assert pico.run_until(lambda p: saved_game(p) is not None, 3000, 200), pico.console
        before = pico.power_account()
        pico.tap("a", 100, 100)  # the first legal move: the computer answers
        assert pico.run_until(lambda p: len(saved_game(p)["game"]["moves"]) == 2, 20000, 500), pico.console
        after = pico.power_account()
        assert ran_at(before, after, 200000000) > 5e6  # its search (or its book lookup) ran at 200 MHz ...
        assert after["clk_sys"] != 200000000 and after["vsel"] == 0b1011  # ... then the clock, then the voltage
        assert after["undervolted"] == 0  # the core was at 1.15 V whenever the clock was above 133 MHz

        pico.run_for(1000)
        idle_start = pico.power_account()
        pico.run_for(2000)
        idle_end = pico.power_account()
        asleep = sum(idle_end["wait"].values()) - sum(idle_start["wait"].values())
        assert asleep > 1e9 and idle_end["wait"].get(12000000, 0) > idle_start["wait"].get(12000000, 0), (
            idle_start, idle_end)  # over half of the 2 s in lightsleep: the core waits on the crystal's clock

        panel = [row[64:] for row in pico.screen_text()]  # right of the board, where the cursor blinks
        game = saved_game(pico)["game"]
        assert pico.run_until(lambda p: p.dormant, QUICK_OFF_S * 1000 + 2000, 200), pico.console
        assert not pico.panel.display_on
        assert saved_game(pico)["game"] == game  # saved as it stood
        asleep_at = pico.power_account()
        pico.run_for(3000)
        assert pico.dormant and pico.power_account()["dormant"] - asleep_at["dormant"] >= 2.9e9

        pico.press("b")  # any button wakes it
        assert pico.run_until(lambda p: p.panel.display_on, 300, 10), "no wake within 300 ms"
        pico.release("b")
        pico.run_for(500)
        assert [row[64:] for row in pico.screen_text()] == panel  # the same screen; the waking key did nothing
        assert saved_game(pico)["game"] == game

        # The cells run down (GP29 reads VSYS/3 through rp2040js's ADC): below their empty voltage the game
        # is saved and the screen says so.
        pico.set_supply(1.9)
        assert pico.run_until(lambda p: shows(p.screen(), "Battery empty"), 15000, 500), pico.console
        assert saved_game(pico)["game"] == game
        assert "Traceback" not in pico.console
