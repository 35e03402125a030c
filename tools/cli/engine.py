"""Engine commands: perft, show, bench.

    othello perft 9                      # 3005288 (progress on stderr)
    othello perft 6 --position "---...--- O" --divide
    othello show f5d6c3d3c4              # a transcript
    othello show "---------------------------OX------XO--------------------------- X"
    othello show b3 --size 6 --anti      # variant options apply to transcripts
    othello bench --interpreter all
"""

import multiprocessing
import sys
import time
from pathlib import Path

from othello.board import PASS, Board, IllegalMoveError
from othello.game import Game
from othello.geometry import geometry as shared_geometry
from othello.notation import NotationError, is_position_text, parse_square, square_name
from othello.perft import children, perft
from othello.variant import BLACK, COLOUR_NAMES, STARTS, WHITE, Variant
from cli.values import DEFAULT_JOBS, JOBS, looks_like_squares, seconds, whole_number

# Below this depth a perft takes well under a second: processes would only add start-up time.
PARALLEL_MIN_DEPTH = 7
# Subtrees per worker process: many small tasks keep both cores busy to the end.
TASKS_PER_JOB = 16
PROGRESS_AFTER_S = 1.0
# Deep counts are cut into subtrees of at most this depth (well under a second each), so progress shows
# from the first second, and its estimate of the time left is fair.
SUBTREE_DEPTH = 7
# perft 14 from the start is 184,042,084,512 leaves, about a day at the ~2 million leaves/s of two cores;
# each ply more multiplies it by about ten.
MAX_PERFT_DEPTH = 14


class CommandError(Exception):
    """Bad input on the command line: printed as `othello CMD: message`, exit status 2."""


