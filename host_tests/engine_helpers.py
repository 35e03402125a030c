"""Small helpers shared by the engine tests: boards from square names, names from masks."""

from othello import BLACK, Board, Variant, parse_square, square_name
from othello.geometry import squares_of


def mask(names, size=8):
    bits = 0
    for name in names.split():
        bits |= 1 << parse_square(name, size)
    return bits


def names(bits, size=8):
    return sorted(square_name(s, size) for s in squares_of(bits))


def image_mask(bits, square_map):
    """The mask's image under a square map (training_boards.symmetry_maps), one square at a time."""
    return sum(1 << square_map[square] for square in range(len(square_map)) if bits >> square & 1)


def setup(black="", white="", turn=BLACK, variant=None):
    """A board holding just these discs, `turn` to move."""
    board = Board(variant)
    board.set_discs(mask(black, board.size), mask(white, board.size), turn)
    return board


def snapshot(board):
    """Everything that makes up a Board's state, to compare before and after a failed call."""
    return (board.position(), board.turn, list(board.discs), board.variant.to_dict())


def game_snapshot(game):
    return (
        snapshot(game.board),
        [(m.square, m.flipped, m.colour) for m in game.history],
        list(game.future),
        game.to_dict(),
        game.ending,
    )


def variants():
    """One of each kind of variant, for tests that must hold everywhere."""
    return [
        Variant(),
        Variant(size=6),
        Variant(size=10),
        Variant(start="parallel"),
        Variant(start="empty"),
        Variant(first=1),
        Variant(anti=True),
        Variant(handicap=2),
        Variant(black_hole=parse_square("c3")),
        Variant(size=6, black_hole=parse_square("b2", 6)),
        Variant(size=10, black_hole=parse_square("c8", 10)),
    ]
