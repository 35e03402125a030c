"""The title, the menus and the small screens around the game.

Main menu (docs/UI.md shows each screen):
    Continue            the saved game, when there is one
    Play computer       colour, level, start
    Two players         start at once
    Link play           two devices joined by a cable (docs/LINK.md)
    Computer demo       the two levels, start
    Variant     8x8     board size, start position, anti, first player, black hole
    Handicap    off     corners given to Black or White
    Clock       off     minutes each
    Match    single     single game, N games or a race to P points
    Set up board        edit a position and play from it
    Records             the last games, move by move, and their review
    Puzzles             endgame puzzles, easy to hard
    Settings            sound, marks, animation, contrast, dimming
    About               version, keys
"""

import gc

from othello.compat import const
from othello.match import MATCH_GAMES, MATCH_RACE
from othello.notation import counted
from othello.variant import BLACK, START_EMPTY, START_OTHELLO, START_PARALLEL
from ui import gfx, keys
from ui import settings as choices
from ui.font import wrap
from ui.menu import Item, Menu, TextScreen
from ui.places import MAIN_MENU, PUZZLES, REPLAY, REVIEW, SETTINGS, SETUP
from ui.records import after_moves, record_title, score_text, valid_record
from ui.screen import Screen
from ui.session import MODE_COMPUTER, MODE_DEMO, MODE_TWO, rules_from_settings, variant_for
from ui.sounds import CLICK
from ui.store import RECORDS

_TITLE_MS = const(800)  # from the title's first picture: the game is ready about then (docs/DEVICE_SPEED.md, Boot)
COLOURS = ("Black", "White")
START_NAMES = {START_OTHELLO: "Othello", START_PARALLEL: "Parallel", START_EMPTY: "Reversi"}


class TitleScreen(Screen):
    """The title, shown since main.py first drew it (app.title_since): _TITLE_MS, or until any key."""

    def enter(self):
        self.since = self.app.title_since

    def handle(self, action):
        self.app.replace(self.app.make(MAIN_MENU))

    def tick(self, now):
        if self.app.ticks_diff(now, self.since) >= _TITLE_MS:
            app = self.app
            app.replace(app.make(MAIN_MENU))
            # The menu on the glass first, then the start-up's leftovers collected at once: left to the
            # collector's own turn, that collection landed in the redraw of the first key pressed (docs/UI.md).
            app.redraw()
            gc.collect()

    def draw(self, fb):
        gfx.title_picture(fb, self.app.version)


class ErrorScreen(Screen):
    """What an unexpected error leaves on screen: what happened, and a way out."""

    def __init__(self, app, error):
        Screen.__init__(self, app)
        self.text = "%s: %s" % (type(error).__name__, error)

    def handle(self, action):
        if action == keys.OK:
            self.app.device.reset()

    def draw(self, fb):
        gfx.message(fb, "Sorry, an error", self.text, self.app.keymap.label(keys.OK) + ": restart")


# ----- value texts ------------------------------------------------------------------------------


def on_off(value):
    return "on" if value else "off"


def minutes(value):
    return "%d min" % value if value else "off"


