"""The flash build, without a board: .mpy files for the RP2040 and the plan of what goes where."""

import json

import pytest

from device import deploy, firmware_build
import hw
from hw import board as hw_board

REPO = firmware_build.REPO
ARMV6M = 4  # .mpy native architecture code of -march=armv6m
NATIVE_MARKERS = ("@micropython.viper", "@micropython.native", "@micropython.asm_thumb")


def make_tree(root, files):
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)


@pytest.fixture
def project(tmp_path):
    """A small firmware tree (a package, a nested one, a viper module, a data file) and two board configs."""
    make_tree(tmp_path / "firmware", {
        "main.py": "import game.play\n",
        "game/__init__.py": "",
        "game/play.py": "from game.deep.table import WEIGHTS\n",
        "game/deep/table.py": "WEIGHTS = (1, 2, 3)\n",
        "game/fast.py": "import micropython\n@micropython.viper\ndef twice(x: int) -> int:\n    return x << 1\n",
        "game/weights.bin": bytes(range(7)),
        "game/__pycache__/play.cpython-311.pyc": b"host only",
    })
    make_tree(tmp_path / "configs", {
        "breadboard.json": '{"display": {"driver": "ssd1306"}}\n',
        "other.json": '{"display": {"driver": "sh1106"}}\n',
    })
    return firmware_build.Paths(firmware=tmp_path / "firmware", configs=tmp_path / "configs", build=tmp_path / "build")


def mpy_header(data):
    """(version, native sub-version, native arch, small-int bits) of a .mpy file."""
    assert data[:1] == b"M", "not a .mpy file"
    return data[1], data[2] & 3, data[2] >> 2, data[3]


def test_every_firmware_module_compiles_to_an_armv6m_mpy():
    sources = sorted(path.relative_to(REPO / "firmware") for path in (REPO / "firmware").rglob("*.py")
                     if "__pycache__" not in path.parts)
    assert sources, "firmware/ has no Python files"
    compiled = firmware_build.compile_all(sources, firmware_build.Paths())  # raises, naming the file, on viper the Pico rejects
    for relative in sources:
        version, sub_version, arch, small_int_bits = mpy_header(compiled[relative])
        assert version == 6, relative
        assert small_int_bits == 31, relative  # the RP2040's small ints
        text = (REPO / "firmware" / relative).read_text()
        if any(marker in text for marker in NATIVE_MARKERS):
            assert (arch, sub_version) == (ARMV6M, 3), relative
        else:
            assert arch == 0, relative  # plain bytecode carries no architecture


def test_viper_the_pico_rejects_is_a_clear_build_error(project):
    # A literal above 2**30 - 1 in viper code compiles on the 64-bit host but not for the Pico.
    (project.firmware / "game" / "fast.py").write_text(
        "import micropython\n@micropython.viper\ndef mask(x: uint) -> uint:\n    return x & 0xFEFEFEFE\n")
    with pytest.raises(firmware_build.DeployError) as error:
        firmware_build.build("breadboard", project)
    assert "firmware/game/fast.py" in str(error.value)
    assert "ViperTypeError" in str(error.value)


def test_plan_puts_each_file_where_the_board_needs_it(project):
    plan = firmware_build.build("breadboard", project)
    assert sorted(plan) == [
        "/board.json",
        "/deploy_manifest.txt",
        "/lib/game/__init__.mpy",
        "/lib/game/deep/table.mpy",
        "/lib/game/fast.mpy",
        "/lib/game/play.mpy",
        "/lib/game/weights.bin",
        "/main.py",
    ]
    assert plan["/main.py"].read_bytes() == (project.firmware / "main.py").read_bytes()
    assert plan["/board.json"].read_bytes() == (project.configs / "breadboard.json").read_bytes()
    assert plan["/lib/game/weights.bin"].read_bytes() == bytes(range(7))
    assert mpy_header(plan["/lib/game/fast.mpy"].read_bytes())[2] == ARMV6M
    assert plan["/deploy_manifest.txt"].read_text().split() == sorted(plan)
    # The build directory mirrors the board, nothing more.
    on_disk = sorted("/" + path.relative_to(project.build / "breadboard").as_posix()
                     for path in (project.build / "breadboard").rglob("*") if path.is_file())
    assert on_disk == sorted(plan)


