"""Link play: finding the other device, the offer, the linked game, and a lost link.

The screen is the game screen (ui/play.py) with the link's states around
it. The conversation (link/play.py) runs in the app's background service,
so it goes on while a menu, the game record or a review covers the screen:
the peer never sees the link drop because this player opened a menu.

Keys: while connecting, B leaves. The device that offers sees its new-game
settings (main menu: Variant, Handicap, Clock, Match; Play computer: You
play) and sends them with A; the other accepts with A or declines with B.
In the game, A places a disc on this player's turn, B opens the game menu
(take back, offer a draw, resign, the record, leave). A question from the
peer is answered A (yes) or B (no). A lost link shows "Link lost: waiting"
with the choice to wait, play on against the computer, or save and leave.
"""

from othello.compat import const
from othello.board import PASS
from othello.match import MATCH_GAMES, MATCH_RACE
from othello.scoring import END_AGREED, END_RESIGN, END_TIME
from othello.variant import BLACK
from link import play as link_play
from link.protocol import Protocol
from ui import gfx, keys, sounds
from ui.menu import Item, Menu
from ui.places import REPLAY, REVIEW
from ui.gameview import OVER, GameView
from ui.screen import Screen
from ui.session import MODE_COMPUTER, MODE_LINK, Session

COLOURS = ("Black", "White")
START_NAMES = {"othello": "Othello", "parallel": "Parallel", "empty": "Reversi"}
_ID_RANGE = const(0xFFFF)


class LinkMenu(Menu):
    """A menu drawn over the link screen rather than pushed: BACK closes it back to the screen."""

    def __init__(self, screen, title, items):
        Menu.__init__(self, screen.app, title, items)
        self.screen = screen

    def close(self):
        self.screen.overlay = None
        self.app.dirty = True

    def leave(self):
        pass


