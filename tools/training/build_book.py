#!/usr/bin/env python3
"""Build the 8x8 opening book (firmware/player/book8.bin) from deep searches on MicroPython's unix port.

    .venv/bin/python tools/training/build_book.py                       # the book: about 3,250 CPU seconds (docs/TRAINING.md)
    .venv/bin/python tools/training/build_book.py --depth 6 --out /tmp/book8.bin   # shallow searches: about 30 CPU seconds

What it does (docs/PLAYER.md, "Opening book"):
1. Searches. Every book position is searched by the player's own midgame
   search (the viper loop of player/search_viper.py, the shipped evaluation)
   in --jobs MicroPython processes (tools/training/book_worker.py), to --depth plies
   within --nodes nodes (no iteration is begun that would not finish in
   them), with every root move within --keep discs of the best given its own
   score (a margin search). Every position is
   searched in its canonical orientation (the least of its 8 mirror and
   rotation images, the book's key), so a search serves all 8 images.
2. The tree. From the start, ply by ply: a position's moves within --keep
   discs of the best (at most --width) go into the book. Its best move is
   played out, and so are the next ones within --spread discs of the best (at
   most --expand in all), until the line has --plies plies: a line that
   leaves the best move loses --deviation plies more each time, so the lines
   both sides play best go deepest and the others branch near the start. A
   position reached by several move orders is searched once and keeps the
   deepest line's budget.
3. Named openings (--named, tools/training/book_openings.txt): every position of
   every named opening is in the book, whatever the search thinks of its
   moves, and from each of them the best lines go on --named-plies plies
   more, by the same rules.
4. The file. Moves are stored once for all 8 images of a position (player/
   book.py has the layout), sorted so that the device binary-searches it with
   seek. Scores are compared only between the moves of one position: they come
   from one search at one depth (scores at odd and even depths differ by
   discs, so a line's scores are not backed up through the tree).
Every search result goes to a file in --cache the moment it arrives, named by
a hash of what decides a search (its settings, the search's and the
evaluation's code and weights): an interrupted build goes on where it stopped
when the same command is run again, a build with other tree settings reuses
every search it shares, and a new evaluation starts a new file on its own.
The searches count nodes, not time, so the same command builds the same book
on any machine. Progress, with an estimate of the time left, goes to stderr.

tools/match/match_openings.txt, the balanced openings every strength match uses,
is a fixed set: this tool does not touch it.
"""

import argparse
import hashlib
import json
import os
import queue
import resource
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOOLS = HERE.parent
REPO = TOOLS.parent
sys.path[:0] = [str(TOOLS), str(REPO / "firmware")]

from runners import micropython_runner  # noqa: E402
from cli.values import JOBS, whole_number  # noqa: E402
from othello.board import Board  # noqa: E402
from othello.kernel import Kernel  # noqa: E402
from othello.notation import NotationError, split_transcript  # noqa: E402
from player.book import ENTRY_SIZE, HEADER_SIZE, MAGIC, VERSION, canonical  # noqa: E402
from player.evaluation import DISC  # noqa: E402

BOOK_FILE = REPO / "firmware" / "player" / "book8.bin"
NAMED_FILE = HERE / "book_openings.txt"
DEFAULT_CACHE = REPO / "build" / "book"
WORKER = HERE / "book_worker.py"
# What decides a search's result besides its settings: a change to any of them starts a new cache file.
SEARCH_SOURCES = [WORKER] + [REPO / "firmware" / "player" / name for name in
                             ("search.py", "search_viper.py", "evaluation.py", "eval8.bin")]
WORKER_HEAP = "64M"
PROGRESS_S = 1.0
MAX_HALF_DISCS = 127  # a score's byte in the file: signed half discs


class BookError(Exception):
    """A bad setting, a bad named opening or a failed search: said plainly, nothing lost."""


# ----- positions ----------------------------------------------------------------------


def canonical_key(board):
    """(player, opponent) of the least of the 8 images of the board's position: the book's key."""
    player, opponent, _ = canonical(board.player_discs(), board.opponent_discs(), 8)
    return player, opponent


def board_of(key):
    """A board with the key's position, its player (the side to move) as Black."""
    board = Board()
    board.set_discs(key[0], key[1], 0)
    return board


