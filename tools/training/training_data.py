#!/usr/bin/env python3
"""Training positions for the evaluation: self-play games of the player itself, labelled by deep searches.

    .venv/bin/python tools/training/training_data.py --games 200               # a small run: ~10,600 positions
    .venv/bin/python tools/training/training_data.py --games 21300 --seed 1    # the full run (>= 1,000,000 positions)
    .venv/bin/python tools/training/training_data.py --anti --games 4000       # Anti-Othello, into build/training-anti
    make training-data GAMES=21300                                    # the same through make

What it does (docs/TRAINING.md):
1. Games. Each game starts from a diverse opening: half from a balanced
   opening of tools/match/match_openings.txt plus 0-3 random plies, half from the
   start plus 4-12 random plies. Then the player itself plays on
   MicroPython's unix port (tools/training/training_worker.py): its own midgame search
   (viper kernel, shipped evaluation, --search-nodes a move) or, from
   --exact-empties down, the exact viper solver; 8% of the moves before it
   are random, after it the game is played out perfectly.
2. Labels. Every position is labelled by the search that chose its move:
   exact (the solver's WOF score) from --exact-empties down, else the deep
   search's score (the viper midgame search, player/search_viper.py), both in
   discs from the side to move's view; and by the game's final result from
   the same view (the fit may weigh the two).
3. Chunks. The games are cut into chunks of --chunk-games; each finished
   chunk is written to OUT/chunks/ at once (a temporary file renamed), so an
   interrupted run (Ctrl-C, a crash, a reboot) goes on where it stopped when
   the same command is run again: finished chunks are skipped. The chunks run
   in --jobs MicroPython processes at once. Every game's opening and seed
   come from --seed and the game's number, so the same command makes the
   same data on any machine (the searches count nodes, not time).
4. Merge. Positions are deduplicated under the board's 8 symmetries (an
   exact label wins over a search's, else the first seen stays) and split
   into OUT/train.npz and OUT/test.npz: a position's canonical image decides
   its side (a hash), so the held-out set never meets a symmetric twin of a
   training position, and it does not change as the data grows.
Progress, with the estimated time left, goes to stderr.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import threading
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
TOOLS = HERE.parent
REPO = TOOLS.parent
sys.path[:0] = [str(TOOLS), str(REPO / "firmware")]

from runners import micropython_runner  # noqa: E402
from training import training_boards  # noqa: E402
from cli.values import JOBS, whole_number  # noqa: E402
from othello.notation import counted  # noqa: E402
from player.evaluation import DISC  # noqa: E402  (the search labels' units per disc)

WORKER = HERE / "training_worker.py"
OPENINGS = TOOLS / "match" / "match_openings.txt"
START = "-" * 27 + "OX------XO" + "-" * 27 + " X"
DEFAULT_OUT = REPO / "build" / "training"
SETTINGS_FILE = "settings.json"
CHUNK_NAME = "chunk-%05d.txt"
CHUNK_FORMAT = 2  # a position line: player, opponent, empties, kind, score, the game's result (1: without it)
WORKER_HEAP = "64M"
EPSILON = 8  # percent of random moves after the opening
SEARCH_MAX_DEPTH = 14
SOLVER_TABLE_BITS = 16
PROGRESS_S = 1.0


class DataError(Exception):
    """A bad setting or a data directory that does not fit: said plainly, nothing lost."""


# ----- the games ------------------------------------------------------------------------


def data_directory(size, anti):
    """build/training, build/training-anti, build/training-6x6, build/training-6x6-anti."""
    return DEFAULT_OUT.with_name(DEFAULT_OUT.name + ("-6x6" if size == 6 else "") + ("-anti" if anti else ""))


def start_position(size):
    """The variant's start in the position format, Black to move."""
    from othello.board import Board
    from othello.variant import Variant

    return Board(Variant(size=size)).position()


def balanced_openings():
    texts = [line.split("#")[0].strip() for line in OPENINGS.read_text().splitlines()]
    return [text for text in texts if text]


