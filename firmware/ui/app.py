"""The handheld's application: the main loop, the screen stack, idle dimming and the crash screen.

    App(device, player, version).run()

`device` is the hardware layer's device (display, buttons, sound, storage,
clock); `player` the computer player module. Nothing here touches hardware
directly, so tests and the simulator drive the very same code.

Screens (ui/screen.py's Screen; ui/places.py lists them all) receive
actions from ui/keys.py, do their work in tick(), and draw the whole frame
in draw(fb); the app redraws only when a screen says something changed.
Screens open each other through the app by name (App.make), so the app
imports the screens and never the other way round.
"""

import gc
import sys

from othello.compat import const, release_module
from ui import gfx, keys
from ui.font import wrap
from ui.gauge import EMPTY, LOW, Gauge
from ui.places import BATTERY_EMPTY, ERROR, GAME as GAME_SCREEN, LINK, MAIN_MENU, PLACES, SCREEN_HELPERS, TITLE
from ui.session import MODE_LINK, Rng, Session, rules_from_settings, variant_for
from ui.sounds import Sounds
from ui.store import GAME, SETTINGS, Store

# The modules the app keeps: its own and what every screen uses. Every other ui module is a screen's (the
# menu widget and the settings' choices too: a game needs neither), let go when the app moves between the
# menus and the game (App.arrive).
_APP_MODULES = const(("ui.app", "ui.places", "ui.screen", "ui.gfx", "ui.keys", "ui.font",
               "ui.session", "ui.sounds", "ui.store", "ui.gauge"))

_FRAME_MS = const(20)  # main loop period: buttons are polled 50 times a second, the chip napping between
_SEARCH_POLL_MS = const(15)  # while the computer searches (a move, a review), the buttons are read at least this often
_NOTICE_MS = const(2500)
_DIM_CONTRAST = const(0)