def child_key(key, square):
    """The key after `square` is played (and a forced pass), or None when the game is over."""
    board = board_of(key)
    board.play(square)
    if board.is_game_over():
        return None
    if board.must_pass():
        board.pass_turn()
    return canonical_key(board)


def discs_of(key):
    return bin(key[0] | key[1]).count("1")


def read_named(path):
    """[(name, [square, ...]), ...] from a file of named openings: moves from the start, then the name."""
    try:
        lines = Path(path).read_text().splitlines()
    except OSError as error:
        raise BookError("cannot read the named openings %s: %s" % (path, error.strerror or error))
    openings = []
    for number, line in enumerate(lines, 1):
        text = line.split("#")[0].strip()
        if not text:
            continue
        moves_text, _, name = text.partition(" ")
        try:
            squares = split_transcript(moves_text)
        except NotationError as error:
            raise BookError("%s line %d: %s" % (path, number, error))
        board = Board()
        for index, square in enumerate(squares):
            if not board.is_legal(square):
                raise BookError("%s line %d (%s): move %d, %s, is not legal there" % (
                    path, number, name.strip() or moves_text, index + 1, moves_text[2 * index:2 * index + 2]))
            board.play(square)
            if board.must_pass():
                board.pass_turn()
        openings.append((name.strip(), squares))
    return openings


def named_positions(openings, plies):
    """{discs: {key: budget}}: every position of every named opening (not the ends of finished games),
    with `plies` plies of book after it."""
    found = {}
    for _, squares in openings:
        board = Board()
        for index in range(len(squares) + 1):
            if board.is_game_over():
                break
            key = canonical_key(board)
            level = found.setdefault(discs_of(key), {})
            level[key] = max(level.get(key, 0), plies)
            if index < len(squares):
                board.play(squares[index])
                if board.must_pass():
                    board.pass_turn()
    return found


# ----- the searches ----------------------------------------------------------------------


def search_settings(args):
    """What decides a search's result: the cache file's name is a hash of it."""
    settings = {"depth": args.depth, "nodes": args.nodes, "margin": keep_units(args), "table_bits": args.table_bits}
    for path in SEARCH_SOURCES:
        settings[path.relative_to(REPO).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return settings


def keep_units(args):
    return int(round(args.keep * DISC))


class Result:
    """One position's search: the depth it completed, its nodes and every root move's score, best first."""

    __slots__ = ("depth", "nodes", "moves")

    def __init__(self, depth, nodes, moves):
        self.depth = depth
        self.nodes = nodes
        self.moves = moves  # [(canonical square, score in evaluation units)]


def parse_result(words):
    """(key, Result) from the words of a worker's answer or a cache line, after the word `book`."""
    key = (int(words[0], 16), int(words[1], 16))
    moves = []
    for word in words[4:]:
        square, _, score = word.partition(":")
        moves.append((int(square), int(score)))
    if not moves or not 0 <= moves[0][0] < 64:
        raise ValueError("no moves")
    return key, Result(int(words[2]), int(words[3]), moves)


class Cache:
    """The search results of one set of search settings, in a file that only grows: one line a search."""

    def __init__(self, directory, settings):
        digest = hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:16]
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / ("searches-%s.txt" % digest)
        (directory / ("searches-%s.json" % digest)).write_text(json.dumps(settings, indent=1, sort_keys=True) + "\n")
        self.results = {}
        self.lock = threading.Lock()
        if self.path.exists():
            self._load()
        self.stream = open(self.path, "a")

    def _load(self):
        data = self.path.read_text()
        complete = data[:data.rfind("\n") + 1]
        if len(complete) < len(data):
            # the end of a line cut by an interruption: that search is done again
            with open(self.path, "r+") as stream:
                stream.truncate(len(complete))
        for number, line in enumerate(complete.splitlines(), 1):
            try:
                key, result = parse_result(line.split()[1:])
            except (ValueError, IndexError):
                raise BookError("%s line %d is damaged (%r): delete that file to search again" % (
                    self.path, number, line[:80]))
            self.results[key] = result

    def add(self, line):
        try:
            key, result = parse_result(line.split()[1:])
        except (ValueError, IndexError):
            raise BookError("a worker answered what is not a search result: %r" % line[:200])
        with self.lock:
            self.results[key] = result
            self.stream.write(line + "\n")
            self.stream.flush()

    def close(self):
        self.stream.close()


