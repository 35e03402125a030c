"""The buzzer: tones and tunes on a PWM pin, played without blocking.

play(notes) takes (frequency Hz, milliseconds) pairs, 0 Hz being a rest, and
starts the first at once; update(now) moves on to the next note when one is
over, timed from the note's own start so a late update does not stretch the
tune. A board without a buzzer keeps the same timing in silence.
"""

from othello.compat import const

_MIN_FREQ = const(20)
_MAX_FREQ = const(20000)
_HALF_DUTY = const(32768)  # a square wave: the loudest a passive piezo gets


class Sound:
    """`pwm` is a machine.PWM on the buzzer pin (or None); `clock` has ticks_ms/ticks_diff/ticks_add."""

    def __init__(self, pwm, clock):
        self._pwm = pwm
        self._clock = clock
        self._notes = ()
        self._next = 0  # index of the note after the one sounding
        self._ends = 0  # when the sounding note is over
        self._enabled = True
        self.playing = False
        if pwm is not None:
            pwm.freq(1000)
            pwm.duty_u16(0)

    @property
    def enabled(self):
        """False mutes: nothing sounds until it is True again."""
        return self._enabled

    @enabled.setter
    def enabled(self, on):
        self._enabled = bool(on)
        if not on:
            self.stop()

    def tone(self, freq_hz, duration_ms):
        self.play(((freq_hz, duration_ms),))

    def play(self, notes):
        """Start a tune of (Hz, ms) pairs, replacing whatever was playing."""
        for freq, duration in notes:
            if freq != 0 and not _MIN_FREQ <= freq <= _MAX_FREQ:
                raise ValueError("tone of %s Hz: a buzzer tone is 0 (rest) or %d-%d Hz" % (freq, _MIN_FREQ, _MAX_FREQ))
            if duration < 0:
                raise ValueError("note of %s ms: durations are not negative" % (duration,))
        if not self._enabled:
            return
        self._notes = notes
        self._next = 0
        self._ends = self._clock.ticks_ms()
        self.playing = True
        self.update(self._ends)

    def update(self, now):
        """Call often (each pass of the main loop): ends notes that are over and starts the next."""
        if not self.playing or self._clock.ticks_diff(now, self._ends) < 0:
            return
        ticks_diff = self._clock.ticks_diff
        while self._next < len(self._notes):
            freq, duration = self._notes[self._next]
            self._next += 1
            self._ends = self._clock.ticks_add(self._ends, duration)
            if ticks_diff(now, self._ends) < 0:
                self._sound(freq)
                return
        self.stop()

    def stop(self):
        self._notes = ()
        self._next = 0
        self.playing = False
        self._sound(0)

    def _sound(self, freq):
        if self._pwm is None:
            return
        if freq:
            self._pwm.freq(freq)
            self._pwm.duty_u16(_HALF_DUTY)
        else:
            self._pwm.duty_u16(0)
