"""The real firmware on an emulated Pico (tools/device/pico_emulator.py): MicroPython's own RP2040 build runs the
`make flash` build from its littlefs flash, drives the OLED over the emulated I2C and reads its buttons.

What only the real chip shows: armv6m viper code with 31-bit small ints, the rp2 port's filesystem with
flash writes through the boot ROM's routines, the real I2C traffic decoded by the simulator's panel.
The emulation runs at 0.15x-0.4x real time, so each test is a few emulated seconds. Without the
firmware or the boot ROM they skip, naming what to run; in CI (CI=true) they must run.
"""

import ast
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ui_harness import REFERENCE_IMAGES, check_reference

import hw
from device import cycle_profile
from device import pico_emulator
from runners import micropython_runner
from othello.game import Game
from simulator import SimulatedDevice
from player.solver import solve
from test_fastpath_endgame import make_cases as endgame_cases
from test_fastpath_endgame import on_bit_board
from simulator.reading import shows
from simulator.terminal import NOTE as NOTE_TEXT
from test_fastpath_search import device_cases, play_and_count_layout

pytestmark = pytest.mark.pico
MISSING = pico_emulator.available()
if MISSING and os.environ.get("CI") != "true":
    pytest.skip(MISSING, allow_module_level=True)

BOARD = "pico_breadboard_i2c"
TWINS = REFERENCE_IMAGES.parent / "mpy" / "fastpath_twins.py"
SEARCH_TWINS = REFERENCE_IMAGES.parent / "mpy" / "fastpath_search.py"
ENDGAME_TWINS = REFERENCE_IMAGES.parent / "mpy" / "fastpath_endgame.py"
SIM = REFERENCE_IMAGES.parent.parent / "tools" / "sim"
TOUR = REFERENCE_IMAGES.parent.parent / "docs" / "screens" / "tour.sim"
NOTE = NOTE_TEXT.encode()
# MicroPython's first six pools of interned names hold 1,260; the 1,261st makes a seventh of 7,712 bytes
# for the rest of the session. A whole level 8 game through the UI interns 52 names more than the game
# of test_a_move_against_the_computer_is_answered_and_the_game_survives_a_reset (1,258 against 1,206:
# tools/device/bench.py ui-heap's count, whose sampler interns no name of its own); with 53 allowed for
# (the count varies a little with the game's path), that game may intern 1,207 at most.
NAME_POOLS_END = 1260
WHOLE_GAME_MORE_NAMES = 53


def simulator_screen(flash=None, wait_ms=6000):
    """What the simulator (the firmware under CPython) shows wait_ms after power-up."""
    config = pico_emulator.firmware_build.Paths().configs / (BOARD + ".json")
    with SimulatedDevice(config, flash_dir=flash) as sim:
        sim.power_on()
        sim.run_for(wait_ms)
        return sim.screen_text()


@pytest.fixture(scope="module")
def main_menu():
    return simulator_screen()


def saved(pico, name):
    data = pico.flash_file("%s/%s" % (hw.STORAGE_ROOT, name))
    return None if data is None else json.loads(data)


def wait_for_screen(pico, rows, timeout_ms):
    return pico.run_until(lambda p: p.screen_text() == rows, timeout_ms, 100)


def side_panel(rows):
    """The game screen right of the board: scores, players, move number, last move, whose turn."""
    return [row[64:] for row in rows]


def navigate(pico, steps):
    for name, count in steps:
        for _ in range(count):
            pico.tap(name, 100, 400)  # a redraw takes the device tens of ms: taps spaced as a person would


@pytest.fixture
def pico():
    with pico_emulator.EmulatedPico(BOARD) as device:
        yield device


def test_power_up_through_main_py_shows_the_main_menu(pico, main_menu, tmp_path):
    pico.power_on()
    assert wait_for_screen(pico, main_menu, 8000), pico.console
    navigate(pico, [("down", 4)])  # as host_tests/test_ui_screens.py's main menu
    check_reference("main_menu", pico.screen_text(), tmp_path)
    assert "Traceback" not in pico.console


