"""The handheld app driven by button scripts on the simulated board: games, menus, saving, idle care, thinking, crashes.

ui_harness.BoardDriver runs the App in this process on tools/simulator's
LocalBoard through the real hardware layer. The computer is the real player
(firmware/player) at level 1, or StandInPlayer where a test needs known timing.
"""

import json
import random

import pytest
from test_ui_session import game_with_a_pass
from ui_harness import BOARD_CONFIGS, BoardDriver, StandInPlayer

import machine  # noqa: I001  (the simulator's, which ui_harness puts on the path)

import hw
from othello.board import PASS
from othello.variant import BLACK, WHITE
from ui import settings as choices
from ui import sounds
from ui.menu import Menu
from ui.play import OVER, PASSING, GameScreen
from ui.screens import ErrorScreen, TitleScreen
from ui.store import GAME, LOG, RECORDS, SETTINGS


def stand_in_driver(board="pico_breadboard_i2c", budget_ms=3000):
    player = StandInPlayer(budget_ms)
    return BoardDriver(board, player=player), player


def write_flash(tmp_path, name, data):
    """Put a file on the flash before the device starts."""
    folder = tmp_path / hw.STORAGE_ROOT
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


def just_heard(driver, tune):
    """Whether `tune` is the last thing the buzzer played (after letting it finish)."""
    driver.wait(sum(ms for _, ms in tune))
    tones = [freq for freq, _ in tune if freq]
    return driver.tones()[-len(tones):] == tones


def start(driver, mode_label, *menu_path):
    """From the title: open a main-menu entry, then follow `menu_path`."""
    driver.press("a")
    driver.menu_to(mode_label)
    for label in menu_path:
        driver.menu_to(label)


def configure(driver, **values):
    """Set settings directly, as the menus would (the menus have their own test)."""
    driver.app.settings.update(values)


def play_out(driver, choose=lambda legal: legal[0]):
    """Play the human's moves with the d-pad until the game ends; returns the number of human moves."""
    moves = driver.play_out(choose)
    assert isinstance(driver.screen, GameScreen), driver.screen
    driver.settle()
    return moves


# ----- power-up ------------------------------------------------------------------------------------


def test_title_gives_way_to_the_main_menu():
    driver = BoardDriver()
    assert isinstance(driver.screen, TitleScreen)
    driver.wait(3100)
    assert isinstance(driver.screen, Menu) and driver.screen.title == "Pocket Othello"
    labels = [item.label for item in driver.screen.items]
    assert "Continue" not in labels  # nothing saved yet
    assert labels[0] == "Play computer"


# ----- whole games ----------------------------------------------------------------------------------


def test_a_whole_game_against_the_computer():
    driver = BoardDriver()
    configure(driver, level=1, colour=WHITE)
    start(driver, "Play computer", "Start")
    session = driver.app.session
    assert session.level_of(BLACK) == 1
    driver.settle()  # the computer opens
    assert len(session.game.history) == 1
    play_out(driver, lambda legal: legal[-1])
    screen = driver.screen
    assert screen.state == OVER and screen.show_result
    result = session.game.result()
    assert screen.result_lines()[0].startswith("Draw" if result.winner is None else "You ")
    records = json.loads(driver.device.storage.read(RECORDS))
    assert len(records) == 1
    assert records[0]["t"] == session.game.transcript()
    assert records[0]["r"][1:3] == [result.black, result.white]
    assert records[0]["p"] == ["L1", "You"]
    driver.wait(1500)  # the end of the game's tune
    tones = driver.tones()
    assert sounds._PLACE[0][0] in tones and sounds._FLIP_TICK[0][0] in tones
    endings = [[freq for freq, _ in tune if freq] for tune in (sounds.WIN, sounds.LOSE, sounds.DRAW)]
    assert [ending for ending in endings if tones[-len(ending):] == ending]
    saved = json.loads(driver.device.storage.read(GAME))
    assert saved["recorded"] is True
    driver.press("a")  # play again
    assert driver.app.session.game.is_over() is False
    assert driver.screen.state != OVER


