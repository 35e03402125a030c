"""Post-game review on the host: what each move cost against the best (firmware/player/review.py).

    othello review f5d6c3d3c4f4...           a transcript (the variant options apply)
    othello review game.txt                  a file holding a transcript
    othello review records.json --game 2     a record, or the board's records file (1 = newest)
    othello review games.txt --game 2        `othello records pull` lines

One line per ply, passes included, `<ply> <move> <colour> loss <N> best
<square> exact|estimate` (a pass: `<ply> pass <colour> loss 0 best pass
exact`), then each side's summary: its mistakes (--mistake discs lost or
more), the discs it lost in all, its largest losses. The review runs under
MicroPython's unix port, the Pico's own search and solver code with the
review's node budgets, so its numbers are the device's for the same record
(`--interpreter cpython`: the plain solver, which counts its nodes its own
way). A record's review is written back into its file (the record's "a"),
as the device keeps it: a second look is instant. A review with another
--time than the device's is neither taken from the record nor kept in it.
"""

import json
import sys
from pathlib import Path

from cli.engine import CommandError, add_variant_options, failing, read_text_file, variant_from
from cli.values import seconds, whole_number
from othello.board import PASS, IllegalMoveError
from othello.notation import NotationError, counted, square_name
from othello.variant import COLOUR_NAMES, Variant
from player.review import MISTAKE, REVIEW_TIME_MS, Review, decode, entry_text

REVIEW_KEY = "a"  # where a record keeps its review (ui/records.py)
WORKER = Path(__file__).resolve().parent / "review_worker.py"
WORKER_HEAP = "8M"  # the player's tables and a whole game's review, with room to spare


def register(subparsers):
    parser = subparsers.add_parser(
        "review",
        help="what each move of a game cost against the best move",
        description="Review a game ply by ply: each move's loss in discs against the best move, exact "
        "where the solver settles both positions within the review's node budgets, otherwise the midgame "
        "search's estimate. One line per ply: `<ply> <move> <colour> loss <N> best <square> exact|estimate`, "
        "then each side's summary. GAME is a transcript, a file holding one, a file of `othello records` "
        "lines, or a JSON record file (the board's records.json or one record from it).",
    )
    parser.add_argument("game", metavar="TRANSCRIPT_OR_RECORD")
    parser.add_argument("--time", type=seconds(), default=REVIEW_TIME_MS / 1000, metavar="S",
                        help="the device time a judgement may take, as the Pico's node budgets (default "
                        "%(default)s, the device's review)")
    parser.add_argument("--game", dest="index", type=whole_number(1), default=1, metavar="N",
                        help="which game of a records file (1 = the first, the newest on the board)")
    parser.add_argument("--mistake", type=whole_number(1, 128), default=MISTAKE, metavar="N",
                        help="discs lost from which a move counts as a mistake (default %(default)s)")
    parser.add_argument("--no-save", action="store_true", help="do not write the review into the record's file")
    parser.add_argument("--interpreter", choices=("unix", "cpython"), default="unix",
                        help="unix: MicroPython's unix port, the device's numbers (default); cpython: this Python")
    add_variant_options(parser)
    parser.set_defaults(func=run_review)


class Source:
    """What to review: the rules, the start position, the moves, the players, and where a record lives."""

    def __init__(self, variant, start, transcript, players=None, cached=None, save=None):
        self.variant = variant
        self.start = start
        self.transcript = transcript
        self.players = players
        self.cached = cached
        self.save = save  # called with the review's text to keep it with the record, or None


def load_source(text, args):
    if not text.strip():
        raise CommandError("no game given: a transcript such as f5d6c3, or a file of games")
    path = Path(text)
    if path.is_dir():
        raise CommandError("%s is a folder: give a transcript, or a file of games" % text)
    if not path.is_file():
        if path.suffix or "/" in text or "\\" in text:
            raise CommandError("%s: no such file (a transcript is its moves, e.g. f5d6c3)" % text)
        return Source(variant_from(args) or Variant(), None, text)
    content = read_text_file(path)
    try:
        data = json.loads(content)
    except ValueError:
        return lines_source(path, content, args)
    return record_source(path, data, args)


