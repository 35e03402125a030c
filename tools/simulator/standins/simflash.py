"""The Pico's flash as a host directory, for firmware/hw/storage.py.

Every step that changes the flash (create a file, write each CHUNK of its
bytes, close, rename, remove, mkdir) first calls on_step(op, path): a chunk is
a step however many write() calls fill it, as json.dump writes a token at a
time and the flash programs a page at a time.
The simulator counts those steps to cut the power at a chosen one: on_step
then raises (in-process) or never returns (in the firmware process, which the
host kills), so that step and everything after it never happen.

Its refusals are the device's, as OSError with the errno MicroPython's
littlefs gives: a directory without write permission stands for a flash
mounted read-only (EROFS, also when the host's own refusal is EACCES or
EPERM, or when the host ignores the bits, as it does for root), and a
directory holding more than the Pico's filesystem holds is a full flash
(ENOSPC).
"""

import io
import os

CHUNK = 256
BLOCK = 4096  # littlefs's block on the Pico: a file takes whole blocks
FLASH_BYTES = 1408 * 1024  # the rp2 port's filesystem on a 2 MiB Pico
# errno numbers (Linux's, as MicroPython's; its errno module names only some of them)
EPERM, EACCES, ENOSPC, EROFS = 1, 13, 28, 30
_READ_ONLY = (EROFS, EACCES, EPERM)


def _device_error(error):
    """The host's OSError as the device raises it."""
    if error.args and error.args[0] in _READ_ONLY:
        return OSError(EROFS, "read-only flash")
    return error


class FlashFiles:
    """open/rename/remove/listdir/mkdir on paths relative to `root` ("" is the current directory)."""

    def __init__(self, root, on_step):
        self.root = root
        self.on_step = on_step

    def _host(self, path):
        return self.root + "/" + path if self.root else path

    def _folder(self, path):  # no os.path: this runs under MicroPython's unix port too
        host = self._host(path)
        return host.rsplit("/", 1)[0] if "/" in host else "."

    def _check_writable(self, path):
        """EROFS where the folder of `path` has no write permission bits (whoever the host user is)."""
        try:
            mode = os.stat(self._folder(path))[0]  # a tuple under MicroPython: [0] mode, [6] size
        except OSError:
            return  # no folder: the operation itself says so
        if not mode & 0o222:
            raise OSError(EROFS, "read-only flash")

    def check_space(self, path, more):
        """ENOSPC if `more` bytes would not fit beside the files of the folder of `path`."""
        folder = self._folder(path)
        used = 0
        for name in os.listdir(folder):
            size = os.stat(folder + "/" + name)[6]
            used += max(1, -(-size // BLOCK)) * BLOCK
        if used + more > FLASH_BYTES:
            raise OSError(ENOSPC, "flash full")

    def open(self, path, mode="r"):
        if "w" in mode or "a" in mode or "+" in mode:
            self.on_step("create", path)
            self._check_writable(path)
            try:
                return _StepFile(open(self._host(path), mode), self, path)
            except OSError as error:
                raise _device_error(error)
        return open(self._host(path), mode)

    def rename(self, old, new):
        self.on_step("rename", new)
        self._check_writable(new)
        try:
            os.rename(self._host(old), self._host(new))
        except OSError as error:
            raise _device_error(error)

    def remove(self, path):
        self.on_step("remove", path)
        self._check_writable(path)
        try:
            os.remove(self._host(path))
        except OSError as error:
            raise _device_error(error)

    def mkdir(self, path):
        self.on_step("mkdir", path)
        self._check_writable(path)
        try:
            os.mkdir(self._host(path))
        except OSError as error:
            raise _device_error(error)

    def listdir(self, path):
        return os.listdir(self._host(path))


class _StepFile(io.IOBase):  # an IOBase, so that MicroPython's json.dump can write to it as to a file
    def __init__(self, file, flash, path):
        self._file = file
        self._flash = flash
        self._path = path
        self._written = 0

    def write(self, data):
        view = memoryview(data)
        done = 0
        while done < len(view):
            if self._written % CHUNK == 0:
                self._flash.on_step("write", self._path)
                self._flash.check_space(self._path, CHUNK)
            part = min(len(view) - done, CHUNK - self._written % CHUNK)
            self._file.write(view[done : done + part])
            done += part
            self._written += part
        return done

    def close(self):
        if self._file is not None:
            self._flash.on_step("close", self._path)
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        if exc_type is None:
            self.close()
        elif self._file is not None:
            # The power went during the writing: nothing more reaches the flash.
            self._file.close()
            self._file = None
        return False
