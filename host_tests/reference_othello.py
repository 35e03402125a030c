"""A second Othello, for the tests only: deliberately simple and independent of the engine.

A board is a list of rows of one-character cells ('X' Black, 'O' White,
'.' empty, '#' a black hole), read from and written to the 64-character
position format by its own code. A move walks the eight directions square
by square. No bit tricks, no shared code with firmware/othello: where the
two disagree, one of them is wrong.
"""

COLUMNS = "abcdefghij"
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
OTHER = {"X": "O", "O": "X"}


def name(row, column):
    return COLUMNS[column] + str(row + 1)


class RefBoard:
    def __init__(self, cells, to_move):
        self.cells = [list(row) for row in cells]
        self.size = len(cells)
        self.to_move = to_move

    @classmethod
    def from_position(cls, text):
        squares, side = text.split()
        size = int(round(len(squares) ** 0.5))
        assert size * size == len(squares)
        cells = []
        for row in range(size):
            cells.append(["." if c == "-" else c for c in squares[row * size:(row + 1) * size]])
        return cls(cells, side)

    def position(self):
        return "".join("-" if c == "." else c for row in self.cells for c in row) + " " + self.to_move

    def inside(self, row, column):
        return 0 <= row < self.size and 0 <= column < self.size

    def flips(self, row, column, colour):
        """The squares (row, column) that `colour` would turn by playing there; [] if none."""
        if self.cells[row][column] != ".":
            return []
        turned = []
        for dr, dc in DIRECTIONS:
            line = []
            r, c = row + dr, column + dc
            while self.inside(r, c) and self.cells[r][c] == OTHER[colour]:
                line.append((r, c))
                r, c = r + dr, c + dc
            if line and self.inside(r, c) and self.cells[r][c] == colour:
                turned.extend(line)
        return turned

    def legal_moves(self, colour=None):
        colour = colour or self.to_move
        return [
            (r, c) for r in range(self.size) for c in range(self.size) if self.flips(r, c, colour)
        ]

    def must_pass(self):
        return not self.legal_moves() and bool(self.legal_moves(OTHER[self.to_move]))

    def is_over(self):
        return not self.legal_moves() and not self.legal_moves(OTHER[self.to_move])

    def play(self, row, column):
        turned = self.flips(row, column, self.to_move)
        assert turned, "illegal move %s" % name(row, column)
        after = RefBoard(self.cells, OTHER[self.to_move])
        after.cells[row][column] = self.to_move
        for r, c in turned:
            after.cells[r][c] = self.to_move
        return after

    def passed(self):
        return RefBoard(self.cells, OTHER[self.to_move])

    def count(self, colour):
        return sum(row.count(colour) for row in self.cells)

    def result(self, anti=False):
        """(winner 'X'/'O'/None, Black's score, White's score) by WOF scoring.

        Empties go to the winner's side of the score sheet: in Othello they
        are added to the winner's discs, in Anti-Othello (fewer discs wins)
        to the loser's, which widens the winner's margin either way; a draw
        splits them, the odd one to White.
        """
        black, white = self.count("X"), self.count("O")
        empties = self.count(".")
        if black == white:
            return None, black + empties // 2, white + empties - empties // 2
        more = "X" if black > white else "O"
        winner = OTHER[more] if anti else more
        if more == "X":
            black += empties
        else:
            white += empties
        return winner, black, white


def perft(board, depth):
    """Leaves `depth` plies ahead, walking every ply (passes are plies, finished games one leaf)."""
    if depth == 0:
        return 1
    moves = board.legal_moves()
    if not moves:
        if board.is_over():
            return 1
        return perft(board.passed(), depth - 1)
    return sum(perft(board.play(r, c), depth - 1) for r, c in moves)
