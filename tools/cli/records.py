"""The board's game records in and out, over mpremote (as tools/device/deploy.py reaches the board).

    othello records pull [--port P] [--out games.txt] [--ggf]
    othello records push games.txt [--port P]
    othello records check games.txt

`--port emulated` reaches the emulated Pico of tools/device/pico_emulator.py
instead, through its raw REPL as mpremote would: its flash is the one
`tools/sim --pico` keeps (--flash DIR, default sim_flash/), so the games
played there come out and the games pushed are there on its next start.

One game a line, the plain transcript first (what other programs read),
then its facts as key=value, newest game first as on the board:

    f5d6c3d3c4f4... seq=1 black=You white=L3 size=8 start=othello first=black anti=no handicap=0 hole=- from=- result=40-24

`from` is a set-up start position (its 64 characters, `_`, the side to
move) or `-`; `result` is Black's and White's score, `:time` when a clock
ran out, `-` for an unfinished game. Lines starting with # and blank lines
are skipped. A push checks every line first (the moves are replayed, the
result compared with the board's end) and refuses the file, naming the
line, if one is wrong; it adds the games as the newest and refuses, sending
nothing, when the board would have to drop one of its own (it keeps
ui/store.py's RECORDS_KEPT). The board's file is replaced in one step.
"""

import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent

from cli.engine import CommandError, failing, read_text_file
from othello.board import IllegalMoveError
from othello.game import Game
from othello.notation import NotationError, counted, parse_square, square_name
from othello.scoring import END_BOARD, END_TIME
from othello.variant import BLACK, STARTS, WHITE, Variant

BOARD_RECORDS = "/data/records.json"  # hw.STORAGE_ROOT and ui/store.py's RECORDS, from the board's root
KEYS = ("seq", "black", "white", "size", "start", "first", "anti", "handicap", "hole", "from", "result")
COLOURS = {"black": BLACK, "white": WHITE}

# The file's bytes go out as hex, whatever they are (a damaged file may hold anything), a line a piece.
READ_SCRIPT = """
try:
    file = open(ROOT + PATH, "rb")
except OSError as error:
    print("records:none" if error.args[0] == 2 else "records:unreadable %d" % error.args[0])
else:
    import binascii
    with file:
        while True:
            piece = file.read(256)
            if not piece:
                break
            print("records:" + binascii.hexlify(piece).decode())
    print("records:end")
"""

# The new file goes beside the old and takes its name in one step: a cut cable leaves one or the other.
REPLACE_SCRIPT = """
import os
os.rename(ROOT + PATH + ".new", ROOT + PATH)
print("replaced")
"""

MAKE_DIRECTORY_SCRIPT = """
import os
try:
    os.mkdir(ROOT + DIRECTORY)
except OSError:
    pass
"""


def register(subparsers):
    parser = subparsers.add_parser(
        "records",
        help="copy the board's game records to the host, or games to the board",
        description="pull: the board's finished games as transcript lines (stdout or --out). push FILE: "
        "add the games of FILE to the board's records (replay and review them there). check FILE: only "
        "check the lines. Over mpremote, as `make flash`.",
    )
    parser.add_argument("action", choices=("pull", "push", "check"))
    parser.add_argument("file", nargs="?", help="the games to push or check")
    parser.add_argument("--port", default="",
                        help="the board's serial port (default: mpremote's auto), or `emulated` for the emulated Pico")
    parser.add_argument("--flash", type=Path, default=REPO / "sim_flash",
                        help="with --port emulated: the folder of its kept flash, as `tools/sim --pico --flash` "
                        "(default: sim_flash/)")
    parser.add_argument("--out", type=Path, help="pull: write the lines to this file")
    parser.add_argument("--ggf", action="store_true",
                        help="pull: the games in GGF, as Othello servers and programs such as Edax read it")
    parser.set_defaults(func=run_records)


# ----- lines <-> records ------------------------------------------------------------------------------


