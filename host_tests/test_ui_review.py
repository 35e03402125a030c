"""The review screen (ui/review.py): opened after a game and from the records, computed a move at a time,
left at once, and kept with the record."""

import json
from pathlib import Path

import pytest

from runners import micropython_runner
from test_review import random_ending
from test_ui_app import configure, play_out, start, write_flash
from ui_harness import BoardDriver, check_reference

from othello.game import Game
from othello.variant import Variant
from player.review import Review, decode
from ui.store import RECORDS

HOST_TESTS = Path(__file__).resolve().parent


def ending_record(seed=2, empties=10):
    start_position, transcript = random_ending(seed, empties)
    return {"v": Variant().to_dict(), "s": start_position, "t": transcript, "r": [0, 40, 24, "board"],
            "p": ["You", "L3"]}


def open_review(tmp_path, record):
    write_flash(tmp_path, RECORDS, json.dumps([record]).encode())
    driver = BoardDriver(flash_dir=tmp_path)
    driver.press("a")
    driver.menu_to("Records")
    driver.press("a")
    driver.menu_to("Review")
    return driver


def review_to_the_end(driver, limit=500):
    for _ in range(limit):
        if driver.screen.review.done():
            return
        driver.step()
    raise AssertionError("the review did not finish")


def saved_record(driver):
    return json.loads(driver.device.storage.read(RECORDS))[0]


def test_a_record_is_reviewed_move_by_move_and_the_review_is_kept(tmp_path):
    record = ending_record()
    driver = open_review(tmp_path, record)
    screen = driver.screen
    assert type(screen).__name__ == "ReviewScreen"
    review_to_the_end(driver)
    expected = Review(Variant(), record["s"], record["t"])
    while not expected.done():
        expected.step()
    assert screen.review.encode() == expected.encode()
    driver.press("b")
    assert driver.screen.title == "Records"
    assert saved_record(driver)["a"] == expected.encode()
    driver.press("a")
    driver.menu_to("Review")
    assert driver.screen.review.done()  # a second look is instant


def test_the_board_shows_the_best_move_and_the_panel_the_loss(tmp_path):
    record = ending_record()
    driver = open_review(tmp_path, record)
    review_to_the_end(driver)
    entries = driver.screen.review.entries
    costly = next(index for index, entry in enumerate(entries) if entry.loss)
    driver.press("right", costly + 1)
    screen = driver.screen
    assert screen.entry() is entries[costly]
    lines = screen.panel_lines(entries[costly], screen.game.last_move())
    assert lines[2] == "-%d exact" % entries[costly].loss
    check_reference("review", driver.rows(), tmp_path)
    driver.press("down")
    driver.press("a")
    assert screen.summary
    assert screen.summary_lines()[0].startswith("Black ")
    check_reference("review_summary", driver.rows(), tmp_path)
    driver.press("a")
    assert not screen.summary


def test_back_leaves_at_once_while_a_move_is_judged_and_what_was_done_is_kept(tmp_path):
    start_position, transcript = random_ending(1, 60)
    record = dict(ending_record(), s=None, t=transcript)
    driver = open_review(tmp_path, record)
    for _ in range(3):
        driver.step()
    done = len(driver.screen.review.entries)
    assert 0 < done < len(driver.screen.review.moves)
    driver.board.press("b")
    driver.step()  # the search under way reads the key and stops
    assert driver.screen.title == "Records"
    kept = saved_record(driver)["a"]
    assert len(kept.split(",")) >= done


def test_a_finished_game_can_be_reviewed_from_the_game_menu():
    driver = BoardDriver()
    configure(driver, level=1)
    start(driver, "Play computer", "Start")
    play_out(driver)
    driver.press("b")
    driver.menu_to("Review")
    screen = driver.screen
    assert type(screen).__name__ == "ReviewScreen"
    assert len(screen.review.moves) == len(driver.app.session.game.history)
    driver.press("b")
    assert type(driver.screen).__name__ == "GameScreen"


