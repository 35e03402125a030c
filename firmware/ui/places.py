"""Every screen the app can open, by name: a new screen is a new module and one line here.

A screen opens another through the app, by name and arguments:

    app.push(app.make(REPLAY, record))

and the app imports the module named here only then. So screens never
import each other or the app, and the app can let a screen's module go
(othello.compat.release_module) when nothing shows it: on the Pico a
module's code lives in the heap, and the menus and the game screen must
never be there together.

Each place is (module, the name in it of a class or function taking the
app and the arguments and returning the screen).
"""

TITLE = "title"
MAIN_MENU = "main menu"
SETTINGS = "settings"
ERROR = "error"
GAME = "game"
REPLAY = "replay"
SETUP = "setup"
REVIEW = "review"
PUZZLES = "puzzles"
BATTERY_EMPTY = "battery empty"
LINK = "linked play"  # 10 characters or more: a shorter string would be interned for good

# Modules outside ui/ that only screens use: the app lets them go with the screens' (App.arrive).
SCREEN_HELPERS = ("player.review", "player.puzzles", "link", "link.play", "link.protocol", "link.frames", "hw.link")

PLACES = {
    TITLE: ("ui.screens", "TitleScreen"),
    MAIN_MENU: ("ui.screens", "main_menu"),
    SETTINGS: ("ui.screens", "settings_menu"),
    ERROR: ("ui.screens", "ErrorScreen"),
    GAME: ("ui.play", "GameScreen"),
    REPLAY: ("ui.replay", "ReplayScreen"),
    SETUP: ("ui.setup", "SetupScreen"),
    REVIEW: ("ui.review", "ReviewScreen"),
    PUZZLES: ("ui.puzzle", "puzzle_menu"),
    BATTERY_EMPTY: ("ui.gauge", "EmptyScreen"),
    LINK: ("ui.linkplay", "LinkScreen"),
}