def record_line(record, seq):
    variant = Variant.from_dict(record["v"])
    size = variant.size
    result = record.get("r")
    if result is None:
        result_text = "-"
    else:
        result_text = "%d-%d%s" % (result[1], result[2], ":time" if result[3] == END_TIME else "")
    start = record.get("s")
    facts = {
        "seq": seq,
        "black": record["p"][0],
        "white": record["p"][1],
        "size": size,
        "start": variant.start,
        "first": "white" if variant.first == WHITE else "black",
        "anti": "yes" if variant.anti else "no",
        "handicap": "%d%s" % (variant.handicap, ":white" if variant.handicap and variant.handicap_to == WHITE else ""),
        "hole": "-" if variant.black_hole is None else square_name(variant.black_hole, size),
        "from": "-" if start is None else "_".join(start.split()),
        "result": result_text,
    }
    return " ".join([record["t"] or "-"] + ["%s=%s" % (key, facts[key]) for key in KEYS])


def parse_line(line, number):
    """The record of one line; CommandError naming line `number` if it is wrong."""

    def wrong(reason):
        return CommandError("line %d: %s" % (number, reason))

    words = line.split()
    transcript = "" if words[0] == "-" else words[0]
    facts = {}
    for word in words[1:]:
        key, equals, value = word.partition("=")
        if not equals or key not in KEYS:
            raise wrong("%r is not one of %s as key=value" % (word, ", ".join(KEYS)))
        if key in facts:
            raise wrong("%s given twice" % key)
        facts[key] = value
    missing = [key for key in KEYS if key not in facts and key != "seq"]
    if missing:
        raise wrong("missing %s" % ", ".join(missing))
    try:
        size = int(facts["size"])
        handicap, _, to = facts["handicap"].partition(":")
        if facts["start"] not in STARTS or facts["first"] not in COLOURS or facts["anti"] not in ("yes", "no"):
            raise ValueError("start is one of %s, first black or white, anti yes or no" % ", ".join(STARTS))
        if to not in ("", "white", "black"):
            raise ValueError("handicap is N or N:white, not %r" % facts["handicap"])
        variant = Variant(size=size, start=facts["start"], first=COLOURS[facts["first"]],
                          anti=facts["anti"] == "yes", handicap=int(handicap), handicap_to=COLOURS[to or "black"],
                          black_hole=None if facts["hole"] == "-" else parse_square(facts["hole"], size))
        start = None if facts["from"] == "-" else " ".join(facts["from"].rsplit("_", 1))
        game = Game(variant, None, start=start)
        game.play_transcript(transcript)
    except (NotationError, IllegalMoveError, ValueError, TypeError) as error:
        raise wrong(str(error))
    result = parse_result(facts["result"], game, wrong)
    return {"v": variant.to_dict(), "s": start, "t": game.transcript(), "r": result,
            "p": [facts["black"], facts["white"]]}


def parse_result(text, game, wrong):
    if text == "-":
        return None
    scores, _, reason = text.partition(":")
    black, dash, white = scores.partition("-")
    if not (dash and black.isdigit() and white.isdigit()) or reason not in ("", "time"):
        raise wrong("result is B-W or B-W:time (the scores), or -, not %r" % text)
    black, white = int(black), int(white)
    winner = None if black == white else BLACK if black > white else WHITE
    if reason == "time":
        return [winner, black, white, END_TIME]
    end = game.result()
    if end is None:
        raise wrong("the result %s is given, but the game is not over after these moves" % text)
    if (end.black, end.white) != (black, white):
        raise wrong("the result %s does not match the moves (%d-%d)" % (text, end.black, end.white))
    return [end.winner, end.black, end.white, END_BOARD]


def parse_lines(text):
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            records.append(parse_line(line, number))
    return records


def same_game(a, b):
    """Whether the records `a` and `b` are of one game (`b` may be a damaged record from the board)."""
    return isinstance(b, dict) and all(a.get(key) == b.get(key) for key in ("v", "s", "t", "p"))


# ----- the board --------------------------------------------------------------------------------------


class MpremoteLink:
    """A board over mpremote: a script is one `mpremote exec`, a file one `mpremote fs cp`."""

    def __init__(self, port):
        from device import deploy

        self.mpremote = deploy.Mpremote(port, deploy.OPTION_PORT)  # tools/othello takes --port

    def run(self, script):
        return self.mpremote.output("exec", script)

    def put(self, board_path, data):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / board_path.rsplit("/", 1)[-1]
            path.write_bytes(data)
            self.mpremote.output("fs", "cp", str(path), ":" + board_path)

    def close(self):
        pass


