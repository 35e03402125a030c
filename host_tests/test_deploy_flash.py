"""make flash / run / repl / bench-device against a recording mpremote stand-in (host_tests/stubs/mpremote)."""

import hashlib
import json
import os
from pathlib import Path

import pytest

from device import deploy
from runners import micropython_runner
from test_deploy_build import make_tree

STUBS = Path(__file__).resolve().parent / "stubs"
OLD_MICROPYTHON = 6 | (2 | 4 << 2) << 8  # MicroPython 1.22: .mpy v6.2


@pytest.fixture
def project(tmp_path, monkeypatch):
    make_tree(tmp_path / "firmware", {
        "main.py": "import game.play\n",
        "game/__init__.py": "",
        "game/play.py": "LEVEL = 1\n",
        "game/fast.py": "import micropython\n@micropython.viper\ndef twice(x: int) -> int:\n    return x << 1\n",
        "game/rules/__init__.py": "",
        "game/rules/anti.py": "ANTI = True\n",
    })
    make_tree(tmp_path / "configs", {"breadboard.json": '{"display": {"driver": "ssd1306"}}\n'})
    board = tmp_path / "board"
    board.mkdir()
    monkeypatch.setenv("PATH", str(STUBS) + os.pathsep + os.environ["PATH"])
    monkeypatch.setenv("MPREMOTE_STUB_LOG", str(tmp_path / "mpremote.log"))
    monkeypatch.setenv("MPREMOTE_STUB_BOARD", str(board))
    paths = deploy.Paths(firmware=tmp_path / "firmware", configs=tmp_path / "configs", build=tmp_path / "build",
                         tools=tmp_path / "tools")
    paths.board = board
    paths.log = tmp_path / "mpremote.log"
    return paths


def calls(project):
    """mpremote argv lists since the last look, and start a fresh log."""
    if not project.log.exists():
        return []
    lines = project.log.read_text().splitlines()
    project.log.unlink()
    return [json.loads(line) for line in lines]


def board_files(project):
    return {"/" + path.relative_to(project.board).as_posix(): path.read_bytes()
            for path in project.board.rglob("*") if path.is_file()}


def copied(call):
    """Board paths an mpremote session copies to."""
    return sorted(call[index + 3][1:] for index, word in enumerate(call) if call[index:index + 2] == ["fs", "cp"])


def test_first_flash_installs_the_build_and_resets(project, capsys):
    assert deploy.main(["flash", "--board", "breadboard"], project) == 0
    list_call, query, update = calls(project)
    assert list_call == ["connect", "list"]
    assert query[:3] == ["connect", "auto", "exec"] and len(query) == 4
    assert update[:3] == ["connect", "auto", "exec"]
    assert update[-2:] == ["+", "reset"]
    plan = {path: local.read_bytes() for path, local in deploy.build("breadboard", project).items()}
    assert board_files(project) == plan
    assert copied(update) == sorted(plan)
    assert "breadboard: 8 copied, 0 removed, 0 unchanged" in capsys.readouterr().out


def test_second_flash_copies_only_changed_files(project, capsys):
    deploy.main(["flash", "--board", "breadboard"], project)
    calls(project)
    assert deploy.main(["flash", "--board", "breadboard"], project) == 0
    assert calls(project)[-1] == ["connect", "auto", "reset"]
    assert "0 copied, 0 removed, 8 unchanged" in capsys.readouterr().out

    (project.firmware / "game" / "play.py").write_text("LEVEL = 2\n")
    deploy.main(["flash", "--board", "breadboard"], project)
    update = calls(project)[-1]
    assert copied(update) == ["/lib/game/play.mpy"]
    assert update[-2:] == ["+", "reset"]
    assert board_files(project)["/lib/game/play.mpy"] == (project.build / "breadboard/lib/game/play.mpy").read_bytes()


def test_stale_files_go_and_the_players_files_stay(project):
    deploy.main(["flash", "--board", "breadboard"], project)
    # Written at run time by the firmware, and by mip: not the build's, never touched.
    make_tree(project.board, {"settings.json": "{}", "saves/game.json": "[]", "lib/ssd1306.mpy": "driver"})
    (project.firmware / "game" / "rules" / "anti.py").unlink()
    (project.firmware / "game" / "rules" / "__init__.py").unlink()
    deploy.main(["flash", "--board", "breadboard"], project)
    files = board_files(project)
    assert "/lib/game/rules/anti.mpy" not in files
    assert not (project.board / "lib" / "game" / "rules").exists()  # emptied directory removed too
    assert {"/settings.json", "/saves/game.json", "/lib/ssd1306.mpy"} <= set(files)
    assert files["/deploy_manifest.txt"].decode().split() == sorted(deploy.build("breadboard", project))


def test_a_whole_package_dropped_from_firmware_is_removed_through_the_manifest(project):
    make_tree(project.firmware, {"extra.py": "X = 1\n"})
    deploy.main(["flash", "--board", "breadboard"], project)
    assert "/lib/extra.mpy" in board_files(project)
    (project.firmware / "extra.py").unlink()
    deploy.main(["flash", "--board", "breadboard"], project)
    assert "/lib/extra.mpy" not in board_files(project)


