"""The UI under MicroPython (unix port and the 32-bit WASI build): a whole game, and the very same pixels as CPython."""

import io
from contextlib import redirect_stdout

from runners import micropython_runner
import ui_harness  # noqa: F401  (makes the framebuf port importable for the CPython run)

WHOLE_GAME = """
from ui_fakes import Driver


def main():
    d = Driver()
    d.play_level_one_game()
    game = d.app.session.game
    print("over", game.result().black + game.result().white, d.screen.result_lines()[-1])
    print("saved", " ".join(sorted(d.device.storage.files)))


main()
"""

# Screens reached by keys alone (no computer moves), each printed as the hex of the shown frame.
SCREENS = """
from ui_fakes import Driver


def show(d, name):
    print(name, d.device.display.shown.hex())


def main():
    d = Driver()
    d.run(2)
    show(d, "title")
    d.press("a")
    show(d, "menu")
    d.menu_to("Settings")
    d.press("down", 3)
    show(d, "settings")
    d.press("b")
    d.menu_to("Two players")
    for name in ("left", "up", "a", "down", "a", "right", "right", "a"):
        d.press(name)
    show(d, "game")
    d.press("b")
    show(d, "game menu")
    d.menu_to("Game record")
    d.press("right", 2)
    show(d, "record")
    d.press("b")
    d.press("b")
    d.app.settings["size"] = 10
    d.menu_to("New game")
    d.press("down")
    show(d, "10x10")


main()
"""


# Which screens' code is in the heap: the menus' or the game screen's, never both once a screen is up.
MODULES = """
import sys
from ui_fakes import Driver


def show(d, where):
    print(where, type(d.screen).__name__, "ui.screens" in sys.modules, "ui.play" in sys.modules)


def main():
    d = Driver()
    d.press("a")
    show(d, "menu")
    d.menu_to("Two players")
    show(d, "game")
    d.press("b")
    d.menu_to("Main menu")
    show(d, "menu")
    d.menu_to("Continue")
    show(d, "game")


main()
"""


# What the heap gives back when the App lets the menus' code go for the game screen's (App.arrive).
MENUS_LET_GO = """
import gc
import ui.app
from ui_fakes import Driver

freed = {}
release = ui.app.release_module


def measured_release(name):
    gc.collect()
    before = gc.mem_alloc()
    release(name)
    gc.collect()
    freed[name] = before - gc.mem_alloc()


ui.app.release_module = measured_release
d = Driver()
d.press("a")
d.menu_to("Two players")
print(type(d.screen).__name__, freed["ui.screens"])
"""

# A module let go while something still points at it (as a stale word on the C stack can).
RELEASED_WHILE_POINTED_AT = """
import gc
import sys
from othello.compat import release_module
import ui.screens

kept = sys.modules["ui.screens"]
gc.collect()
before = gc.mem_alloc()
release_module("ui.screens")
gc.collect()
print(len(kept.__dict__), before - gc.mem_alloc() > 1500, "ui.screens" in sys.modules)
"""

# The search runs with collections only when the heap is full, the rest of the time every COLLECT_EVERY bytes.
COLLECTIONS = """
import gc
from othello.compat import COLLECT_EVERY, collect_every
from ui_fakes import Driver

collect_every(COLLECT_EVERY)
d = Driver()
d.press("a")
d.menu_to("Two players")
during = []
d.screen.search(lambda stop, now, mhz: during.append(gc.threshold()), "Thinking")
print(during, COLLECT_EVERY - 32 <= gc.threshold() <= COLLECT_EVERY)
"""

RANDOM_PRESSES = """
import random
from ui import keys
from ui_fakes import Driver, FakeDevice


def main():
    random.seed(2024)
    device = FakeDevice()
    d = Driver(device)
    names = device.buttons.names
    kinds = (keys.PRESS, keys.PRESS, keys.LONG, keys.REPEAT, keys.RELEASE)
    for _ in range(20000):
        name = names[random.getrandbits(8) % len(names)]
        if random.getrandbits(8) < 200:
            d.tap(name)
        else:  # stray events: a long press, a repeat, a release without its press
            device.buttons.queue.append((name, kinds[random.getrandbits(8) % len(kinds)]))
        d.run(1 + random.getrandbits(1) * 2)
    print("survived", type(d.screen).__name__)


main()
"""


def test_twenty_thousand_random_presses_under_micropython():
    out = micropython_runner.run("unix", RANDOM_PRESSES, path=("host_tests",), heap="1M")
    assert out.startswith("survived")


def test_a_whole_game_against_the_computer_under_micropython(micropython):
    out = micropython(WHOLE_GAME, path=("host_tests",), heap="512K")
    lines = out.split("\n")
    assert lines[0] in ("over 64 A: play again",)
    assert lines[1] == "saved game.json records.json"


def test_the_menus_and_the_game_screen_take_turns_in_the_heap(micropython):
    out = micropython(MODULES, path=("host_tests",), heap="512K")
    assert out.split("\n")[:4] == [
        "menu Menu True False",
        "game GameScreen False True",
        "menu Menu True False",
        "game GameScreen False True",
    ]


def test_the_menus_code_has_left_the_heap_when_the_game_screens_comes_in(micropython):
    """The menus' module is freed before the game screen's loads (about 9 KB on the unix port, 6 KB on the
    32-bit build), not only dropped from sys.modules: opened from the menu's own handler, it stayed in the
    heap through the import, held by the running frames' value stacks, which the collector reads whole."""
    screen, freed = micropython(MENUS_LET_GO, path=("host_tests",), heap="512K").split()
    assert screen == "GameScreen" and int(freed) > 4000, freed


def test_a_module_let_go_frees_its_code_even_while_something_points_at_it(micropython):
    out = micropython(RELEASED_WHILE_POINTED_AT, path=("host_tests",), heap="512K")
    assert out.split() == ["0", "True", "False"], out


def test_the_computer_thinks_without_collections_on_the_way(micropython):
    """main.py has MicroPython collect every COLLECT_EVERY bytes allocated; the game screen pauses that while
    the player searches (compat.collect_every) and brings it back after."""
    out = micropython(COLLECTIONS, path=("host_tests",), heap="512K")
    assert out.split() == ["[-1]", "True"], out


def test_micropython_draws_the_same_pixels_as_cpython(micropython):
    on_micropython = micropython(SCREENS, path=("host_tests",), heap="512K")
    captured = io.StringIO()
    with redirect_stdout(captured):
        exec(compile(SCREENS, "screens", "exec"), {"__name__": "screens"})
    frames_mp = dict(line.split(" ", 1) for line in on_micropython.strip().split("\n") if " " in line)
    frames_py = dict(line.split(" ", 1) for line in captured.getvalue().strip().split("\n"))
    assert sorted(frames_py) == sorted(frames_mp)
    for name in frames_py:
        assert frames_mp[name] == frames_py[name], name
    assert len(set(frames_py.values())) == len(frames_py)  # every step showed something new