def lines_source(path, content, args):
    """A transcript alone, or `othello records` lines (--game picks one)."""
    from cli.records import parse_lines

    lines = [line.strip() for line in content.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if len(lines) == 1 and "=" not in lines[0]:
        return Source(variant_from(args) or Variant(), None, lines[0])
    if variant_from(args) is not None:
        raise CommandError("records lines carry their variant: leave out the variant options")
    try:
        records = parse_lines(content)
    except CommandError as error:
        raise CommandError("%s: %s" % (path, error))
    record = pick(records, args.index, path, "game")
    return Source(Variant.from_dict(record["v"]), record["s"], record["t"], record["p"])


def pick(records, index, path, kind):
    if not 1 <= index <= len(records):
        raise CommandError("%s holds %d %s%s: --game %d is not one of them" % (
            path, len(records), kind, "" if len(records) == 1 else "s", index))
    return records[index - 1]


def record_source(path, data, args):
    from ui.records import valid_record

    records = data if isinstance(data, list) else [data]
    record = pick(records, args.index, path, "record")
    if not isinstance(record, dict) or not valid_record(record):
        raise CommandError("%s: record %d is not a game record" % (path, args.index))
    if variant_from(args) is not None:
        raise CommandError("a record carries its own variant: leave out the variant options")
    try:
        variant = Variant.from_dict(record["v"])
    except (TypeError, ValueError) as error:
        raise CommandError("%s: record %d has a bad variant: %s" % (path, args.index, error))
    cached = record.get(REVIEW_KEY)

    def save(text):
        record[REVIEW_KEY] = text
        temporary = path.with_name(path.name + ".tmp")
        try:
            temporary.write_text(json.dumps(data))
            temporary.replace(path)
        except OSError as error:
            sys.stderr.write("othello review: the review was not kept in %s: %s\n" % (path, error))

    return Source(variant, record["s"], record["t"], record["p"], cached if isinstance(cached, str) else None,
                  None if args.no_save else save)


def judged_plies(source, time_ms, cached, interpreter):
    """Each ply's entry_text as it is judged: under the unix port (tools/cli/review_worker.py) or here."""
    if interpreter == "cpython":
        review = Review(source.variant, source.start, source.transcript, time_ms, cached)
        size = review.board.size
        for entry in review.entries:
            yield entry_text(entry, size)
        while not review.done():
            yield entry_text(review.step(), size)
        return
    from runners import micropython_runner

    settings = dict(VARIANT=source.variant.to_dict(), START=source.start, TRANSCRIPT=source.transcript,
                    TIME_MS=time_ms, CACHED=cached)
    code = "".join("%s = %r\n" % item for item in sorted(settings.items())) + WORKER.read_text()
    try:
        for line in micropython_runner.unix_lines(code, heap=WORKER_HEAP):
            if line.startswith("ply "):
                yield line[4:].strip()
    except micropython_runner.MicroPythonError as error:
        raise CommandError("%s\n(or review under this Python: --interpreter cpython)" % error)


@failing
def run_review(args):
    source = load_source(args.game, args)
    try:
        game = Review(source.variant, source.start, source.transcript)  # the moves, checked, before any search
    except (NotationError, IllegalMoveError, ValueError) as error:
        raise CommandError("bad game: %s" % error)
    if not game.moves:
        raise CommandError("the game has no moves to review")
    time_ms = int(args.time * 1000 + 0.5)
    device_review = time_ms == REVIEW_TIME_MS  # the one the device keeps with a record
    cached = source.cached if device_review else None
    size = game.board.size
    parts = []
    for part in judged_plies(source, time_ms, cached, args.interpreter):
        parts.append(part)
        entries = decode(",".join(parts), game.moves, size)
        if len(entries) != len(parts):
            raise CommandError("the review's ply %d came back as %r, which does not fit the game" % (len(parts), part))
        print(entry_line(entries[-1], size))
        sys.stdout.flush()
    text = ",".join(parts)
    review = Review(source.variant, source.start, source.transcript, time_ms, text)
    if not review.done():
        raise CommandError("the review stopped after %d of %d plies" % (len(review.entries), len(review.moves)))
    if device_review and source.save is not None and text != source.cached:
        source.save(text)
    for line in summary_lines(review, source.players, size, args.mistake):
        print(line)
    return 0


def entry_line(entry, size):
    """`<ply> <move> <colour> loss <N> best <square> exact|estimate`, the ply counted from 1, passes included."""
    return "%d %s %s loss %d best %s %s" % (
        entry.ply + 1, move_name(entry.square, size), COLOUR_NAMES[entry.colour].lower(), entry.loss,
        move_name(entry.best, size), "exact" if entry.exact else "estimate")


def move_name(square, size):
    return "pass" if square == PASS else square_name(square, size)


def summary_lines(review, players, size, threshold):
    """For each side: its mistakes, the discs it lost in all, and its largest losses (ply, move, loss)."""
    lines = []
    for colour in (0, 1):
        name = COLOUR_NAMES[colour] + ("" if players is None else " (%s)" % players[colour])
        worst = review.worst(colour, threshold)
        mistakes = sum(1 for entry in review.entries if entry.colour == colour and entry.is_mistake(threshold))
        text = "%s: %s (%s or more), %s lost in all" % (
            name, counted(mistakes, "mistake"), counted(threshold, "disc"), counted(review.total_loss(colour), "disc"))
        if worst:
            text += "; largest: " + ", ".join(
                "%d %s -%d %s" % (entry.ply + 1, square_name(entry.square, size), entry.loss,
                                  "exact" if entry.exact else "estimate") for entry in worst)
        lines.append(text)
    return lines