class Worker:
    """One MicroPython process that searches the positions sent to it, one at a time."""

    def __init__(self, settings):
        header = "DEPTH = %d\nNODES = %d\nMARGIN = %d\nTABLE_BITS = %d\n" % (
            settings["depth"], settings["nodes"], settings["margin"], settings["table_bits"])
        env = dict(os.environ, MICROPYPATH=str(REPO / "firmware"))
        # A session of its own: Ctrl-C at the terminal reaches the builder alone, which ends the workers.
        self.process = subprocess.Popen(
            [micropython_runner.unix_binary(), "-X", "heapsize=" + WORKER_HEAP, "-c", header + WORKER.read_text()],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
            cwd=str(REPO), start_new_session=True)

    def search(self, key):
        try:
            self.process.stdin.write("%x %x\n" % key)
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line.startswith("book "):
            self.process.kill()
            raise BookError("a search failed on the unix port (exit %s):\n%s" % (
                self.process.wait(), self.process.stderr.read()[-2000:]))
        return line.rstrip("\n")

    def close(self):
        if self.process.poll() is None:
            try:
                self.process.stdin.write("\n")
                self.process.stdin.close()
            except BrokenPipeError:
                pass
        self.process.wait()

    def kill(self):
        self.process.kill()


class Searches:
    """Searches positions in parallel workers (started when first needed); every result goes to the cache."""

    def __init__(self, cache, settings, jobs, progress):
        self.cache = cache
        self.settings = settings
        self.jobs = jobs
        self.progress = progress
        self.workers = []
        self.interrupted = False

    def run(self, keys):
        todo = queue.Queue()
        for key in keys:
            todo.put(key)
        while len(self.workers) < min(self.jobs, len(keys)):
            self.workers.append(Worker(self.settings))
        errors = []

        def drain(worker):
            while not self.interrupted:
                try:
                    key = todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    self.cache.add(worker.search(key))
                except BookError as error:
                    if not self.interrupted:
                        errors.append(error)
                    self.stop()
                    return
                self.progress.searched()

        threads = [threading.Thread(target=drain, args=(worker,), daemon=True) for worker in self.workers]
        for thread in threads:
            thread.start()
        try:
            for thread in threads:
                thread.join()
        except BaseException:
            self.stop()
            raise
        if errors:
            raise errors[0]

    def stop(self):
        self.interrupted = True
        for worker in self.workers:
            worker.kill()

    def close(self):
        for worker in self.workers:
            worker.close()


# ----- progress --------------------------------------------------------------------------


class Progress:
    """Counts the searches; a thread writes a line with an estimate of the time left to stderr.

    What is left is not known before the searches tell which moves are worth
    playing out: the estimate counts the positions a line's budget would
    still bring at the rate of branching seen so far (overcounting the
    transpositions), at the average time of this run's searches.
    """

    def __init__(self, deviation):
        self.deviation = deviation
        self.lock = threading.Lock()
        self.started = time.monotonic()
        self.done = 0  # searched this run
        self.level_done = 0
        self.level_total = 0
        self.level_discs = 4
        self.budgets = []  # the budgets of this ply's positions
        self.known = 0  # ... of which the cache already has this many
        self.later_named = 0
        self.in_book = 0
        self.expanded = 0  # positions with budget for alternatives ...
        self.alternatives = 0  # ... and the alternatives they played out
        self.stopped = threading.Event()
        self.tty = sys.stderr.isatty()
        self.last_line = 0.0

    def level(self, discs, total, budgets, known, later_named, in_book):
        with self.lock:
            self.level_discs = discs
            self.level_total = total
            self.level_done = 0
            self.budgets = budgets
            self.known = known
            self.later_named = later_named
            self.in_book = in_book

    def searched(self):
        with self.lock:
            self.done += 1
            self.level_done += 1

    def branched(self, alternatives):
        with self.lock:
            self.expanded += 1
            self.alternatives += alternatives

    def positions_left(self):
        """About how many searches this run still makes."""
        rate = self.alternatives / self.expanded if self.expanded else 1.0
        size = [0.0]
        for budget in range(1, max(self.budgets, default=0) + 1):
            size.append(1 + size[budget - 1] + rate * size[max(0, budget - 1 - self.deviation)])
        ahead = sum(size[b] for b in self.budgets) - self.known - self.level_done
        return max(0, int(ahead + self.later_named))

    def line(self):
        elapsed = time.monotonic() - self.started
        text = "ply %d: %d/%d searched; %d positions in the book, %d searched this run in %s" % (
            self.level_discs - 4, self.level_done, self.level_total, self.in_book, self.done, clock(elapsed))
        if self.done:
            left = self.positions_left()
            text += ", about %d searches and %s left" % (left, clock(left * elapsed / self.done))
        return text

    def run(self):
        while not self.stopped.wait(PROGRESS_S):
            self.show()

    def show(self, final=False):
        with self.lock:
            text = self.line()
        now = time.monotonic()
        if self.tty:
            sys.stderr.write("\r\033[K" + text + ("\n" if final else ""))
        elif final or now - self.last_line >= 10 * PROGRESS_S:
            sys.stderr.write(text + "\n")
            self.last_line = now
        sys.stderr.flush()


