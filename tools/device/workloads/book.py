"""The opening book on the board it runs on: how long a lookup takes, and the heap its module takes.

Run on the emulated Pico or on a real one with `mpremote mount firmware run tools/device/workloads/book.py`;
on the host:

    .venv/bin/python tools/device/bench.py book                              # the shipped book
    .venv/bin/python tools/device/bench.py book --book build/book/book8.bin  # another one, in /lib
    .venv/bin/python tools/device/bench.py book --port unix                  # the unix port

A book file in /lib is read in place of the shipped one (so a new book is measured before it ships).
Prints:
- `book <path> <bytes> <entries> <deepest discs>`;
- `import <ms> <heap bytes>`: an import of player.book, as each of a game's book lookups does it, and
  the heap its code takes while it looks (the engine lets it go after each lookup);
- `lookup <line> <ply> <moves found> <us>`: one lookup (book.moves_for: the canonical image, then the
  binary search with seek) at every ply of each line below while the board has no more discs than the
  book's deepest position (the plies a game looks the book up): named openings followed by the book's
  own best moves, and lines that leave the book early (their lookups find nothing);
- `summary <hits> <hit mean us> <hit max us> <misses> <miss mean us> <miss max us>`.
"""

import gc
import os

from othello.board import Board
from othello.compat import ticks_diff, ticks_ms, ticks_us
from othello.kernels import make_kernel
from othello.notation import split_transcript

import player  # noqa: F401  (a game has the player loaded before its first book move)

OTHER_BOOK = globals().get("BOOK", "/lib/book8.bin")  # bench.py book --book puts a book there
LINES = (  # from tools/training/book_openings.txt (as written there, from c4)
    ("start", ""),
    ("tiger", "c4e3f6e6f5"),
    ("mainline-tiger", "c4e3f6e6f5c5f4g5g4f3c6d3d6b3c3b4e2b6"),
    ("rose", "c4e3f4c5d6f3e6c3d3e2"),
    ("buffalo", "c4c3d3c5f6"),
    ("heath", "c4c3d3c5b4"),
    ("x-square", "c4c3d3c5b2"),
    ("parallel", "c4c5"),
)


def main():
    try:
        os.stat(OTHER_BOOK)
        path = OTHER_BOOK
    except OSError:
        path = None
    gc.collect()
    free = gc.mem_free()
    started = ticks_ms()
    from player import book

    took = ticks_diff(ticks_ms(), started)
    gc.collect()
    print("import", took, free - gc.mem_free())
    path = path or book.book_path(8)
    deepest = book.deepest(8, path)
    with open(path, "rb") as stream:
        header = stream.read(book.HEADER_SIZE)
        size = stream.seek(0, 2)
    entries = header[8] | header[9] << 8 | header[10] << 16 | header[11] << 24
    print("book", path, size, entries, deepest)
    kernel = make_kernel(Board().geometry, 4)
    times = {True: [], False: []}
    for name, moves in LINES:
        board = Board()
        squares = split_transcript(moves)
        ply = 0
        while not board.is_game_over() and board.count(0) + board.count(1) <= deepest:
            if board.must_pass():
                board.pass_turn()
                continue
            started = ticks_us()
            found = book.moves_for(board, kernel, path)
            took = ticks_diff(ticks_us(), started)
            print("lookup", name, ply, len(found), took)
            times[bool(found)].append(took)
            if ply < len(squares):
                board.play(squares[ply])
            elif found:
                board.play(found[0][0])
            else:
                board.play(board.legal_squares()[0])
            ply += 1
    summary = []
    for hit in (True, False):
        found = times[hit]
        summary += [len(found), sum(found) // max(1, len(found)), max(found) if found else 0]
    print("summary", *summary)


main()