ON_MICROPYTHON = """
import json
import sys
from ui_fakes import Driver, FakeDevice

device = FakeDevice()
device.storage.files["records.json"] = %r
d = Driver(device)
d.press("a")
d.menu_to("Records")
d.press("a")
d.menu_to("Review")
for _ in range(500):
    if d.screen.review.done():
        break
    d.step()
d.press("down")
d.press("b")
print(type(d.screen).__name__, "ui.review" in sys.modules)
print(json.loads(device.storage.files["records.json"])[0]["a"])
"""


def test_the_review_screen_under_micropython(micropython):
    record = ending_record(seed=6)
    expected = Review(Variant(), record["s"], record["t"])
    while not expected.done():
        expected.step()
    out = micropython(ON_MICROPYTHON % json.dumps([record]).encode(), path=("host_tests",), heap="512K").strip().split("\n")
    assert out[0] == "Menu True"
    entries = decode(out[1], expected.moves, 8)
    assert [(entry.loss, entry.exact) for entry in entries] == [(entry.loss, entry.exact) for entry in expected.entries]


# A game through the UI, then its review from the game menu, in the 192K on the 32-bit build.
REVIEW_AFTER_A_GAME = """
import gc
from othello.compat import COLLECT_EVERY, collect_every

collect_every(COLLECT_EVERY)
import player
from othello.game import Game
from othello.variant import Variant

player.prepare(Variant())
from ui_fakes import Driver, FakeDevice

d = Driver(FakeDevice())
d.play_level_one_game()
d.press("b")
d.menu_to("Review")
review = d.screen.review
peak = 0
while len(review.entries) < %d:
    d.step()
    gc.collect()
    peak = max(peak, gc.mem_alloc())
d.press("b")
print(type(d.screen).__name__, len(review.entries), peak)
"""


@pytest.mark.slow(minutes=2)
def test_a_game_and_its_review_fit_192k_on_the_32_bit_build(bytecode_firmware):
    """The review's first 12 moves after a game against level 1, from the game menu: the game screen's
    code, the review's and its Review in the heap together (peak live heap 136 KB today, printed)."""
    out = micropython_runner.run_wasm(REVIEW_AFTER_A_GAME % 12, heap="192K", firmware=bytecode_firmware,
                                      path=(HOST_TESTS,)).split()
    print("peak live", out[2])
    assert out[:2] == ["GameScreen", "12"], out


def test_a_game_continues_from_any_move_of_a_record(tmp_path):
    record = ending_record()
    write_flash(tmp_path, RECORDS, json.dumps([record]).encode())
    driver = BoardDriver(flash_dir=tmp_path)
    driver.press("a")
    driver.menu_to("Records")
    driver.press("a")
    menu = driver.screen
    item = menu.items[-1]
    moves = len(record["t"]) // 2
    assert item.label == "Play from" and item.value() == "move %d" % (moves - 1)
    driver.press("down", 2)
    driver.press("right")  # past the last move, where the game is over ...
    assert item.value() == "move %d" % moves
    driver.press("a")
    assert " ".join(driver.app.notice) == "The game is over after move %d" % moves
    driver.press("right", 3)  # ... round to move 2
    assert item.value() == "move 2"
    driver.press("a")
    session = driver.app.session
    expected = Game(Variant(), start=record["s"])
    expected.play_transcript(record["t"][:4])
    assert type(driver.screen).__name__ == "GameScreen"
    assert session.game.board == expected.board
    assert session.level_of(expected.board.turn) is None  # the person plays the side to move
    assert session.level_of(1 - expected.board.turn) is not None


def test_the_review_is_the_same_on_a_slow_device_clock(tmp_path):
    # Node budgets alone decide a judgement: a clock that runs slow (each look at it costs 0.4 s of device time,
    # as a busy host or a slow port would make it) gives the same review, exact where the budgets allow.
    record = ending_record(seed=5, empties=14)
    reviews = []
    for read_cost_ms in (1, 400):
        driver = open_review(tmp_path / str(read_cost_ms), record)
        driver.board.clock.read_cost_ms = read_cost_ms
        review_to_the_end(driver, limit=5000)
        reviews.append(driver.screen.review)
    expected = Review(Variant(), record["s"], record["t"])
    while not expected.done():
        expected.step()
    assert reviews[0].encode() == reviews[1].encode() == expected.encode()
    assert all(entry.exact for entry in reviews[1].entries)
