"""The buzzer: tunes play without blocking, on time, through the PWM the board logs."""

import json
from pathlib import Path

import pytest

import hw
import simulator

REPO = Path(__file__).resolve().parent.parent
TUNE = [(440, 100), (0, 50), (880, 100)]


def open_board(tmp_path, buzzer=True):
    data = json.loads((REPO / "board_configs" / "pico_breadboard_i2c.json").read_text())
    if not buzzer:
        data.pop("buzzer")
    config = hw.load_config(data)
    board = simulator.LocalBoard(config, tmp_path, read_cost_ms=0)
    return hw.open_device(config), board


def play_out(device, board, ms, every):
    for _ in range(ms // every):
        board.advance(every)
        device.sound.update(device.ticks_ms())


def test_a_tune_plays_on_time_without_blocking(tmp_path):
    device, board = open_board(tmp_path)
    board.advance(10)
    device.sound.play(TUNE)
    assert device.sound.playing and board.clock.elapsed == 10, "play() returns at once"
    play_out(device, board, 400, every=1)
    assert board.hardware.buzzer_log == [(0, 0), (10, 440), (110, 0), (160, 880), (260, 0)]
    assert board.hardware.notes() == [(10, 440, 100), (160, 880, 100)]
    assert not device.sound.playing


def test_late_updates_do_not_stretch_the_tune(tmp_path):
    device, board = open_board(tmp_path)
    device.sound.play(TUNE)
    play_out(device, board, 420, every=70)
    # each note is due from its own start: the tune is over at the first update after 250 ms
    assert board.hardware.buzzer_log == [(0, 0), (0, 440), (140, 0), (210, 880), (280, 0)]


def test_mute_stop_and_single_tones(tmp_path):
    device, board = open_board(tmp_path)
    sound = device.sound
    sound.enabled = False
    sound.play(TUNE)
    assert not sound.playing and board.hardware.buzzer_log == [(0, 0)]
    sound.enabled = True
    sound.tone(1000, 30)
    board.advance(10)
    sound.enabled = False  # muting stops what sounds
    assert board.hardware.buzzer_log[-2:] == [(0, 1000), (10, 0)]
    sound.enabled = True
    sound.play(TUNE)
    sound.stop()
    assert not sound.playing and board.hardware.buzzer_log[-1][1] == 0


def test_bad_notes_are_refused_before_anything_sounds(tmp_path):
    device, board = open_board(tmp_path)
    with pytest.raises(ValueError, match="5 Hz"):
        device.sound.play([(440, 10), (5, 10)])
    with pytest.raises(ValueError, match="-3 ms"):
        device.sound.tone(440, -3)
    assert board.hardware.buzzer_log == [(0, 0)]


def test_a_board_without_buzzer_keeps_the_timing(tmp_path):
    device, board = open_board(tmp_path, buzzer=False)
    device.sound.play(TUNE)
    play_out(device, board, 200, every=10)
    assert device.sound.playing
    play_out(device, board, 60, every=10)
    assert not device.sound.playing and board.hardware.buzzer_log == []