def game_plan(seed, index, balanced, start=START):
    """(worker seed, opening position, random plies) of game `index`: from the seed and the index alone.
    Without balanced openings (6x6 has none) every game starts from `start`."""
    rng = random.Random("%d/%d" % (seed, index))
    if rng.random() < 0.5 and balanced:
        opening, plies = rng.choice(balanced), rng.randint(0, 3)
    else:
        opening, plies = start, rng.randint(4, 12)
    return rng.getrandbits(31), opening, plies


def worker_code(games, settings):
    header = ("GAMES = %r\nEXACT_EMPTIES = %d\nSEARCH_NODES = %d\nMAX_DEPTH = %d\nEPSILON = %d\n"
              "SOLVER_TABLE_BITS = %d\nANTI = %r\nSIZE = %d\n") % (
        games, settings["exact_empties"], settings["search_nodes"], SEARCH_MAX_DEPTH, EPSILON, SOLVER_TABLE_BITS,
        settings.get("anti", False), settings.get("size", 8))
    return header + WORKER.read_text()


class Progress:
    """Counts finished games (or solves) and positions; a thread writes a bar with the time left to stderr."""

    def __init__(self, total_games, done_games, unit="games"):
        self.total = total_games
        self.done_before = done_games
        self.unit = unit
        self.games = 0
        self.positions = 0
        self.search_ms = self.solve_ms = 0  # the workers' own time in each kind of labelling
        self.lock = threading.Lock()
        self.started = time.monotonic()
        self.stopped = threading.Event()
        self.tty = sys.stderr.isatty()
        self.last_line = 0.0

    def add(self, positions, search_ms, solve_ms):
        with self.lock:
            self.games += 1
            self.positions += positions
            self.search_ms += search_ms
            self.solve_ms += solve_ms

    def line(self):
        elapsed = time.monotonic() - self.started
        done = self.done_before + self.games
        width = 30
        filled = width * done // max(1, self.total)
        if self.games:
            left = (self.total - done) * elapsed / self.games
            eta = "%s left" % clock(left)
        else:
            eta = "time left: after the first one"
        rate = ""
        if self.unit == "games":  # a solve labels one position
            rate = " %d positions, %.1f positions/s," % (self.positions, self.positions / max(elapsed, 1e-3))
        return "[%s%s] %d/%d %s,%s %s elapsed, %s" % (
            "#" * filled, "." * (width - filled), done, self.total, self.unit, rate, clock(elapsed), eta)

    def run(self):
        while not self.stopped.wait(PROGRESS_S):
            self.show()

    def show(self, final=False):
        now = time.monotonic()
        if self.tty:
            sys.stderr.write("\r" + self.line() + ("\n" if final else ""))
        elif final or now - self.last_line >= 10 * PROGRESS_S:
            sys.stderr.write(self.line() + "\n")
            self.last_line = now
        sys.stderr.flush()


def clock(seconds):
    seconds = int(seconds)
    return "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


class Runner:
    """Runs chunks in MicroPython processes; remembers them so an interruption can end them."""

    def __init__(self, out, settings, progress):
        self.out = out
        self.settings = settings
        self.progress = progress
        self.processes = set()
        self.lock = threading.Lock()
        self.interrupted = False

    def run_chunk(self, chunk, games):
        if self.interrupted:
            return None
        env = dict(os.environ, MICROPYPATH=str(REPO / "firmware"))
        command = [micropython_runner.unix_binary(), "-X", "heapsize=" + WORKER_HEAP, "-c",
                   worker_code(games, self.settings)]
        # A session of its own: Ctrl-C at the terminal reaches this process alone, which ends the workers
        # (a worker stopped by the signal first would look like a failed chunk).
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                   cwd=str(REPO), start_new_session=True)
        with self.lock:
            self.processes.add(process)
        lines = []
        finished = False
        try:
            for line in process.stdout:
                if line.startswith("pos "):
                    lines.append(line[4:])
                elif line.startswith("game "):
                    self.progress.add(*(int(word) for word in line.split()[2:5]))
                elif line.strip() == "done":
                    finished = True
            error = process.stderr.read()
            process.wait()
        finally:
            with self.lock:
                self.processes.discard(process)
        if self.interrupted:
            return None
        if process.returncode != 0 or not finished:
            raise DataError("chunk %d failed on the unix port (exit %s):\n%s" % (
                chunk, process.returncode, error[-2000:]))
        target = self.out / "chunks" / (CHUNK_NAME % chunk)
        temporary = target.with_suffix(".tmp")
        temporary.write_text("".join(lines))
        os.replace(temporary, target)
        return chunk

    def stop(self):
        self.interrupted = True
        with self.lock:
            for process in self.processes:
                process.kill()


