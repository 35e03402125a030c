"""What the game screens share: the board and the side panel, drawn from a session, and the cursor.

Layout on 128 x 64: the board on the left (8x8 at 8 pixels a square, 6x6
at 10, 10x10 at 6), the panel on the right:

    row 0  Black's disc, count, clock or player   (inverted: Black to move)
    row 1  White's disc, count, clock or player
    row 2  who plays whom, or the computer's level name
    row 3  match standing, or the move number
    row 4  the last move
    row 5  status: your move / thinking / game over
    row 6  the thinking indicator: a disc turning as it travels; at its right end the battery
           gauge (ui/gauge.py) on a board that has one

The game screen (ui/play.py) and link play's screen (ui/linkplay.py) are
each a GameView with their own flow of the game: the player's move goes
through their play(square).
"""

from othello.compat import const
from othello.match import MATCH_RACE, MATCH_SINGLE
from othello.notation import counted, square_name
from othello.scoring import END_TIME
from othello.variant import BLACK, WHITE
from ui import gfx, sounds
from ui.cursor import moved, next_legal
from ui.font import ADVANCE, BLACK_DISC, WHITE_DISC, draw_text, text_width
from ui.screen import Screen
from ui.session import MODE_COMPUTER, MODE_DEMO


FLIP_PHASES = const((2, 1, 2))  # the turning disc: narrow, edge-on, narrow (BoardView.draw phases); then its new colour
# the thinking indicator's frames: a small disc turning over, white to black and back
SPIN_FRAMES = (gfx.WHITE_SPRITE, gfx.NARROW_SPRITE, gfx.EDGE_SPRITE, gfx.NARROW_SPRITE,
               gfx.BLACK_SPRITE, gfx.NARROW_SPRITE, gfx.EDGE_SPRITE, gfx.NARROW_SPRITE)
_INDICATOR_Y = const(6 * 9)  # the panel row of the thinking indicator
_GAUGE_SPACE = const(17)  # the battery gauge's place at the right of that row: its widest picture and a gap
COLOURS = ("Black", "White")

PLAYING, PASSING, OVER = 0, 1, 2


class GameView(Screen):
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

    # ----- the cursor ------------------------------------------------------------------

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
        phase = FLIP_PHASES[min(self.anim_frame, len(FLIP_PHASES) - 1)] if self.flipping else 0
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
        gauge = self.app.gauge
        if gauge is not None:
            gauge.draw(fb, gfx.SCREEN_W - gauge.width(), _INDICATOR_Y + 1)
        if self.thinking is not None:
            self.draw_indicator(fb)

    def draw_indicator(self, fb):
        """A small disc turning over as it travels along the panel's bottom row, left of the gauge."""
        x = self.panel_x
        width = gfx.SCREEN_W - x - (0 if self.app.gauge is None else _GAUGE_SPACE)
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
