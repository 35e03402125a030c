"""Checked command-line values: one argparse `type=` for each kind of value, shared by every subcommand.

A bad value never reaches the command: argparse prints the usage and
`othello CMD: error: argument --x: <what is wrong>` and exits with status 2.

    parser.add_argument("--jobs", type=JOBS)
    parser.add_argument("--level", type=LEVEL)
    parser.add_argument("--time", type=seconds())
    parser.add_argument("depth", type=whole_number(0, 15, "a deeper count would take weeks"))
"""

import argparse
import math
import os

from player import LEVELS
from player.engine import MAX_TIME_MS

MAX_JOBS = 256  # more worker processes than that only fight over the CPUs
MAX_SECONDS = MAX_TIME_MS // 1000  # the player's longest deadline (its tick counters wrap): about 3 days


def whole_number(low=None, high=None, why_high=None):
    """A type for a whole number in [low, high] (either end may be open).

    "1e6" and "1_000_000" are read as 1000000; `why_high` says why the upper end is where it is.
    """

    def parse(text):
        value = _integer(text)
        if (low is not None and value < low) or (high is not None and value > high):
            if high is None:
                bounds = "at least %d" % low
            elif low is None:
                bounds = "at most %d" % high
            else:
                bounds = "%d to %d" % (low, high)
            reason = " (%s)" % why_high if why_high and high is not None and value > high else ""
            raise argparse.ArgumentTypeError("must be %s, not %s%s" % (bounds, text, reason))
        return value

    parse.__name__ = "whole number"
    return parse


def _integer(text):
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a whole number" % text)
    if not math.isfinite(value) or value != int(value):
        raise argparse.ArgumentTypeError("%r is not a whole number" % text)
    return int(value)


def seconds(high=MAX_SECONDS):
    """A type for a time limit: a finite number of seconds, at least a millisecond and at most `high`."""

    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%r is not a number of seconds" % text)
        if not math.isfinite(value) or not 0.001 <= value <= high:
            raise argparse.ArgumentTypeError("must be a number of seconds from 0.001 to %d, not %s" % (high, text))
        return value

    parse.__name__ = "seconds"
    return parse


SQUARE_CHARS = set("-.XxOoBbWw#*")
MIN_SQUARES = 36  # the smallest board, 6x6


def looks_like_squares(word):
    """A position's squares: a word of board characters only, at least a 6x6 board's worth."""
    return len(word) >= MIN_SQUARES and set(word) <= SQUARE_CHARS


COUNT = whole_number(1)  # nodes, games: something to do at least once
JOBS = whole_number(1, MAX_JOBS, "more processes than CPUs only slow each other down")
LEVEL = whole_number(1, len(LEVELS))
DEFAULT_JOBS = max(1, min(os.cpu_count() or 1, MAX_JOBS))