# The emulated Pico receives a file in pieces small enough to compile in its heap.
WRITE_SCRIPT = """
with open(ROOT + PATH, MODE) as file:
    file.write(DATA)
"""
PIECE = 2048


class EmulatedLink:
    """The emulated Pico through its raw REPL (what mpremote does over USB), on the flash kept in `flash_dir`."""

    def __init__(self, flash_dir):
        from device import pico_emulator

        self.error = pico_emulator.PicoError
        try:
            files = pico_emulator.build_files(main=False)
            self.pico = pico_emulator.EmulatedPico(files=files, keep=Path(flash_dir) / "pico_flash.bin")
            self.pico.enter_raw_repl()
        except pico_emulator.PicoError as error:
            raise CommandError("the emulated Pico: %s" % error)

    def run(self, script):
        try:
            return self.pico.run_script(script, timeout_ms=60000)
        except self.error as error:
            raise CommandError("the emulated Pico: %s" % error)

    def put(self, board_path, data):
        from device import deploy

        for at in range(0, max(len(data), 1), PIECE):
            self.run(deploy.device_script(WRITE_SCRIPT, PATH=board_path, MODE="ab" if at else "wb",
                                          DATA=bytes(data[at:at + PIECE])))

    def close(self):
        self.pico.close()  # powers off and keeps the flash


def connect(port, flash_dir):
    from device import deploy

    return EmulatedLink(flash_dir) if port == deploy.EMULATED else MpremoteLink(port)


def board_records(link):
    """The list in the board's records file, as it is (a record in it may be damaged); [] if it has none."""
    from device import deploy

    text = link.run(deploy.device_script(READ_SCRIPT, PATH=BOARD_RECORDS))
    found = [line.strip()[len("records:"):] for line in text.splitlines() if line.strip().startswith("records:")]
    if found == ["none"]:
        return []
    damaged = "the board's %s %%s: nothing changed. Clear it on the board (Records, Clear records)" % BOARD_RECORDS
    if len(found) == 1 and found[0].startswith("unreadable "):
        code = int(found[0].split()[1])
        raise CommandError(damaged % ("cannot be read (%s)" % os.strerror(code)))
    if not found or found[-1] != "end":
        raise CommandError("the board did not answer as expected:\n" + text)
    try:
        data = bytes.fromhex("".join(found[:-1])).decode("utf-8")
        records = json.loads(data)
    except ValueError:  # also UnicodeError: not the JSON text the device writes
        raise CommandError(damaged % "is damaged (not JSON)")
    if not isinstance(records, list):
        raise CommandError(damaged % "is damaged (not a list of games)")
    return records


def push(link, records):
    from device import deploy
    from ui.store import RECORDS_KEPT

    on_board = board_records(link)
    new, already = [], 0
    for record in records:  # a game already on the board, or twice in the file, goes once
        if any(same_game(record, kept) for kept in on_board):
            already += 1
        elif not any(same_game(record, kept) for kept in new):
            new.append(record)
    if len(new) > RECORDS_KEPT:
        raise CommandError("the board keeps %d records, and %s would be new. Nothing was sent: push at most "
                           "%d at a time." % (RECORDS_KEPT, counted(len(new), "game"), RECORDS_KEPT))
    if len(on_board) + len(new) > RECORDS_KEPT:
        raise CommandError("the board keeps %d records: it has %d and %d would be new, so %d of its own would be "
                           "dropped. Nothing was sent: pull them first, or push fewer games."
                           % (RECORDS_KEPT, len(on_board), len(new), len(on_board) + len(new) - RECORDS_KEPT))
    if not new:
        return 0, already
    directory = BOARD_RECORDS.rsplit("/", 1)[0]
    link.run(deploy.device_script(MAKE_DIRECTORY_SCRIPT, DIRECTORY=directory))
    link.put(BOARD_RECORDS + ".new", json.dumps(new + on_board).encode())
    if "replaced" not in link.run(deploy.device_script(REPLACE_SCRIPT, PATH=BOARD_RECORDS)):
        raise CommandError("the board did not confirm the new records")
    return len(new), already