def test_a_two_player_game_with_a_pass():
    plies, first_pass = game_with_a_pass()
    driver = BoardDriver()
    start(driver, "Two players")
    game = driver.app.session.game
    passes = 0
    for square in plies:
        screen = driver.screen
        if square == PASS:
            assert screen.state == PASSING
            colour = game.turn
            assert screen.pass_lines() == [("Black", "White")[colour] + " has no move", "A: pass"]
            assert just_heard(driver, sounds.PASS)
            driver.press("a")
            assert game.turn == 1 - colour
            passes += 1
        else:
            assert screen.state != PASSING
            driver.play(square)
    assert passes >= 1
    assert game.is_over() and driver.screen.state == OVER
    assert [m.square for m in game.history] == plies


def test_illegal_moves_are_refused_with_the_reason():
    driver = BoardDriver()
    start(driver, "Two players")
    driver.cursor_to(0)  # a1
    driver.press("a")
    assert driver.app.session.game.history == []
    assert driver.app.notice == ["a1 flips nothing for", "Black"]
    assert just_heard(driver, sounds.ILLEGAL)
    driver.press("right")  # any key closes the notice
    assert driver.app.notice is None


def test_take_back_and_redo_from_the_game_menu():
    driver = BoardDriver()
    configure(driver, level=1)
    start(driver, "Play computer", "Start")
    game = driver.app.session.game
    for _ in range(3):
        driver.play(game.board.legal_squares()[0])
    assert len(game.history) == 6
    driver.press("b")
    driver.menu_to("Take back")
    assert isinstance(driver.screen, GameScreen)
    assert len(game.history) == 4 and game.turn == BLACK
    driver.press("b")
    driver.menu_to("Take back")
    assert len(game.history) == 2
    driver.press("b")
    driver.menu_to("Redo")
    assert len(game.history) == 4
    driver.press("b")
    driver.menu_to("Redo")
    assert len(game.history) == 6
    driver.press("b")
    assert "Redo" not in [item.label for item in driver.screen.items]
    driver.press("b")  # back to the game
    assert isinstance(driver.screen, GameScreen)
    saved = json.loads(driver.device.storage.read(GAME))
    assert len(saved["game"]["moves"]) == 6


def test_hint_puts_the_cursor_on_a_legal_move():
    driver = BoardDriver()
    start(driver, "Two players")
    driver.press("b")
    driver.menu_to("Hint")
    game = driver.app.session.game
    assert game.board.is_legal(driver.screen.cursor)
    assert driver.app.notice[0].startswith("Hint: ")
    assert game.history == []  # a hint plays nothing


# ----- matches --------------------------------------------------------------------------------------


def test_match_play_over_several_games(monkeypatch):
    import player

    prepared = []  # each game readies the player for its variant (after a game's end, the midgame search again)
    prepare = player.prepare
    monkeypatch.setattr(player, "prepare", lambda variant: prepared.append(variant) or prepare(variant))
    driver = BoardDriver()
    configure(driver, level=1, match="games", games=3, colour=BLACK)
    start(driver, "Play computer", "Start")
    session = driver.app.session
    assert len(prepared) == 2 and prepared[-1] is session.game.board.variant  # at power-up, and for this game
    colours = []
    for number in range(3):
        driver.settle()
        colours.append(WHITE if session.level_of(BLACK) is not None else BLACK)
        play_out(driver)
        screen = driver.screen
        assert screen.state == OVER
        lines = screen.result_lines()
        assert len(session.match.games) == number + 1
        assert lines[-3] == "You %d  CPU %d" % tuple(session.match.points)
        if number < 2:
            assert lines[-2] == "%d of 3 played" % (number + 1)
            assert lines[-1] == "A: next game"
            driver.press("a")
    assert colours == [BLACK, WHITE, BLACK]  # colours alternate
    winner = session.match.winner()
    expected = "Match drawn" if winner is None else ("You", "CPU")[winner] + " won the match"
    assert driver.screen.result_lines()[-2] == expected
    assert driver.screen.result_lines()[-1] == "A: new match"
    assert len(json.loads(driver.device.storage.read(RECORDS))) == 3
    driver.press("a")
    assert session.match.games == []
    assert len(prepared) == 5 and prepared[-1] is session.game.board.variant  # and two next games, a new match