def test_port_is_passed_to_every_session(project):
    deploy.main(["flash", "--board", "breadboard", "--port", "/dev/ttyACM0"], project)
    sessions = calls(project)[1:]
    assert sessions and all(call[:2] == ["connect", "/dev/ttyACM0"] for call in sessions)


def test_no_board_attached_says_so_and_touches_nothing(project, monkeypatch, capsys):
    monkeypatch.setenv("MPREMOTE_STUB_NO_BOARD", "1")
    assert deploy.main(["flash", "--board", "breadboard"], project) == 2
    error = capsys.readouterr().err
    assert "no MicroPython board found on USB" in error
    assert "Serial ports seen: /dev/ttyS0 (not USB)" in error
    assert "make firmware" in error
    assert calls(project) == [["connect", "list"]]
    for action in ("repl", "bench"):
        assert deploy.main([action], project) == 2
    assert deploy.main(["run", "--board", "breadboard"], project) == 2
    assert calls(project) == [["connect", "list"]] * 3


def test_a_named_port_that_is_missing_says_so(project, monkeypatch, capsys):
    monkeypatch.setenv("MPREMOTE_STUB_NO_BOARD", "1")
    assert deploy.main(["repl", "--port", "/dev/ttyACM7"], project) == 2
    assert "serial port /dev/ttyACM7 does not exist" in capsys.readouterr().err


def test_mpremote_errors_become_advice():
    assert "another program holds it" in deploy.explain_failure("", "mpremote: failed to access /dev/ttyACM0")
    assert "does not answer Ctrl-C" in deploy.explain_failure("", "mpremote: could not enter raw repl")


def test_old_micropython_on_the_board_is_refused_before_copying(project, monkeypatch, capsys):
    monkeypatch.setenv("MPREMOTE_STUB_MPY", str(OLD_MICROPYTHON))
    assert deploy.main(["flash", "--board", "breadboard"], project) == 2
    assert "make firmware" in capsys.readouterr().err
    assert board_files(project) == {}


def test_mip_packages_are_installed_once_and_kept(project, monkeypatch):
    monkeypatch.setattr(deploy, "MIP_PACKAGES", {"ssd1306": "/lib/ssd1306.mpy"})
    deploy.main(["flash", "--board", "breadboard"], project)
    assert ["connect", "auto", "mip", "install", "ssd1306"] in calls(project)
    deploy.main(["flash", "--board", "breadboard"], project)
    assert not [call for call in calls(project) if "mip" in call]
    assert "/lib/ssd1306.mpy" in board_files(project)


def test_run_mounts_the_build_and_repl_and_bench_talk_to_the_board(project):
    assert deploy.main(["run", "--board", "breadboard", "--port", "/dev/ttyACM0"], project) == 0
    assert deploy.main(["repl"], project) == 0
    assert deploy.main(["bench"], project) == 0
    build = project.build / "breadboard"
    assert calls(project) == [
        ["connect", "list"],
        ["connect", "/dev/ttyACM0", "mount", str(build), "+", "exec", "import sys; sys.path.insert(0, '/remote/lib')",
         "+", "run", str(build / "main.py")],
        ["connect", "list"],
        ["connect", "auto", "repl"],
        ["connect", "list"],
        ["connect", "auto", "run", str(project.tools / "device" / "workloads" / "overview.py"), "+", "reset"],
    ]
    # make run installs nothing: the mounted build holds the config where the firmware looks for it.
    assert board_files(project) == {}
    assert (build / "board.json").read_bytes() == (project.configs / "breadboard.json").read_bytes()
    assert (build / "lib" / "game" / "play.mpy").exists()


def test_device_scripts_work_on_micropython(tmp_path):
    """The hash query and the clean-up run under the real MicroPython unix port against a directory."""
    make_tree(tmp_path, {"main.py": "print(1)\n", "lib/game/a.mpy": b"M\x06" + bytes(3000), "lib/game/old.mpy": b"x",
                         "lib/keep.mpy": b"mip", "deploy_manifest.txt": "/main.py\n/lib/gone.mpy\n"})
    plan = {"/main.py": tmp_path / "main.py", "/lib/game/a.mpy": tmp_path / "lib/game/a.mpy"}
    answer = micropython_runner.run_unix(deploy.hash_query(plan, root=str(tmp_path)))
    mpy, hashes = deploy.parse_hash_report(answer)
    assert mpy > 0
    expected = {path: hashlib.sha256((tmp_path / path.lstrip("/")).read_bytes()).hexdigest()
                for path in ("/main.py", "/lib/game/a.mpy", "/lib/game/old.mpy")}
    assert hashes == expected  # /lib/keep.mpy is not the build's; /lib/gone.mpy no longer exists

    script = deploy.prepare_script(["/lib/new/deep/b.mpy"], ["/lib/game/a.mpy", "/lib/game/old.mpy"], root=str(tmp_path))
    micropython_runner.run_unix(script)
    assert not (tmp_path / "lib" / "game").exists()
    assert (tmp_path / "lib" / "new" / "deep").is_dir()
    assert (tmp_path / "lib" / "keep.mpy").exists()