def read_text_file(path):
    """The text of the file at `path`: UTF-8, with or without a byte-order mark; CommandError saying what is
    wrong (no such file, a folder, not text) otherwise."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise CommandError("%s: no such file" % path)
    except IsADirectoryError:
        raise CommandError("%s is a folder, not a file" % path)
    except OSError as error:
        raise CommandError("cannot read %s: %s" % (path, error.strerror or error))
    try:
        return data.decode("utf-8-sig")
    except UnicodeError:
        raise CommandError("%s is not UTF-8 text" % path)


def register(subparsers):
    perft_parser = subparsers.add_parser(
        "perft",
        help="count the positions DEPTH plies ahead",
        description="Count the leaf positions DEPTH plies ahead (a forced pass is one ply, a game that "
        "ends earlier is one leaf). Progress and timing go to stderr; the last line on stdout is the count.",
    )
    perft_parser.add_argument(
        "depth",
        type=whole_number(0, MAX_PERFT_DEPTH, "perft %d from the start takes about a day, each ply more ten times as long"
                          % MAX_PERFT_DEPTH),
        metavar="DEPTH",
        help="plies to look ahead, 0 to %d" % MAX_PERFT_DEPTH,
    )
    perft_parser.add_argument(
        "--position",
        metavar="POS",
        help="start from this position (64-character format with side to move) or transcript; default: the start",
    )
    perft_parser.add_argument(
        "--jobs", type=JOBS, default=DEFAULT_JOBS, metavar="N", help="worker processes (default: one per CPU)"
    )
    perft_parser.add_argument("--divide", action="store_true", help="also print the count below each root move")
    add_variant_options(perft_parser)
    perft_parser.set_defaults(func=run_perft)

    show_parser = subparsers.add_parser(
        "show",
        help="draw a position or the end of a transcript",
        description="Draw a position (64-character format with side to move) or the position after a "
        "transcript such as f5d6c3, with the legal moves marked '*', the disc counts and the side to move.",
    )
    show_parser.add_argument(
        "text", metavar="POS_OR_TRANSCRIPT", nargs="*", help="a position (squares, then X or O for the side to move; the "
        "two may be separate words) or a transcript; none: the start")
    add_variant_options(show_parser)
    show_parser.set_defaults(func=run_show)

    bench_parser = subparsers.add_parser(
        "bench",
        help="move generation and perft speed",
        description="Move-generation throughput and perft speed of the engine on CPython and on "
        "MicroPython (the unix port and the 32-bit WASI build, through tools/runners/micropython_runner.py).",
    )
    bench_parser.add_argument(
        "--interpreter", choices=("cpython", "unix", "wasm", "all"), default="cpython", help="where to run (default: cpython)"
    )
    bench_parser.add_argument("--seconds", type=seconds(60), default=1.0, help="time for each move-generation figure")
    bench_parser.set_defaults(func=run_bench)


def add_variant_options(parser):
    group = parser.add_argument_group("variant (for transcripts; a position string sets its own size and hole)")
    group.add_argument("--size", type=int, choices=(6, 8, 10), help="board size (default 8)")
    group.add_argument("--start", choices=STARTS, help="centre set-up: othello (default), parallel, empty (Reversi)")
    group.add_argument("--white-first", action="store_true", help="White moves first")
    group.add_argument("--anti", action="store_true", help="Anti-Othello: fewer discs wins")
    group.add_argument("--handicap", type=whole_number(0, 4), default=0, metavar="N", help="corner discs given before the first move (1-4)")
    group.add_argument("--handicap-to", choices=("black", "white"), default="black", help="who gets the handicap corners")
    group.add_argument("--hole", metavar="SQUARE", help="black-hole square, e.g. c3")


def variant_from(args):
    """The Variant the options describe, or None when none was given (the text decides)."""
    given = (args.size, args.start, args.white_first, args.anti, args.handicap, args.hole)
    if not any(given):
        return None
    size = args.size or 8
    try:
        return Variant(
            size=size,
            start=args.start or "othello",
            first=WHITE if args.white_first else BLACK,
            anti=args.anti,
            handicap=args.handicap,
            handicap_to=WHITE if args.handicap_to == "white" else BLACK,
            black_hole=None if args.hole is None else parse_square(args.hole, size),
        )
    except ValueError as error:
        raise CommandError(str(error))


def load(text, args):
    """(board, game or None) for a position string or a transcript (played in a Game, for its moves)."""
    variant = variant_from(args)
    words = text.split()
    if len(words) == 1 and looks_like_squares(words[0]):
        raise CommandError("the side to move is missing: put X (Black) or O (White) after the squares, "
                           "e.g. \"%s X\"" % words[0])
    position = is_position_text(text)
    try:
        if position:
            if args.start or args.white_first or args.handicap:
                raise CommandError("--start, --white-first and --handicap set up a game: use them with a transcript")
            board = Board.from_position(text)
            if args.size or args.hole:
                Board.from_position(text, variant)  # says how the text's size or hole differ
            if args.anti:
                board = Board.from_position(text, Variant(board.size, anti=True, black_hole=board.variant.black_hole))
            return board, None
        game = Game(variant)
        game.play_transcript(text)
        return game.board, game
    except (NotationError, IllegalMoveError, ValueError) as error:
        raise CommandError("bad %s: %s" % ("position" if position else "transcript", error))


def failing(func):
    """Turn CommandError into a message on stderr and exit status 2."""

    def run(args):
        try:
            return func(args)
        except CommandError as error:
            sys.stderr.write("othello %s: %s\n" % (args.command, error))
            return 2

    return run


# ----- show ------------------------------------------------------------------


@failing
def run_show(args):
    board, game = load(" ".join(args.text), args)
    print(describe(board, game))
    return 0


def describe(board, game=None):
    """The text `othello show` prints."""
    lines = [board.ascii(marks=True), ""]
    lines.append(
        "%s (X) %d   %s (O) %d   empty %d"
        % (COLOUR_NAMES[BLACK], board.count(BLACK), COLOUR_NAMES[WHITE], board.count(WHITE), board.empties())
    )
    mover = COLOUR_NAMES[board.turn]
    result = game.result() if game is not None else board.result()
    if result is not None:
        lines.append("Game over: %s" % describe_result(result))
    elif board.must_pass():
        lines.append("%s to move: no legal move, must pass" % mover)
    else:
        names = [square_name(square, board.size) for square in board.legal_squares()]
        phase = " (placing the centre discs)" if board.in_placement_phase() else ""
        lines.append("%s to move%s: %d legal (*): %s" % (mover, phase, len(names), " ".join(names)))
    lines.append("Position: %s" % board.position())
    if game is not None and game.history:
        played = game.move_count()
        lines.append("Transcript: %s (%d move%s)" % (game.transcript(), played, "" if played == 1 else "s"))
    if not board.variant.is_standard():
        lines.append("Variant: %s" % board.variant.describe())
    return "\n".join(lines)


def describe_result(result):
    if result.winner is None:
        return "draw %d-%d" % (result.black, result.white)
    return "%s wins %d-%d" % (COLOUR_NAMES[result.winner], result.black, result.white)


# ----- perft -----------------------------------------------------------------


@failing
def run_perft(args):
    if args.position is None:
        board = Board(variant_from(args))
    else:
        board, _ = load(args.position, args)
    if board.in_placement_phase():
        raise CommandError("perft counts flipping moves: start after the four centre discs of the empty start")
    root = (board.player_discs(), board.opponent_discs())
    started = time.monotonic()
    progress = Progress(args.depth, started)
    total, per_root_move, processes = count(board.geometry, root, args.depth, args.jobs, progress, args.divide)
    seconds = time.monotonic() - started
    if args.divide:
        for square, leaves in per_root_move:
            if square is not None:  # None: the root game is already over
                print("%s %d" % ("pass" if square == PASS else square_name(square, board.size), leaves))
    sys.stderr.write(
        "perft %d: %d leaves in %.2f s (%.0f leaves/s, %d process%s)\n"
        % (args.depth, total, seconds, total / max(seconds, 1e-9), processes, "" if processes == 1 else "es")
    )
    print(total)
    return 0


class Progress:
    """Reports finished subtrees on stderr once a run has taken longer than a moment."""

    def __init__(self, depth, started):
        self.depth = depth
        self.started = started
        self.last = started

    def __call__(self, done, tasks, leaves):
        now = time.monotonic()
        if now - self.started >= PROGRESS_AFTER_S and (now - self.last >= PROGRESS_AFTER_S or done == tasks):
            self.last = now
            elapsed = now - self.started
            left = "" if done == tasks else ", about %.0f s left" % (elapsed * (tasks - done) / done)
            sys.stderr.write(
                "perft %d: %d/%d subtrees, %s leaves so far, %.1f s%s\n"
                % (self.depth, done, tasks, "{:,}".format(leaves), elapsed, left)
            )


def count(geometry, root, depth, jobs, progress, divide=False):
    """(total leaves, [(root move, leaves)], processes used) for `depth` plies below root = (player, opponent).

    Deep runs with several jobs are split into subtrees counted by a pool of
    processes; `divide` splits at least at the root, for the per-move counts.
    Subtrees are at most SUBTREE_DEPTH deep, so that progress comes often.
    """
    parallel = jobs > 1 and depth >= PARALLEL_MIN_DEPTH
    min_plies = max(1 if divide else 0, depth - SUBTREE_DEPTH)
    tasks, finished = split(geometry, root, depth, jobs * TASKS_PER_JOB if parallel else 1, min_plies)
    total = 0
    per_root = {}
    for root_move, leaves in finished:
        total += leaves
        per_root[root_move] = per_root.get(root_move, 0) + leaves
    jobs_args = [(geometry.size, geometry.blocked, player, opponent, remaining) for _, player, opponent, remaining in tasks]
    pool = None
    processes = 1
    if parallel and len(tasks) > 1:
        processes = min(jobs, len(tasks))
        pool = multiprocessing.get_context("fork").Pool(processes)
        results = pool.imap_unordered(count_indexed, enumerate(jobs_args))
    else:
        results = map(count_indexed, enumerate(jobs_args))
    if depth > SUBTREE_DEPTH:
        sys.stderr.write("perft %d: %d subtrees of depth %d on %d process%s\n" % (
            depth, len(tasks), tasks[0][3] if tasks else 0, processes, "" if processes == 1 else "es"))
    try:
        for done, (index, leaves) in enumerate(results, 1):
            total += leaves
            root_move = tasks[index][0]
            per_root[root_move] = per_root.get(root_move, 0) + leaves
            progress(done, len(tasks), total)
    finally:
        if pool is not None:
            pool.terminate()
    return total, sorted(per_root.items()), processes


def split(geometry, root, depth, wanted, min_plies=0):
    """Expand the tree a ply at a time into at least `wanted` subtrees (and at least `min_plies` plies).

    Returns (tasks, finished): tasks are (root move, player, opponent,
    remaining depth); finished are (root move, 1) for games that ended on
    the way, one leaf each. The root move is None at the root itself.
    Subtrees of two plies or less are not split further: not worth a task.
    """
    tasks = [(None, root[0], root[1], depth)]
    finished = []
    plies = 0
    while tasks and tasks[0][3] > 0 and (plies < min_plies or (len(tasks) < wanted and tasks[0][3] > 2)):
        expanded = []
        for root_move, player, opponent, remaining in tasks:
            below = children(geometry, player, opponent)
            if not below:
                finished.append((root_move, 1))
            for square, child_player, child_opponent in below:
                expanded.append((square if root_move is None else root_move, child_player, child_opponent, remaining - 1))
        tasks = expanded
        plies += 1
    return tasks, finished


def count_subtree(job):
    size, blocked, player, opponent, depth = job
    return perft(shared_geometry(size, blocked), player, opponent, depth)


def count_indexed(indexed_job):
    index, job = indexed_job
    return index, count_subtree(job)


# ----- bench -----------------------------------------------------------------

# Perft depth per interpreter: a fraction of a second of counting on this kind of machine.
BENCH_PERFT_DEPTH = {"cpython": 8, "unix": 6, "wasm": 5}
MOVEGEN_COLUMNS = (
    ("moves/s", "moves_per_s"),
    ("flips/s", "flips_per_s"),
    ("children/s", "generated_per_s"),
    ("B/moves", "bytes_per_moves_call"),
    ("B/flips", "bytes_per_flips_call"),
    ("B/child", "bytes_per_generated"),
)
PERFT_COLUMNS = (
    ("leaves/s", "leaves_per_s"),
    ("nodes/s", "nodes_per_s"),
    ("B/node", "bytes_per_node"),
)
KERNELS = ("plain", "viper")


@failing
def run_bench(args):
    interpreters = ("cpython", "unix", "wasm") if args.interpreter == "all" else (args.interpreter,)
    rows = []
    for interpreter in interpreters:
        sys.stderr.write("bench: running on %s...\n" % interpreter)
        rows.append((interpreter, bench_figures(interpreter, args.seconds)))
    print(bench_tables(rows))
    return 0


def bench_figures(interpreter, seconds):
    """The figures of othello.bench as a dict, measured on `interpreter`."""
    depth = BENCH_PERFT_DEPTH[interpreter]
    if interpreter == "cpython":
        from othello import bench

        return dict(bench.measure(seconds, depth))
    from runners import micropython_runner

    # The WASI build runs without garbage collection (see micropython_runner): keep its run short.
    seconds = min(seconds, 0.5) if interpreter == "wasm" else seconds
    code = "from othello import bench\nbench.main(%r, %d)\n" % (seconds, depth)
    try:
        out = micropython_runner.run(interpreter, code)
    except micropython_runner.MicroPythonError as error:
        raise CommandError(str(error))
    figures = {}
    for line in out.splitlines():
        name, _, value = line.partition(" ")
        figures[name] = int(value)
    return figures


def bench_tables(rows):
    """Two tables: move generation per interpreter, perft per interpreter and kernel."""
    movegen = [["move generation"] + [title for title, _ in MOVEGEN_COLUMNS]]
    perft_rows = [["perft from the start", "kernel", "depth"] + [title for title, _ in PERFT_COLUMNS]]
    for interpreter, figures in rows:
        movegen.append([interpreter] + [number(figures.get(key)) for _, key in MOVEGEN_COLUMNS])
        for kernel in KERNELS:
            prefix = "perft_%s_" % kernel
            if prefix + "leaves" in figures:
                perft_rows.append(
                    [interpreter, kernel, number(figures["perft_depth"])]
                    + [number(figures.get(prefix + key)) for _, key in PERFT_COLUMNS]
                )
    return layout(movegen) + "\n\n" + layout(perft_rows)


def number(value):
    return "-" if value is None else "{:,}".format(value)


def layout(table):
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines = []
    for row in table:
        lines.append("  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)))
    return "\n".join(lines)
