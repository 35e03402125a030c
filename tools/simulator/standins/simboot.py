"""Start of the simulator's firmware process: `micropython simboot.py ...` or `python simboot.py ...`.

Arguments: the directories to import from, then the app to run as the
Pico runs main.py at power-up, then the link's settings and the wiring:
    simboot.py PATHS APP lockstep|realtime READ_COST START_TICKS [i2c:SCL:SDA:ADDRESS ...] [pin:GPIO:LEVEL ...]
               [adc:GPIO:MILLIVOLTS ...]
PATHS is a ':'-separated list; an i2c item is a device that acknowledges its
address on those pins; a pin item is a level the board drives from the
start (a button held at power-up, a pull-up resistor on the board); an adc
item the voltage on an ADC pin (the battery's, through its divider).
The working directory is the flash root.
"""

import sys


def _run(app):
    with open(app) as file:
        code = file.read()
    scope = {"__name__": "__main__", "__file__": app}
    exec(compile(code, app, "exec"), scope)


def _print_exception(error):
    if hasattr(sys, "print_exception"):
        sys.print_exception(error)
    else:
        import traceback

        traceback.print_exception(type(error), error, error.__traceback__)


def main(argv):
    paths, app, mode, read_cost, start_ticks = argv[:5]
    for path in reversed(paths.split(":")):
        sys.path.insert(0, path)
    devices = []
    levels = []
    analog = []
    for item in argv[5:]:
        fields = item.split(":")
        if fields[0] == "i2c":
            devices.append((int(fields[1]), int(fields[2]), int(fields[3])))
        elif fields[0] == "adc":
            analog.append((int(fields[1]), int(fields[2]) / 1000))
        else:
            levels.append((int(fields[1]), int(fields[2])))

    import hostlink
    import machine

    link = hostlink.HostLink(mode == "realtime", int(read_cost), int(start_ticks), devices)
    machine.attach(link)
    for gpio, level in levels:
        machine.set_external(gpio, level)
    for gpio, volts in analog:
        machine.set_analog(gpio, volts)
    status = 0
    try:
        _run(app)
    except SystemExit as stop:
        status = stop.args[0] if stop.args and isinstance(stop.args[0], int) else 0
    except BaseException as error:  # whatever ends the firmware is reported, then the process ends
        _print_exception(error)
        status = 1
    link.finished(status)


main(sys.argv[1:])