# ----- saving ---------------------------------------------------------------------------------------------


def test_save_and_resume_across_a_power_cycle():
    driver = BoardDriver()
    configure(driver, level=1, clock=5)
    start(driver, "Play computer", "Start")
    game = driver.app.session.game
    for _ in range(4):
        driver.play(game.board.legal_squares()[-1])
    driver.wait(2000)  # two seconds on the clock
    position = game.board.position()
    left = game.clock.left_ms(BLACK, driver.device.ticks_ms())
    driver.press("b")  # the menu stops the clock and saves
    driver.menu_to("Settings")
    driver.press("right")  # sound off
    driver.press("b")

    again = driver.power_cycle()  # a new device and app on the same flash
    again.press("a")
    assert again.screen.items[0].label == "Continue"
    assert again.app.settings["sound"] is False
    again.press("a")
    assert isinstance(again.screen, GameScreen)
    restored = again.app.session.game
    assert restored.board.position() == position
    assert abs(restored.clock.left_ms(BLACK, again.device.ticks_ms()) - left) < 200
    again.play(restored.board.legal_squares()[0])
    assert len(restored.history) == 10


@pytest.mark.parametrize("damage", [b"", b"{", b'{"mode": "cpu"}', b"\x00\xff" * 40, b'{"mode": "cpu", "players": [null, 1]'])
def test_a_corrupt_save_file_means_a_fresh_start(tmp_path, damage):
    write_flash(tmp_path, GAME, damage)
    driver = BoardDriver(flash_dir=tmp_path)
    assert driver.app.session is None
    assert "game.json damaged" in " ".join(driver.app.notice)
    driver.press("a")
    assert "Continue" not in [item.label for item in driver.screen.items]
    driver.menu_to("Two players")
    assert json.loads(driver.device.storage.read(GAME))["mode"] == "two"


def test_corrupt_settings_mean_defaults_and_a_message(tmp_path):
    write_flash(tmp_path / "one", SETTINGS, b'{"sound": false, "contrast": 99}')
    driver = BoardDriver(flash_dir=tmp_path / "one")
    assert driver.app.settings["sound"] is False
    assert driver.app.settings["contrast"] == choices.defaults(8)["contrast"]
    assert driver.app.notice == ["settings repaired"]
    write_flash(tmp_path / "two", SETTINGS, b"\x00garbage")
    driver = BoardDriver(flash_dir=tmp_path / "two")
    assert driver.app.settings == choices.defaults(8)
    assert " ".join(driver.app.notice) == "settings.json damaged: defaults used"


@pytest.mark.parametrize("step", [1, 2, 3])
def test_a_power_cut_during_a_save_leaves_the_old_or_the_new_game(step):
    driver = BoardDriver()
    start(driver, "Two players")
    game = driver.app.session.game
    driver.play(game.board.legal_squares()[0])
    driver.board.cut_power_at_flash_step(step)
    with pytest.raises(machine.PowerCut):
        driver.play(game.board.legal_squares()[0])
    again = driver.power_cycle()
    assert again.app.notice is None  # nothing damaged
    assert len(again.app.session.game.history) in (1, 2)
    again.press("a")
    again.menu_to("Continue")
    again.play(again.app.session.game.board.legal_squares()[0])


# ----- other boards ------------------------------------------------------------------------------------------


