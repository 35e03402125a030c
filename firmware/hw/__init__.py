"""The hardware layer: the only firmware code that touches machine, framebuf, os and time.

Configs (importing these needs no hardware, so host tools use them too):
- load_config(source) -> BoardConfig from a dict or JSON text; read_config(path)
  reads a file. A bad config raises ConfigError: str(error) has one line per
  problem, each "field: problem" (e.g. "buttons.left.pin: 40 is not a GPIO of
  the Pico (0-29)"); error.errors is the list of those lines. Both import the
  validator, hw/config.py, when called.
- BoardConfig: .name, .description, .display (.controller, .width, .height,
  .rotation, .bus, .pins, ...), .buttons (ButtonSpec: .name .pin .pull
  .active), .button_names, .buzzer_pin (None without a buzzer), .battery
  (BatterySpec: .adc .divider .chemistry .full .low .empty .curve .vbus, or
  None), .link (LinkSpec: .uart_id .tx .rx .baudrate, or None), .source.
- BUTTON_NAMES: every name a board may have, of which DIRECTIONS auto-repeat.
  A board has "a" and at least one other button.

Devices (import machine: on the Pico the real one, on the host the simulator's):
- open_device(config) -> Device; boot(path=CONFIG_PATH) -> (device, None), or
  (rescue device with a display only, ConfigError) when the config is broken,
  for main.py to show the error. Under MicroPython boot() then releases the
  validator (othello.compat.release_module): hw.config leaves sys.modules and
  the heap, as nothing the device keeps refers to it. A display that does not answer raises
  HardwareError naming the bus, pins and address.
- Device:
  .display   .width, .height (128x64), .fb a framebuf.FrameBuffer (MONO_VLSB)
             to draw on; .show() sends it; .contrast(0..255); .power(on);
             .invert(on); .rotate(0|180); .is_on, .contrast_level, .inverted.
  .buttons   .names (the board's buttons, in BUTTON_NAMES order);
             .poll(now_ms) -> list of (name, kind), kind PRESS, REPEAT (held
             direction: after 400 ms, every 120 ms), LONG (other buttons held
             700 ms, once, before the RELEASE), RELEASE; debounced (25 ms); a tap
             between two polls still gives PRESS then RELEASE; a button held
             at start-up reports nothing until released. .is_down(name).
             Timings are attributes (debounce_ms, repeat_delay_ms, repeat_ms, long_ms).
  .sound     .tone(hz, ms) and .play([(hz, ms), ...]) (0 Hz rests) start at once
             and never block; .update(now_ms) moves the tune on (call it each
             loop); .stop(); .playing; .enabled (False mutes).
  .storage   .read(name) -> bytes or None; .open_read(name) -> a binary file
             or None; .write_atomic(name, data), and `with .replace(name) as
             file:` to write the new contents piece by piece (a power cut
             leaves the old or the new file); .remove(name) -> bool; .names().
             The files are streams MicroPython's json.load and json.dump take.
             .problem: why the storage cannot be used ("data is a file, not
             a folder"), or None; then every operation raises OSError.
  .ticks_ms(), .ticks_diff(a, b), .ticks_add(t, ms), .sleep_ms(ms): time as
             MicroPython's time module (virtual time in the simulator).
  .battery   None without a battery section; else .read() -> (volts at VSYS
             or None when the ADC failed, True while USB gives power): the
             average of a few ADC readings through the config's divider; .spec
             is the config's BatterySpec.
  .reset()   restarts the device.
  .config    the BoardConfig.
- The link cable: hw.link.UartLink(config.link) opens the board config's
  "link" UART: .read() -> the bytes arrived (b"" if none), .write(data),
  .close(); none of them waits.
- CONFIG_PATH ("board.json", next to main.py) and STORAGE_ROOT ("data", the
  directory of .storage's files) are relative to the flash root.
"""

from hw.board import BUTTON_NAMES, CONFIG_PATH, STORAGE_ROOT, BoardConfig, ConfigError, HardwareError
from hw.buttons import DIRECTIONS, LONG, PRESS, RELEASE, REPEAT

# The validator (hw/config.py) is imported on call, not re-exported: a running
# device needs it only at power-up, and boot() releases it.


def load_config(source):
    from hw import config

    return config.load_config(source)


def read_config(path):
    from hw import config

    return config.read_config(path)


def open_device(config):
    from hw import device  # needs machine: imported only when a device is wanted

    return device.open_device(config)


def boot(path=CONFIG_PATH):
    from hw import device

    return device.boot(path)
