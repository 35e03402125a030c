"""make firmware: the pinned MicroPython download, checked as an RP2040 UF2 file, with no network used."""

import hashlib
import io
import os
import struct
import subprocess
import sys
import urllib.error
from pathlib import Path

import pytest

from device import fetch_firmware


def uf2(blocks=3, family=fetch_firmware.RP2040_FAMILY):
    """A UF2 image in the format the Pico's boot ROM reads (payload zeros)."""
    image = b""
    for number in range(blocks):
        header = struct.pack("<IIIIIIII", *fetch_firmware.UF2_MAGIC_START, fetch_firmware.UF2_FAMILY_PRESENT,
                             0x10000000 + 256 * number, 256, number, blocks, family)
        image += header + bytes(476) + struct.pack("<I", fetch_firmware.UF2_MAGIC_END)
    return image


def serving(data):
    def urlopen(url, timeout):
        assert url == fetch_firmware.url("RPI_PICO")
        return io.BytesIO(data)

    return urlopen


def offline(url, timeout):
    raise urllib.error.URLError("Name or service not known")


def test_the_pinned_release_is_micropython_1_22_or_later_for_both_boards():
    major, minor = (int(part) for part in fetch_firmware.VERSION.lstrip("v").split(".")[:2])
    assert (major, minor) >= (1, 22)
    for board in fetch_firmware.BOARDS:
        assert fetch_firmware.url(board) == "https://micropython.org/resources/firmware/%s-%s-%s.uf2" % (
            board, fetch_firmware.RELEASE_DATE, fetch_firmware.VERSION)


def test_uf2_check():
    assert fetch_firmware.uf2_problem(uf2()) is None
    assert "whole number" in fetch_firmware.uf2_problem(b"<html>Not found</html>")
    assert "magic" in fetch_firmware.uf2_problem(uf2()[:512] + bytes(512))
    assert "not the RP2040" in fetch_firmware.uf2_problem(uf2(family=0xE48BFF59))  # an RP2350 image


def test_download_is_verified_saved_and_followed_by_the_bootsel_steps(tmp_path):
    status, message = fetch_firmware.fetch("RPI_PICO", tmp_path, urlopen=serving(uf2()))
    target = tmp_path / fetch_firmware.file_name("RPI_PICO")
    assert status == 0
    assert target.read_bytes() == uf2()
    assert "BOOTSEL" in message and "RPI-RP2" in message and str(target) in message
    assert list(tmp_path.iterdir()) == [target]


def test_a_file_already_there_is_checked_not_downloaded_again(tmp_path):
    (tmp_path / fetch_firmware.file_name("RPI_PICO")).write_bytes(uf2())
    status, message = fetch_firmware.fetch("RPI_PICO", tmp_path, urlopen=offline)
    assert status == 0 and "Already downloaded and verified" in message


@pytest.mark.parametrize("urlopen, reason", [
    (offline, "no internet here?"),
    (serving(b"<html>503 Service Unavailable</html>"), "is not a UF2 firmware file"),
])
def test_offline_or_a_bad_download_says_what_to_do_and_writes_nothing(tmp_path, urlopen, reason):
    status, message = fetch_firmware.fetch("RPI_PICO", tmp_path, urlopen=urlopen)
    assert status == 1
    assert reason in message
    assert fetch_firmware.url("RPI_PICO") in message
    assert str(tmp_path / fetch_firmware.file_name("RPI_PICO")) in message
    assert list(tmp_path.iterdir()) == []


def test_offline_the_command_says_what_to_do_then_how_to_install(tmp_path):
    # No internet: every download goes through a proxy nobody answers at.
    nowhere = "http://127.0.0.1:9"
    env = dict(os.environ, https_proxy=nowhere, http_proxy=nowhere, HTTPS_PROXY=nowhere, HTTP_PROXY=nowhere)
    tool = Path(fetch_firmware.__file__)
    done = subprocess.run([sys.executable, str(tool), "--build", str(tmp_path)], env=env, capture_output=True,
                          text=True, timeout=120)
    target = tmp_path / fetch_firmware.file_name("RPI_PICO")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    text = " ".join(done.stderr.split())
    assert "Could not download %s" % fetch_firmware.url("RPI_PICO") in text
    assert ("What to do: on any computer with internet, download %s" % fetch_firmware.url("RPI_PICO")) in text
    assert "put it in build/ under its exact name: %s and run `make firmware` again" % target in text
    assert text.index("make firmware` again") < text.index("Hold its BOOTSEL button") < text.index("make flash BOARD=")
    assert not target.exists()


def test_a_corrupt_file_in_build_is_reported(tmp_path):
    (tmp_path / fetch_firmware.file_name("RPI_PICO_W")).write_bytes(b"partial")
    status, message = fetch_firmware.fetch("RPI_PICO_W", tmp_path, urlopen=offline)
    assert status == 1 and "not a usable firmware file" in message and "Delete it" in message


# ----- the emulated Pico's boot ROM -------------------------------------------------


def rom_serving(data):
    def urlopen(url, timeout):
        assert url == fetch_firmware.BOOTROM_URL
        return io.BytesIO(data)

    return urlopen


def test_the_boot_rom_is_not_fetched_where_the_shared_folder_has_it(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / fetch_firmware.BOOTROM_NAME).write_bytes(b"rom")
    status, message = fetch_firmware.fetch_bootrom(tmp_path / "build", urlopen=offline, shared=shared)
    assert status == 0 and str(shared) in message
    assert not (tmp_path / "build").exists()


@pytest.mark.parametrize("urlopen, reason", [
    (offline, "Could not download"),
    (rom_serving(b"<html>Not found</html>"), "SHA-256 differs"),
])
def test_the_boot_rom_download_is_checked_and_offline_says_what_to_do(tmp_path, urlopen, reason):
    status, message = fetch_firmware.fetch_bootrom(tmp_path, urlopen=urlopen, shared=tmp_path / "none")
    assert status == 1 and reason in message
    assert fetch_firmware.BOOTROM_URL in message and str(tmp_path / fetch_firmware.BOOTROM_NAME) in message
    assert list(tmp_path.iterdir()) == []


def test_a_boot_rom_with_the_right_checksum_is_saved(tmp_path, monkeypatch):
    monkeypatch.setattr(fetch_firmware, "BOOTROM_SHA256", hashlib.sha256(b"rom").hexdigest())
    status, message = fetch_firmware.fetch_bootrom(tmp_path, urlopen=rom_serving(b"rom"), shared=tmp_path / "none")
    assert status == 0 and (tmp_path / fetch_firmware.BOOTROM_NAME).read_bytes() == b"rom"
    status, message = fetch_firmware.fetch_bootrom(tmp_path, urlopen=offline, shared=tmp_path / "none")
    assert status == 0 and "verified" in message
