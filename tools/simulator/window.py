"""The window front end (pygame): the OLED scaled up, the keyboard as the buttons, with real key releases.

Keys as in the terminal: arrows, Enter/Z/space = A, Esc/X/Backspace = B,
M = menu (held A on boards without one); closing the window or Q quits.
Presses and releases go through presses.py's queue, so a tap quicker than
the buttons' debounce still counts once. The buzzer plays through the
speaker (speaker.py), where there is one.
"""

import os
import sys
import time

from .presses import PressQueue
from .simulated import SimulatorError
from .speaker import Speaker
from .terminal import LONG_PRESS_MS


def _keymap(pygame):
    return {
        pygame.K_UP: "up", pygame.K_DOWN: "down", pygame.K_LEFT: "left", pygame.K_RIGHT: "right",
        pygame.K_RETURN: "a", pygame.K_KP_ENTER: "a", pygame.K_z: "a", pygame.K_SPACE: "a",
        pygame.K_ESCAPE: "b", pygame.K_x: "b", pygame.K_BACKSPACE: "b",
        pygame.K_m: "menu", pygame.K_q: "quit",
    }


NO_DISPLAY = "no display: use the terminal front end (make play)"
# SDL's drivers that draw nowhere: pygame falls back to them when it finds no display.
NOWHERE_DRIVERS = ("offscreen", "dummy")


class NoDisplay(Exception):
    """A window was asked for where none can be shown."""


def check_display(driver=None):
    """Raise NoDisplay unless a window can be seen: on Linux a DISPLAY or WAYLAND_DISPLAY, and (given
    `driver`, the one SDL picked) not a driver that draws nowhere. SDL_VIDEODRIVER set by the user is
    their choice (the tests ask for dummy) and is always followed."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise NoDisplay(NO_DISPLAY)
    if driver in NOWHERE_DRIVERS:
        raise NoDisplay(NO_DISPLAY)


def run_window(sim, scale=6, fps=30, max_frames=None, on_frame=None):
    """Play in a window until it is closed; `sim` is a SimulatedDevice in real time, not yet powered on.

    For tests (with SDL_VIDEODRIVER=dummy): max_frames stops after that many
    frames, and on_frame(number) runs before each frame's events are read,
    e.g. to post key events; it stops the window by returning True.
    Returns a copy of the window's picture as last drawn. Raises
    SimulatorError, saying why and with the firmware's last output, if the
    firmware stops.
    """
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame's greeting on the player's terminal
    import pygame

    pygame.display.init()  # not pygame.init(): the mixer is opened by Speaker, quietly where there is no audio
    try:
        check_display(pygame.display.get_driver())
    except NoDisplay:
        pygame.display.quit()
        raise
    speaker = Speaker(pygame)
    failure = None
    try:
        keymap = _keymap(pygame)
        presses = PressQueue(sim)
        first = sim.image(scale)
        screen = pygame.display.set_mode(first.size)
        pygame.display.set_caption("Pocket Othello - %s" % sim.config.name)
        clock = pygame.time.Clock()
        sim.power_on()
        shown = None
        frames = 0
        while max_frames is None or frames < max_frames:
            if sim.poll() != "running":
                failure = sim.failure()
                break
            if on_frame is not None and on_frame(frames):
                break
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    return screen.copy()
                if event.type not in (pygame.KEYDOWN, pygame.KEYUP):
                    continue
                name = keymap.get(event.key)
                if name == "quit":
                    return screen.copy()
                down = event.type == pygame.KEYDOWN
                if name == "menu" and "menu" not in presses.buttons:
                    if down:
                        presses.tap("a", LONG_PRESS_MS)
                elif name is not None:
                    presses.change(name, down)
            presses.tick(time.monotonic())
            speaker.update(sim.hardware.buzzer_log)
            if sim.panel.version != shown:
                shown = sim.panel.version
                image = sim.image(scale)
                screen.blit(pygame.image.frombuffer(image.tobytes(), image.size, "RGB"), (0, 0))
                pygame.display.flip()
            clock.tick(fps)
            frames += 1
        if failure:
            raise SimulatorError(failure)
        return screen.copy()
    finally:
        sim.close()
        speaker.close()
        pygame.quit()
