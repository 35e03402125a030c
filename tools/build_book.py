#!/usr/bin/env python3
"""Build the opening book (firmware/player/book8.bin) and the match openings (tools/match_openings.txt).

    .venv/bin/python tools/build_book.py                 # about 5 minutes on 2 cores
    .venv/bin/python tools/build_book.py --plies 6 --nodes 20000

How (docs/PLAYER.md, "Opening book"): from the 8x8 start, breadth first,
every position is searched on the host with every root move's score (the
player's own search and evaluation, `--nodes` nodes: far more than the device
can spend in a game). Moves within `--keep` discs of the best (at most
`--width` of them) go into the book; the best `--expand` of those within
`--spread` discs are played out and their replies searched in turn, until
`--plies` plies. Positions are stored once for all 8 mirror images (see
player/book.py for the file layout).

The match openings are the book positions at least `--opening-plies` plies
deep whose score is within 1.5 discs of even, one per line, for `othello match`.
"""

import argparse
import multiprocessing
import os
import struct
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "firmware")]

from othello.board import Board  # noqa: E402
from othello.kernel import Kernel  # noqa: E402
from player.book import ENTRY_SIZE, HEADER_SIZE, MAGIC, VERSION, canonical, symmetries  # noqa: E402
from player.evaluation import DISC, PatternEvaluator  # noqa: E402
from player.search import INFINITY, Searcher, TranspositionTable  # noqa: E402

BOOK_FILE = REPO / "firmware" / "player" / "book8.bin"
OPENINGS_FILE = REPO / "tools" / "match_openings.txt"


def score_moves(job):
    """Every legal move of the position with its score in discs, best first (one worker task)."""
    position, nodes = job
    board = Board.from_position(position)
    searcher = Searcher(Kernel(board.geometry, 80), TranspositionTable(16))
    searcher.evaluator = PatternEvaluator(8)
    searcher.set_root(board.player_discs(), board.opponent_discs())
    searcher.start(nodes)
    searcher.iterate(60, INFINITY)  # every move's exact score
    scored = [(searcher.root_moves[i], searcher.root_scores[i] / DISC) for i in range(searcher.root_count)]
    return position, scored


def key_of(board, kernel):
    player, opponent, symmetry = canonical(board.player_discs(), board.opponent_discs(), 8)
    kernel.set_root(player, opponent)
    return (kernel.hash(0), kernel.lock(0)), symmetry


def build(plies, nodes, keep, width, spread, expand, opening_plies, workers):
    kernel = Kernel(Board().geometry)
    tables = symmetries(8)
    entries = {}  # key -> [(canonical square, score)]
    openings = []
    level = [Board().position()]
    started = time.time()
    with multiprocessing.Pool(workers) as pool:
        for ply in range(plies):
            next_level = []
            jobs = [(position, nodes) for position in level]
            for position, scored in pool.imap_unordered(score_moves, jobs):
                board = Board.from_position(position)
                key, symmetry = key_of(board, kernel)
                if key in entries or not scored:
                    continue
                best = scored[0][1]
                kept = [(square, score) for square, score in scored if score >= best - keep][:width]
                entries[key] = [(tables[symmetry][square], score) for square, score in kept]
                if ply >= opening_plies and abs(best) <= 1.5:
                    openings.append(position)
                for square, score in kept[:expand]:
                    if score < best - spread:
                        continue
                    child = board.copy()
                    child.play(square)
                    if child.must_pass():
                        child.pass_turn()
                    if not child.is_game_over():
                        next_level.append(child.position())
            # one search per distinct position of the next ply
            unique = {}
            for position in next_level:
                board = Board.from_position(position)
                key, _ = key_of(board, kernel)
                if key not in entries:
                    unique.setdefault(key, position)
            level = list(unique.values())
            print("ply %d: %d positions in the book, %d to search next (%.0f s)" % (
                ply, len(entries), len(level), time.time() - started), file=sys.stderr)
    return entries, openings


def write_book(entries, path, max_discs):
    rows = []
    for (hash_value, lock), moves in entries.items():
        for square, score in moves:
            half_discs = max(-127, min(127, int(round(score * 2))))
            rows.append((hash_value, lock, -half_discs, square))
    rows.sort()
    data = bytearray(MAGIC + bytes((VERSION, 8, max_discs, 0)) + struct.pack("<I", len(rows)))
    assert len(data) == HEADER_SIZE
    for hash_value, lock, negative_score, square in rows:
        data += struct.pack("<IIBb", hash_value, lock, square, -negative_score)
    assert len(data) == HEADER_SIZE + ENTRY_SIZE * len(rows)
    tmp = Path(str(path) + ".tmp")
    tmp.write_bytes(bytes(data))
    os.replace(tmp, path)
    return len(data), len(rows)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=9, help="book depth in plies (default 9)")
    parser.add_argument("--nodes", type=int, default=30000, help="search nodes per book position (default 30000)")
    parser.add_argument("--keep", type=float, default=4.0, help="keep moves within this many discs of the best")
    parser.add_argument("--width", type=int, default=4, help="at most this many moves per position")
    parser.add_argument("--spread", type=float, default=1.5, help="play out moves within this many discs of the best")
    parser.add_argument("--expand", type=int, default=2, help="... at most this many of them")
    parser.add_argument("--opening-plies", type=int, default=6, help="least depth of the match openings")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    entries, openings = build(args.plies, args.nodes, args.keep, args.width, args.spread, args.expand,
                              args.opening_plies, args.workers)
    size, rows = write_book(entries, BOOK_FILE, 4 + args.plies)
    print("wrote %s: %d positions, %d moves, %d bytes" % (BOOK_FILE, len(entries), rows, size), file=sys.stderr)
    header = "# Balanced 8x8 openings for `othello match`, %d to %d plies deep (tools/build_book.py)\n" % (
        args.opening_plies, args.plies - 1)
    OPENINGS_FILE.write_text(header + "".join(p + "\n" for p in sorted(openings)))
    print("wrote %s: %d openings" % (OPENINGS_FILE, len(openings)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
