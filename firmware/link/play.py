"""The linked game: who offers, the offer, the moves, take-back, resign, draw, and recovery after a lost link.

    play = LinkPlay(protocol, session, make_session, settings)
    play.receive(data, now); play.tick(now); uart.write(play.take_output())

`session` is the saved linked session (ui/session.py, mode "link") or None;
`make_session(settings, me, link_id)` makes a new one when an offer is
accepted; `settings` are this device's new-game choices, offered when it is
this device's turn to offer. The screen reads `state`, `session` and the
flags below, and calls offer(), answer(), play(), ask_take_back(),
answer_take_back(), resign(), ask_draw(), answer_draw(), next_game().

Both devices hold the same session; every change to it goes through here,
so the two apply the same changes in the same order. Passes are not sent:
each device passes for a player who cannot move, as the rules force it.
After every (re)connection both send SYNC (their game id, game number,
ending and moves); the chair (the device with the larger session id)
decides: carry on from the longer history when one is the start of the
other, else from their common start, and says so in RESUME. Without a
common game it names the device that offers: the one that opened Link play
first. docs/LINK.md has every message's bytes.
"""

from othello.board import IllegalMoveError
from othello.compat import const
from othello.scoring import END_AGREED, END_BOARD, END_RESIGN, END_TIME, Result, time_loss_result
from othello.match import MODES as MATCH_MODES
from othello.variant import BLACK, STARTS, WHITE
from link import protocol as transport

SYNC = const(0x10)
OFFER = const(0x11)
ANSWER = const(0x12)
RESUME = const(0x13)
MOVE = const(0x14)
TAKE_BACK = const(0x15)
TAKE_BACK_ANSWER = const(0x16)
END = const(0x17)
DRAW = const(0x18)
DRAW_ANSWER = const(0x19)
NEXT = const(0x1A)
YOUR_OFFER = const(0x1B)

# States, as the screen shows them
CONNECTING = "connecting"
MISMATCH = "mismatch"
SYNCING = "syncing"
OFFERING = "offering"  # this device offers: `offered` says whether the offer is out
CONSIDERING = "considering"  # the peer's offer (`offer`) waits for this player's answer
AWAITING_OFFER = "awaiting offer"
DECLINED = "declined"
PLAYING = "playing"
LOST = "lost"

_PASS_BYTE = const(255)
_NO_HOLE = const(255)
_REASONS = (END_BOARD, END_TIME, END_RESIGN, END_AGREED)

# What RESUME says happened (`notes`)
SAME = const(0)
CAUGHT_UP = const(1)  # one device had moves the other never got: both carry on from the longer history
CUT_BACK = const(2)  # the histories part: both carry on from their common start
NOTES = ("", "Caught up on missed moves", "Histories differed: back to move %d")


