"""`make uf2` (tools/device/uf2.py): one .uf2 holding MicroPython and the `make flash` filesystem.

The structure tests read the file back with the same rules the emulated Pico loads it by
(pico_emulator.uf2_payload, fetch_firmware.uf2_problem); the last test drops the one file on an
emulated Pico with an erased flash and plays the user's part: title, a setting changed, a reset.
"""

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device import fetch_firmware
import hw
from device import pico_emulator
from device import uf2
from simulator import SimulatedDevice

BOARD = "pico_breadboard_i2c"
FS_PAGES = (pico_emulator.FLASH_SIZE - pico_emulator.FS_OFFSET) // uf2.PAGE
NO_FIRMWARE = pico_emulator.available() if os.environ.get("CI") != "true" else None


def firmware_or_skip():
    try:
        return pico_emulator.firmware_file().read_bytes()
    except pico_emulator.PicoError as error:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(str(error))  # names `make firmware`


def page_runs():
    """[(flash offset, data)]: runs of data at page-aligned offsets that do not overlap."""
    def place(runs):
        placed, offset = [], 0
        for gap, data in runs:
            offset += gap * uf2.PAGE
            placed.append((offset, data))
            offset += -(-len(data) // uf2.PAGE) * uf2.PAGE
        return placed
    run = st.tuples(st.integers(0, 20), st.binary(min_size=1, max_size=3 * uf2.PAGE))
    return st.lists(run, min_size=1, max_size=6).map(place)


@settings(max_examples=60, deadline=None)
@given(page_runs())
def test_blocks_parse_back_to_the_data_at_its_addresses(runs):
    page_list = [page for offset, data in runs for page in uf2.pages(offset, data)]
    data = uf2.encode(page_list)
    assert len(data) == len(page_list) * fetch_firmware.UF2_BLOCK
    assert fetch_firmware.uf2_problem(data) is None  # magic, RP2040 family, numbered 0..n-1 of n
    assert pico_emulator.uf2_payload(data) == dict(page_list)
    flash = pico_emulator.installed(data)
    for offset, run in runs:
        assert flash[offset : offset + len(run)] == run
        assert set(flash[offset + len(run) : offset - (-len(run) // uf2.PAGE) * uf2.PAGE]) <= {0xFF}


def test_a_cut_or_spliced_file_is_refused():
    data = uf2.encode(uf2.pages(0, bytes(range(256)) * 4))
    assert "numbered 0 of 4, not 0 of 2" in fetch_firmware.uf2_problem(data[: 2 * fetch_firmware.UF2_BLOCK])
    assert "numbered" in fetch_firmware.uf2_problem(data + data)
    with pytest.raises(ValueError, match="not on a 256-byte page"):
        uf2.pages(100, b"x")
    with pytest.raises(pico_emulator.PicoError, match="outside the Pico's 2 MiB flash"):
        pico_emulator.installed(uf2.encode(uf2.pages(pico_emulator.FLASH_SIZE, b"x")))


def test_the_file_holds_the_firmware_and_the_make_flash_filesystem_where_the_rp2_port_mounts_it():
    firmware = firmware_or_skip()
    files = pico_emulator.build_files(BOARD)
    data = uf2.installer(firmware, files)
    assert fetch_firmware.uf2_problem(data) is None
    firmware_pages = pico_emulator.uf2_payload(firmware)
    assert len(data) == (len(firmware_pages) + FS_PAGES) * fetch_firmware.UF2_BLOCK
    for at in range(0, len(firmware), fetch_firmware.UF2_BLOCK):  # MicroPython's blocks first, as released
        ours, theirs = data[at : at + fetch_firmware.UF2_BLOCK], firmware[at : at + fetch_firmware.UF2_BLOCK]
        assert ours[:24] + ours[28:] == theirs[:24] + theirs[28:]  # all but the total of blocks
    payload = pico_emulator.uf2_payload(data)
    assert {offset: payload[offset] for offset in firmware_pages} == firmware_pages
    assert sorted(set(payload) - set(firmware_pages)) == list(
        range(pico_emulator.FS_OFFSET, pico_emulator.FLASH_SIZE, uf2.PAGE))  # the whole filesystem region
    flash = pico_emulator.installed(data)
    assert flash == pico_emulator.flash_image(files)  # what the emulated tests run from, byte for byte
    assert pico_emulator.files_of_image(bytes(flash[pico_emulator.FS_OFFSET:])) == files
    assert json.loads(files["/board.json"]) == json.loads(
        (pico_emulator.firmware_build.Paths().configs / (BOARD + ".json")).read_text())


def test_a_firmware_reaching_into_the_filesystem_is_refused():
    too_big = uf2.encode(uf2.pages(0, b"\x00" * (pico_emulator.FS_OFFSET + uf2.PAGE)))
    with pytest.raises(uf2.Uf2Error, match="past the filesystem's start"):
        uf2.installer(too_big, {"/main.py": b""})


def test_the_command_line_writes_the_file_or_says_what_to_fix(tmp_path, monkeypatch, capsys):
    firmware_or_skip()
    out = tmp_path / "game.uf2"
    assert uf2.main(["--board", BOARD, "--out", str(out)]) == 0
    assert fetch_firmware.uf2_problem(out.read_bytes()) is None
    said = capsys.readouterr().out
    assert str(out) in said and "BOOTSEL" in said and "RPI-RP2" in said
    assert [path.name for path in tmp_path.iterdir()] == ["game.uf2"]  # no partial file left

    for argv, message in ((["--board", "nope"], "no board config called 'nope'"),
                          ([], "say which board config to use"),
                          (["--board", BOARD, "--pico", "RPI_PICO_W"], "make firmware PICO=RPI_PICO_W")):
        assert uf2.main(argv + ["--out", str(tmp_path / "bad.uf2")]) == 2
        assert message in capsys.readouterr().err
    monkeypatch.setattr(pico_emulator, "BUILD", tmp_path / "build")
    monkeypatch.setattr(pico_emulator, "SHARED_PICO", tmp_path / "shared")
    assert uf2.main(["--board", BOARD, "--out", str(tmp_path / "bad.uf2")]) == 2
    assert "run `make firmware`" in capsys.readouterr().err
    assert not (tmp_path / "bad.uf2").exists()


def first_picture(config):
    """The first picture the firmware shows after power-up (the title), from the simulator."""
    with SimulatedDevice(config) as sim:
        sim.power_on()
        blank = sim.screen_text()
        assert sim.run_until(lambda device: device.screen_text() != blank, 5000, 10)
        return sim.screen_text()


@pytest.mark.pico
@pytest.mark.skipif(bool(NO_FIRMWARE), reason=str(NO_FIRMWARE))
def test_the_one_file_boots_to_the_title_and_keeps_the_settings_through_a_reset(tmp_path):
    path = uf2.make(BOARD, tmp_path / "game.uf2")
    title = first_picture(pico_emulator.firmware_build.Paths().configs / (BOARD + ".json"))
    with pico_emulator.EmulatedPico(BOARD, uf2=path) as pico:
        pico.power_on()
        assert pico.run_until(lambda p: p.screen_text() == title, 8000, 50), pico.console
        pico.tap("a")  # leave the title for the main menu
        pico.run_for(1500)
        for name in ("up", "up", "a", "right"):  # Settings (up from the first item), sound off
            pico.tap(name, 100, 400)
        sound_off = pico.screen_text()
        pico.tap("b", 100, 400)  # leaving the menu saves
        settings_saved = json.loads(pico.flash_file("%s/settings.json" % hw.STORAGE_ROOT))
        assert settings_saved["sound"] is False

        pico.power_cycle(off_ms=500)
        assert pico.run_until(lambda p: p.screen_text() == title, 8000, 50), pico.console
        assert json.loads(pico.flash_file("%s/settings.json" % hw.STORAGE_ROOT)) == settings_saved
        pico.tap("a")
        pico.run_for(1500)
        for name in ("up", "up", "a"):
            pico.tap(name, 100, 400)
        assert pico.screen_text() == sound_off, "the settings menu after the reset is not the one left"
        assert "Traceback" not in pico.console
