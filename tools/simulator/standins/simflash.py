"""The Pico's flash as a host directory, for firmware/hw/storage.py.

Every step that changes the flash (create a file, write each CHUNK of its
bytes, close, rename, remove, mkdir) first calls on_step(op, path): a chunk is
a step however many write() calls fill it, as json.dump writes a token at a
time and the flash programs a page at a time.
The simulator counts those steps to cut the power at a chosen one: on_step
then raises (in-process) or never returns (in the firmware process, which the
host kills), so that step and everything after it never happen.
"""

import io
import os

CHUNK = 256


class FlashFiles:
    """open/rename/remove/listdir/mkdir on paths relative to `root` ("" is the current directory)."""

    def __init__(self, root, on_step):
        self.root = root
        self.on_step = on_step

    def _host(self, path):
        return self.root + "/" + path if self.root else path

    def open(self, path, mode="r"):
        if "w" in mode or "a" in mode or "+" in mode:
            self.on_step("create", path)
            return _StepFile(open(self._host(path), mode), self, path)
        return open(self._host(path), mode)

    def rename(self, old, new):
        self.on_step("rename", new)
        os.rename(self._host(old), self._host(new))

    def remove(self, path):
        self.on_step("remove", path)
        os.remove(self._host(path))

    def mkdir(self, path):
        self.on_step("mkdir", path)
        os.mkdir(self._host(path))

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
