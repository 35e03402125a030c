"""The UI under MicroPython (unix port and the 32-bit WASI build): a whole game, and the very same pixels as CPython."""

import io
from contextlib import redirect_stdout

import micropython_runner
import ui_harness  # noqa: F401  (makes the framebuf port importable for the CPython run)

WHOLE_GAME = """
from ui_fakes import Driver
from ui.play import PASSING


def main():
    d = Driver()
    d.app.settings["level"] = 1
    d.press("a")
    d.menu_to("Play computer")
    d.menu_to("Start")
    game = d.app.session.game
    while not game.is_over():
        if d.screen.state == PASSING:
            d.press("a")
            continue
        d.play(game.board.legal_squares()[0])
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