def test_rebuild_drops_files_gone_from_firmware_and_takes_the_chosen_config(project):
    firmware_build.build("breadboard", project)
    (project.firmware / "game" / "fast.py").unlink()
    plan = firmware_build.build("other", project)
    assert "/lib/game/fast.mpy" not in plan
    assert not (project.build / "other" / "lib" / "game" / "fast.mpy").exists()
    assert json.loads(plan["/board.json"].read_text())["display"]["driver"] == "sh1106"


def test_source_names_in_mpy_are_the_files_on_the_board(project):
    # the name the import gives the module's __file__: one interned string for both, and no checkout path
    data = firmware_build.build("breadboard", project)["/lib/game/play.mpy"].read_bytes()
    assert b"/lib/game/play.mpy" in data
    assert b"game/play.py" not in data
    assert str(project.firmware).encode() not in data


@pytest.mark.parametrize("config", sorted((REPO / "board_configs").glob("*.json")), ids=lambda path: path.stem)
def test_plan_for_each_board_config_in_the_repository(config, tmp_path):
    if not (REPO / "firmware" / "main.py").exists():
        pytest.skip("firmware/main.py is not written yet")
    plan = firmware_build.build(config.stem, firmware_build.Paths(build=tmp_path))
    assert plan["/board.json"].read_bytes() == config.read_bytes()
    assert plan["/main.py"].read_bytes() == (REPO / "firmware" / "main.py").read_bytes()
    expected = {"/board.json", "/board.checked.json", "/deploy_manifest.txt", "/main.py"}
    for path in (REPO / "firmware").rglob("*"):
        relative = path.relative_to(REPO / "firmware")
        if path.is_file() and "__pycache__" not in relative.parts and relative.as_posix() != "main.py":
            expected.add("/lib/" + (relative.with_suffix(".mpy") if path.suffix == ".py" else relative).as_posix())
    assert set(plan) == expected
    assert "/lib/othello/kernel.mpy" in plan
    # The checked form fingerprints the compiled holders and validator the board gets, and holds the config.
    kept, row = json.loads(plan["/board.checked.json"].read_text())
    assert kept == hw_board.fingerprint(config.read_bytes(), str(plan["/lib/hw/board.mpy"]))
    built = hw_board.checked_config(str(plan["/board.json"]), config.read_bytes())
    assert built is None, "the firmware here is the source, not the build: another fingerprint"
    validated = hw.read_config(str(config))
    assert row[:2] == [validated.name, validated.description] and len(row) == 8


@pytest.mark.parametrize("board, message", [
    ("", "say which board config to use: BOARD=<name>; choose one of: breadboard, other"),
    ("breadbord", "no board config called 'breadbord'; choose one of: breadboard, other"),
])
def test_a_bad_board_name_fails_naming_the_choices(project, capsys, board, message):
    assert deploy.main(["build", "--board", board], project) == 2
    assert message in capsys.readouterr().err
    assert not project.build.exists()


def test_a_config_that_is_not_json_fails_naming_the_file(project, capsys):
    (project.configs / "broken.json").write_text('{"display": ')
    assert deploy.main(["flash", "--board", "broken"], project) == 2
    error = capsys.readouterr().err
    assert "broken.json is not usable" in error and "not valid JSON" in error


def test_a_config_the_firmware_would_reject_is_refused_with_its_reasons(tmp_path, capsys):
    """With the real firmware, its own validator (firmware/hw/config.py) judges the config."""
    config = {"name": "wrong", "display": {"controller": "ili9341", "bus": "i2c", "i2c": {"sda": 4, "scl": 5}},
              "buttons": {"a": {"pin": 20, "pull": "up", "active": "low"}}}
    (tmp_path / "wrong.json").write_text(json.dumps(config))
    paths = firmware_build.Paths(configs=tmp_path, build=tmp_path / "build")
    assert deploy.main(["build", "--board", "wrong"], paths) == 2
    error = capsys.readouterr().err
    assert "wrong.json is not usable" in error and "display.controller" in error
    assert not (tmp_path / "build").exists()


def test_firmware_without_main_py_is_refused(project):
    (project.firmware / "main.py").unlink()
    with pytest.raises(firmware_build.DeployError, match="no main.py"):
        firmware_build.build("breadboard", project)