def idle_text(seconds):
    if not seconds:
        return "never"
    return "%d s" % seconds if seconds < 60 else "%d min" % (seconds // 60)


def variant_text(s):
    flags = ""
    if s["start"] == START_PARALLEL:
        flags += "P"
    elif s["start"] == START_EMPTY:
        flags += "R"
    if s["anti"]:
        flags += "A"
    if s["first"] != BLACK:
        flags += "W"
    if s["hole"]:
        flags += "H"
    return "%dx%d %s" % (s["size"], s["size"], flags)


def handicap_text(s):
    if not s["handicap"]:
        return "off"
    return "%s+%d" % ("BW"[s["handicap_to"]], s["handicap"])


def match_text(s):
    if s["match"] == MATCH_GAMES:
        return counted(s["games"], "game")
    if s["match"] == MATCH_RACE:
        return "race %d" % s["race"]
    return "single"


def setting(app, label, key, text, changed=None):
    """A menu line showing a setting's value; LEFT/RIGHT/OK step it."""
    s = app.settings

    def change(step):
        choices.cycle(s, key, step, app.level_count)
        app.settings_changed = True
        if changed is not None:
            changed()

    return Item(label, None, lambda: text(s[key]), change)


def level_setting(app, label, key):
    return setting(app, label, key, lambda level: "%d %s" % (level, app.level_name(level)))


# ----- the menus --------------------------------------------------------------------------------


def main_menu(app):
    s = app.settings
    items = []
    if app.session is not None:
        items.append(Item("Continue", app.show_game))
    items += [
        Item("Play computer", lambda: app.push(computer_menu(app))),
        Item("Two players", lambda: app.start_game(MODE_TWO)),
        Item("Link play", app.link_play),
        Item("Computer demo", lambda: app.push(demo_menu(app))),
        Item("Variant", lambda: app.push(variant_menu(app)), lambda: variant_text(s)),
        Item("Handicap", None, lambda: handicap_text(s), lambda step: step_handicap(app, step)),
        setting(app, "Clock", "clock", minutes),
        Item("Match", lambda: app.push(match_menu(app)), lambda: match_text(s)),
        Item("Set up board", lambda: open_setup(app)),
        Item("Records", lambda: app.push(records_menu(app))),
        Item("Puzzles", lambda: app.push(app.make(PUZZLES))),
        Item("Settings", lambda: app.push(app.make(SETTINGS))),
        Item("About", lambda: app.push(about_screen(app))),
    ]
    return Menu(app, "Pocket Othello", items, gauge=True)


def step_handicap(app, step):
    """Handicap cycles off, B+1..B+4, W+1..W+4: one line for two settings."""
    s = app.settings
    states = [(0, BLACK)] + [(n, BLACK) for n in range(1, 5)] + [(n, 1 - BLACK) for n in range(1, 5)]
    current = (s["handicap"], s["handicap_to"] if s["handicap"] else BLACK)
    index = (states.index(current) + step) % len(states)
    s["handicap"], s["handicap_to"] = states[index]
    app.settings_changed = True


def computer_menu(app):
    return Menu(app, "Play computer", [
        setting(app, "You play", "colour", lambda c: COLOURS[c]),
        level_setting(app, "Level", "level"),
        Item("Start", lambda: app.start_game(MODE_COMPUTER)),
    ])


def demo_menu(app):
    return Menu(app, "Computer demo", [
        level_setting(app, "Black", "demo_black"),
        level_setting(app, "White", "demo_white"),
        Item("Start", lambda: app.start_game(MODE_DEMO)),
    ])


def variant_menu(app):
    return Menu(app, "Variant", [
        setting(app, "Board", "size", lambda n: "%dx%d" % (n, n)),
        setting(app, "Start", "start", lambda v: START_NAMES[v]),
        setting(app, "Winner", "anti", lambda anti: "fewest" if anti else "most"),
        setting(app, "First", "first", lambda c: COLOURS[c]),
        setting(app, "Black hole", "hole", lambda hole: "random" if hole else "off"),
    ])


def match_menu(app):
    return Menu(app, "Match", [
        setting(app, "Play", "match", lambda mode: {"single": "1 game", MATCH_GAMES: "N games", MATCH_RACE: "race"}[mode]),
        setting(app, "Games", "games", str),
        setting(app, "Race to", "race", lambda points: "%d pts" % points),
    ])


def settings_menu(app):
    def sound_changed():
        app.sounds.play(CLICK)

    return Menu(app, "Settings", [
        setting(app, "Sound", "sound", on_off, sound_changed),
        setting(app, "Legal moves", "legal", on_off),
        setting(app, "Last move", "last", on_off),
        setting(app, "Flip anim", "anim", on_off),
        setting(app, "Contrast", "contrast", lambda level: "%d/5" % level, app.apply_contrast),
        setting(app, "Dim after", "idle", idle_text),
        setting(app, "Auto-off", "off", idle_text),
    ])


def about_screen(app):
    lines = ["Version " + app.version, "%d levels of play" % app.level_count]
    return TextScreen(app, "About", lines + list(app.keymap.help_lines()))


def records_menu(app):
    records, problem = app.store.load_records()
    good = [record for record in records if valid_record(record)]
    if len(good) < len(records):
        problem = problem or RECORDS + " damaged"
    if app.store.problem:  # nothing was read, nothing can be cleared
        return TextScreen(app, "Records", wrap("Not saving: " + app.store.problem, 20) + ["No games to show."])
    clear = Item("Clear records", lambda: app.push(clear_records_menu(app)))
    if not good:
        if problem is None:
            return TextScreen(app, "Records", ["No finished games", "yet."])
        # Only the file's problem and the way out: its lines stay on the screen, not in a passing notice.
        menu = Menu(app, "Records", [Item(line) for line in wrap(problem, 20)] + [Item("No games to show."), clear])
        menu.select(len(menu.items) - 1)
        return menu
    if problem:
        app.notify(problem)
    items = []
    for number, record in enumerate(good):
        items.append(record_item(app, number + 1, record))
    items.append(clear)
    return Menu(app, "Records", items)


def record_item(app, number, record):
    return Item(
        "%d %s" % (number, record_title(record)),
        lambda: app.push(record_menu(app, number, record)),
        lambda: score_text(record),
    )


def record_menu(app, number, record):
    game = after_moves(record, 1 << 16, app.device.ticks_ms)
    moves = 0 if game is None else game.move_count()
    chosen = [max(0, moves - 1)]  # the move to play on from: LEFT/RIGHT choose it

    def change(step):
        chosen[0] = (chosen[0] + step) % (moves + 1)

    return Menu(app, "Record %d" % number, [
        Item("Replay", lambda: app.replace(app.make(REPLAY, record))),
        Item("Review", lambda: app.replace(app.make(REVIEW, record))),
        Item("Play from", lambda: play_from(app, record, chosen[0]), lambda: "move %d" % chosen[0], change),
    ])


def play_from(app, record, moves):
    """A game against the computer from the record's position after `moves` moves, the person playing the
    side to move there."""
    game = after_moves(record, moves, app.device.ticks_ms)
    if game is None:
        app.notify("This record is damaged")
    elif game.board.is_game_over():
        app.notify("The game is over after move %d" % moves)
    else:
        board = game.board
        app.start_game(MODE_COMPUTER, board.position(), board.variant, board.turn)


def clear_records_menu(app):
    def clear():
        if not app.store.remove(RECORDS):
            app.pop()
            app.notify("%s: records not cleared" % app.store.failure)
            return
        app.home()
        app.notify("Records cleared")

    return Menu(app, "Clear records?", [Item("No", app.pop), Item("Yes, clear", clear)])


def open_setup(app):
    from othello.board import Board

    app.push(app.make(SETUP, Board(variant_for(rules_from_settings(app.settings), app.rng))))