def test_a_move_against_the_computer_is_answered_and_the_game_survives_a_reset(pico, main_menu):
    pico.power_on()
    assert wait_for_screen(pico, main_menu, 8000), pico.console
    navigate(pico, [("a", 1), ("down", 1), ("left", 1), ("down", 1), ("a", 1)])  # Play computer, level 1, Start
    pico.run_for(300)
    data = saved(pico, "game.json")
    assert data["players"] == [None, 1]
    assert Game.from_dict(data["game"]).history == []
    pico.tap("a")  # the cursor starts on the first legal move: play it
    assert pico.run_until(lambda p: len(saved(p, "game.json")["game"]["moves"]) == 2, 20000, 500), pico.console
    pico.run_for(1000)  # the reply is saved, then drawn
    assert pico.notes(), "the buzzer's PWM never sounded for the moves"
    moves = saved(pico, "game.json")["game"]["moves"]
    replay = Game()
    for move in moves:
        replay.play(move)  # the device's reply is a legal move
    panel = side_panel(pico.screen_text())  # the board's cursor may start elsewhere after a resume

    pico.power_cycle(off_ms=500)  # what the flash kept, the boot ROM wrote
    assert pico.run_until(lambda p: any("#" in row for row in p.screen_text()), 5000, 100)
    pico.tap("a")  # leave the title
    pico.run_for(1500)  # the main menu loads
    navigate(pico, [("a", 1)])  # Continue
    assert pico.run_until(lambda p: side_panel(p.screen_text()) == panel, 5000, 100), "\n".join(
        a + "  " + b for a, b in zip(panel, side_panel(pico.screen_text())))
    assert saved(pico, "game.json")["game"]["moves"] == moves
    assert "Traceback" not in pico.console
    # The names the session interned stay for good: they must leave room for the rest of a whole game's.
    pico.enter_raw_repl(soft_reset=False)
    info = pico.run_script("import micropython\nmicropython.qstr_info()\n")
    names = int(info.split("n_qstr=")[1].split(",")[0])
    assert names <= NAME_POOLS_END - WHOLE_GAME_MORE_NAMES, (
        "%d names interned: a whole level 8 game would pass the sixth pool's end and cost 7,712 bytes "
        "(docs/MEMORY.md, Interned names): %s" % (names, info))


def test_a_corrupt_save_file_gives_the_short_message_and_defaults(main_menu, tmp_path):
    damage = {"/%s/game.json" % hw.STORAGE_ROOT: b'{"mode": "cpu", "players": [null',
              "/%s/settings.json" % hw.STORAGE_ROOT: b"\x00garbage"}
    flash = tmp_path / "flash"
    (flash / hw.STORAGE_ROOT).mkdir(parents=True)
    for path, data in damage.items():
        (flash / path.lstrip("/")).write_bytes(data)
    notice = simulator_screen(flash, 1500)  # the same flash in the simulator: the notice over the main menu
    assert notice != main_menu
    with pico_emulator.EmulatedPico(BOARD) as pico:
        pico.write_files(damage)
        pico.power_on()
        assert wait_for_screen(pico, notice, 8000), "the notice of the damaged files did not show:\n" + pico.console
        pico.tap("b")  # any key closes the notice: the main menu of a fresh start, no Continue
        assert wait_for_screen(pico, main_menu, 1000)
        files = pico.flash_files()
        assert "Traceback" not in pico.console and pico.state == "running"
    assert files["%s/game.json" % hw.STORAGE_ROOT] == damage["/%s/game.json" % hw.STORAGE_ROOT]  # kept for a look


def on_the_pico(module, code):
    """What `code` prints on an emulated Pico with `module` (one of host_tests/mpy/) in its /lib."""
    files = pico_emulator.build_files(BOARD, main=False, extra={"/lib/" + module.name: module.read_bytes()})
    with pico_emulator.EmulatedPico(BOARD, files=files) as pico:
        pico.enter_raw_repl()
        return pico.run_script(code)


