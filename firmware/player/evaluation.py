"""How the computer player scores a position it does not search further.

Scores are integers in 1/16 of a disc (DISC = 16) from the side to move's
view, so a search adds and compares small ints and never allocates.

PatternEvaluator (the real one) is linear, with one set of weights for each
phase of the game (a phase is a range of empty squares):

    score = w_mobility * mobility + w_opp_mobility * opponent mobility
          + potential mobility terms (empty squares next to the other side)
          + w_x * X-squares next to an empty corner + w_discs * disc difference
          + w_parity * (1 if the side to move gets the last move) + w_bias
          + the sum, over every image of every pattern, of its table entry

A pattern is a group of squares (an edge, a corner's 3x3 block, a diagonal):
each way of filling it has a value in the pattern's table, learnt from
positions (Logistello's, Edax's and Egaroucid's model; docs/PLAYER.md,
"Evaluation"). The images of a pattern under the board's symmetries share
one table. Where a symmetry maps a pattern onto itself (an edge read from
the other corner), the two readings of a filling share one entry: the
pattern's squares are stored as `fixed` places, which that symmetry leaves
where they are, and two groups `first` and `second` that it swaps. Each
group reads as a base-3 number (a square counts 0 empty, 1 for the side to
move, 2 for the other side; the group's first square the least
significant); with H = 3**len(first), high the larger and low the smaller of
the two groups' numbers, a filling's entry is

    fixed * H * (H + 1) // 2 + high * (high + 1) // 2 + low

(tools/training/training_fit.py numbers them the same way). A pattern without such a
symmetry has only fixed places.

The weights live in eval*.bin files next to this module, made by
tools/training/training_fit.py (docs/PLAYER.md says how) and read with readinto, no
temporary copy. The file says which phase each number of empty squares
belongs to, and holds one set of tables per phase; only the current phase's
tables are in memory, read from the file when the game (or a search's
leaves) reaches another phase. The file, version 4, little-endian:

    header, 16 bytes: b"OTEV", version, board size, phases, scalar weights a
        phase (SCALARS), patterns, pattern images, table unit shift (an entry
        byte b is worth (b - 128) / 2**shift discs), a spare byte, the bytes
        of one phase's tables (u32)
    the phase of each number of empty squares, 0 to size * size (a byte each)
    each pattern: fixed places, places in each group, images; then each
        image's squares: fixed, first, second (a byte each)
    the scalar weights, SCALARS a phase in 1/256 disc (int16)
    the tables, phase by phase: each pattern's entries in the order above

The viper search has the shipped layouts built in (player/search_viper.py
the 8x8 files', search_viper6.py the 6x6 files' inside the 8x8 board) and
evaluates its leaves itself; `layout` (the pattern section's bytes, squares
as the evaluator reads them) tells it whether a file has that layout.

Which file serves which board: eval<size>.bin, eval<size>a.bin for
Anti-Othello (the features are the same, what they are worth is not).
Without a file, the hand-set _DEFAULT_WEIGHTS below serve, without tables.

SquareEvaluator is the classic static square table (corners good, X-squares
bad), used by the weaker levels and the positional baseline player.
"""

from array import array

from othello.compat import const, release_module
from othello.kernel_tables import FEATURE_COUNT

try:  # the pattern sum in viper where viper runs; CPython and the WASI build keep PatternEvaluator.pattern_sum
    from player.evaluation_viper import pattern_sum as viper_pattern_sum
except (ImportError, SyntaxError):
    viper_pattern_sum = None

DISC = 16  # evaluation units per disc
WEIGHT_SHIFT = 4  # sums are in 1/256 disc: >> 4 gives 1/16
TABLE_OFFSET = 128  # a table entry is stored as value + 128 in one unsigned byte

# The scalar weights of a phase, in this order; the bias is always the last.
SCALARS = 8  # mobility, opp. mobility, potential, opp. potential, x-squares, discs, parity, bias

