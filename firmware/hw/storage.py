"""Small files on the flash, replaced atomically.

replace(name) and write_atomic(name, data) write name + ".tmp" and rename it
over name. MicroPython's LittleFS commits a file when it is closed and
renames in one step, so a power cut at any moment leaves the old file or the
new one, plus at worst a stray .tmp, which the next start-up removes.

open_read() and replace() hand out the file itself, so a caller can parse or
write a document piece by piece (ui/store.py streams its JSON) instead of
holding all of it in the heap as one block.

A storage that cannot be opened (the directory cannot be made or read: a
file of that name, a flash that fails) does not stop the device: `problem`
then says why in a few words, for the app to show, and every operation
raises OSError.
"""

import errno
import os

from othello.compat import const
_TMP = const(".tmp")

# What the flash's errors mean, in words short enough for the screen. By number: MicroPython's errno
# numbers are Linux's, and its errno module names only some of them.
_ERROR_WORDS = {
    2: "missing",  # ENOENT
    5: "flash read error",  # EIO
    12: "out of memory",  # ENOMEM
    13: "no permission",  # EACCES
    17: "already there",  # EEXIST
    19: "no flash",  # ENODEV
    20: "not a folder",  # ENOTDIR: a file where a folder should be
    21: "a folder",  # EISDIR
    22: "bad name",  # EINVAL
    28: "flash full",  # ENOSPC
    30: "read-only",  # EROFS
}


def error_words(error):
    """An OSError in a few words for the screen: 'a folder', 'flash full', 'error 71'."""
    code = error.args[0] if error.args else None
    if not isinstance(code, int):
        return str(error)[:20]
    return _ERROR_WORDS.get(code) or "error %d" % code


def save_failure(error):
    """Why a write failed, for the player: 'Flash read-only', 'Flash full' or 'Flash error' (an I/O error or
    anything else the flash says)."""
    code = error.args[0] if error.args else None
    if code in (30, 13, 1):  # EROFS, EACCES, EPERM
        return "Flash read-only"
    if code == 28:  # ENOSPC
        return "Flash full"
    return "Flash error"


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
        self.problem = None  # why the storage cannot be used, in words, or None
        try:
            try:
                self._files.mkdir(root)
            except OSError as error:
                if error.args[0] != errno.EEXIST:
                    raise
            for name in self._files.listdir(root):
                if name.endswith(_TMP):
                    self._files.remove(self._path(name, stray=True))
        except OSError as error:
            words = error_words(error)
            if words in ("not a folder", "already there"):
                words = "a file, not a folder"
            self.problem = "%s is %s" % (root, words) if words.startswith("a ") else "%s: %s" % (root, words)

    def _path(self, name, stray=False):
        if not name or "/" in name or name.startswith(".") or (name.endswith(_TMP) and not stray):
            raise ValueError("%r is not a storage name (no '/', no leading '.', no %s ending)" % (name, _TMP))
        return self.root + "/" + name

    def open_read(self, name):
        """The file open for reading (binary; close it, or use it in a with block), or None if there is none."""
        try:
            return self._files.open(self._path(name), "rb")
        except OSError as error:
            if error.args[0] == errno.ENOENT:
                return None
            raise

    def read(self, name):
        """The file's bytes, or None if there is no such file."""
        file = self.open_read(name)
        if file is None:
            return None
        with file:
            return file.read()

    def replace(self, name):
        """`with storage.replace(name) as file:` a binary file for the new contents. When the block ends
        normally they replace the old in one step; when it raises, the old file stays as it was."""
        return _Replacement(self._files, self._path(name))

    def write_atomic(self, name, data):
        """Replace the file with `data`: afterwards it holds the old bytes or the new, never a mix."""
        with self.replace(name) as file:
            file.write(data)

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
        return sorted(name for name in self._files.listdir(self.root) if not name.endswith(_TMP))


class _Replacement:
    """Storage.replace's context: writes path + _TMP, renames it over path if the block ended normally.

    After an error the unfinished _TMP file stays until the next replace or
    start-up removes it: after a power cut nothing more can be done anyway.
    """

    def __init__(self, files, path):
        self._files = files
        self._path = path
        self._file = None

    def __enter__(self):
        self._file = self._files.open(self._path + _TMP, "wb")
        return self._file.__enter__()

    def __exit__(self, kind, value, traceback):
        self._file.__exit__(kind, value, traceback)
        if kind is None:
            self._files.rename(self._path + _TMP, self._path)
        return False
