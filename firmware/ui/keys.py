"""From button events to the UI's actions, for whatever buttons the board has.

Screens only see actions: UP, DOWN, LEFT, RIGHT (the d-pad), NEXT and PREV
(step through choices: legal moves, menu items), OK and BACK.

Schemes (docs/UI.md has the tables):
- d-pad (up, down, left, right all wired): directions move and repeat when
  held; A is OK and B (or the menu key) BACK, both at once. Without a B or
  menu key, holding A is BACK.
- two or three keys, no full d-pad: the first key steps to the NEXT choice
  (held: PREV), the second is OK (held: BACK), a third is BACK. Any
  direction keys the board does have still step (down/right NEXT, up/left PREV).

A key whose long press means something else acts when released, so a long
press never also triggers the short action; every other key acts on press.
"""

# Button event kinds, as the hardware layer's buttons.poll() reports them.
PRESS = "press"
REPEAT = "repeat"
LONG = "long"
RELEASE = "release"

UP = 1
DOWN = 2
LEFT = 3
RIGHT = 4
OK = 5
BACK = 6
NEXT = 7
PREV = 8

DIRECTIONS = ("up", "down", "left", "right")
_DPAD_ACTIONS = {"up": UP, "down": DOWN, "left": LEFT, "right": RIGHT}
_STEP_ACTIONS = {"up": PREV, "left": PREV, "down": NEXT, "right": NEXT}


class Keymap:
    def __init__(self, names):
        names = tuple(names)
        self.names = names
        # name -> (short action, long action or None, repeats)
        self.roles = {}
        keys = [name for name in ("a", "b", "menu") if name in names]
        if all(d in names for d in DIRECTIONS):
            self.scheme = "dpad"
            for d in DIRECTIONS:
                self.roles[d] = (_DPAD_ACTIONS[d], None, True)
            if "a" in names:
                self.roles["a"] = (OK, None if "b" in names or "menu" in names else BACK, False)
            if "b" in names:
                self.roles["b"] = (BACK, None, False)
            if "menu" in names:
                self.roles["menu"] = (BACK, None, False)
        else:
            self.scheme = "keys"
            for d in DIRECTIONS:
                if d in names:
                    self.roles[d] = (_STEP_ACTIONS[d], None, True)
            if not any(d in names for d in DIRECTIONS) and keys:
                self.roles[keys.pop(0)] = (NEXT, PREV, False)
            if keys:
                self.roles[keys.pop(0)] = (OK, BACK, False)
            if keys:
                self.roles[keys.pop(0)] = (BACK, None, False)
        self._held_long = set()

    def action(self, name, kind):
        """The action for one button event, or None."""
        role = self.roles.get(name)
        if role is None:
            return None
        short, long_action, repeats = role
        if long_action is None:
            if kind == PRESS or (kind == REPEAT and repeats):
                return short
            return None
        if kind == PRESS:
            self._held_long.discard(name)
        elif kind == LONG:
            self._held_long.add(name)
            return long_action
        elif kind == RELEASE:
            if name in self._held_long:
                self._held_long.discard(name)
                return None
            return short
        return None

    def label(self, action):
        """The key that gives `action`, for help texts: 'A', 'MENU' or 'hold B'."""
        for name in self.names:
            role = self.roles.get(name)
            if role is not None and role[0] == action:
                return name.upper()
        for name in self.names:
            role = self.roles.get(name)
            if role is not None and role[1] == action:
                return "hold " + name.upper()
        return "?"

    def step_label(self):
        """The keys that step back and forth through choices: '<>' where left and right are wired, else 'A:'."""
        if "left" in self.names and "right" in self.names:
            return "<>"
        return self.label(NEXT if self.scheme == "keys" else RIGHT) + ":"

    def label_lines(self, action, what, columns=10):
        """'B: back' in one line, or in two where it would not fit in `columns`: 'hold A:', ' back'."""
        text = "%s: %s" % (self.label(action), what)
        return [text] if len(text) <= columns else [self.label(action) + ":", " " + what]

    def help_lines(self):
        """How to play with these keys, for the About screen."""
        if self.scheme == "dpad":
            return ("Arrows: move", self.label(OK) + ": place/select", self.label(BACK) + ": menu/back")
        return (
            self.label(NEXT) + ": next",
            self.label(PREV) + ": previous",
            self.label(OK) + ": place/select",
            self.label(BACK) + ": menu/back",
        )
