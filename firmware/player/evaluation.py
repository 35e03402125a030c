"""How the computer player scores a position it does not search further.

Scores are integers in 1/16 of a disc (DISC = 16) from the side to move's
view, so a search adds and compares small ints and never allocates.

PatternEvaluator (the real one) is linear in what the kernel's features()
reports, with one set of weights for each phase of the game:

    score = w_mobility * mobility + w_opp_mobility * opponent mobility
          + potential mobility terms (empty squares next to the other side)
          + w_x * X-squares next to an empty corner + w_discs * disc difference
          + w_parity * (1 if the side to move gets the last move) + w_bias
          + edge[top] + edge[bottom] + edge[left] + edge[right]

The edge tables give a value to each way an edge can be filled, which
covers corners, C-squares, wedges and edge stability. An edge and its mirror
image are worth the same, so a table holds one byte per pattern number of
Kernel.edge_indices, which gives both the same number: 3321 entries for the
3**8 fillings of 8 squares, 378 for the 3**6 of 6 on 6x6.
The weights are fitted by tools/train_evaluation.py from self-play games and
shipped as eval*.bin files next to this module (docs/PLAYER.md: how to
rebuild them); they are read with readinto straight into their arrays, so
loading makes no temporary copy. The four 8x8 edge tables (one per phase,
3.3 KB each) are not all held: two buffers hold the phases in use and a
table is read from the file when the game reaches its phase. On 8x8 a phase
spans at least 15 empty squares, more than a search looks ahead, so a
search touches at most two neighbouring phases and a game reads each table
about once. That leaves 6.5 KB more heap for the rest of a game. Without a
file the hand-set DEFAULT_WEIGHTS below are used (and no edge tables).

Which file serves which board: 6x6 boards read eval6*.bin (edges of 6
squares), 8x8 and 10x10 boards eval8*.bin (10x10 edges are read as their
four squares at each end, see Kernel.edge_indices). Anti-Othello has its own
weights (eval*a.bin): the features are the same, what they are worth is not.

SquareEvaluator is the classic static square table (corners good, X-squares
bad), used by the weaker levels and the positional baseline player.
"""

from array import array

from othello.kernel_tables import edge_number_count

DISC = 16  # evaluation units per disc
WEIGHT_SHIFT = 4  # feature weights are stored in 1/256 disc: >> 4 gives 1/16
EDGE_SCALE = 32  # edge table entries are in 1/8 disc: * 32 gives 1/256
EDGE_OFFSET = 128  # ... stored as value + 128 in one unsigned byte (a bytearray needs no conversion)

FEATURE_BUCKETS = 8  # phases for the feature weights
EDGE_BUCKETS = 4  # phases for the edge tables (they cost 3321 bytes each on 8x8)
WEIGHTS_PER_BUCKET = 8  # mobility, opp. mobility, potential, opp. potential, x-squares, discs, parity, bias
FEATURE_COUNT = 11  # what Kernel.features() writes

MAGIC = b"OTEV"
VERSION = 3  # edge tables of one entry per pattern number (version 2 had one per filling: 3**8 on 8x8)
HEADER_SIZE = 16  # magic, version, edge length, buckets, weights per bucket, edge entries (u32), spare
NO_PHASE = EDGE_BUCKETS  # what an edge buffer holds before its first read

# Hand-set starting point (1/256 disc per unit of feature), the same for every
# phase: used when no weight file is present, and by the training tool as the
# player for its first generation of self-play games.
DEFAULT_WEIGHTS = (40, -40, -12, 12, -500, 0, 60, 0)
DEFAULT_ANTI_WEIGHTS = (40, -40, -12, 12, 300, -64, 60, 0)


