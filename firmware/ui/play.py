"""The game screen: the computer thinking, passes, the end of a game, the game menu (ui/gameview.py draws it).

While the computer thinks, the player's should_stop callback keeps the
device alive: it reads the buttons (A or a direction hurries the computer,
B cancels into the game menu), turns the indicator and runs the buzzer.
"""

from othello.compat import collect_every, const, popcount
from ui import keys, sounds
from ui.gameview import FLIP_PHASES, OVER, PASSING, PLAYING, GameView
from ui.places import REPLAY, REVIEW, SETTINGS, SETUP
from ui.session import MODE_COMPUTER, MODE_DEMO

_FLIP_FRAME_MS = const(60)  # a turning disc's frame
_SPIN_MS = const(200)  # the thinking indicator's step: each one sends a frame to the display (~25 ms on I2C)
_DEMO_MOVE_MS = const(800)  # the demo's pace, so a watcher can follow
_COMPUTER_PASS_MS = const(1500)  # how long a computer's pass stays announced
_HINT_MS = const(2000)


class GameScreen(GameView):
    # ----- entering and leaving: the clock stops while a menu covers the game -----------

    def enter(self):
        clock = self.session.game.clock
        if clock is not None and not self.session.game.is_over():
            clock.start(self.session.game.turn, self.app.device.ticks_ms())
        self.app.dirty = True

    def leave(self):
        clock = self.session.game.clock
        if clock is not None:
            clock.stop(self.app.device.ticks_ms())
        self.app.save_session()

    def busy(self):
        """A timed game keeps the device on: its clock runs (the device's sleep would stop it)."""
        return self.session.game.clock is not None and self.state != OVER and not self.over

    # ----- the flow of the game -------------------------------------------------------

    def tick(self, now):
        app = self.app
        session = self.session
        game = session.game
        if self.flipping:
            frame = app.ticks_diff(now, self.anim_since) // _FLIP_FRAME_MS
            if frame >= len(FLIP_PHASES):
                self.flipping = 0
                self.last_move_at = now
            if frame != self.anim_frame:
                self.anim_frame = frame
                app.dirty = True
            return
        if self.state == OVER:
            return
        clock = game.clock
        if clock is not None:
            left = clock.left_ms(game.turn, now)
            if left <= 0 and game.check_time() is not None:
                self.over = True
            elif left // 1000 != self.clock_seconds:
                self.clock_seconds = left // 1000
                app.dirty = True
        if self.over:
            self.game_over()
            return
        if self.state == PASSING:
            if session.level_of(game.turn) is not None and app.ticks_diff(now, self.pass_since) >= _COMPUTER_PASS_MS:
                self.do_pass()
            return
        if self.must_pass:
            self.state = PASSING
            self.pass_since = now
            app.sounds.play(sounds.PASS)
            app.dirty = True
            return
        level = session.level_of(game.turn)
        if level is None:
            if app.keymap.scheme == "keys" and not self.legal >> self.cursor & 1:
                self.step_legal(1)
            if self.blink.update(now):
                app.dirty = True
            return
        if session.mode == MODE_DEMO and (app.blank or app.ticks_diff(now, self.last_move_at) < _DEMO_MOVE_MS):
            return  # the demo keeps its pace, and rests while the screen is off
        self.computer_move(level)

    def computer_move(self, level):
        board = self.session.game.board.copy()
        player = self.app.player
        decision = self.search(lambda stop, now, mhz: player.think(board, level, should_stop=stop, now=now, mhz=mhz),
                               "Thinking")
        if decision is None:
            self.open_menu()
        elif self.session.game.check_time() is None:
            self.play(decision.square)

    def search(self, run, status):
        """Run the player with the device kept alive; returns its Decision, or None if cancelled."""
        app = self.app
        now = app.device.ticks_ms()
        self.thinking = status
        self.hurry = self.cancel = False
        self.spin_at = self.poll_at = now
        app.redraw()
        collecting = collect_every(None)  # the search's allocations are its call frames (compat.collect_every)
        device = app.device
        device.full_speed()  # the budgets follow the clock: search_mhz
        try:
            decision = run(self.should_stop, device.ticks_ms, device.search_mhz)
        finally:
            device.base_speed()
            collect_every(collecting)
            self.thinking = None
            app.dirty = True
        return None if self.cancel else decision

    def should_stop(self):
        app = self.app
        now = app.device.ticks_ms()
        if app.serviced_since(self.poll_at, now):
            self.poll_at = now
            while app.actions:
                if app.actions.pop(0) == keys.BACK or self.session.mode == MODE_DEMO:
                    self.cancel = True
                else:
                    self.hurry = True
            if app.ticks_diff(now, self.spin_at) >= _SPIN_MS:
                self.spin_at = now
                self.spin += 1
                clock = self.session.game.clock
                if clock is not None and clock.left_ms(self.session.game.turn, now) // 1000 != self.clock_seconds:
                    self.clock_seconds = clock.left_ms(self.session.game.turn, now) // 1000
                    app.dirty = True
                if app.dirty:
                    app.redraw()
                elif not app.blank:  # only the indicator moved: draw just that
                    self.draw_indicator(app.fb)
                    app.display.show()
        clock = self.session.game.clock
        return self.hurry or self.cancel or (clock is not None and clock.flagged(now) is not None)

    def play(self, square):
        app = self.app
        move = self.session.game.play(square)
        app.sounds.move(popcount(move.flipped))
        now = app.device.ticks_ms()
        if app.settings["anim"] and move.flipped:
            self.flipping = move.flipped
            self.anim_since = now
            self.anim_frame = 0
        self.last_move_at = now
        self.position_changed()
        app.save_session()
        app.dirty = True

    def do_pass(self):
        self.session.game.pass_turn()
        self.position_changed()
        self.state = PLAYING
        self.last_move_at = self.app.device.ticks_ms()
        self.app.save_session()
        self.app.dirty = True

    def game_over(self):
        app = self.app
        session = self.session
        fresh = not session.recorded
        result = session.finish()
        self.state = OVER
        self.show_result = True
        app.dirty = True
        if not fresh:
            return
        app.report_save(app.store.add_record(session.record()), "record not saved")
        app.save_session()
        if result.winner is None:
            app.sounds.play(sounds.DRAW)
        elif session.mode == MODE_COMPUTER and session.level_of(result.winner) is not None:
            app.sounds.play(sounds.LOSE)
        else:
            app.sounds.play(sounds.WIN)

    def next_game(self):
        self.session.new_game(self.app.rng)
        self.app.player.prepare(self.session.game.board.variant)
        self.new_board()
        self.last_move_at = self.app.device.ticks_ms()
        self.enter()
        self.app.save_session()

    # ----- the player's keys ---------------------------------------------------------------

    def handle(self, action):
        app = self.app
        app.dirty = True
        self.flipping = 0  # a key finishes the animation at once
        self.blink.restart(app.device.ticks_ms())
        if self.state == OVER:
            if action == keys.BACK:
                self.open_menu()
            elif action == keys.OK and self.show_result:
                self.next_game()
            else:
                self.show_result = not self.show_result  # any other key shows the final board
            return
        if action == keys.BACK or self.session.mode == MODE_DEMO:
            self.open_menu()
        elif self.state == PASSING:
            if action == keys.OK:
                self.do_pass()
        elif action == keys.OK:
            self.place()
        elif action in (keys.NEXT, keys.PREV):
            self.step_legal(1 if action == keys.NEXT else -1)
        elif action in (keys.UP, keys.DOWN, keys.LEFT, keys.RIGHT):
            self.move_cursor(action)

    # ----- the game menu ------------------------------------------------------------------

    def open_menu(self):
        # The menu's code comes in only now: through the game it would be 1.8 KB of the Pico's heap at the
        # game's tightest moments. It stays until the app arrives at its next place (App.arrive).
        from ui.menu import Item, Menu

        app = self.app
        session = self.session
        game = session.game
        items = [Item("Resume", app.pop)]
        if self.state == OVER:
            items.append(Item(self.next_label(), lambda: self.from_menu(self.next_game)))
        if session.mode != MODE_DEMO:
            if self.state == PLAYING and self.humans_turn:
                items.append(Item("Hint", lambda: self.from_menu(self.hint)))
            if session.can_take_back():
                items.append(Item("Take back", lambda: self.from_menu(self.take_back)))
            if game.future and not game.is_over():
                items.append(Item("Redo", lambda: self.from_menu(self.redo)))
        items.append(Item("Game record", self.show_record))
        if self.state == OVER:
            items.append(Item("Review", self.show_review))
        if session.mode != MODE_DEMO:
            items.append(Item("Edit board", self.edit_board))
        items.append(Item("Settings", lambda: app.push(app.make(SETTINGS))))
        items.append(Item("New game", self.restart))
        items.append(Item("Main menu", app.home))
        app.push(Menu(app, "Game", items))

    def from_menu(self, command):
        """Close the game menu, then do `command` on the game screen."""
        self.app.pop()
        command()

    def take_back(self):
        if self.session.take_back():
            self.after_history_change()

    def redo(self):
        if self.session.redo():
            self.after_history_change()

    def after_history_change(self):
        self.state = PLAYING
        self.flipping = 0
        self.position_changed()
        last = self.session.game.last_move()
        if last is not None:
            self.cursor = last.square
        self.last_move_at = self.app.device.ticks_ms()
        self.app.sounds.play(sounds.CLICK)
        self.app.save_session()

    def hint(self):
        board = self.session.game.board.copy()
        player = self.app.player
        decision = self.search(
            lambda stop, now, mhz: player.hint(board, should_stop=stop, now=now, time_limit_ms=_HINT_MS, mhz=mhz),
            "Hint..."
        )
        if decision is not None and board.is_legal(decision.square):
            self.cursor = decision.square
            self.app.sounds.play(sounds.HINT)
            self.app.notify("Hint: " + decision.describe())

    def show_record(self):
        self.app.pop()
        self.app.push(self.app.make(REPLAY, self.session.record()))

    def show_review(self):
        self.app.pop()
        self.app.push(self.app.make(REVIEW, self.session.record()))

    def edit_board(self):
        self.app.pop()
        self.app.push(self.app.make(SETUP, self.session.game.board.copy()))

    def restart(self):
        self.app.start_game(self.session.mode)
