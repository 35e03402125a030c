"""The game screen: the board, the side panel, the computer thinking, passes and the end of a game.

Layout on 128 x 64: the board on the left (8x8 at 8 pixels a square, 6x6
at 10, 10x10 at 6), the panel on the right:

    row 0  Black's disc, count, clock or player   (inverted: Black to move)
    row 1  White's disc, count, clock or player
    row 2  who plays whom, or the computer's level name
    row 3  match standing, or the move number
    row 4  the last move
    row 5  status: your move / thinking / game over
    row 6  the thinking indicator: a disc turning as it travels

While the computer thinks, the player's should_stop callback keeps the
device alive: it reads the buttons (A or a direction hurries the computer,
B cancels into the game menu), turns the indicator and runs the buzzer.
"""

from othello.compat import collect_every, const, popcount
from othello.match import MATCH_RACE, MATCH_SINGLE
from othello.notation import counted, square_name
from othello.scoring import END_TIME
from othello.variant import BLACK, WHITE
from ui import gfx, keys, sounds
from ui.cursor import moved, next_legal
from ui.font import ADVANCE, BLACK_DISC, WHITE_DISC, draw_text, text_width
from ui.menu import Item, Menu
from ui.places import REPLAY, REVIEW, SETTINGS, SETUP
from ui.screen import Screen
from ui.session import MODE_COMPUTER, MODE_DEMO

_FLIP_FRAME_MS = const(60)
_FLIP_PHASES = const((2, 1, 2))  # the turning disc: narrow, edge-on, narrow (BoardView.draw phases); then its new colour
# the thinking indicator's frames: a small disc turning over, white to black and back
SPIN_FRAMES = (gfx.WHITE_SPRITE, gfx.NARROW_SPRITE, gfx.EDGE_SPRITE, gfx.NARROW_SPRITE,
               gfx.BLACK_SPRITE, gfx.NARROW_SPRITE, gfx.EDGE_SPRITE, gfx.NARROW_SPRITE)
_SPIN_MS = const(200)  # the thinking indicator's step: each one sends a frame to the display (~25 ms on I2C)
_INDICATOR_Y = const(6 * 9)  # the panel row of the thinking indicator
_DEMO_MOVE_MS = const(800)  # the demo's pace, so a watcher can follow
_COMPUTER_PASS_MS = const(1500)  # how long a computer's pass stays announced
_HINT_MS = const(2000)
COLOURS = ("Black", "White")

PLAYING, PASSING, OVER = 0, 1, 2