def test_a_key_during_the_flip_shows_where_the_cursor_rests_before_it_places():
    driver = BoardDriver("cytron_maker_pi_pico_grove_oled")
    driver.press("right")
    driver.press("right")  # Two players
    driver.press("a")
    game = driver.app.session.game
    driver.tap("a")  # place (A acts when released), then at once, while the disc still flips, A again
    played = driver.screen.cursor
    assert driver.screen.flipping and len(game.history) == 1
    driver.tap("a")
    driver.settle()
    assert len(game.history) == 1, "the second A only moved the cursor off the square just played"
    assert driver.screen.cursor != played and game.board.is_legal(driver.screen.cursor)
    assert driver.app.notice is None


def test_a_three_button_board_plays_a_whole_game():
    driver = BoardDriver("cytron_maker_pi_pico_grove_oled")
    assert driver.app.keymap.scheme == "keys"
    driver.press("right")  # any key leaves the title
    assert isinstance(driver.screen, Menu)
    driver.press("right")  # next: Two players
    driver.press("a")  # select
    assert isinstance(driver.screen, GameScreen)
    game = driver.app.session.game
    while not game.is_over():
        screen = driver.screen
        if screen.state == PASSING:
            driver.press("a")
            continue
        assert game.board.is_legal(screen.cursor)  # the cursor waits on a legal move
        target = game.board.legal_squares()[-1]
        while driver.screen.cursor != target:
            driver.press("right")
        driver.press("a")
    assert driver.screen.state == OVER
    driver.hold("a")  # the menu
    assert isinstance(driver.screen, Menu) and driver.screen.title == "Game"
    driver.hold("a")
    assert isinstance(driver.screen, GameScreen)


def test_a_two_button_board(tmp_path):
    source = json.loads((BOARD_CONFIGS / "pico_breadboard_i2c.json").read_text())
    source["buttons"] = {name: source["buttons"][name] for name in ("a", "b")}
    driver = BoardDriver(source)
    driver.press("a")
    driver.press("a")  # next: Two players
    driver.press("b")  # select
    game = driver.app.session.game
    target = game.board.legal_squares()[1]
    driver.press("a")  # next legal move
    assert driver.screen.cursor == target
    driver.hold("a")  # previous
    assert driver.screen.cursor == game.board.legal_squares()[0]
    driver.press("b")
    assert len(game.history) == 1
    driver.hold("b")
    assert driver.screen.title == "Game"


@pytest.mark.parametrize("board", ["pico_breadboard_spi", "pico_breadboard_sh1106"])
def test_other_displays_show_the_same_picture(board):
    pictures = []
    for name in ("pico_breadboard_i2c", board):
        driver = BoardDriver(name)
        start(driver, "Two players")
        driver.play(driver.app.session.game.board.legal_squares()[0])
        pictures.append(driver.rows())
    assert pictures[0] == pictures[1]


def test_six_and_ten_board_games():
    for size in (6, 10):
        driver = BoardDriver()
        configure(driver, size=size, hole=True)
        start(driver, "Two players")
        game = driver.app.session.game
        assert game.board.size == size and game.variant.black_hole is not None
        for _ in range(4):
            driver.play(game.board.legal_squares()[0])
        assert len(game.history) == 4


# ----- the computer thinking ---------------------------------------------------------------------------


def test_a_key_hurries_the_computer_within_100_ms():
    driver, player = stand_in_driver()
    configure(driver, colour=WHITE)
    start(driver, "Play computer")
    player.at(60, lambda: driver.board.release("a"))  # the finger leaves Start as the computer begins
    player.at(1000, lambda: driver.board.press("a"))
    player.at(1080, lambda: driver.board.release("a"))
    driver.menu_to("Start")
    (what, began, ended), = player.calls
    assert 1000 <= ended - began < 1100
    assert len(driver.app.session.game.history) == 1  # the move was played at once


