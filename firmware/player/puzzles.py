"""Endgame puzzles: positions where one move keeps the best result, read one at a time from flash.

    puzzles = PuzzleSet(open("player/puzzles.bin", "rb"))
    puzzle = puzzles.read(index)          # seeks to it: the set is never in the heap
    board = puzzle.board()
    puzzle.score_of(square)               # the exact result of playing it (WOF discs, mover's side)
    puzzle.is_answer(square)              # it keeps the best result
    puzzle.line                           # the solution: best play to the end, the first an answer

tools/training/build_puzzles.py makes the set from the player's self-play games and
checks every score and every move of each solution line with the exact
solver; host_tests/test_puzzles.py checks them again. A puzzle claims a
unique answer (`unique`) when one move only keeps the best result;
otherwise every move that keeps it is right.

The file: MAGIC, then the number of puzzles (2 bytes, little-endian), then
the puzzles, RECORD bytes each, easiest first:
    8 bytes   Black's discs (bit n = square n, little-endian)
    8 bytes   White's discs
    1 byte    bit 0 the side to move (1 White), bit 1 the answer is unique
    1 byte    the number of legal moves, at most MAX_MOVES
    2 bytes a move, MAX_MOVES times: the square, then its exact score (signed); unused ones 0
    1 byte    the number of plies of the solution line, at most MAX_LINE
    1 byte a ply, MAX_LINE times: the square, or LINE_PASS for a pass; unused ones 0
The standard 8x8 game only.
"""

from othello.board import PASS, Board
from othello.compat import popcount

MAGIC = b"OPZ2"
HEADER = len(MAGIC) + 2
MAX_MOVES = 15
LINE_AT = 18 + 2 * MAX_MOVES
RECORD = 80
MAX_LINE = RECORD - LINE_AT - 1  # 31 plies: 16 moves with a pass after each but the last, a 16-empty line at most
LINE_PASS = 255
UNIQUE = 2

# The levels of difficulty, by the empty squares: (name, fewest empties, most)
DIFFICULTIES = (("Easy", 6, 8), ("Medium", 9, 15), ("Hard", 16, 60))


class PuzzleError(ValueError):
    pass


class Puzzle:
    def __init__(self, index, black, white, turn, unique, scores, line):
        self.index = index
        self.black = black
        self.white = white
        self.turn = turn
        self.unique = unique
        self.scores = scores  # [(square, exact score of playing it)], as in the file
        self.line = line  # [square or PASS]: best play to the game's end, from an answer

    def board(self):
        board = Board()
        board.set_discs(self.black, self.white, self.turn)
        return board

    def empties(self):
        return 64 - popcount(self.black | self.white)

    def best(self):
        return max(score for _, score in self.scores)

    def answers(self):
        best = self.best()
        return [square for square, score in self.scores if score == best]

    def score_of(self, square):
        for move, score in self.scores:
            if move == square:
                return score
        raise ValueError("square %d is not a legal move in puzzle %d" % (square, self.index + 1))

    def is_answer(self, square):
        return self.score_of(square) == self.best()


def difficulty_of(empties):
    """The index in DIFFICULTIES of a puzzle with `empties` empty squares."""
    for index in range(len(DIFFICULTIES) - 1, -1, -1):
        if empties >= DIFFICULTIES[index][1]:
            return index
    return 0


def puzzles_path():
    """puzzles.bin next to this module (on the device as on the host)."""
    here = __file__
    cut = here.rfind("/")
    return (here[:cut] if cut >= 0 else ".") + "/puzzles.bin"


def read_puzzle(index, path=None):
    """Puzzle `index` and the number of puzzles; the file is open only while it is read (on the Pico an
    open file keeps a cache in the heap). Raises OSError or PuzzleError."""
    puzzles = PuzzleSet(open(path or puzzles_path(), "rb"))
    try:
        return puzzles.read(index), puzzles.count
    finally:
        puzzles.close()


def difficulty_starts(path=None):
    """[the index of the first puzzle of each difficulty, then the number of puzzles]: the puzzles come
    easiest first, so each start is found by bisection. Raises OSError or PuzzleError."""
    puzzles = PuzzleSet(open(path or puzzles_path(), "rb"))
    try:
        starts = []
        for difficulty in range(len(DIFFICULTIES)):
            low, high = 0, puzzles.count
            while low < high:
                middle = (low + high) // 2
                if difficulty_of(puzzles.read(middle).empties()) < difficulty:
                    low = middle + 1
                else:
                    high = middle
            starts.append(low)
        starts.append(puzzles.count)
        return starts
    finally:
        puzzles.close()


class PuzzleSet:
    """The puzzles in the binary file `file` (opened for reading in binary), read with seek."""

    def __init__(self, file):
        self.file = file
        header = file.read(HEADER)
        if len(header) != HEADER or header[:len(MAGIC)] != MAGIC:
            raise PuzzleError("not a puzzle file")
        self.count = header[len(MAGIC)] | header[len(MAGIC) + 1] << 8

    def read(self, index):
        if not 0 <= index < self.count:
            raise IndexError("puzzle %d of %d" % (index + 1, self.count))
        self.file.seek(HEADER + index * RECORD)
        data = self.file.read(RECORD)
        if len(data) != RECORD:
            raise PuzzleError("the puzzle file ends inside puzzle %d" % (index + 1))
        moves = data[17]
        if not 0 < moves <= MAX_MOVES:
            raise PuzzleError("puzzle %d is damaged" % (index + 1))
        plies = data[LINE_AT]
        if not 0 < plies <= MAX_LINE:
            raise PuzzleError("puzzle %d is damaged" % (index + 1))
        scores = []
        for offset in range(18, 18 + 2 * moves, 2):
            score = data[offset + 1]
            scores.append((data[offset], score - 256 if score > 127 else score))
        line = []
        for offset in range(LINE_AT + 1, LINE_AT + 1 + plies):
            line.append(PASS if data[offset] == LINE_PASS else data[offset])
        return Puzzle(index, int.from_bytes(data[0:8], "little"), int.from_bytes(data[8:16], "little"),
                      data[16] & 1, bool(data[16] & UNIQUE), scores, line)

    def close(self):
        self.file.close()


def encode(puzzle):
    """The RECORD bytes of a Puzzle (tools/training/build_puzzles.py writes the file with these)."""
    if not 0 < len(puzzle.scores) <= MAX_MOVES:
        raise ValueError("a puzzle holds 1 to %d moves" % MAX_MOVES)
    if not 0 < len(puzzle.line) <= MAX_LINE:
        raise ValueError("a puzzle's solution line holds 1 to %d plies" % MAX_LINE)
    data = bytearray(RECORD)
    data[0:8] = puzzle.black.to_bytes(8, "little")
    data[8:16] = puzzle.white.to_bytes(8, "little")
    data[16] = puzzle.turn | (UNIQUE if puzzle.unique else 0)
    data[17] = len(puzzle.scores)
    for number, (square, score) in enumerate(puzzle.scores):
        data[18 + 2 * number] = square
        data[19 + 2 * number] = score & 0xFF
    data[LINE_AT] = len(puzzle.line)
    for number, square in enumerate(puzzle.line):
        data[LINE_AT + 1 + number] = LINE_PASS if square == PASS else square
    return bytes(data)


def header(count):
    return MAGIC + bytes((count & 0xFF, count >> 8))