def on_unix(module, code):
    """What `code` prints on the unix port with host_tests/mpy/ on its path."""
    return micropython_runner.run_unix(code, path=(module.parent,))


def answer_lines(output, word="answers"):
    """{case: its answers} from the lines a twin check prints, '<word> <case> <answers>'."""
    return dict(line.split(" ", 2)[1:] for line in output.splitlines() if line.startswith(word + " "))


def line_of(output, word):
    return next(line[len(word) + 1:] for line in output.splitlines() if line.startswith(word + " "))


@pytest.mark.slow
def test_the_viper_kernel_equals_the_plain_kernel_on_the_rp2040():
    # 250 positions on five board shapes; the unix port makes them and answers with the plain kernel
    plain = on_unix(TWINS, """
import fastpath_twins
cases = []
for blocked, seed in ((0, 1), (1 << 31, 2), (1 << 63, 3), (1 << 32, 4), (fastpath_twins.SIX_HOLE, 7)):
    cases += fastpath_twins.shape_cases(blocked, 50, seed)
print("cases", cases)
fastpath_twins.print_answers(cases, False)
""")
    assert "answered 250" in plain, plain[-2000:]
    cases = ast.literal_eval(line_of(plain, "cases"))
    viper = on_the_pico(TWINS, "import fastpath_twins\nfastpath_twins.check_methods()\n"
                               "fastpath_twins.print_answers(%r, True)\n" % (cases,))
    assert "answered 250" in viper, viper[-2000:]
    names = line_of(plain, "names").split()
    expected, found = answer_lines(plain), answer_lines(viper)
    for case, answers in expected.items():
        differ = [name for name, a, b in zip(names, answers.split(), found.get(case, "").split()) if a != b]
        assert found.get(case) == answers, "case %s, (blocked, player, opponent, ply) %r: the viper kernel's %s" % (
            case, cases[int(case)], ", ".join(differ) or "number of answers")


@pytest.mark.slow
def test_the_viper_search_equals_the_plain_search_on_the_rp2040():
    # test_fastpath_search's device cases (a node budget ending an iteration, the weaker levels' margin,
    # Anti-Othello with a black hole, discs on squares 31/32/63, 6x6 and 6x6 Anti-Othello with a black hole
    # inside the 8x8 board), searched by the plain search on the unix port and the viper one on the Pico.
    cases = device_cases()
    code = "import fastpath_search\nfastpath_search.print_results(%r, %r)\n"
    plain = on_unix(SEARCH_TWINS, code % (cases, False))
    viper = on_the_pico(SEARCH_TWINS, code % (cases, True))
    assert "searched %d" % len(cases) in plain, plain[-2000:]
    assert "searched %d" % len(cases) in viper, viper[-2000:]
    expected, found = answer_lines(plain, "result"), answer_lines(viper, "result")
    for case, result in expected.items():
        assert found.get(case) == result, "case %s %r: viper %s, plain %s" % (
            case, cases[int(case)], found.get(case), result)


@pytest.mark.slow
def test_the_midgame_machine_code_plays_counts_and_sums_as_the_board_does_on_the_rp2040():
    # player/search_thumb.py's play_and_count, which the viper search calls on the Pico for every leaf and
    # every move it orders: every legal move of the positions of random games, against the board's flips and
    # legal moves and the evaluator's pattern sum (test_fastpath_search checks its viper twin so on the unix
    # port; the search twin test above checks it inside the search).
    output = on_the_pico(SEARCH_TWINS, "import fastpath_search\nfastpath_search.check_play_and_count(%r, %r, 3, 1)\n"
                         % ("player.search_thumb", play_and_count_layout()))
    assert "differs" not in output, output[-3000:]
    assert int(line_of(output, "play_and_count checked")) > 3 * 200, output[-2000:]