def test_b_cancels_the_computer_into_the_game_menu():
    driver, player = stand_in_driver()
    configure(driver, colour=WHITE)
    start(driver, "Play computer")
    player.at(60, lambda: driver.board.release("a"))
    player.at(500, lambda: driver.board.press("b"))
    driver.menu_to("Start")
    driver.board.release("b")
    driver.run(3)
    assert isinstance(driver.screen, Menu) and driver.screen.title == "Game"
    assert driver.app.session.game.history == []
    assert 500 <= player.calls[0][2] - player.calls[0][1] < 600
    driver.press("b")  # resume: the computer thinks again, to its budget this time
    assert len(driver.app.session.game.history) == 1


def test_the_thinking_indicator_moves():
    driver, player = stand_in_driver()
    configure(driver, colour=WHITE)
    start(driver, "Play computer")
    pictures = []
    for ms in range(200, 3000, 200):
        player.at(ms, lambda: pictures.append("".join(row[64:] for row in driver.rows()[54:])))
    driver.menu_to("Start")
    assert len(set(pictures)) >= 8


def test_the_clock_runs_out():
    driver, player = stand_in_driver(budget_ms=100)
    configure(driver, clock=5, off=0)  # 5 minutes without a key would switch it off once the game is over
    start(driver, "Play computer", "Start")
    driver.wait(5 * 60000 + 500)
    screen = driver.screen
    assert screen.state == OVER
    result = driver.app.session.game.result()
    assert result.reason == "time" and result.winner == WHITE
    assert screen.result_lines()[:2] == ["You lose %d-%d" % (result.black, result.white), "on time"]


def test_the_demo_plays_by_itself_and_a_key_pauses_it():
    driver, player = stand_in_driver(budget_ms=200)
    start(driver, "Computer demo")
    driver.press("down", 2)
    driver.tap("a")  # Start (the demo never settles)
    driver.wait(10000)
    game = driver.app.session.game
    assert len(game.history) > 5
    driver.tap("a")
    driver.wait(500)
    assert isinstance(driver.screen, Menu) and driver.screen.title == "Game"
    played = len(game.history)
    driver.wait(5000)
    assert len(game.history) == played


# ----- OLED care ------------------------------------------------------------------------------------------------


def test_idle_dims_then_blanks_and_the_waking_key_does_nothing():
    driver = BoardDriver()
    start(driver, "Two players")
    panel = driver.board.panel
    bright = panel.contrast
    driver.wait(58000)
    assert panel.contrast == bright
    driver.wait(3000)
    assert panel.contrast == 0 and panel.display_on
    driver.wait(180000)
    assert not panel.display_on
    cursor = driver.screen.cursor
    driver.press("right")  # wakes only
    assert panel.display_on and panel.contrast == bright
    assert driver.screen.cursor == cursor
    driver.press("right")
    assert driver.screen.cursor == cursor + 1


def test_idle_dimming_can_be_switched_off():
    driver = BoardDriver()
    configure(driver, idle=0, off=0)
    driver.wait(600000)
    assert driver.board.panel.display_on and driver.board.panel.contrast > 0


# ----- menus ------------------------------------------------------------------------------------------------------


def visit(driver, menu, seen):
    """Open every item of `menu` and step every value both ways; come back each time."""
    for index in range(len(menu.items)):
        item = menu.items[index]
        while driver.screen.index != index:
            driver.press("down")
        seen.append(menu.title + "/" + item.label)
        if item.change is not None:
            before = item.value()
            driver.press("right")
            driver.press("left")
            assert item.value() == before
        if item.run is None or item.label in ("Two players", "Link play", "Start", "Continue", "Yes, clear", "Set up board"):
            continue
        driver.press("a")
        if isinstance(driver.screen, Menu) and driver.screen is not menu:
            visit(driver, driver.screen, seen)
        if driver.screen is not menu:
            driver.press("b")
        assert driver.screen is menu


