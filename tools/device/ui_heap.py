"""The lowest free heap of a whole top-level game through the UI, on the emulated Pico: `bench.py ui-heap`.

    .venv/bin/python tools/device/bench.py ui-heap [--level 8] [--games 2] [--period-ms 100] [--size 6] [--anti]

Powers up the `make flash` build through main.py (device/pico_emulator.py) and starts a Computer demo
with --level on both sides from the main menu with the buttons (on a --size board, Anti-Othello with
--anti: the settings file on the flash says so before power-up): the game screen, the player and the
saves as in a game against the computer, with a search on every move. A machine.Timer, set up before
main.py's own code runs, collects garbage every --period-ms of device time and keeps the lowest
gc.mem_free() it sees in each second of device time; its callback runs between bytecodes, so it
samples a search at its root (the viper loop below allocates nothing). With --games above 1, the
result screen's A starts the next game of the session (Play again) when a game ends.

Prints each new slowest collection (us) as the device reports it; for each game `game <n> over
<plies> plies, <result>, lowest_free <bytes> at <ms>` (its time from the key that started it to the
next game's); then for the whole session `lowest_free <bytes> at <ms> of device time`,
`slowest_collect_us <us>` and, from micropython.qstr_info() after the games, `interned_names <names>
in <pools> pools of <bytes> bytes`.
"""

import json
import sys

from cli.engine import describe_result
from device import pico_emulator
from othello.game import Game
from player.levels import LEVELS
from ui import settings
from ui.store import SETTINGS

# The sampler is compiled from source on the device, and every name in it is interned for good, where the
# firmware's own names fill MicroPython's pools (docs/MEMORY.md, Interned names): it uses only names the
# firmware interns in a game anyway, and its printed labels are too long to be interned, so that the pools
# end where they end without it.
SAMPLER = """import gc
import machine
import time
marks = [1 << 30, 0, 0, 0]  # this second's lowest free heap, when, the second, the slowest collection; then the timer


def service(source):
    since = time.ticks_us()
    gc.collect()
    delta = time.ticks_diff(time.ticks_us(), since)
    left = gc.mem_free()
    now = time.ticks_ms()
    if delta > marks[3]:
        marks[3] = delta
        print("heap_slowest_collect_us", delta, now)
    if now // 1000 != marks[2]:
        if marks[0] < 1 << 30:
            print("heap_lowest_free", marks[0], marks[1])
        marks[0] = 1 << 30
        marks[2] = now // 1000
    if left < marks[0]:
        marks[0] = left
        marks[1] = now


marks.append(machine.Timer(period=%d, mode=machine.Timer.PERIODIC, callback=service))
"""


def saved_game(pico):
    data = pico.flash_file("data/game.json")
    return None if data is None else json.loads(data)


def play_out(pico, number):
    """Run the demo until the saved game is over: its saved data and the Game."""
    for _ in range(60):  # 61 plies at most 2.5 s each and the demo's pace of 0.8 s
        pico.run_for(5000)
        data = saved_game(pico)
        game = Game.from_dict(data["game"])
        print("game", number, "ply", len(data["game"]["moves"]), "at", pico.now, "ms", file=sys.stderr)
        if "Traceback" in pico.console:
            raise SystemExit(pico.console)
        if game.is_over():
            return data, game
    raise SystemExit("game %d did not end in 300 s of device time:\n%s" % (number, pico.console))


def play_again(pico, finished):
    """Press A on the result screen until the next game is saved: the first press may only wake the
    dimmed screen (the demo presses no key for a minute) or show the result again."""
    for _ in range(3):
        pico.tap("a", 100, 400)
        pico.run_for(500)
        data = saved_game(pico)
        if data["game"] != finished["game"]:
            return
    raise SystemExit("A on the result screen did not start the next game:\n" + pico.console)


def lowest(lows, start, end):
    """The lowest (free, at ms) of the second-by-second lows from start to end (ms of device time)."""
    return min(low for low in lows if start <= low[1] < end)


def add_arguments(parser):
    parser.add_argument("--level", type=int, default=8, choices=range(1, 9), metavar="1-8")
    parser.add_argument("--games", type=int, default=1, choices=range(1, 10), metavar="1-9",
                        help="games in one session, each after the last one's Play again")
    parser.add_argument("--period-ms", type=int, default=100, help="device ms between heap samples")
    parser.add_argument("--size", type=int, default=8, choices=settings.CHOICES["size"], help="the board")
    parser.add_argument("--anti", action="store_true", help="Anti-Othello")


def run(args, parser):
    if args.period_ms < 1:
        parser.error("--period-ms must be at least 1")
    files = pico_emulator.build_files(args.board)
    files["/main.py"] = (SAMPLER % args.period_ms).encode() + files["/main.py"]
    chosen = dict(settings.defaults(len(LEVELS)), size=args.size, anti=args.anti)
    files["/%s/%s" % (pico_emulator.STORAGE_ROOT, SETTINGS)] = json.dumps(chosen).encode()
    with pico_emulator.EmulatedPico(args.board, files=files) as pico:
        pico.power_on()
        pico.run_for(3000)  # the main menu is ready 1.5 s after power-up
        starts = [pico.now]
        # Computer demo (the fourth item without a saved game); its levels start at 1 and 3, cycling 1-8.
        steps = (("down", 3), ("a", 1), ("left", (1 - args.level) % 8), ("down", 1), ("left", (3 - args.level) % 8),
                 ("down", 1), ("a", 1))
        for name, count in steps:
            for _ in range(count):
                pico.tap(name, 100, 400)
        pico.run_for(500)
        data = saved_game(pico)
        if data is None or data["players"] != [args.level, args.level]:
            raise SystemExit("the demo did not start as planned: %r\n%s" % (data, pico.console))
        results = []
        for number in range(1, args.games + 1):
            if number > 1:
                starts.append(pico.now)
                play_again(pico, data)
            data, game = play_out(pico, number)
            results.append((len(data["game"]["moves"]), describe_result(game.result())))
        pico.run_for(2000)  # the result screen
        # The names the session interned (they stay for good): past a pool's end the interpreter takes a
        # pool twice the last one's size (docs/MEMORY.md).
        pico.enter_raw_repl(soft_reset=False)
        names = pico.run_script("import micropython\nmicropython.qstr_info()\n").split()
        lines = [line for line in pico.console.splitlines() if line.startswith("heap_")]
        slowest = [line for line in lines if line.startswith("heap_slowest")]
        print("\n".join(slowest))
        lows = [tuple(int(word) for word in line.split()[1:3]) for line in lines if line.startswith("heap_lowest_free ")]
        ends = starts[1:] + [pico.now]
        for number, (plies, result) in enumerate(results, 1):
            free, at = lowest(lows, starts[number - 1], ends[number - 1])
            print("game %d over %d plies, %s, lowest_free %d at %d" % (number, plies, result, free, at))
        free, at = min(lows)
        print("lowest_free", free, "at", at, "ms of device time")
        print("slowest_collect_us", slowest[-1].split()[1])
        counts = dict(word.rstrip(",").split("=") for word in names if "=" in word)
        print("interned_names", counts["n_qstr"], "in", counts["n_pool"], "pools of", counts["n_total_bytes"], "bytes")