@pytest.mark.slow
def test_the_viper_solver_equals_the_plain_solver_on_the_rp2040():
    # Every other case of test_fastpath_endgame (Othello and Anti-Othello, with and without a black hole,
    # 4 to 12 empties, passes; 8x8 and 6x6), solved here by the plain solver; the device solves each with solve and
    # with the player's solve_exact and checks each best move by solving the position after it.
    cases = [on_bit_board(b) + (anti, solve(b)[0]) for b, anti in endgame_cases()[::2]]
    output = on_the_pico(ENDGAME_TWINS, "import fastpath_endgame\nfastpath_endgame.check_scores(%r)\n" % (cases,))
    assert "solver twins ok %d" % len(cases) in output, output


@pytest.mark.slow(minutes=2)
def test_the_machine_code_solver_equals_the_viper_solver_on_the_rp2040():
    # The other half of test_fastpath_endgame's cases (passes, black holes, Anti-Othello, 6x6 inside the
    # 8x8 board; 4 to 12 empties), each solved with five windows by the player's solver, whose last seven
    # empty squares and move order's play_and_count are machine code on the Pico (player/endgame_thumb.py)
    # and viper on the unix port: the same nodes prove the same move order and tree.
    cases = [on_bit_board(b) + (anti,) for b, anti in endgame_cases()[1::2]]
    code = "import fastpath_endgame\nfastpath_endgame.small_solver_answers(%r, %r)\n"
    viper = on_unix(ENDGAME_TWINS, code % (cases, False))
    machine_code = on_the_pico(ENDGAME_TWINS, code % (cases, True))
    assert "small solver answers %d" % len(cases) in viper, viper
    assert "small solver answers %d" % len(cases) in machine_code, machine_code
    expected, found = answer_lines(viper), answer_lines(machine_code)
    for case, answers in expected.items():
        assert found.get(case) == answers, "case %s: machine code %s, viper %s" % (case, found.get(case), answers)


def test_the_profile_counts_the_cycles_of_the_devices_time_where_they_are_spent():
    # tools/device/bench.py profile's counts: every cycle of a viper loop is counted at an address of its machine
    # code, and all of them add up to the emulated time the loop took (125 cycles a microsecond).
    with pico_emulator.EmulatedPico(BOARD, main=False) as pico:
        pico.enter_raw_repl()
        address = int(pico.run_script("""
import machine, micropython, time
@micropython.viper
def spin(n: int) -> int:
    total = 0
    while n:
        total += n & 7
        n -= 1
    return total
print(machine.mem32[id(spin) + 12])
"""))
        pico.profile(True)
        took_us = int(pico.run_script("t = time.ticks_us()\nspin(20000)\nprint(time.ticks_diff(time.ticks_us(), t))\n"))
        pico.profile(False)
        counts = pico.profile_counts()
    places = cycle_profile.attribute(counts, {"spin": address})
    assert set(places) <= {"spin", "MicroPython's code (flash)", "other"}, places
    assert 0.97 < places["spin"] / (took_us * 125) <= 1.0, (places, took_us)
    assert sum(places.values()) > places["spin"]  # the script's own bytecode runs in flash


def largest_block(heap_map):
    """The biggest allocated block, in bytes, of micropython.mem_info(1)'s heap map: a block is its head
    (any letter) and the tail that follows it ('='), 16 bytes a cell on the Pico."""
    cells = []
    for line in heap_map.splitlines():
        address, _, row = line.partition(": ")
        if len(address) == 8 and all(c in "0123456789abcdef" for c in address):
            cells.append(row.rstrip())
        elif line.strip().endswith("lines all free)"):
            cells.append("." * 64 * int(line.strip()[1:].split()[0]))
    heap = "".join(cells)
    largest = run = 0
    for cell in heap:
        run = run + 1 if cell == "=" and run else (1 if cell not in ".=" else 0)
        largest = max(largest, run)
    return 16 * largest


