"""The buzzer on the desktop: square waves through pygame's mixer in the window, a note in the terminal."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.speaker import RATE, VOLUME, square_wave

REPO = Path(__file__).resolve().parent.parent


def test_a_square_wave_has_the_tone_length_and_loudness_asked():
    wave = square_wave(1000, 100)
    assert len(wave) == RATE // 10
    high = int(32767 * VOLUME)
    assert set(wave) == {high, -high}
    flips = sum(1 for a, b in zip(wave, wave[1:]) if a != b)
    assert flips in (199, 200), "1000 Hz: two flips a millisecond"
    assert not any(square_wave(0, 30)), "0 Hz is a rest"


def _speaker_run(driver):
    """A Speaker in a fresh process with SDL_AUDIODRIVER=driver, fed a click and a rest; (stdout, stderr)."""
    code = (
        "import sys; sys.path.insert(0, %r)\n"
        "import pygame\n"
        "from simulator.speaker import Speaker\n"
        "speaker = Speaker(pygame)\n"
        "speaker.update([(0, 1568), (25, 0)])\n"
        "speaker.update([(0, 1568), (25, 0), (40, 880)])\n"
        "print(speaker.working)\n"
        "speaker.close()\n"
    ) % str(REPO / "tools")
    env = dict(os.environ, SDL_AUDIODRIVER=driver, PYGAME_HIDE_SUPPORT_PROMPT="1")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip(), done.stderr


def test_the_speaker_plays_through_an_audio_driver():
    pytest.importorskip("pygame")
    assert _speaker_run("dummy") == ("True", "")


def test_without_an_audio_device_the_speaker_is_quietly_silent():
    pytest.importorskip("pygame")
    assert _speaker_run("no_such_audio_device") == ("False", "")