MAGIC = b"OTEV"
VERSION = 4
HEADER_SIZE = 16
_NO_PHASE = const(255)  # what the table buffer holds before its first read

# Hand-set starting point (1/256 disc per unit of feature), the same for every
# phase: used when no weight file is present.
_DEFAULT_WEIGHTS = const((40, -40, -12, 12, -500, 0, 60, 0))
_DEFAULT_ANTI_WEIGHTS = const((40, -40, -12, 12, 300, -64, 60, 0))


def weights_file(size, anti):
    return "eval%d%s.bin" % (size, "a" if anti else "")


def _data_dir():
    here = __file__
    cut = here.rfind("/")
    return here[:cut] if cut >= 0 else "."


def _u32(data, at):
    return data[at] | data[at + 1] << 8 | data[at + 2] << 16 | data[at + 3] << 24


class PatternEvaluator:
    """The trained evaluation; `loads` counts the phases' tables read from the file so far.

    With an `embedding` (othello.geometry.Embedding) it evaluates the size x
    size board inside the 8x8 one, as the player searches 6x6: the file's
    squares are mapped into it as they are read, and `layout` holds them so.
    """

    def __init__(self, size, anti=False, path=None, embedding=None):
        self.size = size
        self.anti = bool(anti)
        self.squares = size * size
        self.embedding = embedding
        self.features = [0] * FEATURE_COUNT
        self.cells = bytearray(embedding.geometry.squares if embedding else self.squares)  # what Kernel.cells writes
        self.header = bytearray(HEADER_SIZE)  # read into at every check of the file
        self.phase_of = bytearray(self.squares + 1)  # empty squares -> phase
        self.weights = array("h", bytes(2 * SCALARS))
        self.layout = b""  # the pattern section of the file
        self.images = ()  # per image: (table offset, H * (H + 1) // 2, fixed, first, second squares), each
        # group's squares most significant first
        self.table = None  # the current phase's tables; None without a file, or let go (release_tables)
        self.table_bytes = 0  # the size of one phase's tables (0: no tables, the hand-set evaluation)
        self.table_shift = 0  # an entry's byte (minus TABLE_OFFSET) << table_shift is in 1/256 disc
        self.phase = _NO_PHASE
        self.loads = 0
        if path is None:
            path = _data_dir() + "/" + weights_file(size, anti)
        self.source = self._load(path)

    def _load(self, path):
        """Check the weight file at `path` and read what stays in memory; _DEFAULT_WEIGHTS if there is none.

        A file that exists but does not fit this board, or is cut short, raises
        ValueError naming it now, so a bad file never shows up mid-search.
        """
        try:
            stream = open(path, "rb")
        except OSError:
            self.set_weights(_DEFAULT_ANTI_WEIGHTS if self.anti else _DEFAULT_WEIGHTS)
            return "defaults"
        with stream:
            phases, patterns, table_bytes = self._check_header(stream, path)
            if stream.readinto(self.phase_of) != len(self.phase_of) or max(self.phase_of) >= phases:
                raise ValueError("%s is truncated or damaged" % path)
            self.layout = self._read_layout(stream, path, patterns, table_bytes)
            self.weights = array("h", bytes(2 * SCALARS * phases))
            if stream.readinto(self.weights) != 2 * len(self.weights):
                raise ValueError("%s is truncated" % path)
            self.tables_at = stream.tell()
            if stream.seek(0, 2) != self.tables_at + phases * table_bytes:
                raise ValueError("%s is truncated or too long" % path)
        self.table_bytes = table_bytes
        try:
            self.take_tables()
        except MemoryError:
            pass  # no block for the phase buffer in a cut-up heap: evaluate() reads its entries from the file
        return path

    def _check_header(self, stream, path):
        """(phases, patterns, table bytes a phase) from the header; ValueError if the file is not for this board."""
        header = self.header
        if stream.readinto(header) != HEADER_SIZE or not header.startswith(MAGIC) or header[4] != VERSION:
            raise ValueError("%s is not a version %d evaluation file" % (path, VERSION))
        if header[5] != self.size or header[7] != SCALARS or not header[6] or header[10] > 8:
            raise ValueError("%s was made for another board or layout" % path)
        self.table_shift = 8 - header[10]
        return header[6], header[8], _u32(header, 12)

    def _read_layout(self, stream, path, patterns, table_bytes):
        """The pattern section's bytes (squares in the embedding's numbering, if any); fills self.images."""
        layout = bytearray()
        images = []
        offset = 0
        for _ in range(patterns):
            head = stream.read(3)
            if len(head) != 3:
                raise ValueError("%s is truncated" % path)
            fixed, half, count = head[0], head[1], head[2]
            places = fixed + 2 * half
            squares = stream.read(count * places)
            if len(squares) != count * places or (squares and max(squares) >= self.squares):
                raise ValueError("%s is truncated or damaged" % path)
            if self.embedding is not None:
                squares = bytes(self.embedding.squares[square] for square in squares)
            layout += head
            layout += squares
            pairs = 3 ** half * (3 ** half + 1) // 2
            for image in range(count):
                at = image * places
                images.append((offset, pairs, _most_significant_first(squares, at, fixed),
                               _most_significant_first(squares, at + fixed, half),
                               _most_significant_first(squares, at + fixed + half, half)))
            offset += 3 ** fixed * pairs
        if offset != table_bytes:
            raise ValueError("%s: its patterns need %d table bytes a phase, not %d" % (path, offset, table_bytes))
        self.images = tuple(images)
        return bytes(layout)

    def set_weights(self, weights):
        """Use the same SCALARS weights in every phase and no tables (the hand-set evaluation)."""
        self.weights = array("h", weights)
        for empties in range(len(self.phase_of)):
            self.phase_of[empties] = 0
        self.table = None
        self.table_bytes = 0
        self.layout = b""
        self.images = ()

    def release_tables(self):
        """Let the phase buffer go: the endgame solver needs no evaluation, and its code the room (the
        engine calls this before it loads the solver). The next use_phase takes the buffer again."""
        self.table = None
        self.phase = _NO_PHASE

    def take_tables(self):
        """The phase buffer back (MemoryError where the heap has no block for it); a no-op while held."""
        if self.table is None and self.table_bytes:
            self.table = bytearray(self.table_bytes)
            self.phase = _NO_PHASE
            release_module("player.evaluation_unbuffered")  # what served while the buffer was away

    def open_again(self):
        """The weight file open for reading, its header checked again: it may have been replaced since."""
        path = self.source
        try:
            stream = open(path, "rb")
        except OSError:
            raise OSError("%s, read when the player started, cannot be opened now" % path)
        try:
            self._check_header(stream, path)
        except Exception:  # not left open for the collector to close
            stream.close()
            raise
        return stream

    def use_phase(self, phase):
        """Make `phase`'s tables the current ones (read from the file unless they are already)."""
        if phase != self.phase and self.table_bytes:
            self.take_tables()
            table = self.table
            with self.open_again() as stream:  # an error here leaves the buffer holding its phase
                stream.seek(self.tables_at + phase * len(table))
                self.phase = _NO_PHASE  # until the read has filled the buffer
                if stream.readinto(table) != len(table):
                    raise ValueError("%s is truncated" % self.source)
            self.loads += 1
        self.phase = phase

    def evaluate(self, kernel, ply, empties=None):
        """The position at `ply` for its side to move, in 1/DISC discs: its phase's scalar weights, and the
        tables of the phase of `empties` empty squares (default: its own; a search holds one phase's
        tables, those of its deepest leaves). The argument's name is one the device has interned already."""
        f = self.features
        kernel.features(ply, f)
        own_empties = f[6]
        phase = self.phase_of[own_empties]
        w = self.weights
        at = phase * SCALARS
        score = (
            w[at] * f[0] + w[at + 1] * f[1] + w[at + 2] * f[2] + w[at + 3] * f[3]
            + w[at + 4] * f[4] + w[at + 5] * f[5] + w[at + 6] * (own_empties & 1) + w[at + 7]
        )
        if self.table_bytes:
            table_phase = phase if empties is None else self.phase_of[empties]
            kernel.cells(ply, self.cells)
            if self.table is None:
                # the buffer is let go for the solver's code (a forced move in the endgame): a few reads from
                # the file instead of the 20 KB block; the module is loaded only then, its code off the heap before
                from player.evaluation_unbuffered import pattern_sum_from_file

                total = pattern_sum_from_file(self, table_phase)
            else:
                if table_phase != self.phase:
                    self.use_phase(table_phase)
                if viper_pattern_sum is None:
                    total = self.pattern_sum(self.cells)
                else:
                    total = viper_pattern_sum(self.layout, len(self.layout), self.cells, self.table)
            score += (total - TABLE_OFFSET * len(self.images)) << self.table_shift
        return score >> WEIGHT_SHIFT

    def pattern_sum(self, cells, table=None):
        """The sum of the tables' entries (stored bytes) for every pattern image of a position
        (Kernel.cells): the current phase's, or those of `table`."""
        table = self.table if table is None else table
        total = 0
        for offset, pairs, fixed, first, second in self.images:
            # each group a base-3 number, written out three times: a call per group costs more than the group
            high = 0
            for square in first:
                high = high * 3 + cells[square]
            low = 0
            for square in second:
                low = low * 3 + cells[square]
            if high < low:
                high, low = low, high
            index = 0
            for square in fixed:
                index = index * 3 + cells[square]
            total += table[offset + index * pairs + high * (high + 1) // 2 + low]
        return total


def _most_significant_first(squares, at, count):
    """squares[at:at + count] reversed: a file lists a group's squares least significant first, and
    pattern_sum reads them most significant first (one multiply-add a square)."""
    group = bytearray(count)
    for place in range(count):
        group[place] = squares[at + count - 1 - place]
    return bytes(group)


def square_weights(size, values):
    """array('h') of one value per square from a 4x4 table of (distance to the nearer edge row, column).

    values[a][b] is for a square min(a, 3) rows and min(b, 3) columns in from
    the nearest edges, so one small table serves every board size.
    """
    weights = array("h", bytes(2 * size * size))
    for row in range(size):
        for column in range(size):
            a = min(row, size - 1 - row, 3)
            b = min(column, size - 1 - column, 3)
            weights[row * size + column] = values[min(a, b)][max(a, b)]
    return weights


# The classic Othello square table (in discs): corners 100, X-squares -50, C-squares -20.
POSITIONAL_VALUES = (
    (100, -20, 10, 5),
    (0, -50, -2, -2),
    (0, 0, -1, -1),
    (0, 0, 0, -1),
)
# A beginner's view: every disc counts, corners a lot, nothing is feared.
GREEDY_VALUES = (
    (4, 1, 1, 1),
    (0, 1, 1, 1),
    (0, 0, 1, 1),
    (0, 0, 0, 1),
)


class SquareEvaluator:
    """Sum of square values of the mover's discs minus the opponent's (negated for Anti-Othello).

    With an `embedding`, the values of the size x size board stand on its squares inside the 8x8 one."""

    def __init__(self, size, values, scale, anti=False, embedding=None):
        weights = square_weights(size, values)
        if embedding is not None:
            weights, board_weights = array("h", bytes(2 * embedding.geometry.squares)), weights
            for square in range(len(board_weights)):
                weights[embedding.squares[square]] = board_weights[square]
        self.weights = weights
        self.scale = -scale if anti else scale

    def evaluate(self, kernel, ply, empties=None):
        return kernel.square_sum(ply, self.weights) * self.scale  # one table for every phase
