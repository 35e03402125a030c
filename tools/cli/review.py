"""Post-game review on the host: what each move cost against the best (firmware/player/review.py).

    othello review f5d6c3d3c4f4...           a transcript (the variant options apply)
    othello review game.txt                  a file holding a transcript
    othello review records.json --game 2     a record, or the board's records file (1 = newest)
    othello review games.txt --game 2        `othello records pull` lines

One line per move, `<move number> <square> <colour> loss <N> best <square>
exact|estimate`, with ` mistake` after it from --mistake discs lost; then
each side's summary. A record's review is written back into its file (the
record's "a"), as the device keeps it: a second look is instant.
"""

import json
import sys
from pathlib import Path

from cli.engine import CommandError, add_variant_options, failing, variant_from
from othello.board import PASS, IllegalMoveError
from othello.notation import NotationError, square_name
from othello.variant import COLOUR_NAMES, Variant
from player.levels import HINT_TIME_MS
from player.review import MISTAKE, Review

REVIEW_KEY = "a"  # where a record keeps its review (ui/records.py)


def register(subparsers):
    parser = subparsers.add_parser(
        "review",
        help="what each move of a game cost against the best move",
        description="Review a game move by move: each move's loss in discs against the best move, exact "
        "where the solver settles both positions within the time, otherwise the midgame search's estimate. "
        "One line per move: `<move> <square> <colour> loss <N> best <square> exact|estimate`, then each "
        "side's largest losses. GAME is a transcript, a file holding one, a file of `othello records` lines, "
        "or a JSON record file (the board's records.json or one record from it).",
    )
    parser.add_argument("game", metavar="TRANSCRIPT_OR_RECORD")
    parser.add_argument("--time", type=float, default=HINT_TIME_MS / 1000, metavar="S",
                        help="device seconds for each search (default %(default)s; the host uses the same node budgets)")
    parser.add_argument("--game", dest="index", type=int, default=1, metavar="N",
                        help="which record of a records file (1 = the newest)")
    parser.add_argument("--mistake", type=int, default=MISTAKE, metavar="N",
                        help="discs lost from which a move is marked a mistake (default %(default)s)")
    parser.add_argument("--no-save", action="store_true", help="do not write the review into the record's file")
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
    path = Path(text)
    if not path.is_file():
        return Source(variant_from(args) or Variant(), None, text)
    try:
        content = path.read_text()
    except (OSError, UnicodeError) as error:
        raise CommandError("cannot read %s: %s" % (path, error))
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
    records = parse_lines(content)
    if not 1 <= args.index <= len(records):
        raise CommandError("%s holds %d game(s): --game %d is not one of them" % (path, len(records), args.index))
    record = records[args.index - 1]
    return Source(Variant.from_dict(record["v"]), record["s"], record["t"], record["p"])


def record_source(path, data, args):
    records = data if isinstance(data, list) else [data]
    if not 1 <= args.index <= len(records):
        raise CommandError("%s holds %d record(s): --game %d is not one of them" % (path, len(records), args.index))
    record = records[args.index - 1]
    from ui.records import valid_record

    if not isinstance(record, dict) or not valid_record(record):
        raise CommandError("%s: record %d is not a game record" % (path, args.index))
    if variant_from(args) is not None:
        raise CommandError("a record carries its own variant: leave out the variant options")
    try:
        variant = Variant.from_dict(record["v"])
    except (TypeError, ValueError) as error:
        raise CommandError("%s: record %d has a bad variant: %s" % (path, args.index, error))

    def save(text):
        record[REVIEW_KEY] = text
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(json.dumps(data))
        temporary.replace(path)

    return Source(variant, record["s"], record["t"], record["p"], record.get(REVIEW_KEY), None if args.no_save else save)


@failing
def run_review(args):
    if not args.time > 0:
        raise CommandError("--time must be more than 0 seconds, not %s" % args.time)
    if args.mistake < 1:
        raise CommandError("--mistake must be at least 1 disc, not %d" % args.mistake)
    source = load_source(args.game, args)
    try:
        review = Review(source.variant, source.start, source.transcript, int(args.time * 1000), source.cached)
    except (NotationError, IllegalMoveError, ValueError) as error:
        raise CommandError("bad game: %s" % error)
    size = review.board.size
    shown = 0
    while True:
        for entry in review.entries[shown:]:
            if entry.square != PASS:
                print(entry_line(review, entry, size, args.mistake))
                sys.stdout.flush()
        shown = len(review.entries)
        if review.done():
            break
        review.step()
    if source.save is not None and review.encode() != source.cached:
        source.save(review.encode())
    for line in summary_lines(review, source.players, size, args.mistake):
        print(line)
    return 0


def move_number(review, entry):
    """The move's number in the transcript (passes are not moves)."""
    return sum(1 for square, _ in review.moves[:entry.ply + 1] if square != PASS)


def entry_line(review, entry, size, threshold):
    line = "%d %s %s loss %d best %s %s" % (
        move_number(review, entry), square_name(entry.square, size), COLOUR_NAMES[entry.colour].lower(),
        entry.loss, square_name(entry.best, size), "exact" if entry.exact else "estimate")
    return line + " mistake" if entry.is_mistake(threshold) else line


def summary_lines(review, players, size, threshold):
    lines = []
    for colour in (0, 1):
        name = COLOUR_NAMES[colour] + ("" if players is None else " (%s)" % players[colour])
        worst = review.worst(colour, threshold)
        mistakes = sum(1 for entry in review.entries if entry.colour == colour and entry.is_mistake(threshold))
        text = "%s: %d mistake%s, %d discs lost in all" % (
            name, mistakes, "" if mistakes == 1 else "s", review.total_loss(colour))
        if worst:
            text += "; largest: " + ", ".join(
                "%d %s -%d%s" % (move_number(review, entry), square_name(entry.square, size), entry.loss,
                                 "" if entry.exact else "?") for entry in worst)
        lines.append(text)
    return lines
