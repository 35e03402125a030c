"""The player's settings and new-game choices: defaults, allowed values, and repair of a damaged file.

Everything here is saved together in settings.json. Each key has a tuple
of allowed values (the first is the default) except the levels, whose range
comes from the computer player.
"""

from othello.compat import const
from othello.match import MATCH_GAMES, MATCH_RACE, MATCH_SINGLE
from othello.variant import BLACK, START_EMPTY, START_OTHELLO, START_PARALLEL, WHITE

IDLE_BLANK_AFTER_DIM_S = 180  # the screen goes off this long after it dims
CONTRAST_LEVELS = (40, 90, 150, 210, 255)  # display.contrast() for settings 1..5

CHOICES = {
    # device
    "sound": (True, False),
    "legal": (True, False),  # show legal-move marks
    "last": (True, False),  # mark the last move
    "anim": (True, False),  # flip animation
    "contrast": (4, 1, 2, 3, 5),
    "idle": (60, 0, 30, 120, 300),  # seconds before dimming; 0 = never
    "off": (300, 0, 120, 900),  # seconds without a key before the device saves and switches off; 0 = never
    # new game
    "size": (8, 6, 10),
    "start": (START_OTHELLO, START_PARALLEL, START_EMPTY),
    "anti": (False, True),
    "first": (BLACK, WHITE),
    "hole": (False, True),  # a black hole on a random square
    "handicap": (0, 1, 2, 3, 4),
    "handicap_to": (BLACK, WHITE),
    "clock": (0, 5, 10, 20, 25),  # minutes each; 0 = no clock
    "match": (MATCH_SINGLE, MATCH_GAMES, MATCH_RACE),
    "games": (5, 2, 3, 4, 6, 7, 8, 9, 10),
    "race": (100, 32, 50, 64, 150, 200),
    "colour": (BLACK, WHITE),  # the human's colour against the computer
}
_LEVEL_KEYS = const(("level", "demo_black", "demo_white"))
LEVEL_DEFAULTS = {"level": 2, "demo_black": 1, "demo_white": 3}


def defaults(level_count):
    settings = {}
    for key in CHOICES:
        settings[key] = CHOICES[key][0]
    for key in _LEVEL_KEYS:
        settings[key] = min(LEVEL_DEFAULTS[key], level_count)
    return settings


def repair(data, level_count):
    """A complete settings dict from saved `data`; returns (settings, number of values that were bad).

    Unknown keys are dropped and bad or missing values take their default,
    so a damaged file never stops the device from starting.
    """
    settings = defaults(level_count)
    bad = 0
    if not isinstance(data, dict):
        return settings, 1
    for key in settings:
        if key not in data:
            bad += 1
            continue
        value = data[key]
        if key in _LEVEL_KEYS:
            ok = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= level_count
        else:
            # True == 1 in Python, so booleans and numbers must match in type as well
            ok = False
            for allowed in CHOICES[key]:
                if value == allowed and isinstance(value, bool) == isinstance(allowed, bool):
                    ok = True
        if ok:
            settings[key] = value
        else:
            bad += 1
    return settings, bad


def cycle(settings, key, step, level_count=None):
    """Move a setting to the next (step 1) or previous (step -1) allowed value."""
    if key in _LEVEL_KEYS:
        settings[key] = (settings[key] - 1 + step) % level_count + 1
        return
    allowed = sorted_choices(key)
    index = allowed.index(settings[key]) if settings[key] in allowed else 0
    settings[key] = allowed[(index + step) % len(allowed)]


def sorted_choices(key):
    """The allowed values in the order a menu steps through them (numbers ascending)."""
    values = CHOICES[key]
    if isinstance(values[0], int) and not isinstance(values[0], bool):
        return sorted(values)
    return list(values)
