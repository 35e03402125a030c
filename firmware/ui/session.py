"""A sitting at the handheld: who plays each colour, the match, the game on the board, and how they are saved.

Modes: against the computer (match player 0 is the human, 1 the computer),
two players (both human), and the demo (both computer). Colours alternate
from game to game as the Match says.

Take back and redo work in whole turns: against the computer, take back
returns to the human's previous move, and forced passes are skipped over,
so the player is never left facing a pass notice they already answered.
"""

from othello.compat import const
from othello.board import PASS
from othello.game import Game
from othello.match import MATCH_GAMES, MATCH_RACE, Match
from othello.variant import BLACK, Variant
from ui.store import GAME

MODE_COMPUTER = "cpu"
MODE_TWO = "two"
MODE_DEMO = "demo"
MODE_LINK = "link"  # one human here, one on the linked device (link/play.py keeps the two sessions the same)
MODES = (MODE_COMPUTER, MODE_TWO, MODE_DEMO, MODE_LINK)
_VARIANT_KEYS = const(("size", "start", "first", "anti", "handicap", "handicap_to", "black_hole"))
_RULE_KEYS = const(("size", "start", "first", "anti", "handicap", "handicap_to", "black_hole", "random_hole", "clock",
                     "position"))  # _VARIANT_KEYS and these


class Rng:
    """xorshift32, seeded by the clock and stirred by the timing of key presses.

    Enough to place a random black hole; the WASI MicroPython has no random module.
    """

    def __init__(self, seed):
        self.state = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def stir(self, value):
        self.state = (self.state ^ (value * 40503)) & 0xFFFFFFFF or 1

    def below(self, n):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x % n


def rules_from_settings(settings, start=None, variant=None):
    """The rules every game of a new session is played with.

    `variant` fixes them (a set-up position brings its own board);
    otherwise the settings choose, and a black hole is placed at random
    anew for each game.
    """
    if variant is not None:
        rules = variant.to_dict()
        rules["random_hole"] = False
    else:
        rules = {
            "size": settings["size"],
            "start": settings["start"],
            "first": settings["first"],
            "anti": settings["anti"],
            "handicap": settings["handicap"],
            "handicap_to": settings["handicap_to"],
            "black_hole": None,
            "random_hole": settings["hole"],
        }
    rules["clock"] = settings["clock"]
    rules["position"] = start
    return rules


def variant_for(rules, rng):
    """The Variant of the next game: the rules, with a fresh random black hole if they ask for one."""
    fields = {}
    for key in _VARIANT_KEYS:
        fields[key] = rules[key]
    if not rules["random_hole"]:
        return Variant(**fields)
    while True:
        fields["black_hole"] = rng.below(rules["size"] * rules["size"])
        try:
            return Variant(**fields)
        except ValueError:  # a centre or handicap square: draw again
            pass


