"""Match play (../shared/RULES.md, "Match play").

Two players, numbered 0 and 1, alternate colours from game to game. Each
game's winner scores the disc difference (40-24 scores 16).

- MATCH_SINGLE: one game.
- MATCH_GAMES:  a fixed number of games; most points wins (equal points: a drawn match).
- MATCH_RACE:   the first to reach a target number of points wins.
"""

from othello.scoring import Result
from othello.variant import BLACK

MATCH_SINGLE = "single"
MATCH_GAMES = "games"
MATCH_RACE = "race"
MODES = (MATCH_SINGLE, MATCH_GAMES, MATCH_RACE)


class Match:
    def __init__(self, mode=MATCH_SINGLE, target=1, first_black=0):
        """`target` is the number of games (MATCH_GAMES) or of points (MATCH_RACE)."""
        if mode not in MODES:
            raise ValueError("match mode must be one of %s, not %r" % (MODES, mode))
        if mode == MATCH_SINGLE:
            target = 1
        if not isinstance(target, int) or target < 1:
            raise ValueError("match target must be a positive whole number, not %r" % (target,))
        self.mode = mode
        self.target = target
        self.first_black = first_black
        self.points = [0, 0]
        self.games = []  # (player who had Black, Result)

    def black_player(self):
        """The player who has Black in the next game (colours alternate)."""
        return (self.first_black + len(self.games)) % 2

    def record(self, result):
        """Add a finished game's Result; returns the player who scored (None for a draw)."""
        if self.is_over():
            raise ValueError("the match is already decided")
        black_player = self.black_player()
        self.games.append((black_player, result))
        if result.winner is None:
            return None
        scorer = black_player if result.winner == BLACK else 1 - black_player
        self.points[scorer] += result.margin
        return scorer

    def is_over(self):
        if self.mode == MATCH_RACE:
            return max(self.points) >= self.target
        return len(self.games) >= self.target

    def winner(self):
        """The winning player once the match is over; None while it goes on or if it is drawn."""
        if not self.is_over() or self.points[0] == self.points[1]:
            return None
        return 0 if self.points[0] > self.points[1] else 1

    def standing(self):
        """A short text for the screen, e.g. 'P1 16 - P2 4 (game 3/5)'."""
        if self.mode == MATCH_RACE:
            progress = "race to %d" % self.target
        else:
            progress = "game %d/%d" % (min(len(self.games) + 1, self.target), self.target)
        return "P1 %d - P2 %d (%s)" % (self.points[0], self.points[1], progress)

    def to_dict(self):
        return {
            "mode": self.mode,
            "target": self.target,
            "first_black": self.first_black,
            "games": [[black, r.winner, r.black, r.white, r.reason] for black, r in self.games],
        }

    @classmethod
    def from_dict(cls, data):
        try:
            match = cls(data["mode"], data["target"], data.get("first_black", 0))
            for black_player, winner, black, white, reason in data["games"]:
                if black_player != match.black_player():
                    raise ValueError("saved match has colours out of turn")
                match.record(Result(winner, black, white, reason))
        except (KeyError, TypeError) as error:
            raise ValueError("saved match is incomplete: %r" % (error,))
        return match
