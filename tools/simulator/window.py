"""The window front end (pygame): the OLED scaled up, the keyboard as the buttons, with real key releases.

Keys as in the terminal: arrows, Enter/Z/space = A, Esc/X/Backspace = B,
M = menu (held A on boards without one); closing the window or Q quits.
"""

import time

from .terminal import LONG_PRESS_MS


def _keymap(pygame):
    return {
        pygame.K_UP: "up", pygame.K_DOWN: "down", pygame.K_LEFT: "left", pygame.K_RIGHT: "right",
        pygame.K_RETURN: "a", pygame.K_KP_ENTER: "a", pygame.K_z: "a", pygame.K_SPACE: "a",
        pygame.K_ESCAPE: "b", pygame.K_x: "b", pygame.K_BACKSPACE: "b",
        pygame.K_m: "menu", pygame.K_q: "quit",
    }


def run_window(sim, scale=6, fps=30, max_frames=None, on_frame=None):
    """Play in a window until it is closed; `sim` is a SimulatedDevice in real time, not yet powered on.

    For tests (with SDL_VIDEODRIVER=dummy): max_frames stops after that many
    frames, and on_frame(number) runs before each frame's events are read,
    e.g. to post key events; it stops the window by returning True.
    Returns a copy of the window's picture as last drawn.
    """
    import pygame

    pygame.init()
    try:
        keymap = _keymap(pygame)
        buttons = set(sim.hardware.buttons)
        first = sim.image(scale)
        screen = pygame.display.set_mode(first.size)
        pygame.display.set_caption("Pocket Othello - %s" % sim.config.name)
        clock = pygame.time.Clock()
        sim.power_on()
        held_menu_until = None
        shown = None
        frames = 0
        while max_frames is None or frames < max_frames:
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
                if name == "menu" and "menu" not in buttons:
                    if down and held_menu_until is None and "a" in buttons:
                        sim.press("a")
                        held_menu_until = time.monotonic() + LONG_PRESS_MS / 1000
                    continue
                if name in buttons:
                    (sim.press if down else sim.release)(name)
            if held_menu_until is not None and time.monotonic() >= held_menu_until:
                sim.release("a")
                held_menu_until = None
            state = (sim.panel.version, sim.state)
            if state != shown:
                shown = state
                image = sim.image(scale)
                screen.blit(pygame.image.frombuffer(image.tobytes(), image.size, "RGB"), (0, 0))
                pygame.display.flip()
            clock.tick(fps)
            frames += 1
        return screen.copy()
    finally:
        sim.close()
        pygame.quit()