class LinkPlay:
    def __init__(self, link, session, make_session, settings):
        self.link = link
        self.session = session
        self.make_session = make_session
        self.settings = settings
        self.state = CONNECTING
        self.offer_settings = None  # the offer out or in, as new-game settings
        self.offer_id = 0
        self.offered = False
        self.asked_take_back = None  # move count this player asked to go back to
        self.peer_take_back = None  # move count the peer asks to go back to
        self.asked_draw = False
        self.peer_draw = False
        self.note = None  # a sentence for the screen: what recovery did, a refused offer
        self.moved = None  # the peer's last move, for the screen's animation and sound
        self.changed = True

    # ----- the conversation ---------------------------------------------------------

    def receive(self, data, now):
        self.link.receive(data, now)
        self.after(now)

    def tick(self, now):
        self.link.tick(now)
        self.after(now)

    def take_output(self):
        return self.link.take_output()

    def after(self, now):
        for event in self.link.take_events():
            self.changed = True
            if event == transport.CONNECTED:
                self.sync()
            elif event == transport.LOST:
                self.state = LOST
                self.clear_questions()
            else:
                self.state = MISMATCH
        for kind, payload in self.link.take_messages():
            self.changed = True
            try:
                self.message(kind, payload, now)
            except (IndexError, ValueError):  # a well-framed message that makes no sense: start over from SYNC
                self.sync()

    def is_chair(self):
        return self.link.my_id > self.link.peer_id

    def clear_questions(self):
        self.asked_take_back = self.peer_take_back = None
        self.asked_draw = self.peer_draw = False

    def sync(self):
        self.state = SYNCING
        self.clear_questions()
        self.link.send(SYNC, self.sync_payload())

    def sync_payload(self):
        session = self.session
        age = self.link.age_s(self.link.heard_at)
        head = bytearray((age >> 8, age & 0xFF))
        if session is None:
            return head + bytes(10)
        head += bytes((session.link_id >> 8, session.link_id & 0xFF, session.serial, ending_code(session)))
        head += _result_bytes(session.match)
        return head + moves_of(session.game)

    def message(self, kind, payload, now):
        session = self.session
        if kind == SYNC:
            if self.state != SYNCING:  # the peer started it: answer with ours
                self.sync()
            if self.is_chair():
                self.decide(payload)
        elif kind == YOUR_OFFER:
            self.state = OFFERING
            self.offered = False
        elif kind == OFFER:
            self.offer_id = (payload[0] << 8) | payload[1]
            self.offer_settings = settings_from_bytes(payload[2:])
            self.state = CONSIDERING
        elif kind == ANSWER:
            if self.state == OFFERING and self.offered and (payload[0] << 8) | payload[1] == self.offer_id:
                if payload[2]:
                    self.begin(self.offer_settings, 0, self.offer_id)
                else:
                    self.state = DECLINED
        elif kind == RESUME:
            self.resume(payload)
        elif self.state != PLAYING or session is None or (payload[0] << 8) | payload[1] != session.link_id or payload[2] != session.serial:
            return  # about another game, or SYNC is about to put things right
        elif kind == MOVE:
            self.peer_move(payload[3], payload[4])
        elif kind == TAKE_BACK:
            if session.game.is_over():
                # The game ended here as the peer asked (a draw or an ending crossed the request): a finished
                # game is not taken back, and the peer learns of the ending from the message that ended it.
                self.send_game(TAKE_BACK_ANSWER, 0, payload[3])
                return
            if self.asked_take_back is not None and self.is_chair():
                return  # both asked at once: the chair's request stands, the peer answers it
            self.asked_take_back = None
            self.peer_take_back = payload[3]
        elif kind == TAKE_BACK_ANSWER:
            if self.asked_take_back == payload[4] and payload[3]:
                self.go_back(payload[4])
            self.asked_take_back = None
        elif kind == END:
            self.peer_end(payload[3:])
        elif kind == DRAW:
            if self.asked_draw:  # both offered: that is agreement
                self.end_game(agree_draw, self.session.game)
            else:
                self.peer_draw = True
        elif kind == DRAW_ANSWER:
            if self.asked_draw and payload[3] and not session.game.is_over():
                self.end_game(agree_draw, session.game)
            self.asked_draw = False
        elif kind == NEXT:
            if session.game.is_over():
                self.start_next()

    # ----- who offers, and the offer ----------------------------------------------------

    def decide(self, peer):
        """The chair's decision once both SYNCs are known: resume the common game, or who offers."""
        session = self.session
        peer_id = (peer[2] << 8) | peer[3]
        if session is not None and peer_id == session.link_id and peer_id:
            mine = moves_of(session.game)
            theirs = peer[12:]
            serial, ending, result = session.serial, ending_code(session), _result_bytes(session.match)
            if peer[4] != serial:  # one moved on to the next game without the other: the one ahead leads
                if (peer[4] - serial) & 0xFF < 128:
                    serial, ending, result = peer[4], peer[5], peer[6:12]
                    mine = theirs
                agreed, note = mine, SAME
            else:
                agreed, note = reconcile(mine, theirs)
                if agreed != mine:
                    ending = peer[5]
                elif agreed == theirs and not ending:
                    ending = peer[5]
            payload = bytes((peer_id >> 8, peer_id & 0xFF, serial, ending)) + result + bytes((note,)) + agreed
            self.link.send(RESUME, payload)
            self.resume(payload)
            return
        peer_age = (peer[0] << 8) | peer[1]
        my_age = self.link.age_s(self.link.heard_at)
        if my_age >= peer_age:  # this device opened Link play first (or at the same second: the chair)
            self.state = OFFERING
            self.offered = False
        else:
            self.link.send(YOUR_OFFER)
            self.state = AWAITING_OFFER

    def offer(self, link_id):
        """Send this device's settings as the offer; `link_id` is the new game's id (any 1..65535)."""
        self.offer_settings = self.settings
        self.offer_id = link_id & 0xFFFF or 1
        self.link.send(OFFER, bytes((self.offer_id >> 8, self.offer_id & 0xFF)) + settings_to_bytes(self.settings))
        self.offered = True
        self.state = OFFERING
        self.changed = True

    def answer(self, accept):
        """This player's answer to the peer's offer."""
        if self.state != CONSIDERING:
            return
        self.link.send(ANSWER, bytes((self.offer_id >> 8, self.offer_id & 0xFF, 1 if accept else 0)))
        if accept:
            self.begin(self.offer_settings, 1, self.offer_id)
        else:
            self.state = AWAITING_OFFER
        self.changed = True

    def begin(self, settings, me, link_id):
        self.session = self.make_session(settings, me, link_id)
        self.state = PLAYING
        self.note = None
        self.pass_if_forced()

    def resume(self, payload):
        session = self.session
        if session is None or (payload[0] << 8) | payload[1] != session.link_id:
            return
        serial, ending, result, note, moves = payload[2], payload[3], payload[4:10], payload[10], payload[11:]
        if serial != session.serial:  # this device missed the end of a game: enter its result, as the other did
            if not session.recorded:
                winner = result[0] if result[0] < 2 else None
                session.game.end(Result(winner, result[1], result[2], _REASONS[result[3] % 4]))
                session.finish()
            session.new_game(None)
        self.state = PLAYING
        self.replay(moves)
        if ending and not session.game.is_over():
            apply_ending(session.game, ending)
        self.note = NOTES[note] % session.game.move_count() if note == CUT_BACK else (NOTES[note] or None)
        self.changed = True

    def replay(self, moves):
        """Bring the game to exactly `moves` (squares, passes left out): back to the common start, then on."""
        game = self.session.game
        mine = moves_of(game)
        common = 0
        while common < len(mine) and common < len(moves) and mine[common] == moves[common]:
            common += 1
        if game.ending is not None and common < len(mine) + 1:
            game.ending = None  # the ending belonged to the longer history; the chair sends it again if it stands
        self.go_back(common)
        for square in moves[common:]:
            self.apply(square)

    # ----- moves ----------------------------------------------------------------------

    def my_colour(self):
        session = self.session
        return session.black_player ^ session.me  # match player `me` has Black when black_player == me

    def my_turn(self):
        game = self.session.game
        return self.state == PLAYING and game.turn == self.my_colour() and not game.is_over()

    def play(self, square):
        """This player's move (legal: the screen checks); returns the Move, or None when it is not their turn."""
        if not self.my_turn():
            return None
        session = self.session
        index = session.game.move_count()
        move = session.game.play(square)
        self.send_game(MOVE, index, square)
        self.pass_if_forced()
        return move

    def peer_move(self, index, square):
        game = self.session.game
        if index < game.move_count():
            return  # already here (a repeat)
        if index > game.move_count() or game.is_over() or game.turn == self.my_colour() or square == _PASS_BYTE or not game.board.is_legal(square):
            self.sync()  # noise cannot get here (the CRC); a peer that thinks otherwise gets both to compare
            return
        self.moved = game.play(square)
        self.pass_if_forced()

    def apply(self, square):
        self.session.game.play(square)
        self.pass_if_forced()

    def pass_if_forced(self):
        game = self.session.game
        if not game.is_over() and game.board.must_pass():
            game.pass_turn()

    def send_game(self, kind, *values):
        session = self.session
        self.link.send(kind, bytes((session.link_id >> 8, session.link_id & 0xFF, session.serial) + values))

    # ----- take back, resign, draw ------------------------------------------------------

    def take_back_target(self):
        """The move count before this player's last move, or None if they have not moved."""
        count = self.session.game.move_count()
        mine = self.my_colour()
        for move in reversed(list(self.session.game.history)):
            if move.square >= 0:
                count -= 1
                if move.colour == mine:
                    return count
        return None

    def ask_take_back(self):
        target = self.take_back_target()
        if target is None or self.session.game.is_over():
            return False
        self.asked_take_back = target
        self.send_game(TAKE_BACK, target)
        return True

    def answer_take_back(self, accept):
        target = self.peer_take_back
        if target is None:
            return
        self.peer_take_back = None
        accept = accept and not self.session.game.is_over()  # the game ended while the question was open
        self.send_game(TAKE_BACK_ANSWER, 1 if accept else 0, target)
        if accept:
            self.go_back(target)

    def go_back(self, count):
        """Undo to `count` moves (passes after them kept as the rules force them)."""
        game = self.session.game
        game.ending = None if count < game.move_count() else game.ending
        while game.move_count() > count:
            game.take_back()
        game.future = []
        self.pass_if_forced()  # a pass the kept moves force (the history is the same on both devices)
        self.changed = True

    def resign(self):
        self.end_game(resign, self.session.game, self.my_colour())
        self.send_game(END, ending_code(self.session))

    def check_my_clock(self):
        """End the game when this player's own clock has run out (each device judges only its own player's
        clock). Called every frame: the board's moves are looked at only once the clock has run out."""
        session = self.session
        if session is None or self.state != PLAYING or session.game.clock is None or session.game.turn != self.my_colour():
            return
        if session.game.check_time() is not None:
            self.send_game(END, ending_code(self.session))
            self.changed = True

    def peer_end(self, code):
        game = self.session.game
        ending = code[0]
        if game.is_over():
            if game.ending is None or self.is_chair() or ending_code(self.session) == ending:
                return  # a board's end stands; of two endings at once, the chair's
            game.ending = None
        apply_ending(game, ending)
        self.clear_questions()

    def ask_draw(self):
        self.asked_draw = True
        self.send_game(DRAW)

    def answer_draw(self, accept):
        if not self.peer_draw:
            return
        self.peer_draw = False
        self.send_game(DRAW_ANSWER, 1 if accept else 0)
        if accept:
            self.end_game(agree_draw, self.session.game)

    def end_game(self, ending, *arguments):
        if not self.session.game.is_over():
            ending(*arguments)
        self.clear_questions()
        self.changed = True

    def next_game(self):
        """The next game of the match (or a new match), here and on the peer."""
        self.send_game(NEXT)  # numbered as the game that ended: a peer already past it ignores it
        self.start_next()

    def start_next(self):
        session = self.session
        session.finish()
        session.new_game(None)
        self.clear_questions()
        self.pass_if_forced()
        self.changed = True