class App:
    def __init__(self, device, player, version="?", title_since=None):
        """title_since: ticks_ms when main.py put the title on the screen (default: now)."""
        self.device = device
        self.ticks_diff = device.ticks_diff  # the device's own tick arithmetic (ticks wrap round)
        self.ticks_add = device.ticks_add
        self.display = device.display
        self.fb = device.display.fb
        self.player = player
        self.version = version
        self.level_count = len(player.LEVELS)
        self.keymap = keys.Keymap(device.buttons.names)
        self.store = Store(device.storage)
        problems = []
        if self.store.problem is not None:
            problems.append("Not saving: " + self.store.problem)
        data, problem = self.store.load(SETTINGS)
        from ui.settings import IDLE_BLANK_AFTER_DIM_S, repair  # let go at the first screen (arrive)

        self.settings, bad = repair(data if data is not None else {}, self.level_count)
        self.blank_after_dim_ms = IDLE_BLANK_AFTER_DIM_S * 1000
        if problem:
            problems.append(problem + ": defaults used")
        elif data is not None and bad:
            problems.append("settings repaired")
        self.settings_changed = False
        self.sounds = Sounds(device.sound, self.settings)
        self.rng = Rng(device.ticks_ms())
        self.session, problem = Session.load(self.store, self.level_count, device.ticks_ms)
        if problem:
            problems.append(problem + ": game lost")
        if self.session is not None:
            player.prepare(self.session.game.board.variant)
        else:
            player.prepare(variant_for(rules_from_settings(self.settings), self.rng))
        self.screens = []
        self.next_place = None  # (place, arguments) when a screen asked to go there (move_to)
        self.actions = []
        self.dirty = True
        self.notice = None
        self.notice_until = 0
        now = device.ticks_ms()
        self.title_since = now if title_since is None else title_since
        self.last_input = now
        self.dimmed = False
        self.blank = False
        self.switched_off = False  # auto-off: saved, the display asleep, the chip in its deepest sleep
        self.swallowing = None  # the button that woke the screen: ignored until released
        self.failures = 0
        battery = device.battery
        # the battery gauge (ui/gauge.py), or None on a board without one
        self.gauge = None if battery is None else Gauge(battery.spec, battery.read, self.ticks_diff, self.ticks_add)
        if self.gauge is not None:
            self.gauge.update(now)  # the first frame shows the level (one reading never warns: see ui/gauge.py)
        self.battery_empty = False  # the cells ran out: the game is saved and the "Battery empty" screen stays
        self.background = None  # called with the time at every service: link play's conversation (ui/linkplay.py)
        self.apply_contrast()
        self.push(self.make(TITLE))
        # main.py put this very picture on the glass: drawing it again would hold the menu back (docs/UI.md).
        self.dirty = title_since is None
        if problems:
            self.notify(". ".join(problems))

    # ----- the loop -----------------------------------------------------------

    def run(self):
        """Run forever."""
        while True:
            self.step()

    def step(self):
        """One turn of the main loop; an unexpected error shows the crash screen instead of stopping."""
        try:
            self.loop_once()
            if self.next_place is None:
                self.check_battery(self.device.ticks_ms())  # here, between frames: never during a search
            if self.next_place is not None:
                # Here, once loop_once has returned: MicroPython's collector reads a running frame's whole
                # value stack, where the closed screen's handler stays until the frame ends, and through
                # it the code arrive() is about to let go.
                self.arrive()
        except Exception as error:
            self.fail(error)

    def loop_once(self):
        if self.switched_off:
            if self.device.sleep_until_pressed():
                self.switched_off = False
                self.last_input = self.device.ticks_ms()
                self.dimmed = self.blank = True  # the waking press turns the display on and is swallowed (service)
            return
        now = self.device.ticks_ms()
        self.service(now)
        while self.actions:
            action = self.actions.pop(0)
            if self.notice is not None:
                self.notice = None
                self.dirty = True
            self.screen.handle(action)
            if self.next_place is not None:
                return  # the screens are closed: step() opens the next one, and it takes the other actions
        self.screen.tick(self.device.ticks_ms())
        if self.next_place is not None:
            return
        if self.notice is not None and self.ticks_diff(now, self.notice_until) >= 0:
            self.notice = None
            self.dirty = True
        if self.dirty:
            self.redraw()
        off_s = self.settings["off"]
        # Auto-off once its time has passed without a key, with nothing being computed (a review carries on
        # and the device switches off once it is done).
        if off_s and self.ticks_diff(now, self.last_input) >= off_s * 1000 and not self.screen.busy():
            self.switch_off()
            return
        self.device.nap(_FRAME_MS, deep=self.background is None)  # link play's UART must keep its clock

    def serviced_since(self, last, now):
        """For a screen's should_stop during a search: service the device if _SEARCH_POLL_MS have passed
        since `last` (the screen's previous service) and say whether it did."""
        if self.ticks_diff(now, last) < _SEARCH_POLL_MS:
            return False
        self.service(now)
        return True

    def service(self, now):
        """Keep the device alive: read the buttons, dim or wake the screen, run the buzzer.

        The computer player calls this (through the game screen) while it thinks.
        """
        for name, kind in self.device.buttons.poll(now):
            if name == self.swallowing:
                if kind == keys.RELEASE:
                    self.swallowing = None
                continue
            self.last_input = now
            if (self.dimmed or self.blank) and kind == keys.PRESS:
                self.wake()
                self.swallowing = name
                continue
            action = self.keymap.action(name, kind)
            if action is not None:
                self.actions.append(action)
                self.rng.stir(now)
        self.check_idle(now)
        self.sounds.update(now)
        if self.background is not None:
            self.background(now)

    def redraw(self):
        if self.blank:
            return
        fb = self.fb
        fb.fill(0)
        self.screen.draw(fb)
        if self.notice is not None:
            gfx.dialog(fb, self.notice)
        self.display.show()
        self.dirty = False

    # ----- screens --------------------------------------------------------------

    @property
    def screen(self):
        return self.screens[-1]

    def push(self, screen):
        if self.screens:
            self.screens[-1].leave()
        self.screens.append(screen)
        screen.enter()
        self.dirty = True

    def pop(self):
        self.screens.pop().leave()
        self.screens[-1].enter()
        self.dirty = True

    def replace(self, screen):
        self.screens.pop().leave()
        self.screens.append(screen)
        screen.enter()
        self.dirty = True

    def make(self, place, *arguments):
        """The screen of `place` (a name in ui/places.py) made for `arguments`; its module is imported now."""
        module_name, factory = PLACES[place]
        module = __import__(module_name, None, None, (factory,))
        return getattr(module, factory)(self, *arguments)

    def home(self):
        """Back to the main menu, closing every screen (the game screen's code is let go)."""
        self.move_to(MAIN_MENU)

    def show_game(self):
        """The session's game screen alone (the menus' code is let go while a game is on); a linked game
        goes back to link play."""
        if self.session.mode == MODE_LINK:
            self.link_play()
        else:
            self.move_to(GAME_SCREEN, self.session)

    def link_play(self):
        """Link play's screen, if the board has a link cable."""
        if self.device.config.link is None:
            self.notify("No link cable: board.json has no link section")
        else:
            self.move_to(LINK)

    def start_game(self, mode, start=None, variant=None, colour=None):
        """A new session in `mode` from the settings (or from the position `start` of `variant`, the person
        playing `colour` against the computer when it is given), shown."""
        settings = self.settings if colour is None else dict(self.settings, colour=colour)
        self.session = None
        gc.collect()
        self.session = Session.start(settings, mode, self.device.ticks_ms, self.rng, start, variant)
        self.save_session()
        self.show_game()

    def move_to(self, place, *arguments):
        # The screens close now; the next one opens when the key that asked has been handled (step()
        # calls arrive()), as until then the closed screens' code is still running and could not leave
        # the heap.
        self.close_all()
        self.next_place = (place, arguments)
        self.dirty = True

    def arrive(self):
        (place, arguments), self.next_place = self.next_place, None
        # Every screen's module goes, the next one's too: one still loaded may hold functions of another
        # (a helper module), which would break if that one's namespace were emptied under it.
        for name in list(sys.modules):
            if (name.startswith("ui.") and name not in _APP_MODULES) or name in SCREEN_HELPERS:
                release_module(name)
        gc.collect()  # before the next screen's code comes in, so it can take the last one's place
        if place == LINK:
            # Link play searches nothing, and its code and the engine's tables left 13 KB of the Pico's heap.
            self.player.release()
        elif place == GAME_SCREEN:
            # The engine for the session's board (a no-op while it is there): here, with the menus' code gone,
            # its blocks find room; after link play let it go, it comes back here.
            self.player.prepare(arguments[0].game.board.variant)
        self.open_only(self.make(place, *arguments))

    def open_only(self, screen):
        """Close every screen and show `screen` alone."""
        self.close_all()
        self.screens.append(screen)
        screen.enter()
        self.dirty = True

    def close_all(self):
        """Close every screen, so that nothing holds the code of the screens below the next one."""
        while self.screens:
            self.screens.pop().leave()

    def notify(self, text):
        """A short message in a box over the screen; any key or a few seconds close it."""
        self.notice = wrap(text, 20)[:4]
        self.notice_until = self.ticks_add(self.device.ticks_ms(), _NOTICE_MS)
        self.dirty = True

    # ----- settings, saving --------------------------------------------------------

    def level_name(self, level):
        return self.player.LEVELS[level - 1].name

    def save_settings(self):
        if self.settings_changed:
            self.report_save(self.store.save(SETTINGS, self.settings), "settings not saved")
            self.settings_changed = False

    def save_session(self):
        if self.session is None:
            self.store.remove(GAME)
        else:
            self.report_save(self.store.save(GAME, self.session.to_dict()), "game not saved")

    def report_save(self, done, what):
        """Say why `what` ("game not saved") was not saved if a save was not done, unless nothing can be saved
        at all (said at start-up)."""
        if not done and self.store.problem is None:
            self.notify("%s: %s" % (self.store.failure, what))

    # ----- the battery -------------------------------------------------------------------

    def check_battery(self, now):
        """Read the gauge when it is due: redraw a changed level, warn once when low, stop when empty."""
        gauge = self.gauge
        if gauge is None or not gauge.due(now):
            return
        level = gauge.level
        event = gauge.update(now)
        if gauge.level != level:
            self.dirty = True
        if self.battery_empty:
            return
        if event == EMPTY:
            # Saved while the cells can still write the flash, then only the "Battery empty" screen: the
            # screen's leave() saves the game (and the menus' the settings), and nothing after it writes to
            # the flash or searches.
            self.battery_empty = True
            self.save_settings()
            self.move_to(BATTERY_EMPTY)
        elif event == LOW:
            self.notify("Battery low: fit fresh cells soon")

    # ----- the screen's power -------------------------------------------------------

    def apply_contrast(self):
        """Set the display's contrast from the settings (the settings menu calls this after a change)."""
        from ui.settings import CONTRAST_LEVELS  # loaded already in the menus; let go with them

        self.contrast = CONTRAST_LEVELS[self.settings["contrast"] - 1]
        self.display.contrast(self.contrast)

    def check_idle(self, now):
        idle_s = self.settings["idle"]
        if not idle_s:
            return
        idle = self.ticks_diff(now, self.last_input)
        if not self.dimmed and idle >= idle_s * 1000:
            self.dimmed = True
            self.display.contrast(_DIM_CONTRAST)
        if self.dimmed and not self.blank and idle >= idle_s * 1000 + self.blank_after_dim_ms:
            self.blank = True
            self.display.power(False)

    def switch_off(self):
        """Auto-off: save, put the display in its sleep mode; the loop then sleeps until a button is
        pressed (loop_once), which brings back the screen as it was and does nothing else."""
        self.device.sound.stop()
        if not self.battery_empty:  # empty cells: nothing more is written to the flash
            self.save_settings()
            self.save_session()
        self.display.power(False)
        self.switched_off = True

    def wake(self):
        if self.blank:
            self.display.power(True)
            self.blank = False
            self.dirty = True
        self.dimmed = False
        self.display.contrast(self.contrast)

    # ----- when things go wrong -------------------------------------------------------

    def fail(self, error):
        """Log an unexpected error to flash and show the crash screen, which offers a restart."""
        self.failures += 1
        if self.failures > 3:  # the crash screen itself keeps failing: let main.py deal with it
            raise error
        try:
            self.store.append_log("[%d ms] %s" % (self.device.ticks_ms(), traceback_text(error)))
            screen = self.make(ERROR, error)
        except MemoryError:
            # No room for the log or the crash screen either: main.py's crash screen takes over, with the
            # App's heap given back, and logs this error; a MemoryError from here would hide where it was.
            raise error
        self.screens = [screen]
        self.actions = []
        self.notice = None
        self.blank = self.dimmed = False
        self.display.power(True)
        self.display.contrast(self.contrast)
        self.dirty = True


def traceback_text(error):
    """The error with its traceback, as MicroPython or CPython prints it; in a heap too full for the
    traceback, at least what happened (App.fail and main.py's crash screen log it either way)."""
    import io
    import sys

    try:
        stream = io.StringIO()
        if hasattr(sys, "print_exception"):
            sys.print_exception(error, stream)
        else:
            import traceback

            traceback.print_exception(type(error), error, error.__traceback__, file=stream)
        return stream.getvalue()
    except MemoryError:
        return repr(error)