def phase_table(squares, buckets):
    """bytearray: number of empty squares -> phase bucket (0 = the end of the game)."""
    table = bytearray(squares + 1)
    for empties in range(squares + 1):
        table[empties] = min(buckets - 1, empties * buckets // (squares - 3))
    return table


def edge_length(size):
    """The number of squares an edge pattern reads on a size x size board."""
    return 6 if size == 6 else 8


def weights_file(size, anti):
    return "eval%d%s.bin" % (edge_length(size), "a" if anti else "")


def _data_dir():
    here = __file__
    cut = here.rfind("/")
    return here[:cut] if cut >= 0 else "."


class PatternEvaluator:
    """The trained evaluation; `loads` counts the edge tables read from the file so far."""

    def __init__(self, size, anti=False, path=None):
        self.size = size
        self.anti = bool(anti)
        self.edge_entries = edge_number_count(size)
        squares = size * size
        self.feature_phase = phase_table(squares, FEATURE_BUCKETS)
        self.edge_phase = phase_table(squares, EDGE_BUCKETS)
        self.features = [0] * FEATURE_COUNT
        self.weights = array("h", bytes(2 * FEATURE_BUCKETS * WEIGHTS_PER_BUCKET))
        self.header_buffer = bytearray(HEADER_SIZE)  # read into at every check of the file
        self.edge_buffers = None  # two tables' room, or None without a file
        self.buffer_phase = [NO_PHASE, NO_PHASE]  # the phase each buffer holds
        self.edges = None  # the table of the phase last evaluated (one of edge_buffers)
        self.phase = NO_PHASE
        self.loads = 0
        if path is None:
            path = _data_dir() + "/" + weights_file(size, anti)
        self.source = self._load(path)

    def _load(self, path):
        """Check the weight file at `path` and read its feature weights; DEFAULT_WEIGHTS if there is none.

        A file that exists but does not fit this board, or is cut short, raises
        ValueError naming it now, so a bad file never shows up mid-search.
        """
        try:
            stream = open(path, "rb")
        except OSError:
            self.set_weights(DEFAULT_ANTI_WEIGHTS if self.anti else DEFAULT_WEIGHTS)
            return "defaults"
        with stream:
            self._check_header(stream, path)
            if stream.readinto(self.weights) != 2 * len(self.weights):
                raise ValueError("%s is truncated" % path)
            if stream.seek(0, 2) < self._table_offset(EDGE_BUCKETS):
                raise ValueError("%s is truncated" % path)
        self.edge_buffers = (bytearray(self.edge_entries), bytearray(self.edge_entries))
        return path

    def _check_header(self, stream, path):
        header = self.header_buffer
        if stream.readinto(header) != HEADER_SIZE or not header.startswith(MAGIC) or header[4] != VERSION:
            raise ValueError("%s is not a version %d evaluation file" % (path, VERSION))
        entries = header[8] | header[9] << 8 | header[10] << 16 | header[11] << 24
        if (header[5] != edge_length(self.size) or header[6] != FEATURE_BUCKETS
                or header[7] != WEIGHTS_PER_BUCKET or entries != self.edge_entries):
            raise ValueError("%s was made for another board or layout" % path)

    def _table_offset(self, phase):
        return HEADER_SIZE + 2 * len(self.weights) + phase * self.edge_entries

    def set_weights(self, per_bucket):
        """Use the same 8 feature weights in every phase and no edge tables (the hand-set evaluation)."""
        for bucket in range(FEATURE_BUCKETS):
            for i in range(WEIGHTS_PER_BUCKET):
                self.weights[bucket * WEIGHTS_PER_BUCKET + i] = per_bucket[i]
        self.edge_buffers = None
        self.edges = None

    def _use_phase(self, phase):
        """Make `phase`'s edge table current and return it.

        The current buffer is the one used last, so the other one is the one
        to reuse: it either holds `phase` already or the table is read into it.
        """
        spare = 1 if self.edges is self.edge_buffers[0] else 0
        table = self.edge_buffers[spare]
        if self.buffer_phase[spare] != phase:
            self.buffer_phase[spare] = NO_PHASE  # until the read below has filled it
            path = self.source
            try:
                stream = open(path, "rb")
            except OSError:
                raise OSError("%s, read when the player started, cannot be opened now" % path)
            with stream:
                self._check_header(stream, path)  # the file may have been replaced since
                stream.seek(self._table_offset(phase))
                if stream.readinto(table) != self.edge_entries:
                    raise ValueError("%s is truncated" % path)
            self.buffer_phase[spare] = phase
            self.loads += 1
        self.edges = table
        self.phase = phase
        return table

    def evaluate(self, kernel, ply):
        f = self.features
        kernel.features(ply, f)
        empties = f[6]
        w = self.weights
        at = self.feature_phase[empties] * WEIGHTS_PER_BUCKET
        score = (
            w[at] * f[0] + w[at + 1] * f[1] + w[at + 2] * f[2] + w[at + 3] * f[3]
            + w[at + 4] * f[4] + w[at + 5] * f[5] + w[at + 6] * (empties & 1) + w[at + 7]
        )
        if self.edge_buffers is not None:
            phase = self.edge_phase[empties]
            edges = self.edges if phase == self.phase else self._use_phase(phase)
            score += (edges[f[7]] + edges[f[8]] + edges[f[9]] + edges[f[10]] - 4 * EDGE_OFFSET) * EDGE_SCALE
        return score >> WEIGHT_SHIFT


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
    """Sum of square values of the mover's discs minus the opponent's (negated for Anti-Othello)."""

    def __init__(self, size, values, scale, anti=False):
        self.weights = square_weights(size, values)
        self.scale = -scale if anti else scale

    def evaluate(self, kernel, ply):
        return kernel.square_sum(ply, self.weights) * self.scale
