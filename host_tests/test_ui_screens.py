"""Key screens, pixel for pixel, against reviewed pictures in host_tests/reference_images/.

To change a screen on purpose: run with UPDATE_REFERENCE_IMAGES=1, look at
the new pictures, and commit them with the change.
"""

from test_ui_app import configure, start
from ui_harness import BoardDriver, StandInPlayer, check_reference

from othello.variant import WHITE
from ui.play import PASSING

TRANSCRIPT = "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5h6h4g4h3g3"


def driver_with_stand_in(budget_ms):
    return BoardDriver(player=StandInPlayer(budget_ms))


def two_player_game(driver, transcript=TRANSCRIPT, **settings):
    configure(driver, **settings)
    start(driver, "Two players")
    game = driver.app.session.game
    game.play_transcript(transcript[:-2])
    driver.play(_square(game, transcript[-2:]))
    return game


def _square(game, name):
    from othello.notation import parse_square

    return parse_square(name, game.board.size)


def test_title(tmp_path):
    driver = BoardDriver()
    driver.run(2)
    check_reference("title", driver.rows(), tmp_path)


def test_main_menu(tmp_path):
    driver = BoardDriver()
    driver.press("a")
    driver.press("down", 4)
    check_reference("main_menu", driver.rows(), tmp_path)


def test_play_computer_menu(tmp_path):
    driver = BoardDriver()
    driver.press("a")
    driver.menu_to("Play computer")
    driver.press("down")
    check_reference("play_computer_menu", driver.rows(), tmp_path)


def test_game_against_the_computer(tmp_path):
    driver = driver_with_stand_in(budget_ms=100)
    configure(driver, level=3)
    start(driver, "Play computer", "Start")
    game = driver.app.session.game
    for name in ("f5", "c3", "c5"):
        driver.play(_square(game, name))
    driver.press("left")
    check_reference("game_8x8", driver.rows(), tmp_path)


def test_game_with_clocks(tmp_path):
    driver = BoardDriver()
    two_player_game(driver, clock=5)
    driver.wait(42000)
    driver.press("up")
    check_reference("game_clock", driver.rows(), tmp_path)


def test_thinking(tmp_path):
    player = StandInPlayer(budget_ms=2000)
    driver = BoardDriver(player=player)
    configure(driver, colour=WHITE, level=5)
    start(driver, "Play computer")
    player.at(60, lambda: driver.board.release("a"))
    seen = []
    player.at(1000, lambda: seen.append(driver.rows()))
    driver.menu_to("Start")
    check_reference("thinking", seen[0], tmp_path)


def test_six_by_six(tmp_path):
    driver = BoardDriver()
    configure(driver, size=6)
    start(driver, "Two players")
    game = driver.app.session.game
    for number in range(7):
        legal = game.board.legal_squares()
        driver.play(legal[number * 3 % len(legal)])
    check_reference("game_6x6", driver.rows(), tmp_path)


def test_ten_by_ten_with_black_hole(tmp_path):
    driver = BoardDriver()
    configure(driver, size=10, hole=True)
    driver.app.rng.state = 12345
    start(driver, "Two players")
    game = driver.app.session.game
    for _ in range(6):
        driver.play(game.board.legal_squares()[-1])
    check_reference("game_10x10", driver.rows(), tmp_path)


def test_pass_notice(tmp_path):
    from test_ui_session import game_with_a_pass

    from othello.board import PASS

    plies, first_pass = game_with_a_pass()
    driver = BoardDriver()
    start(driver, "Two players")
    for square in plies[:first_pass]:
        if square == PASS:
            driver.press("a")
        else:
            driver.play(square)
    check_reference("pass", driver.rows(), tmp_path)


def test_game_over_in_a_match(tmp_path):
    driver = driver_with_stand_in(budget_ms=10)
    configure(driver, match="race", race=50)
    start(driver, "Play computer", "Start")
    game = driver.app.session.game
    while not game.is_over():
        if driver.screen.state == PASSING:
            driver.press("a")
        else:
            driver.play(game.board.legal_squares()[-1])
    check_reference("game_over_match", driver.rows(), tmp_path)


def test_game_menu(tmp_path):
    driver = BoardDriver()
    two_player_game(driver)
    driver.press("b")
    check_reference("game_menu", driver.rows(), tmp_path)


def test_settings(tmp_path):
    driver = BoardDriver()
    driver.press("a")
    driver.menu_to("Settings")
    driver.press("down", 4)
    check_reference("settings", driver.rows(), tmp_path)


def test_variant_menu(tmp_path):
    driver = BoardDriver()
    driver.press("a")
    driver.menu_to("Variant")
    driver.press("down")
    driver.press("right", 2)
    check_reference("variant_menu", driver.rows(), tmp_path)


def test_set_up(tmp_path):
    driver = BoardDriver()
    driver.press("a")
    driver.menu_to("Set up board")
    for name in ("right", "down", "a", "right", "a", "a"):
        driver.press(name)
    check_reference("setup", driver.rows(), tmp_path)


def test_game_record(tmp_path):
    driver = BoardDriver()
    two_player_game(driver)
    driver.press("b")
    driver.menu_to("Game record")
    driver.press("right", 12)
    check_reference("record", driver.rows(), tmp_path)


def test_records_list(tmp_path):
    driver = driver_with_stand_in(budget_ms=10)
    start(driver, "Play computer", "Start")
    game = driver.app.session.game
    while not game.is_over():
        if driver.screen.state == PASSING:
            driver.press("a")
        else:
            driver.play(game.board.legal_squares()[0])
    driver.press("b")
    driver.menu_to("Main menu")
    driver.menu_to("Records")
    check_reference("records", driver.rows(), tmp_path)


def test_about(tmp_path):
    driver = BoardDriver()
    driver.press("a")
    driver.menu_to("About")
    check_reference("about", driver.rows(), tmp_path)


def test_crash_screen(tmp_path):
    driver = BoardDriver()
    driver.crash_expected = True
    driver.app.fail(MemoryError("memory allocation failed, allocating 4096 bytes"))
    driver.run(1)
    check_reference("crash", driver.rows(), tmp_path)


def test_three_button_board(tmp_path):
    driver = BoardDriver("cytron_maker_pi_pico_grove_oled")
    driver.press("right")
    driver.press("right")
    driver.press("a")  # Two players
    driver.press("right", 2)
    check_reference("game_three_buttons", driver.rows(), tmp_path)