def test_every_menu_item_opens_and_every_value_steps():
    driver = BoardDriver()
    driver.press("a")
    seen = []
    visit(driver, driver.screen, seen)
    for expected in (
        "Play computer/Level",
        "Computer demo/White",
        "Variant/Black hole",
        "Match/Race to",
        "Settings/Dim after",
        "Pocket Othello/About",
        "Pocket Othello/Handicap",
        "Pocket Othello/Clock",
    ):
        assert expected in seen


def test_menu_values_change_the_settings_and_are_saved():
    driver = BoardDriver()
    driver.press("a")
    driver.menu_to("Handicap")  # OK steps it: Black +1
    driver.press("left", 2)  # White +4
    assert (driver.app.settings["handicap"], driver.app.settings["handicap_to"]) == (4, WHITE)
    driver.menu_to("Settings")
    driver.menu_to("Contrast")
    assert driver.board.panel.contrast == choices.CONTRAST_LEVELS[4]
    driver.press("b")
    saved = json.loads(driver.device.storage.read(SETTINGS))
    assert saved["contrast"] == 5 and saved["handicap"] == 4 and saved["handicap_to"] == WHITE


def test_the_main_menu_goes_back_to_the_title():
    driver = BoardDriver()
    driver.press("a")
    driver.press("b")
    assert isinstance(driver.screen, TitleScreen)


# ----- set-up and records ---------------------------------------------------------------------------------


def test_set_up_a_position_and_play_it():
    driver = BoardDriver()
    driver.press("a")
    driver.menu_to("Set up board")
    board = driver.screen.board
    driver.press("a")  # a1: Black
    driver.press("right")
    driver.press("a", 2)  # b1: White
    assert board.position().startswith("XO")
    driver.press("b")
    driver.menu_to("Clear board")
    driver.press("b")
    driver.menu_to("Two players")  # an empty board is refused
    assert "Neither side can move" in " ".join(driver.app.notice)
    driver.menu_to("Start position")
    driver.press("b")
    driver.menu_to("To move")  # White to move
    driver.menu_to("Two players")
    game = driver.app.session.game
    assert isinstance(driver.screen, GameScreen)
    assert game.turn == WHITE and game.start.endswith("O")
    driver.play(game.board.legal_squares()[0])
    assert game.turn == BLACK


def test_records_replay_move_by_move():
    driver = BoardDriver()
    start(driver, "Two players")
    game = driver.app.session.game
    game.play_transcript("f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5h6h4g4h3g3")
    driver.play(game.board.legal_squares()[0])
    driver.press("b")
    driver.menu_to("Game record")
    replay = driver.screen
    assert replay.game.transcript() == game.transcript(), "the record opens at the current move"
    driver.press("up")
    assert len(replay.game.history) == 0
    driver.press("right", 3)
    assert replay.game.transcript() == "f5d6c3"
    driver.press("down")
    assert replay.game.transcript() == game.transcript()
    driver.press("left")
    assert len(replay.game.history) == len(game.history) - 1
    driver.press("up")
    assert replay.game.history == []
    driver.press("b")
    assert isinstance(driver.screen, GameScreen)


def test_finished_games_appear_in_the_records():
    driver = BoardDriver()
    configure(driver, level=1)
    start(driver, "Play computer", "Start")
    play_out(driver)
    driver.press("b")
    driver.menu_to("Main menu")
    driver.menu_to("Records")
    records = driver.screen
    assert records.items[0].label == "1 You-L1"
    assert records.items[-1].label == "Clear records"
    driver.press("a")
    assert driver.screen.title == "Record 1"
    driver.menu_to("Replay")
    assert driver.screen.moves == len(driver.app.session.game.moves_played())
    driver.press("b")
    driver.menu_to("Clear records")
    driver.menu_to("Yes, clear")
    assert driver.device.storage.read(RECORDS) is None


# ----- errors -----------------------------------------------------------------------------------------------------