def ggf(record, date):
    """The record as one game of the Generic Game Format of GGS, the Othello server whose games Edax, NBoard
    and other programs read (skatgame.net/mburo/ggsa/ggf): `(;` ... `;)` around properties NAME[value]. GM,
    PC, DT (`date`: the board has no clock, so the time the games were pulled), PB, PW; RB and RW the
    ratings, 0.00 (unrated); TI the clock, 00:00 (the records keep none); TY the type (8 for 8x8, an `a`
    after it for Anti-Othello); RE the result for the first colour (Black) in discs, `:t` when a clock ran
    out, `?` for a game not finished; BO the start: the size, the rows of `-`, `*` (Black) and `O` (White)
    separated by spaces, then who moves; then each move as B[D3] or W[..], PA for a pass. NBoard's reader
    refuses a game without any of GM, PC, DT, PB, PW, RB, RW, TI, TY, RE and BO. None for a black-hole
    game, which GGF cannot hold."""
    from othello.board import PASS

    variant = Variant.from_dict(record["v"])
    if variant.black_hole is not None:
        return None
    size = variant.size
    game = Game(variant, None, start=record.get("s"))
    cells, side = game.board.position().split()
    rows = " ".join(cells[at:at + size].replace("X", "*") for at in range(0, size * size, size))
    game.play_transcript(record["t"])
    moves = "".join("%s[%s]" % ("BW"[move.colour], "PA" if move.square == PASS else square_name(move.square, size).upper())
                    for move in game.history)
    result = record.get("r")
    outcome = "?"
    if result is not None:
        outcome = "%+d.000%s" % (result[1] - result[2], ":t" if result[3] == END_TIME else "")
    return "(;GM[Othello]PC[Pocket Othello]DT[%s]PB[%s]PW[%s]RB[0.00]RW[0.00]TI[00:00]TY[%d%s]RE[%s]BO[%d %s %s]%s;)" % (
        date, ggf_text(record["p"][0]), ggf_text(record["p"][1]), size, "a" if variant.anti else "", outcome, size,
        rows, "*" if side == "X" else "O", moves)


def ggf_text(name):
    """A player's name as a GGF value: GGF has no escapes, so brackets become parentheses."""
    return name.replace("[", "(").replace("]", ")")


def pulled_lines(records, as_ggf=False):
    """The lines of the board's records; a damaged record is reported on stderr and left out."""
    from ui.records import valid_record

    lines = []
    date = time.strftime("%Y.%m.%d_%H:%M:%S.UTC", time.gmtime())  # GGS's form of DT
    for seq, record in enumerate(records, 1):
        try:
            if not (isinstance(record, dict) and valid_record(record)):
                raise ValueError("not a game record")
            line = ggf(record, date) if as_ggf else record_line(record, seq)
            if line is None:
                sys.stderr.write("othello records: game %d has a black hole, which GGF cannot hold: left out\n" % seq)
            else:
                lines.append(line)
        except (ValueError, TypeError, KeyError, IndexError) as error:
            sys.stderr.write("othello records: the board's record %d is damaged (%s): left out\n" % (seq, error))
    return lines


@failing
def run_records(args):
    from device import deploy

    if args.action in ("push", "check"):
        if args.file is None:
            raise CommandError("%s needs the FILE of games" % args.action)
        text = read_text_file(args.file)
        records = parse_lines(text)
        if args.action == "check":
            print("%s, all good" % counted(len(records), "game"))
            return 0
    elif args.file is not None:
        raise CommandError("pull takes no FILE: --out FILE writes the games to a file")
    elif args.out is not None and (args.out.is_dir() or not args.out.parent.is_dir()):
        raise CommandError("cannot write %s: %s" % (
            args.out, "it is a folder" if args.out.is_dir() else "no folder %s" % args.out.parent))
    link = None
    try:
        link = connect(args.port, args.flash)
        if args.action == "pull":
            lines = pulled_lines(board_records(link), args.ggf)
            text = "".join(line + "\n" for line in lines)
            if args.out is None:
                sys.stdout.write(text)
            else:
                try:
                    args.out.write_text(text)
                except OSError as error:
                    raise CommandError("cannot write %s: %s" % (args.out, error.strerror or error))
                print("%s to %s" % (counted(len(lines), "game"), args.out))
            return 0
        sent, already = push(link, records)
    except deploy.DeployError as error:
        raise CommandError(str(error))
    finally:
        if link is not None:
            link.close()
    repeated = len(records) - sent - already
    print("%s sent, %d already on the board%s" % (
        counted(sent, "game"), already, ", %d repeated in the file" % repeated if repeated else ""))
    return 0
