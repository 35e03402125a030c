"""Bitboards in numpy arrays for the training tools: symmetries, legal-move counts, pattern indices.

A position is two uint64 arrays (the side to move's discs, the other side's),
bit `row * size + column` for a square (a1 = bit 0, h1 = bit 7, a2 = bit 8 on
8x8), as in firmware/othello. Every function works on whole arrays at once: a
million positions take seconds, not minutes. The board is 8x8 unless a
function is given `size` (6 for 6x6).
"""

import sys
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parents[2] / "firmware")]

from player.book import image_square  # noqa: E402  (where each of the 8 symmetries sends a square)

U64 = np.uint64
FULL = U64(0xFFFFFFFFFFFFFFFF)
NOT_A = U64(0xFEFEFEFEFEFEFEFE)  # every square but column a
NOT_H = U64(0x7F7F7F7F7F7F7F7F)
DIRECTIONS = ((1, NOT_A), (-1, NOT_H), (8, FULL), (-8, FULL), (9, NOT_A), (7, NOT_H), (-7, NOT_A), (-9, NOT_H))
_DIRECTIONS = {8: DIRECTIONS}


def directions(size):
    """((shift, mask of the squares a disc may land on), ...) for the 8 directions of a size x size board."""
    found = _DIRECTIONS.get(size)
    if found is None:
        board = (1 << size * size) - 1
        column_a = sum(1 << row * size for row in range(size))
        not_a = U64(board ^ column_a)
        not_last = U64(board ^ (column_a << size - 1))
        full = U64(board)
        found = ((1, not_a), (-1, not_last), (size, full), (-size, full), (size + 1, not_a), (size - 1, not_last),
                 (-size + 1, not_a), (-size - 1, not_last))
        _DIRECTIONS[size] = found
    return found


def _shift(bits, amount, mask):
    """Every disc moved `amount` squares (positive: to higher bits), wrap-around columns masked off."""
    if amount > 0:
        return (bits << U64(amount)) & mask
    return (bits >> U64(-amount)) & mask


def legal_moves(player, opponent, size=8):
    """uint64 array: the squares where `player` may move (the classic shift-and-mask generator)."""
    empty = ~(player | opponent)
    moves = np.zeros_like(player)
    for amount, mask in directions(size):
        run = _shift(player, amount, mask) & opponent
        for _ in range(size - 3):
            run |= _shift(run, amount, mask) & opponent
        moves |= _shift(run, amount, mask) & empty
    return moves


def potential_mobility(player, opponent, size=8):
    """int32 array: empty squares next to an opponent disc (Kernel.potential_mobility)."""
    around = np.zeros_like(player)
    for amount, mask in directions(size):
        around |= _shift(opponent, amount, mask)
    return popcount(around & ~(player | opponent) & U64((1 << size * size) - 1))


def corner_x(size):
    """((corner, its X-square), ...) of a size x size board."""
    last = size - 1
    return ((0, size + 1), (last, 2 * size - 2), (last * size, (last - 1) * size + 1),
            (size * size - 1, (last - 1) * size + last - 1))


CORNER_X = corner_x(8)


def x_squares(player, opponent, size=8):
    """int32 array: the mover's X-squares next to an empty corner minus the opponent's (Kernel.x_squares)."""
    empty = ~(player | opponent)
    count = np.zeros(len(player), dtype=np.int32)
    for corner, x in corner_x(size):
        open_corner = ((empty >> U64(corner)) & U64(1)).astype(np.int32)
        count += open_corner * (((player >> U64(x)) & U64(1)).astype(np.int32)
                                - ((opponent >> U64(x)) & U64(1)).astype(np.int32))
    return count


def popcount(bits):
    return np.bitwise_count(bits).astype(np.int32)


def flip_vertical(bits):
    """Rows reversed (a1 <-> a8)."""
    return bits.byteswap()


def mirror_horizontal(bits):
    """Columns reversed (a1 <-> h1)."""
    k1, k2, k4 = U64(0x5555555555555555), U64(0x3333333333333333), U64(0x0F0F0F0F0F0F0F0F)
    bits = ((bits >> U64(1)) & k1) | ((bits & k1) << U64(1))
    bits = ((bits >> U64(2)) & k2) | ((bits & k2) << U64(2))
    return ((bits >> U64(4)) & k4) | ((bits & k4) << U64(4))


def flip_diagonal(bits):
    """Reflected in the a1-h8 diagonal (b1 <-> a2)."""
    k1, k2, k4 = U64(0x5500550055005500), U64(0x3333000033330000), U64(0x0F0F0F0F00000000)
    t = k4 & (bits ^ (bits << U64(28)))
    bits = bits ^ t ^ (t >> U64(28))
    t = k2 & (bits ^ (bits << U64(14)))
    bits = bits ^ t ^ (t >> U64(14))
    t = k1 & (bits ^ (bits << U64(7)))
    return bits ^ t ^ (t >> U64(7))


def permuted(bits, square_map):
    """Each square's disc moved to square_map[square]."""
    image = np.zeros_like(bits)
    for square, target in enumerate(square_map):
        image |= ((bits >> U64(square)) & U64(1)) << U64(target)
    return image


def symmetries(bits, size=8):
    """The 8 images of `bits` under the board's symmetries, the identity first."""
    if size != 8:
        return [permuted(bits, square_map) for square_map in symmetry_maps(size)]
    images = []
    for base in (bits, flip_diagonal(bits)):
        for image in (base, mirror_horizontal(base)):
            images.append(image)
            images.append(flip_vertical(image))
    return images


def canonical(player, opponent, size=8):
    """(player, opponent) of the smallest of each position's 8 images: equal for symmetric positions."""
    best_p, best_o = player.copy(), opponent.copy()
    for p, o in zip(symmetries(player, size), symmetries(opponent, size)):
        better = (p < best_p) | ((p == best_p) & (o < best_o))
        best_p = np.where(better, p, best_p)
        best_o = np.where(better, o, best_o)
    return best_p, best_o


def square_number(name, size=8):
    """'c4' -> 26 on 8x8."""
    column = "abcdefghij"[:size].index(name[0].lower())
    row = int(name[1:]) - 1
    if not 0 <= row < size:
        raise ValueError("%r is not a square of the %dx%d board" % (name, size, size))
    return row * size + column


def symmetry_maps(size=8):
    """The board's 8 symmetries as lists: square -> the square it goes to (player/book.py's, identity first)."""
    return [[image_square(square, symmetry, size) for square in range(size * size)] for symmetry in range(8)]


def pattern_index(player, opponent, squares):
    """int32 array: each position's filling of `squares` in base 3 (first square most significant).

    A square counts 0 when empty, 1 for the side to move, 2 for the other side.
    """
    index = np.zeros(len(player), dtype=np.int32)
    for square in squares:
        bit = U64(square)
        cell = ((player >> bit) & U64(1)) + U64(2) * ((opponent >> bit) & U64(1))
        index = index * 3 + cell.astype(np.int32)
    return index
