"""Small files on the flash, replaced atomically.

write_atomic(name, data) writes name + ".tmp" and renames it over name.
MicroPython's LittleFS commits a file when it is closed and renames in one
step, so a power cut at any moment leaves the old file or the new one,
plus at worst a stray .tmp, which the next start-up removes.
"""

import errno
import os

TMP = ".tmp"


class PosixFiles:
    """The file operations Storage needs, on the device's own filesystem."""

    open = staticmethod(open)
    rename = staticmethod(os.rename)
    remove = staticmethod(os.remove)
    listdir = staticmethod(os.listdir)
    mkdir = staticmethod(os.mkdir)


class Storage:
    """Files by plain name ("settings.json") in the directory `root`."""

    def __init__(self, root, files=None):
        self.root = root
        self._files = files or PosixFiles()
        try:
            self._files.mkdir(root)
        except OSError as error:
            if error.args[0] != errno.EEXIST:
                raise
        for name in self._files.listdir(root):
            if name.endswith(TMP):
                self._files.remove(self._path(name, stray=True))

    def _path(self, name, stray=False):
        if not name or "/" in name or name.startswith(".") or (name.endswith(TMP) and not stray):
            raise ValueError("%r is not a storage name (no '/', no leading '.', no %s ending)" % (name, TMP))
        return self.root + "/" + name

    def read(self, name):
        """The file's bytes, or None if there is no such file."""
        try:
            with self._files.open(self._path(name), "rb") as file:
                return file.read()
        except OSError as error:
            if error.args[0] == errno.ENOENT:
                return None
            raise

    def write_atomic(self, name, data):
        """Replace the file with `data`: afterwards it holds the old bytes or the new, never a mix."""
        path = self._path(name)
        with self._files.open(path + TMP, "wb") as file:
            file.write(data)
        self._files.rename(path + TMP, path)

    def remove(self, name):
        """Delete the file; False if there was none."""
        try:
            self._files.remove(self._path(name))
        except OSError as error:
            if error.args[0] == errno.ENOENT:
                return False
            raise
        return True

    def names(self):
        return sorted(name for name in self._files.listdir(self.root) if not name.endswith(TMP))
