"""Settings and save files: defaults, repair of damaged values, bounded records and error log."""

import json

import pytest
from ui_fakes import FakeStorage

from ui import settings
from ui.store import _LOG_LIMIT as LOG_LIMIT  # private: a name on the device costs heap
from ui.store import LOG, RECORDS, RECORDS_KEPT, SETTINGS, Store


def test_defaults_are_allowed_values():
    values = settings.defaults(8)
    fixed, bad = settings.repair(values, 8)
    assert bad == 0 and fixed == values
    assert values["sound"] is True and values["idle"] == 60 and values["size"] == 8


@pytest.mark.parametrize(
    "key, value",
    [("sound", 1), ("contrast", 9), ("size", 7), ("start", "round"), ("level", 0), ("level", 9), ("level", True), ("clock", "5")],
)
def test_a_bad_value_takes_its_default(key, value):
    data = settings.defaults(8)
    data[key] = value
    fixed, bad = settings.repair(data, 8)
    assert bad == 1
    assert fixed[key] == settings.defaults(8)[key]


def test_repair_drops_unknown_keys_and_fills_missing_ones():
    fixed, bad = settings.repair({"sound": False, "colour_scheme": "pink"}, 8)
    assert fixed["sound"] is False and "colour_scheme" not in fixed
    assert bad == len(fixed) - 1
    assert settings.repair(["not", "a", "dict"], 8) == (settings.defaults(8), 1)


def test_levels_follow_the_players_level_count():
    assert settings.defaults(2)["demo_white"] == 2
    values = settings.defaults(8)
    values["level"] = 8
    settings.cycle(values, "level", 1, 8)
    assert values["level"] == 1
    settings.cycle(values, "level", -1, 8)
    assert values["level"] == 8


def test_cycle_steps_through_sorted_numbers_and_wraps():
    values = settings.defaults(8)
    assert values["clock"] == 0
    seen = []
    for _ in range(5):
        settings.cycle(values, "clock", 1)
        seen.append(values["clock"])
    assert seen == [5, 10, 20, 25, 0]
    settings.cycle(values, "sound", 1)
    assert values["sound"] is False


def test_load_reports_missing_corrupt_and_truncated_files():
    storage = FakeStorage({"good.json": b'{"a": 1}', "bad.json": b"\xff\xfe{", "cut.json": b'{"a": [1, 2'})
    store = Store(storage)
    assert store.load("good.json") == ({"a": 1}, None)
    assert store.load("missing.json") == (None, None)
    assert store.load("bad.json") == (None, "bad.json damaged")
    assert store.load("cut.json") == (None, "cut.json damaged")


def test_a_failing_flash_is_reported_not_raised():
    class FullStorage(FakeStorage):
        def replace(self, name):
            raise OSError(28, "no space")

        def open_read(self, name):
            raise OSError(5, "I/O error")

        def read(self, name):
            raise OSError(5, "I/O error")

    store = Store(FullStorage())
    assert store.save(SETTINGS, {}) is False
    data, problem = store.load(SETTINGS)
    assert data is None and "unreadable" in problem
    store.append_log("still no crash\n")


def test_records_keep_the_newest_ten():
    store = Store(FakeStorage())
    for number in range(RECORDS_KEPT + 3):
        assert store.add_record({"t": "game %d" % number})
    records, problem = store.load_records()
    assert problem is None
    assert [r["t"] for r in records] == ["game %d" % n for n in range(RECORDS_KEPT + 2, 2, -1)]


def test_damaged_records_are_dropped():
    store = Store(FakeStorage({RECORDS: json.dumps([{"t": "ok"}, 3, "x"]).encode()}))
    assert store.load_records() == ([{"t": "ok"}], None)
    store = Store(FakeStorage({RECORDS: b'{"t": "not a list"}'}))
    assert store.load_records() == ([], RECORDS + " damaged")


def test_error_log_stays_bounded_and_keeps_the_latest():
    storage = FakeStorage()
    store = Store(storage)
    for number in range(100):
        store.append_log("error number %03d\n" % number)
    log = storage.read(LOG)
    assert len(log) <= LOG_LIMIT
    assert log.endswith(b"error number 099\n")


SAVE_ALLOCATION = """
import gc
import io
from ui.store import Store

class Sink:
    def __init__(self, size):
        self.file = io.BytesIO(size)  # MicroPython: room for `size` bytes made now, outside the measurement
    def __enter__(self):
        return self.file
    def __exit__(self, kind, value, traceback):
        return False

class OneFile:
    def __init__(self, size):
        self.sink = Sink(size)
    def replace(self, name):
        return self.sink

gc.disable()
storage = OneFile(16384)
store = Store(storage)
document = {"moves": list(range(1000)), "title": "x" * 200}
store.save("game.json", document)  # once before measuring: anything made only the first time
before = gc.mem_alloc()
saved = store.save("game.json", document)
allocated = gc.mem_alloc() - before
print(saved, allocated, len(storage.sink.file.getvalue()) // 2)
"""


def test_a_save_writes_its_json_into_the_file_without_a_copy_in_the_heap(micropython):
    """The game is saved after every move: the document goes into the file piece by piece, never as one
    string and its bytes (about 700 bytes late in a game, several KB for the records), which is what a
    fragmented heap could not find room for."""
    saved, allocated, size = micropython(SAVE_ALLOCATION).split()
    assert saved == "True"
    assert int(size) > 5000
    assert int(allocated) < 512, (allocated, size)


class RefusingStorage(FakeStorage):
    """A flash whose writes and removals fail with OSError(code), as littlefs raises them on the Pico."""

    def __init__(self, code):
        FakeStorage.__init__(self)
        self.code = code

    def replace(self, name):
        raise OSError(self.code)

    def remove(self, name):
        raise OSError(self.code)


@pytest.mark.parametrize("code, words", [(30, "Flash read-only"), (13, "Flash read-only"), (1, "Flash read-only"),
                                         (28, "Flash full"), (5, "Flash error"), (19, "Flash error")])
def test_a_refused_save_says_what_failed(code, words):
    store = Store(RefusingStorage(code))
    assert store.save(SETTINGS, {}) is False and store.failure == words
    store.failure = None
    assert store.remove(RECORDS) is False and store.failure == words
