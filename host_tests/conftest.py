"""Shared test set-up: firmware/ and tools/ are importable, and MicroPython runs are one fixture away."""

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
for path in (REPO / "firmware", REPO / "tools"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from runners import micropython_runner  # noqa: E402  (needs the path above)


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
    Its modules are named as on the board ("/lib/ui/play.mpy"), as their names take heap too.
    """
    from device import wasi_memory

    return wasi_memory.compile_firmware(tmp_path_factory.mktemp("firmware_mpy"), march="x64")
