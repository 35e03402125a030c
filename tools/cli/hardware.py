"""check-config: validate board config files as the device does at start-up."""

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent


def register(subparsers):
    parser = subparsers.add_parser(
        "check-config",
        help="validate board config files (board_configs/*.json)",
        description="Check board configs as the firmware does at power-up: every problem is "
        "reported as FILE: field: problem. Exit status 1 if any file is wrong.",
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="config files (default: every file in board_configs/)")
    parser.set_defaults(func=check_config)


def check_config(args):
    import hw

    files = args.files or sorted(str(path) for path in (REPO / "board_configs").glob("*.json"))
    if not files:
        print("check-config: no config files given and none in board_configs/")
        return 1
    status = 0
    for name in files:
        try:
            with open(name, "rb") as file:
                config = hw.load_config(file.read())
        except OSError as error:
            status = 1
            print("%s: cannot be read (%s)" % (name, error.strerror or error))
            continue
        except hw.ConfigError as error:
            status = 1
            for line in error.errors:
                print("%s: %s" % (name, line))
            continue
        display = config.display
        battery = config.battery
        print(
            "%s: ok: %s (%s on %s%d, %d buttons: %s, %s, %s, %s)"
            % (
                name,
                config.name,
                display.controller.upper(),
                display.bus.upper(),
                display.bus_id,
                len(config.buttons),
                " ".join(config.button_names),
                "buzzer on GP%d" % config.buzzer_pin if config.buzzer_pin is not None else "no buzzer",
                "no battery gauge" if battery is None else "battery %s on GP%d (VSYS/%g, empty at %g V)%s"
                % (battery.chemistry, battery.adc, battery.divider, battery.empty,
                   "" if battery.vbus is None else ", USB sensed on GP%d" % battery.vbus),
                link_text(config.link),
            )
        )
    return status


def link_text(link):
    if link is None:
        return "no link cable"
    return "link on UART%d (TX GP%d, RX GP%d, %d baud)" % (link.uart_id, link.tx, link.rx, link.baudrate)