def test_an_unexpected_error_shows_the_crash_screen_logs_it_and_restarts():
    driver, player = stand_in_driver()

    def broken_think(*args, **kwargs):
        raise RuntimeError("search table overflow")

    player.think = broken_think
    driver.crash_expected = True
    configure(driver, colour=WHITE)
    start(driver, "Play computer", "Start")
    assert isinstance(driver.screen, ErrorScreen)
    assert driver.screen.text == "RuntimeError: search table overflow"
    log = driver.device.storage.read(LOG).decode()
    assert "search table overflow" in log and "broken_think" in log
    driver.press("right")  # only A restarts
    with pytest.raises(machine.DeviceReset):
        driver.press("a")


def test_an_error_in_a_full_heap_is_logged_without_its_traceback(monkeypatch):
    """With no room left for the traceback, the log still says what happened."""
    import traceback

    driver, player = stand_in_driver()

    def broken_think(*args, **kwargs):
        raise MemoryError("memory allocation failed, allocating 1024 bytes")

    def no_room(*args, **kwargs):
        raise MemoryError("memory allocation failed, allocating 1344 bytes")

    player.think = broken_think
    monkeypatch.setattr(traceback, "print_exception", no_room)  # what ui.app.traceback_text prints with on CPython
    driver.crash_expected = True
    configure(driver, colour=WHITE)
    start(driver, "Play computer", "Start")
    assert isinstance(driver.screen, ErrorScreen)
    assert "allocating 1024 bytes" in driver.device.storage.read(LOG).decode()


def test_random_presses_on_the_board():
    """Random presses through the real button driver (the 20,000-press run is in test_ui_micropython.py)."""
    rng = random.Random(2024)
    driver, player = stand_in_driver(budget_ms=40)
    names = driver.device.buttons.names
    for _ in range(2000):
        name = rng.choice(names)
        driver.board.press(name)
        driver.run(2 if rng.random() < 0.9 else 40)  # now and then long enough to repeat or to count as held
        driver.board.release(name)
        driver.run(rng.randint(1, 2))


def test_damaged_records_are_left_out_and_a_record_that_does_not_replay_is_refused(tmp_path):
    good = {"v": {"size": 8}, "s": None, "t": "f5d6", "r": None, "p": ["P1", "P2"]}
    illegal = dict(good, t="a1a2")
    records = [good, illegal, {"v": 3, "t": "f5"}, dict(good, p="P1"), dict(good, r=[0, "40", 24, "board"])]
    write_flash(tmp_path, RECORDS, json.dumps(records).encode())
    driver = BoardDriver(flash_dir=tmp_path)
    driver.press("a")
    driver.menu_to("Records")
    assert [item.label for item in driver.screen.items] == ["1 P1-P2", "2 P1-P2", "Clear records"]
    assert driver.app.notice == ["records.json damaged"]
    driver.press("down")
    driver.press("a")
    driver.menu_to("Replay")  # the record whose moves are illegal
    assert driver.screen.title == "Records"
    assert " ".join(driver.app.notice) == "This record is damaged"
    driver.press("a")
    driver.menu_to("Review")
    assert driver.screen.title == "Records"
    assert " ".join(driver.app.notice) == "This record is damaged"
    driver.press("up")
    driver.press("a")
    driver.menu_to("Replay")
    driver.press("right", 2)
    assert driver.screen.game.transcript() == "f5d6"


def test_sound_off_mutes_every_effect():
    driver = BoardDriver()
    configure(driver, sound=False)
    start(driver, "Two players")
    game = driver.app.session.game
    driver.play(game.board.legal_squares()[0])
    driver.cursor_to(0)
    driver.press("a")  # illegal
    driver.wait(1000)
    assert driver.tones() == []
    driver.app.settings["sound"] = True
    driver.play(game.board.legal_squares()[0])
    driver.wait(500)
    assert driver.tones()
