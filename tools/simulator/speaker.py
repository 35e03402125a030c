"""The buzzer through the computer's speaker (the window front end): its tones as square waves, with pygame's mixer.

The firmware drives a passive piezo with a square wave (PWM at half duty),
so that is what plays, quietly. Where the machine has no audio device the
speaker stays silent without a word: the mixer is opened with the C
library's error output (ALSA's complaints) sent to /dev/null.
"""

import os
from array import array

RATE = 22050
VOLUME = 0.12  # of full scale: a piezo's tone is shrill, and a click per flipped disc adds up
LONGEST_TONE_MS = 1000  # a tone still sounding plays this long unless the buzzer changes first


def square_wave(freq, ms, rate=RATE, volume=VOLUME):
    """ms milliseconds of a square wave at freq Hz (0: silence) as signed 16-bit mono samples."""
    count = rate * ms // 1000
    if not freq:
        return array("h", bytes(2 * count))
    high = int(32767 * volume)
    return array("h", (high if (2 * freq * index // rate) % 2 == 0 else -high for index in range(count)))


def _quietly(action):
    """Run action() with file descriptor 2 sent to /dev/null: C libraries write there directly."""
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            return action()
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class Speaker:
    """Plays a Hardware buzzer log as it grows: call update(log) every frame. `working` is False without audio."""

    def __init__(self, pygame):
        self._pygame = pygame
        self._heard = 0  # log entries already played
        self.working = False
        try:
            _quietly(lambda: pygame.mixer.init(frequency=RATE, size=-16, channels=1))
            self.working = pygame.mixer.get_init() is not None
        except pygame.error:
            return
        if self.working:
            self._channel = pygame.mixer.Channel(0)

    def update(self, log):
        """Play what the buzzer did since the last call: the finished notes as they were, then the sounding one."""
        changes = log[self._heard :]
        if not changes:
            return
        self._heard = len(log)
        if not self.working:
            return
        samples = array("h")
        for index, (start, freq) in enumerate(changes):
            end = changes[index + 1][0] if index + 1 < len(changes) else None
            if end is not None:
                samples.extend(square_wave(freq, end - start))
            elif freq:
                samples.extend(square_wave(freq, LONGEST_TONE_MS))
        self._channel.stop()  # the tone that was sounding has ended
        if any(samples):
            self._channel.play(self._pygame.mixer.Sound(buffer=samples.tobytes()))

    def close(self):
        if self.working:
            self._pygame.mixer.quit()