def test_the_solvers_code_fits_where_either_midgame_search_was():
    """Before a solve the engine lets the midgame search's code go and imports the solver's
    (player.engine). In a heap a game has cut up, the block that code leaves may be the only one as big:
    every block of the solver's machine code must be no bigger than the midgame search's, 8x8 or 6x6
    (its biggest, _search, was 24,008 bytes and found no room in the first solve of
    tools/device/bench.py endgame). Each module imported alone on a fresh interpreter, its blocks read from
    the heap's map."""
    sizes = {}
    for module in ("player.search_viper", "player.search_viper6", "player.endgame_viper"):
        with pico_emulator.EmulatedPico(BOARD, main=False) as pico:
            pico.enter_raw_repl()
            sizes[module] = largest_block(pico.run_script(
                "import gc, micropython\nimport %s\ngc.collect()\nmicropython.mem_info(1)\n" % module))
    # the map was read: each holds a module's machine code (the solver's biggest, _order_moves or _search,
    # since its last seven empty squares are machine code from asm_thumb, player.endgame_thumb)
    assert min(sizes["player.search_viper"], sizes["player.search_viper6"]) > 10000, sizes
    assert sizes["player.endgame_viper"] > 4000, sizes
    assert sizes["player.endgame_viper"] <= min(sizes["player.search_viper"], sizes["player.search_viper6"]), sizes


HELD_CPU_SCRIPT = """
import micropython, time
from machine import Pin
from hw.buttons import Buttons

@micropython.viper
def hold_the_cpu(pin, ms: int) -> int:
    # native code from the first press on for `ms`: a soft interrupt's handler waits for bytecode
    ticks = time.ticks_ms
    start = int(ticks())
    while int(pin.value()):
        if int(ticks()) - start > 5000:
            return 0
    start = int(ticks())
    while int(ticks()) - start < ms:
        pass
    return 1

pin = Pin(%d, Pin.IN, Pin.PULL_UP)
time.sleep_ms(20)
buttons = Buttons([("a", pin, 0)], time, irq_trigger=Pin.IRQ_FALLING | Pin.IRQ_RISING)
print("held", hold_the_cpu(pin, 600), "edges", buttons._edges[0])
events = []
for _ in range(8):
    time.sleep_ms(30)
    events += buttons.poll(time.ticks_ms())
print("events", events)
"""


def test_two_taps_while_native_code_holds_the_cpu_are_two_taps():
    # The device's viper search, a redraw or a flash write runs native code for tens to hundreds of ms.
    # The buttons' hard edge interrupt counts each edge when it comes; a soft one ran its handlers after
    # the native code, all at once, and the tap's second edge looked like bounce: one tap of the two.
    with pico_emulator.EmulatedPico(BOARD, main=False) as pico:
        pico.enter_raw_repl()
        pico.start_script(HELD_CPU_SCRIPT % pico.hardware.buttons["a"].pin)
        pico.run_for(1000)
        for _ in range(2):
            pico.press("a")
            pico.run_for(60)
            pico.release("a")
            pico.run_for(80)
        output = pico.script_output(10000)
    assert "held 1 edges 4" in output, output
    assert "events [('a', 'press'), ('a', 'release'), ('a', 'press'), ('a', 'release')]" in output, output


def test_machine_reset_restarts_the_chip_and_the_flash_keeps_what_was_written():
    with pico_emulator.EmulatedPico(BOARD, main=False) as pico:
        pico.enter_raw_repl()
        pico.run_script("with open('/kept.txt', 'w') as f:\n    f.write('written before the reset')\n")
        pico.write_usb(b"import machine; machine.reset()\x04")  # no answer comes: the chip restarts
        assert pico.run_until(lambda p: p.resets == 1, 3000)
        pico.enter_raw_repl()
        assert pico.run_script("print(open('/kept.txt').read())") == "written before the reset\n"


