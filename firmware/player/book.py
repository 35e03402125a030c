"""The opening book: good first moves read from a small file in flash, never loaded into the heap.

book<size>.bin (made by tools/training/build_book.py, docs/PLAYER.md) lists, for the
positions of the openings (the best lines of the player's own deep searches
and the named openings people play), the moves worth playing with their
scores from far deeper searches than the device can afford. A position is
looked up in its
canonical orientation (the least of its 8 mirror and rotation images), so one
entry serves all of them; its moves are turned back to the board's
orientation.

File layout (little-endian):
    header  b"OTBK", version (1 byte), board size, most discs of a book
            position, spare byte, entry count (4 bytes)            = 12 bytes
    entry   hash (4 bytes), lock (4 bytes): Kernel.hash/lock of the
            canonical position; move (1 byte, a canonical square);
            score (1 byte, signed, half discs)                        = 10 bytes
Entries are sorted by (hash, lock) and, within a position, best move first;
lookup() binary-searches the file with seek and a 10-byte buffer. A file
whose header or length does not fit is refused with a ValueError naming it.

Only plain Othello rules use the book (Anti-Othello wants other moves, and a
black hole changes which moves exist).
"""

from othello.compat import const

MAGIC = b"OTBK"
VERSION = 1
HEADER_SIZE = 12
ENTRY_SIZE = 10

# The inverse of each symmetry (image_square's numbering): a swap of rows and columns after one mirror
# is undone by the swap before the other mirror.
_INVERSES = const((0, 1, 2, 3, 4, 6, 5, 7))


def image_square(square, symmetry, size):
    """Where `symmetry` (0-7) sends `square`: bit 0 mirrors the columns, then bit 1 the rows, then bit 2
    swaps rows and columns (0 is the identity)."""
    row, column = divmod(square, size)
    if symmetry & 1:
        column = size - 1 - column
    if symmetry & 2:
        row = size - 1 - row
    if symmetry & 4:
        row, column = column, row
    return row * size + column


def _squares(mask, size):
    """The squares of the mask's discs. A row at a time: on the Pico a 64-bit mask is a big integer, which
    every shift would copy, and a row is a small one."""
    found = []
    full_row = (1 << size) - 1
    for first in range(0, size * size, size):
        row = (mask >> first) & full_row
        square = first
        while row:
            if row & 1:
                found.append(square)
            row >>= 1
            square += 1
    return found


def _image(squares, symmetry, size):
    """The squares' images under `symmetry`, a list (plain loops: each comprehension would be one more
    function's code in the heap while the book is)."""
    found = []
    for square in squares:
        found.append(image_square(square, symmetry, size))
    return found


def canonical(player, opponent, size):
    """(player, opponent, symmetry index) of the least image of the position (as a pair of integers).

    Each image is compared as its squares, highest first: one pair of masks is less than another exactly
    when its lists are, and the lists are small integers where the masks would be big ones on the Pico
    (a lookup there took 43 ms on average with the images as masks, 26 ms now: docs/PLAYER.md)."""
    mine = _squares(player, size)
    theirs = _squares(opponent, size)
    best = None
    best_index = 0
    for symmetry in range(8):
        image = (_image(mine, symmetry, size), _image(theirs, symmetry, size))
        image[0].sort(reverse=True)
        image[1].sort(reverse=True)
        if best is None or image < best:
            best = image
            best_index = symmetry
    player = opponent = 0
    for square in best[0]:
        player |= 1 << square
    for square in best[1]:
        opponent |= 1 << square
    return player, opponent, best_index


def book_path(size):
    here = __file__
    cut = here.rfind("/")
    return (here[:cut] if cut >= 0 else ".") + "/book%d.bin" % size


def _read_u32(data, at):
    return data[at] | data[at + 1] << 8 | data[at + 2] << 16 | data[at + 3] << 24


def _header(stream, path, size):
    """The checked header; a file cut short or too long is refused too (its entries would be misread)."""
    header = stream.read(HEADER_SIZE)
    if len(header) != HEADER_SIZE or header[:4] != MAGIC or header[4] != VERSION or header[5] != size:
        raise ValueError("%s is not a version %d opening book for %dx%d" % (path, VERSION, size, size))
    length = stream.seek(0, 2)
    expected = HEADER_SIZE + _read_u32(header, 8) * ENTRY_SIZE
    if length != expected:
        raise ValueError("%s is damaged: %d bytes where its header promises %d" % (path, length, expected))
    return header


def deepest(size, path=None):
    """The most discs of a position in the book for size x size boards (0 when there is no book)."""
    path = path or book_path(size)
    try:
        stream = open(path, "rb")
    except OSError:
        return 0
    with stream:
        return _header(stream, path, size)[6]


def moves_for(board, kernel, path=None):
    """[(square, score in discs), ...] best first for the board's position; [] when it is not in the book.

    `kernel` must be for the board's geometry; its ply 0 is overwritten.
    """
    variant = board.variant
    if variant.anti or variant.black_hole is not None or board.in_placement_phase():
        return []
    path = path or book_path(board.size)
    try:
        stream = open(path, "rb")
    except OSError:
        return []
    with stream:
        header = _header(stream, path, board.size)
        if board.count(0) + board.count(1) > header[6]:
            return []
        count = _read_u32(header, 8)
        player, opponent, symmetry = canonical(board.player_discs(), board.opponent_discs(), board.size)
        kernel.set_root(player, opponent)
        key = (kernel.hash(0), kernel.lock(0))
        entry = bytearray(ENTRY_SIZE)
        low, high = 0, count
        while low < high:
            middle = (low + high) // 2
            stream.seek(HEADER_SIZE + middle * ENTRY_SIZE)
            stream.readinto(entry)
            if (_read_u32(entry, 0), _read_u32(entry, 4)) < key:
                low = middle + 1
            else:
                high = middle
        back = _INVERSES[symmetry]
        found = []
        stream.seek(HEADER_SIZE + low * ENTRY_SIZE)
        while low < count and stream.readinto(entry) == ENTRY_SIZE and (_read_u32(entry, 0), _read_u32(entry, 4)) == key:
            square = image_square(entry[8], back, board.size)
            score = entry[9] - 256 if entry[9] > 127 else entry[9]
            if board.is_legal(square):
                found.append((square, score / 2))
            low += 1
    return found


def lookup(board, kernel, spread, rng, path=None):
    """A book move within `spread` discs of the best, chosen at random: (square, score) or None.

    A spread of 0 (the top level, hints) plays the book's first best move, so that its games and hints do not
    depend on chance where two moves score the same."""
    found = moves_for(board, kernel, path)
    if not found:
        return None
    if not spread:
        return found[0]
    best = found[0][1]
    choices = [move for move in found if move[1] >= best - spread]
    return choices[rng.below(len(choices))]