class GameScreen(Screen):
    def __init__(self, app, session):
        Screen.__init__(self, app)
        self.session = session
        self.flipping = 0
        self.anim_since = 0
        self.anim_frame = 0
        self.thinking = None  # the status text while the player searches
        self.spin = 0
        self.spin_at = 0
        self.poll_at = 0
        self.hurry = False
        self.cancel = False
        self.pass_since = 0
        self.last_move_at = app.device.ticks_ms()
        self.clock_seconds = -1
        self.blink = gfx.Blink(self.last_move_at, app.ticks_diff)
        self.new_board()

    def new_board(self):
        """Set up the view for the session's current game."""
        board = self.session.game.board
        self.view = gfx.BoardView(board.size)
        self.panel_x = self.view.right + 2
        legal = board.legal_squares()
        self.cursor = legal[0] if legal else (board.size // 2 - 1) * (board.size + 1)
        self.state = PLAYING
        self.show_result = True
        self.flipping = 0
        self.position_changed()

    def position_changed(self):
        """Work out once what the new position allows, rather than in every frame: on the Pico
        each move generation allocates big integers."""
        game = self.session.game
        self.legal = game.board.legal_moves()
        self.over = game.is_over()
        self.must_pass = game.board.must_pass()
        self.humans_turn = not self.over and self.session.level_of(game.turn) is None

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

    # ----- the flow of the game -------------------------------------------------------

    def tick(self, now):
        app = self.app
        session = self.session
        game = session.game
        if self.flipping:
            frame = app.ticks_diff(now, self.anim_since) // _FLIP_FRAME_MS
            if frame >= len(_FLIP_PHASES):
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
        decision = self.search(lambda stop, now: player.think(board, level, should_stop=stop, now=now), "Thinking")
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
        try:
            decision = run(self.should_stop, app.device.ticks_ms)
        finally:
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

    def place(self):
        if not self.humans_turn:
            return
        if self.app.keymap.scheme == "keys" and not self.legal >> self.cursor & 1:
            self.step_legal(1)  # a key before the cursor moved on from the last move: show where it rests first
            return
        reason = self.session.game.board.why_illegal(self.cursor)
        if reason is None:
            self.play(self.cursor)
        else:
            self.app.sounds.play(sounds.ILLEGAL)
            self.app.notify(reason)

    def move_cursor(self, action):
        self.cursor = moved(self.cursor, action, self.session.game.board.size)

    def step_legal(self, step):
        """Put the cursor on the next (or previous) legal move in reading order, wrapping round."""
        self.cursor = next_legal(self.cursor, self.session.game.board.legal_squares(), step)

    # ----- the game menu ------------------------------------------------------------------

    def open_menu(self):
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
            lambda stop, now: player.hint(board, should_stop=stop, now=now, time_limit_ms=_HINT_MS), "Hint..."
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

    # ----- drawing ------------------------------------------------------------------------------

    def draw(self, fb):
        app = self.app
        session = self.session
        game = session.game
        board = game.board
        human = self.state == PLAYING and self.thinking is None and self.humans_turn
        legal = self.legal if human and app.settings["legal"] else 0
        cursor = self.cursor if human and self.blink.shown else -1
        last = game.last_move() if app.settings["last"] else None
        phase = _FLIP_PHASES[min(self.anim_frame, len(_FLIP_PHASES) - 1)] if self.flipping else 0
        self.view.draw(
            fb, board, cursor, legal, -1 if last is None else last.square, self.flipping, phase
        )
        self.draw_panel(fb)
        if self.state == PASSING:
            gfx.dialog(fb, self.pass_lines())
        elif self.state == OVER and self.show_result:
            gfx.dialog(fb, self.result_lines())

    def draw_panel(self, fb):
        session = self.session
        game = session.game
        board = game.board
        x = self.panel_x
        width = gfx.SCREEN_W - x
        now = self.app.device.ticks_ms()
        clock = game.clock
        for colour in (BLACK, WHITE):
            y = colour * gfx.ROW
            ink = 1
            if game.turn == colour and not self.over:
                fb.fill_rect(x - 1, y, width + 1, gfx.ROW, 1)
                ink = 0
            draw_text(fb, x, y + 1, (BLACK_DISC if colour == BLACK else WHITE_DISC) + "%2d" % board.count(colour), ink)
            if clock is not None:
                seconds = max(0, clock.left_ms(colour, now) + 999) // 1000
                right = "%2d:%02d" % (seconds // 60, seconds % 60)
            else:
                right = session.label(colour)
            draw_text(fb, gfx.SCREEN_W - text_width(right) - 1, y + 1, right, ink)
        lines = (self.players_line(), self.match_line(), self.last_line(), self.status_line())
        y = 2 * gfx.ROW + 1
        for line in lines:
            draw_text(fb, x, y, line)
            y += gfx.ROW
        if self.thinking is not None:
            self.draw_indicator(fb)

    def draw_indicator(self, fb):
        """A small disc turning over as it travels along the panel's bottom row."""
        x = self.panel_x
        width = gfx.SCREEN_W - x
        fb.fill_rect(x, _INDICATOR_Y, width, gfx.ROW, 0)
        picture = gfx.SPRITES[5][SPIN_FRAMES[self.spin % len(SPIN_FRAMES)]]
        gfx.draw_sprite(fb, picture, x + self.spin % (width // ADVANCE) * ADVANCE, _INDICATOR_Y + 2, 1)

    def players_line(self):
        session = self.session
        variant = session.game.variant
        if variant.anti and session.mode != MODE_DEMO:  # the rule that turns every judgement round: always in sight
            return "Anti" if variant.size == 8 else "%dx%d Anti" % (variant.size, variant.size)
        if session.game.clock is not None or session.mode == MODE_DEMO:
            return "%s v %s" % (session.label(BLACK), session.label(WHITE))
        if session.mode == MODE_COMPUTER:
            level = session.players[1]
            return self.app.level_name(level)[:10]
        return "2 players"

    def match_line(self):
        """Race target or game number, then the points of match players 1 and 2."""
        session = self.session
        match = session.match
        if match.mode == MATCH_SINGLE:
            played = session.game.move_count()
            return counted(played, "move") if self.over else "Move %d" % (played + 1)
        if match.mode == MATCH_RACE:
            progress = "R%d" % match.target
        else:
            progress = "G%d/%d" % (len(match.games) + (0 if session.recorded else 1), match.target)
        return "%s %d-%d" % (progress, match.points[0], match.points[1])

    def last_line(self):
        last = self.session.game.last_move()
        if last is None:
            return ""
        return "Last " + square_name(last.square, self.session.game.board.size)

    def status_line(self):
        session = self.session
        if self.thinking is not None:
            return self.thinking
        if self.state == OVER:
            return "Game over"
        if self.state == PASSING:
            return "Pass"
        if session.mode == MODE_DEMO:
            return "Anti demo" if session.game.variant.anti else "Demo"
        if self.humans_turn:
            return "Your move" if session.mode == MODE_COMPUTER else session.label(session.game.turn) + " to move"
        return ""

    def pass_lines(self):
        session = self.session
        colour = session.game.turn
        if session.level_of(colour) is None:
            who = "You have" if session.mode == MODE_COMPUTER else COLOURS[colour] + " has"
            return [who + " no move", "A: pass"]
        return [COLOURS[colour] + " has no move", "and passes"]

    def result_lines(self):
        session = self.session
        result = session.game.result()
        if result.winner is None:
            lines = ["Draw %d-%d" % (result.black, result.white)]
        elif session.mode == MODE_COMPUTER:
            human = BLACK if session.level_of(BLACK) is None else WHITE
            verb = "win" if result.winner == human else "lose"
            lines = ["You %s %d-%d" % (verb, result.score_of(human), result.score_of(1 - human))]
        else:
            loser = 1 - result.winner
            lines = ["%s wins %d-%d" % (COLOURS[result.winner], result.score_of(result.winner), result.score_of(loser))]
        if result.reason == END_TIME:
            lines.append("on time")
        match = session.match
        if match.mode != MATCH_SINGLE:
            lines.append("%s %d  %s %d" % (session.player_label(0), match.points[0], session.player_label(1), match.points[1]))
            if match.is_over():
                winner = match.winner()
                lines.append("Match drawn" if winner is None else session.player_label(winner) + " won the match")
            elif match.mode == MATCH_RACE:
                lines.append("Race to %d" % match.target)
            else:
                lines.append("%d of %d played" % (len(match.games), match.target))
        lines.append("A: " + self.next_label().lower())
        return lines

    def next_label(self):
        match = self.session.match
        if match.mode == MATCH_SINGLE:
            return "Play again"
        return "New match" if match.is_over() else "Next game"
