#!/usr/bin/env python3
"""The device's power through a session, on the real firmware: clocks and sleep measured, current estimated.

    tools/device/power_bench.py [--board pico_breadboard_i2c] [--json]     (make bench-power PORT=emulated)

Boots main.py on the emulated Pico (tools/device/pico_emulator.py) and walks through the states of a session: the
idle main menu, a game waiting for the player's move, the computer thinking (level 8), the screen dimmed,
the screen blank, and switched off. For each state it measures, from the emulated chip's own account of its
time (tools/device/pico/chip.mjs `power`): the clock the firmware ran at, the share of time asleep (the core in
WFI/WFE or the crystal stopped), and the lit pixels and contrast of the panel; then it estimates the
current from the published figures below, and the battery life of 2xAA alkaline cells and of a 1,000 mAh
LiPo. docs/POWER.md has the table and the sources.

To reach the dimmed, blank and off states in seconds rather than minutes, the flash gets a copy of
ui/settings.py with a dimming time of 5 s, the blank 5 s after it and auto-off at 15 s (MicroPython
imports a .py before the .mpy beside it): how the chip sleeps in each state does not depend on how long it
took to get there. Everything else is the `make flash` build.
"""

import argparse
import json
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent
REPO = TOOLS.parent
for _path in (str(TOOLS), str(REPO / "firmware")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from device import pico_emulator  # noqa: E402

BOARD = "pico_breadboard_i2c"
SETTINGS = REPO / "firmware" / "ui" / "settings.py"
QUICK = (  # (what ui/settings.py says, what the bench's copy says)
    ('"idle": (60, 0, 30, 120, 300)', '"idle": (5, 0, 30, 120, 300)'),
    ("IDLE_BLANK_AFTER_DIM_S = 180", "IDLE_BLANK_AFTER_DIM_S = 5"),
    ('"off": (300, 0, 120, 900)', '"off": (15, 0, 120, 900)'),
)
WINDOW_MS = 2000  # each state is measured over this much emulated time

# ----- the published figures (docs/POWER.md cites each) ----------------------------------------------
# The Pico board's draw from USB at 5 V (its regulator, flash and chip together):
USB_VOLTS = 5.0
PICO_LIGHTSLEEP_MA = 1.5  # machine.lightsleep(5000): MicroPython's rp2 lightsleep commit, measured on a Pico
PICO_DORMANT_MA = 0.9  # machine.lightsleep() (DORMANT): the same measurement
PICO_BASE_MA = 1.5  # the board's share that does not scale with the clock (regulator, flash, crystal)
PICO_MA_PER_MHZ = 0.16  # running code: about 21.5 mA at 125 MHz, as published Pico measurements give
PICO_WAIT_SHARE = 0.8  # WFE/WFI with the clocks running (time.sleep_ms): most of the running current
CORE_VOLTS_DEFAULT = 1.10  # dynamic power goes with the square of the core voltage: 1.15 V at 200 MHz
CORE_VOLTS_FAST = 1.15
FAST_HZ = 150000000  # above this the firmware has raised the core voltage
# The SSD1306 module from the Pico's 3.3 V: its logic and charge pump, and each lit pixel's segment
# current (SSD1306 datasheet: segment current set by the contrast, 128 segments, the charge pump doubling).
RAIL_VOLTS = 3.3
OLED_SLEEP_MA = 0.01  # display off (0xAE): the datasheet's sleep-mode current, 10 uA at most
OLED_ON_MA = 0.4  # display on, nothing lit
OLED_ALL_LIT_MA = 25.0  # every pixel lit at contrast 255, through the charge pump
# Batteries: (name, usable mAh, average volts over the discharge)
BATTERIES = (("2xAA alkaline", 2500, 2.5), ("1,000 mAh LiPo", 1000, 3.7))
PLAY_MIX = (("playing", 0.8), ("thinking", 0.2))  # an hour of play: the player's turns and the computer's


def quick_settings():
    text = SETTINGS.read_text()
    for was, quick in QUICK:
        if was not in text:
            raise SystemExit("power_bench: ui/settings.py no longer says %r: update QUICK" % was)
        text = text.replace(was, quick)
    return text.encode()


def chip_ma(share, hz):
    """The Pico board's current from USB for `share` of the time running at `hz`."""
    volts = CORE_VOLTS_FAST if hz > FAST_HZ else CORE_VOLTS_DEFAULT
    return share * (PICO_BASE_MA + PICO_MA_PER_MHZ * hz / 1e6 * (volts / CORE_VOLTS_DEFAULT) ** 2)


def estimate(delta, total_ns, lit_share, contrast, display_on):
    """(board mA from USB, display mA from 3.3 V, battery mW) of a state's account `delta`."""
    board = 0.0
    for hz, ns in delta["run"].items():
        board += chip_ma(ns / total_ns, hz)
    for hz, ns in delta["wait"].items():
        if hz <= 12000000:  # lightsleep: the PLLs stopped, clk_sys on the crystal, only the timer clocked
            board += ns / total_ns * PICO_LIGHTSLEEP_MA
        else:
            board += chip_ma(ns / total_ns, hz) * PICO_WAIT_SHARE
    board += delta["dormant"] / total_ns * PICO_DORMANT_MA
    oled = OLED_SLEEP_MA if not display_on else OLED_ON_MA + OLED_ALL_LIT_MA * lit_share * contrast / 255
    milliwatts = board * USB_VOLTS + oled * RAIL_VOLTS
    return board, oled, milliwatts


def difference(before, after):
    delta = {"dormant": after["dormant"] - before["dormant"]}
    for part in ("run", "wait"):
        delta[part] = {hz: ns - before[part].get(hz, 0) for hz, ns in after[part].items() if ns > before[part].get(hz, 0)}
    return delta


def measure(pico, name, until=None, window_ms=WINDOW_MS):
    """Run `window_ms` (or until `until(pico)`) and account for it as the state `name`."""
    before, start = pico.power_account(), pico.now
    if until is None:
        pico.run_for(window_ms)
    elif not pico.run_until(until, 30000, 100):
        raise SystemExit("power_bench: %s did not end in 30 s of emulated time:\n%s" % (name, pico.console[-2000:]))
    after = pico.power_account()
    delta = difference(before, after)
    total = (pico.now - start) * 1e6
    rows = pico.screen_text()
    lit = sum(row.count("#") for row in rows) / float(len(rows) * len(rows[0]))
    awake = max(delta["run"].items(), key=lambda item: item[1])[0] if delta["run"] else 0
    asleep = (sum(delta["wait"].values()) + delta["dormant"]) / total
    board, oled, milliwatts = estimate(delta, total, lit, pico.panel.contrast, pico.panel.display_on)
    return {"state": name, "ms": pico.now - start, "clock_mhz": awake / 1e6, "asleep": asleep,
            "lit": lit if pico.panel.display_on else 0.0, "contrast": pico.panel.contrast,
            "display_on": pico.panel.display_on, "board_ma": board, "oled_ma": oled, "mw": milliwatts}


def saved_moves(pico):
    data = pico.flash_file("%s/game.json" % pico_emulator.STORAGE_ROOT)
    return len(json.loads(data)["game"]["moves"]) if data else -1


def walk(board):
    from othello.variant import START_PARALLEL
    from ui.settings import defaults

    settings = dict(defaults(8), level=8, start=START_PARALLEL)  # no book from there: a real search
    states = []
    with pico_emulator.EmulatedPico(board, battery=2.9) as pico:  # fresh 2xAA cells, no USB cable
        pico.write_files({"/lib/ui/settings.py": quick_settings(),
                          "/%s/settings.json" % pico_emulator.STORAGE_ROOT: json.dumps(settings).encode()})
        pico.power_on()
        if not pico.run_until(lambda p: "Traceback" in p.console or p.buttons_read_ms is not None, 15000, 200):
            raise SystemExit("power_bench: the firmware did not start:\n" + pico.console[-2000:])
        pico.run_for(3000)  # the title gives way to the main menu
        states.append(measure(pico, "idle menu"))
        for name in ("a", "down", "down", "a"):  # Play computer, Start
            pico.tap(name, 100, 400)
        pico.run_for(500)
        pico.tap("a", 100, 50)  # the player's move: the computer thinks (level 8, 2.5 s)
        states.append(measure(pico, "thinking", until=lambda p: saved_moves(p) >= 2))
        states.append(measure(pico, "playing", window_ms=1500))  # waiting for the player's move
        pico.run_until(lambda p: p.panel.contrast == 0, 10000, 100)
        states.append(measure(pico, "dimmed", window_ms=3000))
        pico.run_until(lambda p: not p.panel.display_on, 10000, 100)
        states.append(measure(pico, "blank", window_ms=3000))
        pico.run_until(lambda p: p.dormant, 10000, 100)
        states.append(measure(pico, "off", window_ms=3000))
        if "Traceback" in pico.console:
            raise SystemExit("power_bench: the firmware failed:\n" + pico.console[-3000:])
    return states


def battery_life(states):
    by_name = {state["state"]: state for state in states}
    play_mw = sum(by_name[name]["mw"] * share for name, share in PLAY_MIX)
    off_mw = by_name["off"]["mw"]
    lives = []
    for name, mah, volts in BATTERIES:
        energy_mwh = mah * volts
        lives.append({"battery": name, "play_hours": energy_mwh / play_mw, "standby_days": energy_mwh / off_mw / 24})
    return play_mw, off_mw, lives


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--board", default=BOARD, help="a board config's stem (default %s)" % BOARD)
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the tables")
    args = parser.parse_args(argv)
    missing = pico_emulator.available()
    if missing:
        print("power_bench: %s" % missing, file=sys.stderr)
        return 2
    states = walk(args.board)
    play_mw, off_mw, lives = battery_life(states)
    if args.json:
        print(json.dumps({"states": states, "play_mw": play_mw, "off_mw": off_mw, "batteries": lives}))
        return 0
    print("state        clock awake  asleep  lit px  contrast  Pico board (5 V)  OLED (3.3 V)  power")
    for state in states:
        clock = "stopped" if not state["clock_mhz"] else "%5.0f MHz" % state["clock_mhz"]
        print("%-11s  %11s  %5.1f%%  %5.1f%%  %8d  %12.2f mA  %9.2f mA  %5.1f mW" % (
            state["state"], clock, 100 * state["asleep"], 100 * state["lit"], state["contrast"],
            state["board_ma"], state["oled_ma"], state["mw"]))
    print("play (%s): %.1f mW; switched off: %.2f mW" % (
        ", ".join("%d%% %s" % (100 * share, name) for name, share in PLAY_MIX), play_mw, off_mw))
    for life in lives:
        print("%-15s  %6.0f hours of play  %5.0f days of standby after auto-off" % (
            life["battery"], life["play_hours"], life["standby_days"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
