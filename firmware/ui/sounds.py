"""The buzzer's sound effects: (frequency Hz, milliseconds) steps, 0 Hz a rest."""

from othello.compat import const

ILLEGAL = ((196, 90), (0, 30), (147, 140))
PASS = ((880, 70), (0, 30), (660, 110))
WIN = ((523, 90), (659, 90), (784, 90), (1047, 220))
LOSE = ((392, 140), (330, 140), (262, 260))
DRAW = ((523, 120), (0, 60), (523, 120))
HINT = ((1319, 40), (1760, 60))
CLICK = ((1175, 12),)

# A placed disc and each flip of a move (private: Sounds.move() alone plays them, and names cost heap)
_PLACE = const(((1568, 25),))
_FLIP_TICK = const(((2637, 8), (0, 22)))
_MAX_TICKS = const(12)  # flips beyond this make no further ticks: a long rattle is noise


class Sounds:
    def __init__(self, sound, settings):
        self.sound = sound
        self.settings = settings

    def play(self, tune):
        if self.settings["sound"]:
            self.sound.play(tune)

    def move(self, flipped_count):
        """The click of a placed disc followed by one tick per flipped disc."""
        if not self.settings["sound"]:
            return
        self.sound.play(_PLACE + _FLIP_TICK * min(flipped_count, _MAX_TICKS))

    def update(self, now):
        self.sound.update(now)

    def stop(self):
        self.sound.stop()
