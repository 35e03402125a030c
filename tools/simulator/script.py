"""Headless runs: a script of button presses and waits, writing PNG screenshots and animated GIFs.

One command per line; '#' starts a comment:
    wait MS                 let MS milliseconds pass
    until "TEXT" [MS]       let time pass until TEXT is on the screen (at most MS, default 60000)
    settle [MS]             let time pass until the screen shows something and has not changed for
                            MS (default 200): animations over (a panel still dark after power-up
                            has not settled: the device is starting)
    press NAME [COUNT]      tap the button COUNT times (80 ms down, 120 ms up; each change waits
                            until the firmware reads its buttons: at once on the simulator, after
                            a screen's loading on an emulated Pico)
    hold NAME MS            keep it down MS milliseconds, then release (and wait 120 ms)
    wake NAME               tap it if the screen has dimmed or gone off (after the settings' idle time
                            without a key: an emulated Pico's minutes of computing can pass it, the
                            simulator's never do); the firmware takes that tap as a wake-up only
    down NAME | up NAME     press / release it, no time passing
    shot FILE.png           screenshot of the panel
    record [EVERY_MS]       start keeping GIF frames, one per EVERY_MS (default 100)
    gif FILE.gif            write the frames kept so far as an animated GIF
    power off|on|cycle      take the power away, give it back, or both
    cut-power-at STEP       the power goes just before the STEP-th flash-changing step
    battery VOLTS|none      the cells' voltage at VSYS (e.g. 2.1), or no cells; the firmware sees it at its
                            next reading of the gauge (every few seconds: follow with until or wait)
    usb on|off              plug in or pull out the USB cable
Files are written in the output directory; where an until or settle line
fails, also what the screen then showed, failed-line-N.png (N the line), which
the error names. A script that waits for what
the screen shows (until, settle) rather than for times runs the same on a
device of any speed.
"""

import shlex
from pathlib import Path

from ui.settings import CONTRAST_LEVELS

from .reading import shows
from .render import save_gif
from .simulated import SimulatorError

TAP_MS = 80
GAP_MS = 120
UNTIL_MS = 60000
SETTLE_MS = 200
STEP_MS = 10


class ScriptError(ValueError):
    """A script line that cannot be run; the message names the line."""


def _number(word, line_number, what):
    try:
        value = int(word)
    except ValueError:
        raise ScriptError("line %d: %s must be a whole number of milliseconds or a count, not %r" % (line_number, what, word))
    if value < 0:
        raise ScriptError("line %d: %s cannot be negative" % (line_number, what))
    return value


def parse(text, buttons):
    """The script's commands as (line number, name, arguments); raises ScriptError for the first bad line."""
    commands = []
    shapes = {
        "wait": 1, "until": (1, 2), "settle": (0, 1), "press": (1, 2), "hold": 2, "wake": 1, "down": 1, "up": 1,
        "shot": 1, "record": (0, 1), "gif": 1, "power": 1, "cut-power-at": 1, "battery": 1, "usb": 1,
    }
    for number, raw in enumerate(text.splitlines(), 1):
        try:
            words = shlex.split(raw.split("#", 1)[0])
        except ValueError as error:
            raise ScriptError("line %d: %s" % (number, error))
        if not words:
            continue
        name, args = words[0].lower(), words[1:]
        if name not in shapes:
            raise ScriptError("line %d: unknown command %r (commands: %s)" % (number, name, ", ".join(shapes)))
        shape = shapes[name]
        low, high = shape if isinstance(shape, tuple) else (shape, shape)
        if not low <= len(args) <= high:
            raise ScriptError("line %d: %s takes %s argument(s)" % (number, name, low if low == high else "%d or %d" % (low, high)))
        if name in ("press", "hold", "down", "up", "wake") and args[0] not in buttons:
            raise ScriptError("line %d: the board has no %r button (it has: %s)" % (number, args[0], ", ".join(buttons)))
        if name == "power" and args[0] not in ("off", "on", "cycle"):
            raise ScriptError("line %d: power is followed by off, on or cycle" % number)
        if name == "usb" and args[0] not in ("on", "off"):
            raise ScriptError("line %d: usb is followed by on or off" % number)
        if name == "battery" and args[0] != "none":
            try:
                args = [float(args[0])]
            except ValueError:
                raise ScriptError("line %d: battery is followed by a voltage (e.g. 2.6) or none, not %r" % (number, args[0]))
        if name in ("wait", "cut-power-at", "record", "settle"):
            args = [_number(word, number, name) for word in args]
        elif name in ("press", "hold", "until"):
            args = [args[0]] + [_number(word, number, name) for word in args[1:]]
        commands.append((number, name, args))
    return commands


