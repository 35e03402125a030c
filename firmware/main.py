"""Power-up: read the installed board config, open the device, show the title while the player gets
ready, and run the game.

A broken board config is shown on the screen (every line names the field)
when the display can be opened, and printed to the serial console always.
An error the app cannot handle itself is written to error.log on the flash
and shown with an offer to restart: the device never stops at a silent REPL.
"""

import hw
from othello.compat import COLLECT_EVERY, collect_every


def main():
    # From the start, as it keeps the heap in few pieces (compat.collect_every). Until the game's loop starts,
    # the heap is filled with code being loaded and little else: collecting every 32 KB rather than every
    # COLLECT_EVERY bytes brings the main menu 200 ms sooner (docs/DEVICE_SPEED.md, Boot). The number has no
    # name: the device compiles this file from source, and each name in it is interned for good.
    collect_every(32768)
    try:
        device, config_error = hw.boot()
    except Exception as error:  # not even the display answers: the serial console is all there is
        print("Pocket Othello cannot start:", error)
        return
    if config_error is not None:
        from ui.gfx import message_screen

        print("board.json is not usable:\n%s" % config_error)
        message_screen(device.display, "Board config error", str(config_error).replace("\n", "; "), "fix board.json")
        return
    title_since = show_title(device)
    prepare_player()
    try:
        import othello
        import player
        from ui.app import App

        app = App(device, player, othello.VERSION, title_since)
        collect_every(COLLECT_EVERY)  # from here the heap holds what the game keeps and drops, menu after menu
        app.run()
    except Exception as error:  # App.run() shows its own errors; this is for when that fails too
        crash(device, error)


def show_title(device):
    """The title on the screen at once: the player sees the game start while it gets ready. Returns when."""
    import othello
    from ui.gfx import title_picture
    from ui.settings import CHOICES, CONTRAST_LEVELS

    # The default setting's contrast, which the game then applies: the title does not brighten under the
    # player's eyes when the game starts (the display's own power-up contrast is lower).
    device.display.contrast(CONTRAST_LEVELS[CHOICES["contrast"][0] - 1])
    device.display.fb.fill(0)
    title_picture(device.display.fb, othello.VERSION)
    device.display.show()
    return device.ticks_ms()


def prepare_player():
    """Make the player's arrays, the largest blocks a game keeps, before the menus cut up the heap.

    Made later, for the usual board (the App remakes them only for another),
    they found the heap cut up by the menus; the board config's checks are
    let go before (hw.boot), so what they used is free again.
    """
    try:
        import player
        from othello import Variant

        player.prepare(Variant())
    except Exception:  # a damaged weight file, say: the App prepares again, where the crash screen can show it
        pass


def crash(device, error):
    from ui.app import traceback_text
    from ui.gfx import message_screen
    from ui.keys import PRESS
    from ui.store import Store

    text = traceback_text(error)
    print(text)
    Store(device.storage).append_log("[%d ms] %s" % (device.ticks_ms(), text))
    try:
        device.display.power(True)
        message_screen(device.display, "Sorry, an error", "%s: %s" % (type(error).__name__, error), "any key: restart")
    except Exception:  # the display is what failed: the console has the message
        pass
    while True:
        for _, kind in device.buttons.poll(device.ticks_ms()):
            if kind == PRESS:
                device.reset()
        device.sleep_ms(20)


main()