def clock(seconds):
    seconds = int(seconds)
    return "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


# ----- the tree --------------------------------------------------------------------------


def kept_moves(result, args):
    """The moves that go into the book: within --keep discs of the best, at most --width, best first."""
    best = result.moves[0][1]
    return [move for move in result.moves if move[1] >= best - keep_units(args)][:args.width]


def build_tree(args, named, searches, progress):
    """{key: [(canonical square, score in evaluation units), ...]}: the book's positions and moves."""
    spread = int(round(args.spread * DISC))
    book = {}
    start = canonical_key(Board())
    level = {start: args.plies}
    discs = 4
    while True:
        for key, budget in named.get(discs, {}).items():
            level[key] = max(level.get(key, 0), budget)
        if not level and discs > max(named, default=0):
            return book
        results = searches.cache.results
        todo = sorted(key for key in level if key not in results)
        later = sum(len(positions) for d, positions in named.items() if d > discs)
        progress.level(discs, len(todo), list(level.values()), len(level) - len(todo), later, len(book))
        searches.run(todo)
        following = {}
        for key in sorted(level):
            result = results[key]
            if result.depth == 0:
                raise BookError("the node budget (--nodes %d) did not finish one ply of a search" % args.nodes)
            kept = kept_moves(result, args)
            book[key] = kept
            budget = level[key]
            played = [kept[0]] + [move for move in kept[1:] if move[1] >= kept[0][1] - spread][:args.expand - 1]
            if budget - 1 - args.deviation >= 1:
                progress.branched(len(played) - 1)
            for rank, (square, _) in enumerate(played):
                child_budget = budget - 1 - (args.deviation if rank else 0)
                if child_budget < 1:
                    continue
                child = child_key(key, square)
                if child is not None:
                    following[child] = max(following.get(child, 0), child_budget)
        level = following
        discs += 1


# ----- the file --------------------------------------------------------------------------


def write_book(book, path):
    """Write the book file (player/book.py's layout); returns (bytes, moves, most discs of a position)."""
    kernel = Kernel(Board().geometry)
    rows = []
    for (player, opponent), moves in book.items():
        kernel.set_root(player, opponent)
        hash_value, lock = kernel.hash(0), kernel.lock(0)
        for order, (square, score) in enumerate(moves):
            half_discs = max(-MAX_HALF_DISCS, min(MAX_HALF_DISCS, int(round(2 * score / DISC))))
            rows.append((hash_value, lock, order, square, half_discs))
    rows.sort()
    deepest = max(discs_of(key) for key in book)
    data = bytearray(MAGIC + bytes((VERSION, 8, deepest, 0)) + struct.pack("<I", len(rows)))
    assert len(data) == HEADER_SIZE
    for hash_value, lock, _, square, half_discs in rows:
        data += struct.pack("<IIBb", hash_value, lock, square, half_discs)
    assert len(data) == HEADER_SIZE + ENTRY_SIZE * len(rows)
    path = Path(path)
    temporary = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(bytes(data))
        os.replace(temporary, path)
    except OSError as error:
        raise BookError("cannot write %s: %s" % (path, error.strerror or error))
    return len(data), len(rows), deepest