def check_settings(out, settings):
    """Write the run's settings, or check that the data already in `out` was made with the same ones (more
    games than before extend the run)."""
    path = out / SETTINGS_FILE
    if path.exists():
        try:
            before = json.loads(path.read_text())
        except ValueError:
            before = None
        if not isinstance(before, dict):
            raise DataError("%s is not a settings file: remove it (and the chunks) or use another --out" % path)
        changed = sorted(key for key in set(before) | set(settings) if before.get(key) != settings.get(key))
        if changed == ["games"] and isinstance(before["games"], int) and settings["games"] > before["games"]:
            # every game comes from the seed and its number, so more games extend the run: its first games
            # are the ones already played, unless the last chunk stopped short of chunk_games
            if before["games"] % settings["chunk_games"]:
                raise DataError("%s holds a run of %d games whose last chunk is short of %d games, so it cannot "
                                "grow in place: use another --out" % (out, before["games"], settings["chunk_games"]))
            sys.stderr.write("extending the run from %d to %d games\n" % (before["games"], settings["games"]))
        elif changed:
            raise DataError("%s holds data made with other settings (%s): use another --out, or --fresh to "
                            "start it again" % (out, ", ".join("%s %s -> %s" % (key, before.get(key), settings.get(key))
                                                             for key in changed)))
        else:
            return
    path.write_text(json.dumps(settings, indent=1, sort_keys=True) + "\n")


def generate(out, settings, jobs):
    chunk_games = settings["chunk_games"]
    total = settings["games"]
    chunks = (total + chunk_games - 1) // chunk_games
    (out / "chunks").mkdir(parents=True, exist_ok=True)
    done = [c for c in range(chunks) if (out / "chunks" / (CHUNK_NAME % c)).exists()]
    todo = [c for c in range(chunks) if c not in set(done)]
    done_games = sum(min(chunk_games, total - c * chunk_games) for c in done)
    if done:
        sys.stderr.write("resuming: %d of %d chunks already done\n" % (len(done), chunks))
    size = settings.get("size", 8)
    balanced = balanced_openings() if size == 8 else []
    start = start_position(size)
    progress = Progress(total, done_games)
    runner = Runner(out, settings, progress)
    ticker = threading.Thread(target=progress.run, daemon=True)
    ticker.start()
    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = []
            for chunk in todo:
                games = [game_plan(settings["seed"], i, balanced, start)
                         for i in range(chunk * chunk_games, min(total, (chunk + 1) * chunk_games))]
                futures.append(pool.submit(runner.run_chunk, chunk, games))
            try:
                for future in futures:
                    future.result()
            except BaseException:
                runner.stop()
                raise
    finally:
        progress.stopped.set()
        ticker.join()
        progress.show(final=True)
    return progress


# ----- merging ---------------------------------------------------------------------------


