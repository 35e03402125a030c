#!/usr/bin/env python3
"""One .uf2 file that installs the whole game on a Raspberry Pi Pico (`make uf2`).

    uf2.py --board NAME [--out FILE]   MicroPython and the `make flash` build of NAME in one file

The Pico, started with BOOTSEL held, appears as the drive RPI-RP2 and writes each 512-byte block of a
.uf2 copied onto it where the block says, then restarts. This file holds MicroPython's own blocks (the
release `make firmware` saved in build/, else ../shared/pico/) followed by the littlefs2 filesystem
the rp2 port mounts at flash offset 0xA0000, holding what `make flash` copies (tools/device/deploy.py build:
main.py, board.json, the modules compiled by mpy-cross). The filesystem goes in whole, 1408 KiB: had
its unused blocks been left out, sectors of an earlier filesystem would stay, and littlefs, which
takes the newer of a metadata block pair, could read a stale block as part of this one.

So the file replaces the Pico's files, saved games and settings included; `make flash` updates the
game in place and keeps them.
"""

import argparse
import struct
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1]
if str(TOOLS) not in sys.path:  # run as a script
    sys.path.insert(0, str(TOOLS))

from device import fetch_firmware, firmware_build, pico_emulator  # noqa: E402

FLASH_BASE = 0x10000000  # where the RP2040 maps its flash (XIP): UF2 addresses are these
PAGE = 256  # the payload of each block: a flash page, what the boot ROM programs at once
HEADER = struct.Struct("<IIIIIIII")  # magic, magic, flags, address, payload size, block number, blocks, family
DATA_BYTES = fetch_firmware.UF2_BLOCK - HEADER.size - 4
PICO = "RPI_PICO"  # the board whose flash layout (pico_emulator.FS_OFFSET) this file follows


class Uf2Error(Exception):
    """The file cannot be made: the message says what to run or fix."""


def pages(offset, data):
    """[(flash offset, bytes)] of `data` at `offset`, cut into flash pages (the last one padded with 0xff)."""
    if offset % PAGE:
        raise ValueError("flash offset 0x%x is not on a %d-byte page" % (offset, PAGE))
    padded = bytes(data) + b"\xff" * (-len(data) % PAGE)
    return [(offset + at, padded[at : at + PAGE]) for at in range(0, len(padded), PAGE)]


def encode(page_list):
    """The .uf2 bytes of [(flash offset, bytes of at most 476)], numbered 0.. over the whole file, for the RP2040."""
    total = len(page_list)
    blocks = []
    for number, (offset, data) in enumerate(page_list):
        if len(data) > DATA_BYTES:
            raise ValueError("a UF2 block carries at most %d bytes, not %d" % (DATA_BYTES, len(data)))
        header = HEADER.pack(fetch_firmware.UF2_MAGIC_START[0], fetch_firmware.UF2_MAGIC_START[1],
                             fetch_firmware.UF2_FAMILY_PRESENT, FLASH_BASE + offset, len(data), number, total,
                             fetch_firmware.RP2040_FAMILY)
        blocks.append(header + bytes(data).ljust(DATA_BYTES, b"\x00")
                      + struct.pack("<I", fetch_firmware.UF2_MAGIC_END))
    return b"".join(blocks)


def installer(firmware, files):
    """The .uf2 bytes of MicroPython (the .uf2 bytes `firmware`) plus a filesystem of {board path: bytes}."""
    firmware_pages = sorted(pico_emulator.uf2_payload(firmware).items())
    end = max(offset + len(data) for offset, data in firmware_pages)
    if end > pico_emulator.FS_OFFSET:
        raise Uf2Error("this MicroPython reaches flash offset 0x%x, past the filesystem's start at 0x%x: it is "
                       "not the %s build `make firmware` fetches" % (end, pico_emulator.FS_OFFSET, PICO))
    filesystem = pico_emulator.filesystem_image(files)
    return encode(firmware_pages + pages(pico_emulator.FS_OFFSET, filesystem))


def make(board, out=None):
    """Write the installer of board config `board` (default build/pocket-othello-<board>.uf2); returns its path."""
    try:
        firmware = pico_emulator.firmware_file().read_bytes()
        files = pico_emulator.build_files(board)
    except pico_emulator.PicoError as error:
        raise Uf2Error(str(error))
    data = installer(firmware, files)
    target = Path(out) if out else pico_emulator.BUILD / ("pocket-othello-%s.uf2" % Path(board).name.removesuffix(".json"))
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.write_bytes(data)
    partial.replace(target)  # a half-written file never looks like an installer
    return target


def install_steps(path):
    return """\
Install it on the Pico (MicroPython and the game in one go; files already on the Pico are replaced):
  1. Unplug the Pico. Hold its BOOTSEL button while you plug it in, then let go.
  2. A USB drive called RPI-RP2 appears. Copy the file onto it:
       {path}
  3. The drive disappears and the Pico restarts into the game.""".format(path=path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--board", default="", help=firmware_build.BOARD_HELP)
    parser.add_argument("--pico", default=PICO, help="MicroPython board build (only %s has this layout)" % PICO)
    parser.add_argument("--out", help="the .uf2 to write (default build/pocket-othello-<board>.uf2)")
    args = parser.parse_args(argv)
    try:
        if args.pico != PICO:
            raise Uf2Error("make uf2 knows the flash layout of the Raspberry Pi Pico (PICO=%s) only, not %s: "
                           "for that board install MicroPython with `make firmware PICO=%s`, then `make flash`"
                           % (PICO, args.pico, args.pico))
        path = make(args.board, args.out)
    except (Uf2Error, OSError) as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    print("Wrote %s (%d KiB)\n%s" % (path, path.stat().st_size // 1024, install_steps(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