def run(sim, text, out_dir):
    """Run a script on a SimulatedDevice that is powered on; returns the paths written.

    A firmware that stops other than by its main script ending normally
    (killed, crashed) stops the script: SimulatorError says why."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for number, name, args in parse(text, tuple(sim.hardware.buttons)):
        if name == "wait":
            sim.run_for(args[0])
        elif name == "until":
            timeout = args[1] if len(args) > 1 else UNTIL_MS
            if not _run_until_shown(sim, args[0], timeout):
                _check_running(sim, number)
                raise ScriptError("line %d: %r was not on the screen within %d ms%s"
                                  % (number, args[0], timeout, _failed_shot(sim, out_dir, number)))
        elif name == "settle":
            quiet = args[0] if args else SETTLE_MS
            if not _settle(sim, quiet):
                _check_running(sim, number)
                if not any(map(any, sim.screen())):
                    raise ScriptError("line %d: the screen stayed dark for %d ms" % (number, UNTIL_MS))
                raise ScriptError("line %d: the screen kept changing for %d ms%s"
                                  % (number, UNTIL_MS, _failed_shot(sim, out_dir, number)))
        elif name == "press":
            for _ in range(args[1] if len(args) > 1 else 1):
                sim.tap(args[0], TAP_MS, GAP_MS)
        elif name == "hold":
            sim.tap(args[0], args[1], GAP_MS)
        elif name == "wake":
            if _dimmed(sim.panel):
                sim.tap(args[0], TAP_MS, GAP_MS)
        elif name == "down":
            sim.until_reading_buttons()
            sim.press(args[0])
        elif name == "up":
            sim.until_reading_buttons()
            sim.release(args[0])
        elif name == "shot":
            path = out_dir / args[0]
            sim.image().save(path)
            written.append(path)
        elif name == "record":
            sim.record(args[0] if args else 100)
        elif name == "gif":
            if not sim.frames:
                raise ScriptError("line %d: no frames for %s: start with record" % (number, args[0]))
            path = out_dir / args[0]
            save_gif(sim.frames, path, sim.frame_ms)
            written.append(path)
        elif name == "power":
            {"off": sim.power_off, "on": sim.power_on, "cycle": sim.power_cycle}[args[0]]()
        elif name == "cut-power-at":
            sim.cut_power_at_flash_step(args[0])
        elif name in ("battery", "usb"):
            if not hasattr(sim, "set_supply"):
                raise ScriptError("line %d: %s: this device has no simulated power supply" % (number, name))
            battery, usb = sim.battery, sim.usb
            if name == "battery":
                battery = None if args[0] == "none" else args[0]
            else:
                usb = args[0] == "on"
            try:
                sim.set_supply(battery, usb)
            except ValueError as error:
                raise ScriptError("line %d: %s" % (number, error))
        _check_running(sim, number)
    return written


def _dimmed(panel):
    """Whether the app has dimmed the panel (its contrast below every setting's) or turned it off."""
    return panel.brightness() < 0.3 + 0.7 * min(CONTRAST_LEVELS) / 255


def _failed_shot(sim, out_dir, number):
    """Save what the screen shows when a line fails, for the error message to point at."""
    path = out_dir / ("failed-line-%d.png" % number)
    sim.image().save(path)
    return " (the screen then: %s)" % path


def _check_running(sim, number):
    if sim.state == "halted" and sim.exit_status != 0:
        raise SimulatorError("line %d: %s" % (number, sim.failure()))


def _run_until_shown(sim, text, timeout_ms):
    seen = [None, False]  # the panel version looked at, and whether it showed the text

    def showing(sim):
        if sim.panel.version != seen[0]:
            seen[0] = sim.panel.version
            seen[1] = shows(sim.screen(), text)
        return seen[1]

    return sim.run_until(showing, timeout_ms, STEP_MS)


def _settle(sim, quiet_ms):
    """Run until the glass has shown the same lit picture for quiet_ms; False if it did not in UNTIL_MS."""
    last = [sim.screen(), sim.now]  # the picture, and since when

    def still(sim):
        picture = sim.screen()
        if picture != last[0]:
            last[:] = [picture, sim.now]
        return sim.now - last[1] >= quiet_ms and any(map(any, picture))

    return sim.run_until(still, UNTIL_MS, STEP_MS)
