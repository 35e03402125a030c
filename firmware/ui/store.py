"""Save files on the device's flash: JSON documents written atomically, and a bounded error log.

Files (names in device.storage):
- settings.json  settings and new-game choices (ui/settings.py)
- game.json      the game in progress with its match (ui/session.py)
- records.json   the last RECORDS_KEPT finished games, newest first, with their reviews
- puzzles.json   the puzzles solved and missed (ui/puzzle.py)
- error.log      the last few unexpected errors, at most _LOG_LIMIT bytes

storage.replace and write_atomic replace a file in one step, so a power cut
leaves the old or the new version. Reading never raises: a missing file is
None, and a truncated or corrupt one is reported as a problem for the caller
to show, in words that fit the screen ("game.json unreadable (a folder)").
A storage that could not be opened at all (`problem`, the app says so once)
reads as empty and saves nothing.

Documents are parsed from the file and written into it piece by piece: the
game is saved after every move, and its text (about 700 bytes late in a
game, the records several KB) held whole in the heap, plus a copy encoded
to bytes, was the block a fragmented heap could not find.
"""

import json
import sys

from othello.compat import const

if sys.implementation.name == "micropython":
    _dump = json.dump  # writes straight into the file
else:

    def _dump(data, file):  # CPython's json.dump writes str, and the storage's files are binary
        file.write(json.dumps(data).encode())


SETTINGS = "settings.json"
GAME = "game.json"
RECORDS = "records.json"
PUZZLES = "puzzles.json"
LOG = "error.log"
RECORDS_KEPT = 10
_LOG_LIMIT = const(2048)


def _unreadable(name, error):
    from hw.storage import error_words  # imported on the error path only: every module counts against the heap

    return "%s unreadable (%s)" % (name, error_words(error))


class Store:
    def __init__(self, storage):
        self.storage = storage
        self.problem = getattr(storage, "problem", None)  # why nothing can be saved, or None
        self.failure = None  # why the last save or removal failed: "Flash full", "Flash read-only", "Flash error"

    def load(self, name):
        """(data, None) for a good file, (None, None) for a missing one, (None, problem) for a bad one."""
        if self.problem is not None:
            return None, None
        try:
            file = self.storage.open_read(name)
        except OSError as error:  # a flash read error must not stop the device
            return None, _unreadable(name, error)
        except Exception as error:
            return None, "%s unreadable (%s)" % (name, type(error).__name__)
        if file is None:
            return None, None
        try:
            with file:
                return json.load(file), None
        except OSError as error:
            return None, _unreadable(name, error)
        except Exception:  # ValueError, UnicodeError and whatever a damaged file provokes
            return None, "%s damaged" % name

    def save(self, name, data):
        """Write `data` as JSON; returns False (and keeps the old file) if the flash refuses, saying why in
        `failure`."""
        if self.problem is not None:
            return False
        try:
            with self.storage.replace(name) as file:
                _dump(data, file)
            return True
        except OSError as error:
            self._failed(error)
            return False

    def remove(self, name):
        """Delete the file; returns whether it is gone (False: the flash refused, `failure` says why)."""
        try:
            self.storage.remove(name)
        except OSError as error:
            self._failed(error)
            return False
        return True

    def _failed(self, error):
        from hw.storage import save_failure  # imported on the error path only

        self.failure = save_failure(error)

    def load_records(self):
        """The list of saved game records, newest first; (records, problem)."""
        data, problem = self.load(RECORDS)
        if data is None:
            return [], problem
        if not isinstance(data, list):
            return [], "%s damaged" % RECORDS
        return [r for r in data if isinstance(r, dict)][:RECORDS_KEPT], problem

    def add_record(self, record):
        records = self.load_records()[0]
        records.insert(0, record)
        return self.save(RECORDS, records[:RECORDS_KEPT])

    def saved_review(self, record):
        """The review kept with the saved record of `record`'s game, or None."""
        for saved in self.load_records()[0]:
            if same_game(saved, record):
                return saved.get("a")
        return None

    def keep_review(self, record, text):
        """Keep `text` (player/review.py's encode()) with the saved record of `record`'s game; returns
        whether it was saved (False: no such record, or the flash refused)."""
        records = self.load_records()[0]
        for saved in records:
            if same_game(saved, record):
                saved["a"] = text
                return self.save(RECORDS, records)
        return False

    def append_log(self, text):
        """Add `text` to error.log, dropping the oldest bytes beyond _LOG_LIMIT."""
        try:
            old = self.storage.read(LOG) or b""
        except Exception:
            old = b""
        data = old + text.encode()
        if len(data) > _LOG_LIMIT:
            data = data[-_LOG_LIMIT:]
        try:
            self.storage.write_atomic(LOG, data)
        except Exception:  # the log is best effort: never let it hide the original error
            pass


def same_game(saved, record):
    return saved.get("t") == record["t"] and saved.get("s") == record["s"] and saved.get("v") == record["v"]
