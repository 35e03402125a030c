"""Button events become UI actions for every wiring: a full d-pad, or only two or three keys."""

from ui.keys import BACK, DOWN, LEFT, LONG, NEXT, OK, PRESS, PREV, RELEASE, REPEAT, RIGHT, UP, Keymap

FULL = ("up", "down", "left", "right", "a", "b", "menu")


def actions(keymap, events):
    found = [keymap.action(name, kind) for name, kind in events]
    return [action for action in found if action is not None]


def tap(name):
    return [(name, PRESS), (name, RELEASE)]


def hold(name):
    return [(name, PRESS), (name, LONG), (name, RELEASE)]


def test_kinds_are_the_hardware_layers():
    import hw

    assert (PRESS, REPEAT, LONG, RELEASE) == (hw.PRESS, hw.REPEAT, hw.LONG, hw.RELEASE)


def test_dpad_moves_and_repeats_a_and_b_act_on_press():
    keymap = Keymap(FULL)
    assert keymap.scheme == "dpad"
    assert actions(keymap, tap("up") + tap("down") + tap("left") + tap("right")) == [UP, DOWN, LEFT, RIGHT]
    assert actions(keymap, [("left", PRESS), ("left", REPEAT), ("left", REPEAT), ("left", RELEASE)]) == [LEFT] * 3
    assert keymap.action("a", PRESS) == OK
    assert keymap.action("b", PRESS) == BACK
    assert keymap.action("menu", PRESS) == BACK
    assert actions(keymap, hold("a")) == [OK]  # no second meaning: nothing more when held


def test_dpad_without_b_holds_a_for_the_menu():
    keymap = Keymap(("up", "down", "left", "right", "a"))
    assert keymap.action("a", PRESS) is None  # it waits: short or long?
    assert actions(keymap, tap("a")) == [OK]
    assert actions(keymap, hold("a")) == [BACK]
    assert keymap.label(BACK) == "hold A"


def test_two_keys_step_select_and_go_back():
    keymap = Keymap(("a", "b"))
    assert keymap.scheme == "keys"
    assert actions(keymap, tap("a")) == [NEXT]
    assert actions(keymap, hold("a")) == [PREV]
    assert actions(keymap, tap("b")) == [OK]
    assert actions(keymap, hold("b")) == [BACK]
    assert keymap.help_lines() == ("A: next", "hold A: previous", "B: place/select", "hold B: menu/back")


def test_three_keys_have_a_back_key():
    keymap = Keymap(("a", "b", "menu"))
    assert actions(keymap, tap("a") + tap("b") + tap("menu")) == [NEXT, OK, BACK]


def test_partial_direction_keys_step():
    keymap = Keymap(("up", "down", "a"))
    assert keymap.scheme == "keys"
    assert actions(keymap, tap("down") + tap("up") + [("down", PRESS), ("down", REPEAT)]) == [NEXT, PREV, NEXT, NEXT]
    assert actions(keymap, tap("a") + hold("a")) == [OK, BACK]


def test_unknown_buttons_and_stray_events_are_ignored():
    keymap = Keymap(("a", "b"))
    assert keymap.action("left", PRESS) is None
    assert keymap.action("b", RELEASE) == OK  # a release without its press still counts once
    assert keymap.action("b", REPEAT) is None