@pytest.mark.slow
def test_sim_pico_headless_takes_the_tours_screenshots_pixel_for_pixel(tmp_path):
    # The tour's start (power-up, the title, the menus, a game against the computer to its first move):
    # the same PNG files as the simulator wrote into docs/screens (test_sim_screens checks those). The
    # whole tour takes the emulated Pico about half an hour; its result is in docs/SIMULATOR.md.
    lines = TOUR.read_text().splitlines(keepends=True)
    part = tmp_path / "tour_start.sim"
    part.write_text("".join(lines[: lines.index("shot game_start.png\n") + 1]))
    done = subprocess.run([sys.executable, str(SIM), "--pico", "--headless", str(part), "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr
    shots = [Path(line).name for line in done.stdout.split()]
    assert shots == ["title.png", "main_menu.png", "play_computer.png", "game_start.png"]
    differ = [name for name in shots if (tmp_path / name).read_bytes() != (TOUR.parent / name).read_bytes()]
    assert not differ, differ


def _typed_at_once(press):
    """The keys of a player typing before the firmware is ready: A (leaves the title), down, A (Two
    players), A (plays the first legal move: the disc's click on the buzzer). press(key name) types one."""
    for key in ("a", "down", "a", "a"):
        press(key)


def test_window_on_the_emulated_pico_takes_keys_typed_during_start_up(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame = pytest.importorskip("pygame")
    from simulator.window import run_window

    sim = pico_emulator.EmulatedPico(BOARD, realtime=True)
    keys = {"a": pygame.K_RETURN, "down": pygame.K_DOWN}
    heard = []
    seen = []  # the panel's version when the window was last found done

    def press(name):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=keys[name]))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=keys[name]))

    def on_frame(frame):
        if frame == 0:
            _typed_at_once(press)
        heard[:] = [freq for _, freq in sim.buzzer_log if freq]
        done = bool(heard) and shows(sim.screen(), "P2 to move")
        drawn = seen == [sim.panel.version]  # the last frame drew what the panel shows
        seen[:] = [sim.panel.version] if done else []
        return done and drawn

    surface = run_window(sim, scale=1, fps=30, on_frame=on_frame, max_frames=30 * 1200)
    assert shows(sim.screen(), "P2 to move"), "\n".join(sim.screen_text())
    assert 1568 in heard  # the disc's click (ui/sounds.py _PLACE), from the chip's PWM
    assert pygame.image.tostring(surface, "RGB") == sim.image(1).tobytes()


def test_terminal_on_the_emulated_pico_takes_keys_typed_during_start_up(tmp_path):
    from test_sim_processes import Terminal

    flash = tmp_path / "flash"
    terminal = Terminal(["--pico", "--flash", str(flash)],
                        env=dict(os.environ, POCKET_OTHELLO_SHARED=str(pico_emulator.SHARED_PICO.parent)))
    try:
        while b"\x1b[?1049h" not in terminal.screen and terminal.process.poll() is None:
            terminal.read(0.1)  # the front end has the terminal (keys typed before it are the shell's)
        typed = []  # one write: keys typed ahead come to the front end in one read, each a tap (however busy the machine)
        _typed_at_once(lambda name: typed.append({"a": b"z", "down": b"\x1b[B"}[name]))
        terminal.type(b"".join(typed))
        deadline = time.monotonic() + 300  # 6 s on an idle machine

        def moved():  # the disc's click on the buzzer, and the game saved: the screen after the save says whose turn
            panel = terminal.panel()
            return NOTE in terminal.screen and panel is not None and shows(panel, "P2 to move")

        while not moved() and time.monotonic() < deadline:
            terminal.read(0.5)
        terminal.type(b"q")
        status, stderr = terminal.finish(120)
    finally:
        terminal.close()
    assert status == 0, stderr
    assert NOTE in terminal.screen
    assert shows(terminal.panel(), "P2 to move")
    kept = pico_emulator.files_of_image((flash / "pico_flash.bin").read_bytes()[pico_emulator.FS_OFFSET:])
    game = json.loads(kept["/%s/game.json" % hw.STORAGE_ROOT])
    assert game["players"] == [None, None] and len(game["game"]["moves"]) == 1  # two players, one move