# ----- the bytes of the messages ---------------------------------------------------------


def moves_of(game):
    """The game's squares, passes left out, as bytes."""
    return bytes(square for square in game.history.squares() if square >= 0)


def reconcile(mine, theirs):
    """(the history both carry on from, what happened): the longer when one starts the other, else the common start."""
    if mine == theirs:
        return mine, SAME
    shorter, longer = (mine, theirs) if len(mine) <= len(theirs) else (theirs, mine)
    if longer[: len(shorter)] == shorter:
        return longer, CAUGHT_UP
    common = 0
    while mine[common] == theirs[common]:
        common += 1
    return mine[:common], CUT_BACK


def ending_code(session):
    """0 while the game goes on or ended on the board; else 1 + reason index * 3 + (winner, or 2 for a draw)."""
    ending = session.game.ending
    if ending is None:
        return 0
    return 1 + _REASONS.index(ending.reason) * 3 + (2 if ending.winner is None else ending.winner)


# The endings only link play has, kept out of othello.game (loaded for every game) so that their names are
# interned only in link play (docs/MEMORY.md, "Interned names").
def resign(game, colour):
    """`colour` gives up: scored as a loss on time (RULES.md, Clock)."""
    _check_running(game)
    b = game.board
    game.end(time_loss_result(colour, b.count(BLACK), b.count(WHITE), b.empties(), END_RESIGN))


