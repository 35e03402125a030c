"""What every screen is: the base class the app calls.

Screens import this module, never ui/app.py: the app opens screens by name
(ui/places.py), so imports run one way, from the app to the screens.
"""


class Screen:
    """What every screen can do; the app calls these."""

    def __init__(self, app):
        self.app = app

    def enter(self):
        """Became the top screen (pushed, or the one above it was closed)."""

    def leave(self):
        """Another screen covers this one, or this one is closed."""

    def handle(self, action):
        pass

    def tick(self, now):
        pass

    def busy(self):
        """Whether the screen is computing across ticks (a review): the device does not switch off then."""
        return False

    def draw(self, fb):
        pass