class LinkScreen(GameView):
    def __init__(self, app):
        Screen.__init__(self, app)
        now = app.device.ticks_ms()
        from hw.link import UartLink  # the hardware layer's cable, opened here only: its names cost heap

        self.cable = UartLink(app.device.config.link)
        session = app.session if app.session is not None and app.session.mode == MODE_LINK else None
        self.linked = link_play.LinkPlay(Protocol(app.version, now, app.rng.below(_ID_RANGE) + now), session, self.make_session, app.settings)
        self.session = None
        self.overlay = None
        self.mark = None  # what was last saved: (game number, plies, ending)
        self.closed = False
        app.background = self.service
        if session is not None:
            self.adopt(session)

    def busy(self):
        """Link play keeps the device on: switched off, it would miss the other player's messages."""
        return not self.closed

    def make_session(self, settings, me, link_id):
        return Session.linked(settings, me, link_id, self.app.device.ticks_ms)

    def adopt(self, session):
        """The linked session from now on: shown, and saved as the app's game."""
        overlay = self.overlay
        GameView.__init__(self, self.app, session)
        self.overlay = overlay
        self.app.session = session
        self.saved()

    # ----- the conversation, every turn of the app's loop --------------------------------

    def service(self, now):
        play = self.linked
        data = self.cable.read()
        if data:
            play.receive(data, now)
        play.tick(now)
        play.check_my_clock()
        self.cable.write(play.take_output())
        if not play.changed:
            return
        play.changed = False
        app = self.app
        app.dirty = True
        if play.session is not None and play.session is not self.session:
            self.adopt(play.session)
        if play.note:
            app.notify(play.note)
            play.note = None
        if play.state == link_play.LOST and self.session is not None and self.overlay is None:
            self.overlay = self.lost_menu()
        elif play.state != link_play.LOST and self.overlay is not None and self.overlay.title == _LOST:
            self.overlay = None
        if self.session is None:
            return
        moved, play.moved = play.moved, None
        if moved is not None or play.peer_take_back is not None or play.peer_draw:
            app.last_input = now  # the other player's move or question wakes a dimmed screen, as a key would
            if app.dimmed or app.blank:
                app.wake()
        if moved is not None:
            app.sounds.move(bin(moved.flipped).count("1"))
            if app.settings["anim"] and moved.flipped:
                self.flipping = moved.flipped
                self.anim_since = now
                self.anim_frame = 0
            self.cursor = moved.square
        self.position_changed()
        self.saved()

    def saved(self):
        """Save the session when its game moved on (every move, on both devices)."""
        game = self.session.game
        mark = (self.session.serial, len(game.history), game.ending is not None, self.session.recorded)
        if mark != self.mark:
            if self.mark is not None and mark[0] == self.mark[0] and game.history and game.history[len(game.history) - 1].square == PASS:
                passer = game.history[len(game.history) - 1].colour
                self.app.notify("%s has no move and passes" % ("You have" if passer == self.linked.my_colour() else COLOURS[passer]))
            self.mark = mark
            self.app.save_session()

    def close(self):
        """Let go of the cable (leaving link play)."""
        if not self.closed:
            self.closed = True
            self.app.background = None
            self.cable.close()

    # ----- the screen -------------------------------------------------------------------------

    def position_changed(self):
        GameView.position_changed(self)
        self.humans_turn = self.linked.my_turn()
        if self.humans_turn and not self.legal >> self.cursor & 1:
            self.step_legal(1)

    def enter(self):
        self.app.dirty = True  # the clocks run on while a menu covers the game: they are the two players'

    def leave(self):
        if self not in self.app.screens:  # closed, not covered
            if self.session is not None:
                self.app.save_session()
            self.close()

    def tick(self, now):
        app = self.app
        if self.session is None or self.linked.state != link_play.PLAYING:
            return
        if self.flipping:
            frame = app.ticks_diff(now, self.anim_since) // 60
            if frame >= 3:
                self.flipping = 0
            if frame != self.anim_frame:
                self.anim_frame = frame
                app.dirty = True
            return
        game = self.session.game
        if self.over:  # position_changed() worked it out when the game last changed: not every frame
            if self.state != OVER:
                self.game_over()
            return
        if self.state == OVER:  # the next game began (here or on the peer)
            self.new_board()
        clock = game.clock
        if clock is not None and clock.left_ms(game.turn, now) // 1000 != self.clock_seconds:
            self.clock_seconds = clock.left_ms(game.turn, now) // 1000
            app.dirty = True
        if self.humans_turn and self.blink.update(now):
            app.dirty = True

    def game_over(self):
        app = self.app
        session = self.session
        self.state = OVER
        self.show_result = True
        if session.recorded:
            return
        result = session.finish()
        app.report_save(app.store.add_record(session.record()), "record not saved")
        self.saved()
        if result.winner is None:
            app.sounds.play(sounds.DRAW)
        else:
            app.sounds.play(sounds.WIN if result.winner == self.linked.my_colour() else sounds.LOSE)

    def handle(self, action):
        app = self.app
        app.dirty = True
        if self.overlay is not None:
            self.overlay.handle(action)
            return
        play = self.linked
        state = play.state
        if state == link_play.PLAYING and self.session is not None:
            self.handle_game(action)
        elif state == link_play.CONSIDERING:
            if action in (keys.OK, keys.BACK):
                play.answer(action == keys.OK)
        elif (state == link_play.OFFERING and not play.offered) or state == link_play.DECLINED:
            if action == keys.OK:
                play.offer(app.rng.below(_ID_RANGE) + 1)
            elif action == keys.BACK:
                app.home()
        elif action == keys.BACK:
            if self.session is not None:
                self.overlay = self.lost_menu()
            else:
                app.home()

    def handle_game(self, action):
        play = self.linked
        self.flipping = 0
        self.blink.restart(self.app.device.ticks_ms())
        if play.peer_take_back is not None or play.peer_draw:
            if action in (keys.OK, keys.BACK):
                accept = action == keys.OK
                if play.peer_take_back is not None:
                    play.answer_take_back(accept)
                else:
                    play.answer_draw(accept)
                self.after_change()
            return
        if self.state == OVER:
            if action == keys.BACK:
                self.open_menu()
            elif action == keys.OK and self.show_result:
                self.next_game()
            else:
                self.show_result = not self.show_result
            return
        if action == keys.BACK:
            self.open_menu()
        elif action == keys.OK:
            self.place()
        elif action in (keys.NEXT, keys.PREV):
            self.step_legal(1 if action == keys.NEXT else -1)
        elif action in (keys.UP, keys.DOWN, keys.LEFT, keys.RIGHT):
            self.move_cursor(action)

    def play(self, square):
        """This player's move, sent to the peer (GameView.place calls it)."""
        app = self.app
        move = self.linked.play(square)
        if move is None:
            return
        app.sounds.move(bin(move.flipped).count("1"))
        if app.settings["anim"] and move.flipped:
            self.flipping = move.flipped
            self.anim_since = app.device.ticks_ms()
            self.anim_frame = 0
        self.after_change()

    def after_change(self):
        """After this player's move or answer: tick() sees a game that ended and records it."""
        self.position_changed()
        self.saved()
        self.app.dirty = True

    def next_game(self):
        self.linked.next_game()
        self.new_board()
        self.saved()

    # ----- menus ----------------------------------------------------------------------------

    def open_menu(self):
        play = self.linked
        over = self.session.game.is_over()
        items = [Item("Resume", self.close_overlay)]
        if over:
            items.append(Item(self.next_label(), lambda: self.from_menu(self.next_game)))
        else:
            if play.take_back_target() is not None and play.asked_take_back is None:
                items.append(Item("Ask take back", lambda: self.from_menu(play.ask_take_back)))
            if not play.asked_draw:
                items.append(Item("Offer draw", lambda: self.from_menu(play.ask_draw)))
            items.append(Item("Resign", lambda: self.from_menu(self.resign)))
        items.append(Item("Game record", lambda: self.show(REPLAY)))
        if over:
            items.append(Item("Review", lambda: self.show(REVIEW)))
        items.append(Item("Save and leave", self.app.home))
        self.overlay = LinkMenu(self, "Link game", items)

    def lost_menu(self):
        return LinkMenu(self, _LOST, [
            Item("Wait", self.close_overlay),
            Item("Play computer", self.play_computer),
            Item("Save and leave", self.app.home),
        ])

    def close_overlay(self):
        self.overlay = None
        self.app.dirty = True

    def from_menu(self, command):
        self.close_overlay()
        command()
        self.after_change()

    def resign(self):
        self.linked.resign()

    def show(self, place):
        self.close_overlay()
        self.app.push(self.app.make(place, self.session.record()))

    def play_computer(self):
        """Carry on against the computer from this position: this player keeps their colour."""
        app = self.app
        session = self.session
        session.mode = MODE_COMPUTER
        session.players[1 - session.me] = app.settings["level"]
        app.save_session()  # show_game() makes the engine again once this screen's code is gone (App.arrive)
        app.show_game()

    # ----- drawing --------------------------------------------------------------------------------

    def draw(self, fb):
        play = self.linked
        if self.session is not None and play.state in (link_play.PLAYING, link_play.LOST):
            GameView.draw(self, fb)
            if play.peer_take_back is not None:
                gfx.dialog(fb, ["Link asks to", "take back", "A: yes  B: no"])
            elif play.peer_draw:
                gfx.dialog(fb, ["Link offers", "a draw", "A: yes  B: no"])
        else:
            title, text, footer = self.page()
            gfx.message(fb, title, text, footer)
        if self.overlay is not None:
            fb.fill(0)
            self.overlay.draw(fb)

    def page(self):
        """(title, text, footer) of the screen before and around the game."""
        play = self.linked
        link = play.link
        state = play.state
        if state == link_play.MISMATCH:
            return ("Other version", "Link protocol %d there, %d here (firmware %s). Update both devices."
                    % (link.peer_version, link.version, link.peer_firmware), "B: back")
        if state == link_play.CONSIDERING:
            return "Offer from Link", offer_text(play.offer_settings, 1 - play.offer_settings["colour"]), "A: accept B: no"
        if state == link_play.OFFERING:
            if play.offered:
                return "Offer sent", offer_text(self.app.settings, self.app.settings["colour"]) + " Waiting for the answer.", "B: back"
            return "Your offer", offer_text(self.app.settings, self.app.settings["colour"]), "A: send  B: back"
        if state == link_play.DECLINED:
            return "Declined", "Link declined the offer. Change the settings in the main menu, or offer again.", "A: again B: back"
        if state == link_play.AWAITING_OFFER:
            return "Linked", "Linked with firmware %s. Waiting for its player's offer." % link.peer_firmware, "B: back"
        if state == link_play.SYNCING:
            return "Linked", "Comparing games with the other device...", "B: back"
        if state == link_play.LOST:
            return _LOST, "The other device does not answer. Check the cable; it carries on by itself.", "B: back"
        return "Link play", "Waiting for the other device: choose Link play on it too.", "B: back"

    def players_line(self):
        return "You v Link" if self.session.game.clock is not None else "Link play"

    def status_line(self):
        play = self.linked
        if play.state == link_play.LOST:
            return "Link lost"
        if self.state == OVER:
            return "Game over"
        if play.asked_take_back is not None or play.asked_draw:
            return "Asked Link"
        return "Your move" if self.humans_turn else "Link moves"

    def result_lines(self):
        lines = GameView.result_lines(self)
        result = self.session.game.result()
        if result.winner is not None:
            mine = self.linked.my_colour()
            lines[0] = "You %s %d-%d" % ("win" if result.winner == mine else "lose", result.score_of(mine), result.score_of(1 - mine))
        reason = self.session.game.result().reason
        if reason == END_RESIGN:
            lines.insert(1, "by resignation")
        elif reason == END_AGREED:
            lines.insert(1, "agreed")
        elif reason == END_TIME and "on time" not in lines:
            lines.insert(1, "on time")
        return lines


_LOST = "Link lost: waiting"


def offer_text(settings, colour):
    """An offer in words, for the player who plays `colour`."""
    size = settings["size"]
    words = ["%dx%d %s" % (size, size, START_NAMES[settings["start"]])]
    if settings["anti"]:
        words.append("anti")
    if settings["hole"]:
        words.append("black hole")
    if settings["handicap"]:
        words.append("%s +%d corners" % (COLOURS[settings["handicap_to"]], settings["handicap"]))
    words.append("clock %d min" % settings["clock"] if settings["clock"] else "no clock")
    if settings["match"] == MATCH_GAMES:
        words.append("match of %d games" % settings["games"])
    elif settings["match"] == MATCH_RACE:
        words.append("race to %d" % settings["race"])
    return ", ".join(words) + ". You play %s." % ("Black" if colour == BLACK else "White")