def read_chunks(out):
    """Arrays player, opponent, empties, score (discs), exact, result (the game's end, discs) of every chunk,
    in chunk order."""
    players, opponents, empties, scores, exact, results = [], [], [], [], [], []
    for path in sorted((out / "chunks").glob("chunk-*.txt")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            try:
                p, o, e, kind, score, final = line.split()
                value = int(score)
                results.append(int(final))
                players.append(int(p, 16))
                opponents.append(int(o, 16))
                empties.append(int(e))
                exact.append(kind == "exact")
                scores.append(value if kind == "exact" else value / DISC)
                if kind not in ("exact", "search"):
                    raise ValueError(kind)
            except ValueError:
                raise DataError("%s line %d is damaged (%r): delete that chunk file and run again to remake it"
                                % (path, number, line[:80]))
    return (np.array(players, dtype=np.uint64), np.array(opponents, dtype=np.uint64),
            np.array(empties, dtype=np.int8), np.array(scores, dtype=np.float32), np.array(exact, dtype=bool),
            np.array(results, dtype=np.int8))


def merge(out, test_percent, size=8):
    """Deduplicate under symmetry and split into train.npz and test.npz; returns a summary dict."""
    player, opponent, empties, score, exact, result = read_chunks(out)
    if not len(player):
        raise DataError("no positions in %s/chunks" % out)
    cp, co = training_boards.canonical(player, opponent, size)
    # exact labels first, then the order seen: np.unique keeps each key's first occurrence
    order = np.lexsort((np.arange(len(cp)), ~exact))
    keys = np.stack([cp[order], co[order]], axis=1)
    _, first = np.unique(keys, axis=0, return_index=True)
    keep = np.sort(order[first])
    test = held_out(cp[keep], co[keep], test_percent)
    for name, rows in (("train", keep[~test]), ("test", keep[test])):
        np.savez_compressed(out / (name + ".npz"), player=player[rows], opponent=opponent[rows],
                            empties=empties[rows], score=score[rows], exact=exact[rows], result=result[rows])
    return {"positions": int(len(player)), "unique": int(len(keep)), "train": int((~test).sum()),
            "test": int(test.sum()), "exact": int(exact[keep].sum())}


def held_out(player, opponent, percent):
    """bool array: the positions of the test set, chosen by a hash of the canonical position."""
    return position_hashes(player, opponent) % 100 < percent


def position_hashes(player, opponent):
    data = np.stack([player, opponent], axis=1).astype("<u8")
    return np.array([zlib.crc32(row.tobytes()) for row in data], dtype=np.uint32)


# ----- exact labels for held-out positions ---------------------------------------------------

# Issue 14 asks for the fit's error against exact scores at 20-24 empties, beyond where the games are
# solved (--exact-empties, 18). On the unix port an exact solve takes seconds at 20 empties, half a minute
# at 22 and minutes at 24, so held-out positions of 20-22 empties are solved, after the merge.
EXACT_HELD_OUT_EMPTIES = (20, 22)
EXACT_HELD_OUT_FILE = "exact-held-out.txt"
EXACT_WORKER = HERE / "training_exact_worker.py"


def read_exact_held_out(out):
    """{(player, opponent): exact score} of the held-out positions solved so far."""
    path = out / EXACT_HELD_OUT_FILE
    known = {}
    if path.exists():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            try:
                player, opponent, score = line.split()
                known[int(player, 16), int(opponent, 16)] = int(score)
            except ValueError:
                raise DataError("%s line %d is damaged (%r): delete that line and run again to solve its position "
                                "again" % (path, number, line[:80]))
    return known


def label_held_out(out, count, jobs, anti):
    """Give `count` held-out positions of EXACT_HELD_OUT_EMPTIES their exact scores in test.npz: the first
    ones by a hash of the position (so mostly the same ones as the data grows), solved unless
    OUT/exact-held-out.txt has them; every position of that file that is held out gets its label.
    Returns (solved in this call, labelled in all)."""
    path = out / "test.npz"
    with np.load(path) as data:
        test = dict(data)
    known = read_exact_held_out(out)
    fewest, most = EXACT_HELD_OUT_EMPTIES
    inside = np.flatnonzero(~test["exact"] & (test["empties"] >= fewest) & (test["empties"] <= most))
    hashes = position_hashes(*training_boards.canonical(test["player"][inside], test["opponent"][inside]))
    chosen = [(int(test["player"][i]), int(test["opponent"][i])) for i in inside[np.argsort(hashes, kind="stable")]]
    todo = [position for position in chosen[:count] if position not in known]
    if todo:
        solve_held_out(out, todo, jobs, anti)
        known = read_exact_held_out(out)
    labelled = 0
    for i, position in enumerate(zip(test["player"].tolist(), test["opponent"].tolist())):
        if position in known:
            test["score"][i] = known[position]
            test["exact"][i] = True
            labelled += 1
    np.savez_compressed(path, **test)
    return len(todo), labelled


def solve_held_out(out, positions, jobs, anti):
    """Solve `positions` in `jobs` MicroPython processes, adding each score to OUT/exact-held-out.txt as it comes
    (an interrupted run keeps the ones solved)."""
    progress = Progress(len(positions), 0, unit="solves")
    lock = threading.Lock()

    def solve_part(part):
        code = ("POSITIONS = %r\nMOST_EMPTIES = %d\nSOLVER_TABLE_BITS = %d\nANTI = %r\n" % (
            part, EXACT_HELD_OUT_EMPTIES[1], SOLVER_TABLE_BITS, anti)) + EXACT_WORKER.read_text()
        for line in micropython_runner.unix_lines(code, heap=WORKER_HEAP):
            if line.startswith("exact "):
                with lock, open(out / EXACT_HELD_OUT_FILE, "a") as file:
                    file.write(line[6:])
                progress.add(1, 0, 0)  # its bar shows solves and the time left, not the time of each

    sys.stderr.write("solving %d held-out positions of %d-%d empties exactly\n" % (
        len(positions), EXACT_HELD_OUT_EMPTIES[0], EXACT_HELD_OUT_EMPTIES[1]))
    ticker = threading.Thread(target=progress.run, daemon=True)
    ticker.start()
    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            parts = [positions[start::jobs] for start in range(min(jobs, len(positions)))]
            for future in [pool.submit(solve_part, part) for part in parts]:
                future.result()
    finally:
        progress.stopped.set()
        ticker.join()
        progress.show(final=True)


# ----- command line -------------------------------------------------------------------------


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="The full run: --games 21300 (1,094,504 positions, 51 a game; "
                                     "1,001,146 after deduplication; a run grows with the same command and more --games); "
                                     "docs/TRAINING.md has its time.")
    parser.add_argument("--games", type=whole_number(1), default=200, help="self-play games (default 200)")
    parser.add_argument("--seed", type=whole_number(0), default=1, help="seed of the openings and random moves")
    parser.add_argument("--exact-empties", type=whole_number(0, 24, "the solver is made for 24 at most"), default=18,
                        help="solve exactly from this many empty squares down (default 18; each more costs ~3x)")
    parser.add_argument("--search-nodes", type=whole_number(1), default=40000,
                        help="node budget of the search at every other position (default 40000)")
    parser.add_argument("--chunk-games", type=whole_number(1), default=20, help="games per chunk file (default 20)")
    parser.add_argument("--test-percent", type=whole_number(1, 50), default=5, help="held-out share (default 5%%)")
    parser.add_argument("--jobs", type=JOBS, default=os.cpu_count() or 1,
                        help="MicroPython processes at once (default: one per CPU)")
    parser.add_argument("--anti", action="store_true",
                        help="Anti-Othello games, labelled as Anti-Othello scores (default: Othello)")
    parser.add_argument("--size", type=int, choices=(6, 8), default=8, help="board size (default 8)")
    parser.add_argument("--out", type=Path,
                        help="data directory (default build/training, with -anti and -6x6 for the others)")
    parser.add_argument("--fresh", action="store_true", help="throw away the data in --out first")
    parser.add_argument("--merge-only", action="store_true",
                        help="play nothing: merge the chunks finished so far (a run stopped early) for a fit")
    parser.add_argument("--exact-held-out", type=whole_number(0), default=0, metavar="N",
                        help="after the merge, solve N held-out positions of %d-%d empties exactly, for the fit's "
                        "report (8x8; kept in OUT/%s across runs; default 0)" % (
                            EXACT_HELD_OUT_EMPTIES + (EXACT_HELD_OUT_FILE,)))
    args = parser.parse_args(argv)
    if args.fresh and args.merge_only:
        parser.error("--fresh and --merge-only do not go together: --fresh would leave nothing to merge")
    if args.exact_held_out and args.size != 8:
        parser.error("--exact-held-out is for 8x8 runs: a 6x6 run is solved in its games from 16 empties")
    settings = {"games": args.games, "seed": args.seed, "exact_empties": args.exact_empties,
                "search_nodes": args.search_nodes, "chunk_games": args.chunk_games, "epsilon": EPSILON,
                "format": CHUNK_FORMAT,
                "test_percent": args.test_percent}
    # only for the other variants: data made before they were added keeps its settings
    if args.anti:
        settings["anti"] = True
    if args.size != 8:
        settings["size"] = args.size
        # searched inside the 8x8 board by the viper code since issue 14's retraining (the plain search
        # before): the same scores, but the solver breaks ties otherwise, so the games go on otherwise
        settings["embedded"] = True
    out = args.out or data_directory(args.size, args.anti)
    try:
        if args.fresh and out.exists():
            for path in list((out / "chunks").glob("chunk-*")) + [
                    out / name for name in (SETTINGS_FILE, "train.npz", "test.npz", EXACT_HELD_OUT_FILE)]:
                if path.exists():
                    path.unlink()
        out.mkdir(parents=True, exist_ok=True)
        check_settings(out, settings)
        started = time.monotonic()
        progress = Progress(0, 0) if args.merge_only else generate(out, settings, args.jobs)
        summary = merge(out, args.test_percent, args.size)
        if args.exact_held_out or (out / EXACT_HELD_OUT_FILE).exists():
            summary["held_out_solved_this_run"], summary["held_out_exact_beyond_games"] = label_held_out(
                out, args.exact_held_out, args.jobs, args.anti)
    except DataError as error:
        sys.stderr.write("training_data: %s\n" % error)
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted: the finished chunks are kept in %s; run the same command to go on\n" % out)
        return 130
    except micropython_runner.MicroPythonError as error:
        sys.stderr.write("training_data: %s\n" % error)
        return 1
    elapsed = time.monotonic() - started
    summary.update(seconds=round(elapsed, 1), games_this_run=progress.games, positions_this_run=progress.positions,
                   search_seconds_this_run=round(progress.search_ms / 1000, 1),
                   solve_seconds_this_run=round(progress.solve_ms / 1000, 1))
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print("%d positions (%d unique under symmetry, %d exact): %d to train, %d held out" % (
        summary["positions"], summary["unique"], summary["exact"], summary["train"], summary["test"]))
    if "held_out_solved_this_run" in summary:
        print("held out: %d positions of %d-%d empties labelled exactly (%d solved in this run)" % (
            summary["held_out_exact_beyond_games"], EXACT_HELD_OUT_EMPTIES[0], EXACT_HELD_OUT_EMPTIES[1],
            summary["held_out_solved_this_run"]))
    if progress.games:
        print("this run: %s, %s in %s; the workers searched %.0f s and solved %.0f s" % (
            counted(progress.games, "game"), counted(progress.positions, "position"), clock(elapsed), progress.search_ms / 1000, progress.solve_ms / 1000))
    elif args.merge_only:
        print("merged the %d finished chunks; nothing played" % len(list((out / "chunks").glob("chunk-*.txt"))))
    else:
        print("nothing left to play")
    return 0


if __name__ == "__main__":
    sys.exit(main())
