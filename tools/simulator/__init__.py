"""The desktop twin of the handheld: runs the firmware against simulated hardware.

Two ways to run firmware code (docs/SIMULATOR.md has the full API):
- SimulatedDevice(config, ...): the whole firmware (firmware/main.py, as at
  power-up) in its own process under CPython or MicroPython's unix port,
  driven in lockstep virtual time from here: press and release buttons, let
  time pass, read the panel's pixels and the buzzer log, power-cycle, cut the
  power at a chosen flash write. Its bus traffic is decoded by a simulated
  SSD1306/SH1106 (panel.py) wired as the board config says (hardware.py).
- LocalBoard(config, flash_dir): the same stand-ins inside this CPython
  process, for tests that call firmware code directly (hw drivers, an App's
  step()). hw.open_device(config) then builds a Device on it.

Front ends (tools/sim): terminal (default), pygame window, headless scripts
writing PNG screenshots and an animated GIF.
"""

import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent
REPO = TOOLS.parent
FIRMWARE = REPO / "firmware"
STANDINS = Path(__file__).resolve().parent / "standins"
BOARD_CONFIGS = REPO / "board_configs"
DEFAULT_BOARD = BOARD_CONFIGS / "pico_breadboard_i2c.json"
DEFAULT_APP = FIRMWARE / "main.py"

if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))

from .hardware import Hardware  # noqa: E402
from .local import LocalBoard, install_standins  # noqa: E402
from .panel import I2CTarget, Panel, SPITarget  # noqa: E402
from .render import half_blocks, oled_image, save_gif  # noqa: E402
from .simulated import SimulatedDevice, SimulatorError, board_config  # noqa: E402

__all__ = [
    "Hardware",
    "I2CTarget",
    "LocalBoard",
    "Panel",
    "SPITarget",
    "SimulatedDevice",
    "SimulatorError",
    "board_config",
    "half_blocks",
    "install_standins",
    "oled_image",
    "save_gif",
]