# ----- command line -------------------------------------------------------------------------


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=whole_number(1, 30), default=12,
                        help="the searches' deepest iteration, in plies (default 12)")
    parser.add_argument("--nodes", type=whole_number(1), default=8_000_000,
                        help="most nodes a search may take: no iteration is begun that would not finish in them "
                        "(default 8e6)")
    parser.add_argument("--keep", type=float, default=4.0, help="book moves: within this many discs of the best")
    parser.add_argument("--width", type=whole_number(1, 64), default=4, help="... at most this many a position")
    parser.add_argument("--plies", type=whole_number(1, 60), default=20,
                        help="the depth of the book's best line from the start (default 20)")
    parser.add_argument("--spread", type=float, default=2.5,
                        help="play out the moves within this many discs of the best too (default 2.5)")
    parser.add_argument("--expand", type=whole_number(1, 64), default=3,
                        help="... at most this many moves of a position in all (default 3)")
    parser.add_argument("--deviation", type=whole_number(0, 60), default=3,
                        help="plies a line loses for each move that is not the best (default 3)")
    parser.add_argument("--named", type=Path, default=NAMED_FILE,
                        help="named openings the book covers (default tools/training/book_openings.txt)")
    parser.add_argument("--named-plies", type=whole_number(1, 60), default=4,
                        help="book plies after every position of a named opening (default 4)")
    parser.add_argument("--table-bits", type=whole_number(10, 24), default=20,
                        help="the searches' transposition table: 2**N entries (default 20)")
    parser.add_argument("--jobs", type=JOBS, default=os.cpu_count() or 1,
                        help="MicroPython processes at once (default: one per CPU)")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="search results (default build/book)")
    parser.add_argument("--out", type=Path, default=BOOK_FILE, help="the book file (default firmware/player/book8.bin)")
    args = parser.parse_args(argv)
    if not 0 <= args.spread <= args.keep:
        parser.error("--spread must be from 0 to --keep (%g), not %g" % (args.keep, args.spread))
    if not 0 < args.keep <= 32:
        parser.error("--keep must be above 0 and at most 32 discs, not %g" % args.keep)
    started = time.monotonic()
    progress = Progress(args.deviation)
    ticker = threading.Thread(target=progress.run, daemon=True)
    searches = None
    try:
        named = named_positions(read_named(args.named), args.named_plies)
        settings = search_settings(args)
        try:
            cache = Cache(args.cache, settings)
        except OSError as error:
            raise BookError("cannot use the cache %s: %s" % (args.cache, error.strerror or error))
        searches = Searches(cache, settings, args.jobs, progress)
        ticker.start()
        try:
            book = build_tree(args, named, searches, progress)
        finally:
            progress.stopped.set()
            ticker.join()
            progress.show(final=True)
            searches.close()
            cache.close()
        size, moves, deepest = write_book(book, args.out)
    except BookError as error:
        sys.stderr.write("build_book: %s\n" % error)
        return 1
    except micropython_runner.MicroPythonError as error:
        sys.stderr.write("build_book: %s\n" % error)
        return 1
    except KeyboardInterrupt:
        if searches is not None:
            searches.stop()
        sys.stderr.write("\ninterrupted: the finished searches are kept in %s; run the same command to go on\n"
                         % args.cache)
        return 130
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    by_ply = {}
    for key in book:
        by_ply[discs_of(key) - 4] = by_ply.get(discs_of(key) - 4, 0) + 1
    results = cache.results
    short = sum(1 for key in book if results[key].depth < args.depth)
    print("wrote %s: %d positions, %d moves, %d bytes; plies 0-%d" % (
        args.out, len(book), moves, size, deepest - 4))
    print("positions by ply: %s" % ", ".join("%d: %d" % item for item in sorted(by_ply.items())))
    print("searches: depth %d%s, %.0f nodes on average; this run %d in %s, %.0f CPU seconds in the workers" % (
        args.depth, " (%d stopped earlier by --nodes)" % short if short else "",
        sum(results[key].nodes for key in book) / len(book), progress.done, clock(time.monotonic() - started),
        usage.ru_utime + usage.ru_stime))
    return 0


if __name__ == "__main__":
    sys.exit(main())