def agree_draw(game):
    """A draw by agreement: the squares split evenly, as a drawn board is."""
    _check_running(game)
    b = game.board
    total = b.count(BLACK) + b.count(WHITE) + b.empties()
    game.end(Result(None, total // 2, total - total // 2, END_AGREED))


def _check_running(game):
    if game.is_over():
        raise IllegalMoveError("the game is over")


def apply_ending(game, code):
    reason = _REASONS[(code - 1) // 3]
    winner = (code - 1) % 3
    if reason == END_AGREED:
        agree_draw(game)
    elif reason == END_TIME:
        game.check_time()
        if game.ending is None:  # this device's clock is a little behind: the other's judgement stands
            resign(game, 1 - winner)
            game.ending.reason = END_TIME
    else:
        resign(game, 1 - winner)


def _result_bytes(match):
    """The last recorded game's result, 6 bytes: winner (2 a draw), black, white, reason, and 2 spare."""
    if not match.games:
        return bytes(6)
    result = match.games[-1][1]
    return bytes((2 if result.winner is None else result.winner, result.black, result.white, _REASONS.index(result.reason), 0, 0))


_SETTING_KEYS = ("size", "first", "anti", "handicap", "handicap_to", "hole", "clock", "colour")


def settings_to_bytes(settings):
    """An offer's settings, 12 bytes: the keys above, then start, match mode, games, race (2 bytes)."""
    out = bytearray(settings[key] & 0xFF for key in _SETTING_KEYS)
    out.append(STARTS.index(settings["start"]))
    out.append(MATCH_MODES.index(settings["match"]))
    out.append(settings["games"])
    out.append(settings["race"] >> 8)
    out.append(settings["race"] & 0xFF)
    return bytes(out)


def settings_from_bytes(data):
    if len(data) != len(_SETTING_KEYS) + 5:
        raise ValueError("offer of %d bytes" % len(data))
    settings = {}
    for index, key in enumerate(_SETTING_KEYS):
        settings[key] = data[index]
    for key in ("anti", "hole"):
        settings[key] = bool(settings[key])
    at = len(_SETTING_KEYS)
    settings["start"] = STARTS[data[at]]
    settings["match"] = MATCH_MODES[data[at + 1]]
    settings["games"] = data[at + 2]
    settings["race"] = (data[at + 3] << 8) | data[at + 4]
    return settings
