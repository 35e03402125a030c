"""tools/device/pico_emulator.py without the emulator: the flash image it builds, and what it says when a piece is missing."""

import threading

import pytest

from device import firmware_build
from device import pico_emulator


def test_the_filesystem_image_has_the_rp2_geometry_and_round_trips():
    files = {"/main.py": b"print(1)\n", "/lib/othello/board.mpy": b"M\x06", "/board.json": b"{}"}
    image = pico_emulator.filesystem_image(files)
    assert len(image) == pico_emulator.FLASH_SIZE - pico_emulator.FS_OFFSET == 352 * 4096
    assert image[8:16] == b"littlefs"  # the superblock's magic, where MicroPython's lfs2 looks
    assert pico_emulator.files_of_image(image) == files
    assert all(pico_emulator.file_of_image(image, path) == data for path, data in files.items())
    assert pico_emulator.file_of_image(image, "/data/none.json") is None


def test_the_flash_holds_the_make_flash_build_and_the_firmware(tmp_path, monkeypatch):
    reason = pico_emulator.available()
    if reason and "make firmware" in reason:
        pytest.skip(reason)
    files = pico_emulator.build_files("pico_breadboard_i2c")
    assert "/main.py" in files and "/board.json" in files and "/lib/othello/board.mpy" in files
    assert "/main.py" not in pico_emulator.build_files("pico_breadboard_i2c", main=False)
    flash = pico_emulator.flash_image(files)
    assert len(flash) == pico_emulator.FLASH_SIZE
    assert pico_emulator.files_of_image(bytes(flash[pico_emulator.FS_OFFSET:])) == files


def test_missing_pieces_say_what_to_run(tmp_path, monkeypatch):
    monkeypatch.setattr(pico_emulator, "BUILD", tmp_path)
    monkeypatch.setattr(pico_emulator, "SHARED_PICO", tmp_path / "shared")
    with pytest.raises(pico_emulator.PicoError, match="run `make firmware`"):
        pico_emulator.firmware_file()
    with pytest.raises(pico_emulator.PicoError, match="run `make firmware`"):
        pico_emulator.bootrom_file()
    monkeypatch.setattr(pico_emulator, "RP2040JS", tmp_path / "none")
    with pytest.raises(pico_emulator.PicoError, match="run `make pico-deps`"):
        pico_emulator.node_program()


def test_emulations_side_by_side_build_their_files_apart(tmp_path):
    # tools/device/replay.py's two `play` commands run side by side: each emulation's files were built in
    # build/<board>/, which every build empties first, and one run removed the other's files mid-read
    paths = firmware_build.Paths(build=tmp_path)
    (tmp_path / "pico_breadboard_i2c").mkdir()
    (tmp_path / "pico_breadboard_i2c" / "kept.txt").write_text("make flash's build")
    results, failures = [], []

    def build():
        try:
            results.append(pico_emulator.build_files("pico_breadboard_i2c", paths=paths))
        except Exception as error:  # noqa: BLE001 - the test reports whatever a build raised
            failures.append(error)

    threads = [threading.Thread(target=build) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert len(results) == 3 and results[0] == results[1] == results[2]
    assert "/lib/othello/board.mpy" in results[0]
    assert sorted(path.name for path in tmp_path.rglob("*")) == ["kept.txt", "pico_breadboard_i2c"]