class Session:
    def __init__(self, mode, players, match, rules, now):
        self.mode = mode
        self.players = players  # per match player: None for a human, else the computer's level
        self.match = match
        self.rules = rules
        self.now = now
        self.game = None
        self.black_player = match.black_player()
        self.recorded = False  # the finished game is in the match and the records
        # Link play: this device's match player, the linked game's id, and how many games it has begun
        self.me = 0
        self.link_id = 0
        self.serial = 0

    @classmethod
    def start(cls, settings, mode, now, rng, start=None, variant=None):
        """A new session from the menu's choices; `start` is a set-up position (with its `variant`)."""
        first_black = 0
        if mode == MODE_COMPUTER:
            players = [None, settings["level"]]
            first_black = 0 if settings["colour"] == BLACK else 1
        elif mode == MODE_TWO:
            players = [None, None]
        else:
            players = [settings["demo_black"], settings["demo_white"]]
        target = 1
        if settings["match"] == MATCH_GAMES:
            target = settings["games"]
        elif settings["match"] == MATCH_RACE:
            target = settings["race"]
        session = cls(mode, players, Match(settings["match"], target, first_black), rules_from_settings(settings, start, variant), now)
        session.new_game(rng)
        return session

    @classmethod
    def linked(cls, settings, me, link_id, now):
        """A linked session: the offering device's `settings` ("colour" is the offerer's), seen as match player `me`."""
        target = {MATCH_GAMES: settings["games"], MATCH_RACE: settings["race"]}.get(settings["match"], 1)
        session = cls(MODE_LINK, [None, None], Match(settings["match"], target, settings["colour"]), rules_from_settings(settings), now)
        session.me = me
        session.link_id = link_id
        session.new_game(None)
        return session

    def new_game(self, rng):
        """The next game of the match (a new match if this one is decided)."""
        if self.mode == MODE_LINK:  # both devices draw the same black hole: from the game's id and number
            rng = Rng(self.link_id * 251 + self.serial)
            self.serial = (self.serial + 1) & 0xFF
        if self.match.is_over():
            old = self.match
            self.match = Match(old.mode, old.target, old.first_black)
        rules = self.rules
        clock_ms = rules["clock"] * 60000 if rules["clock"] else None
        self.game = Game(variant_for(rules, rng), clock_ms, self.now, rules["position"])
        self.black_player = self.match.black_player()
        self.recorded = False

    # ----- who plays -------------------------------------------------------------

    def player_of(self, colour):
        """The match player (0 or 1) who has `colour` in this game."""
        return self.black_player if colour == BLACK else 1 - self.black_player

    def level_of(self, colour):
        """The computer's level playing `colour`, or None for a human."""
        return self.players[self.player_of(colour)]

    def label(self, colour):
        """Short name of who plays `colour`: You, P1, P2 or the computer's level (L3)."""
        level = self.level_of(colour)
        if level is not None:
            return "L%d" % level
        if self.mode == MODE_LINK:
            return self.player_label(self.player_of(colour))
        if self.mode == MODE_COMPUTER:
            return "You"
        return "P%d" % (self.player_of(colour) + 1)

    def player_label(self, player):
        """Short name of a match player, for the standing."""
        level = self.players[player]
        if self.mode == MODE_COMPUTER:
            return "You" if level is None else "CPU"
        if self.mode == MODE_TWO:
            return "P%d" % (player + 1)
        if self.mode == MODE_LINK:
            return "You" if player == self.me else "Link"
        return "L%d" % level

    # ----- take back and redo --------------------------------------------------------

    def _by_human(self, move):
        return move.square != PASS and self.level_of(move.colour) is None

    def take_back(self):
        """Undo back to before the last human move; returns whether anything changed."""
        if self.recorded:
            return False
        changed = False
        while True:
            move = self.game.take_back()
            if move is None:
                return changed
            changed = True
            if self._by_human(move):
                return True

    def redo(self):
        """Replay the next human move and the replies up to the next human turn."""
        game = self.game
        changed = False
        while True:
            move = game.redo()
            if move is None:
                return changed
            changed = True
            if self._by_human(move):
                while game.future and (game.future[0] == PASS or self.level_of(game.turn) is not None):
                    if game.redo() is None:
                        break
                return True

    def can_take_back(self):
        return not self.recorded and self.game.ending is None and any(self._by_human(m) for m in self.game.history)

    # ----- the end of a game -------------------------------------------------------

    def finish(self):
        """Enter a finished game's result in the match, once; returns the Result."""
        result = self.game.result()
        if not self.recorded:
            self.match.record(result)
            self.recorded = True
        return result

    def record(self):
        """The game as kept in the records: rules, start, moves, result and who played."""
        game = self.game
        result = game.result()
        return {
            "v": game.variant.to_dict(),
            "s": self.rules["position"],
            "t": game.transcript(),
            "r": None if result is None else [result.winner, result.black, result.white, result.reason],
            "p": [self.label(0), self.label(1)],
        }

    # ----- saving ----------------------------------------------------------------------

    def to_dict(self):
        return {
            "mode": self.mode,
            "players": self.players,
            "match": self.match.to_dict(),
            "rules": self.rules,
            "game": self.game.to_dict(),
            "black_player": self.black_player,
            "recorded": self.recorded,
            "link": [self.me, self.link_id, self.serial],
        }

    @classmethod
    def from_dict(cls, data, level_count, now):
        """Inverse of to_dict; raises ValueError naming what is wrong."""
        try:
            mode = data["mode"]
            players = list(data["players"])
            if mode not in MODES or len(players) != 2:
                raise ValueError("bad mode or players")
            for level in players:
                if level is not None and not (isinstance(level, int) and 1 <= level <= level_count):
                    raise ValueError("bad level %r" % (level,))
            rules = data["rules"]
            for key in _RULE_KEYS:
                if key not in rules:
                    raise ValueError("rules lack %s" % key)
            if not isinstance(rules["clock"], int) or rules["clock"] < 0:
                raise ValueError("bad clock %r" % (rules["clock"],))
            Game(variant_for(rules, Rng(1)), None, now, rules["position"])  # the next game must be possible too
            session = cls(mode, players, Match.from_dict(data["match"]), rules, now)
            session.game = Game.from_dict(data["game"], now)
            session.black_player = data["black_player"]
            session.recorded = bool(data["recorded"])
            session.me, session.link_id, session.serial = data.get("link", (0, 0, 0))
            if session.me not in (0, 1):
                raise ValueError("bad link player")
            if session.black_player not in (0, 1):
                raise ValueError("bad black player")
        except (KeyError, TypeError, IndexError) as error:
            raise ValueError("incomplete: %r" % (error,))
        return session

    @classmethod
    def load(cls, store, level_count, now):
        """The saved session, or None; (session, problem)."""
        data, problem = store.load(GAME)
        if data is None:
            return None, problem
        try:
            return cls.from_dict(data, level_count, now), None
        except ValueError:
            return None, GAME + " damaged"
