"""The viper kernel against the plain Kernel, method by method (run under the MicroPython unix port).

Prints one line per board shape checked and "twins ok <positions>" at the end;
the first difference raises AssertionError naming the method, ply and position.
"""

import random
from array import array

from othello.geometry import Embedding, geometry
from othello.kernel import Kernel
from othello.kernel_tables import FEATURE_COUNT
from othello.kernel_viper import ViperKernel

WORD = 0xFFFFFFFF
# Squares on both sides of the 32-bit seam and at the ends of the board.
EDGE_SQUARES = (0, 7, 24, 31, 32, 39, 56, 63)
# Methods that take a ply and return a number.
PLY_METHODS = ("mobility", "opponent_mobility", "discs", "opponent_discs", "empties", "potential_mobility",
               "opponent_potential_mobility", "x_squares", "hash", "lock")
# Every public method, and where compare_at() checks the ones that take more than a ply.
CHECKED = PLY_METHODS + ("set_root", "position", "generate", "play", "pass_move", "square_sum", "features", "cells")
# Signed weights over the whole int16 range, so a sign-extension slip shows.
WEIGHTS = array("h", [((square * 7919) % 65536) - 32768 for square in range(64)])


def random_mask():
    return random.getrandbits(32) | (random.getrandbits(32) << 32)


def random_position(playable):
    """Discs on random squares: any density, with the seam and corner squares often taken."""
    density = random.getrandbits(2)
    occupied = random_mask()
    for _ in range(density):
        occupied |= random_mask()  # denser boards for larger density
    if random.getrandbits(1):
        occupied |= 1 << EDGE_SQUARES[random.getrandbits(3)]
    occupied &= playable
    split = random_mask()
    return occupied & split, occupied & ~split & playable


def played_position(g, kernel, plies):
    """A position reached by random legal moves from the start, as a search meets them."""
    black = (1 << 35) | (1 << 28)
    white = (1 << 27) | (1 << 36)
    kernel.set_root(black & g.playable, white & g.playable)
    ply = 0
    for _ in range(plies):
        count = kernel.generate(ply)
        if not count:
            if not kernel.opponent_mobility(ply):
                break
            kernel.pass_move(ply)
        else:
            kernel.play(ply, kernel.move_list[ply * kernel.stride + random.getrandbits(6) % count])
        ply += 1
    return kernel.position(ply)


def where(ply, position):
    return "ply %d, position %#x %#x" % (ply, position[0], position[1])


def compare_at(plain, viper, ply):
    """Every method of both kernels at `ply`, which both hold the same position."""
    here = where(ply, plain.position(ply))
    assert plain.position(ply) == viper.position(ply), "position " + here
    for method in PLY_METHODS:
        a = getattr(plain, method)(ply)
        b = getattr(viper, method)(ply)
        assert a == b, "%s: plain %r, viper %r at %s" % (method, a, b, here)
    a, b = [0] * FEATURE_COUNT, [0] * FEATURE_COUNT
    plain.features(ply, a)
    viper.features(ply, b)
    assert a == b, "features: plain %r, viper %r at %s" % (a, b, here)
    a, b = bytearray(64), bytearray(64)
    plain.cells(ply, a)
    viper.cells(ply, b)
    assert a == b, "cells: plain %r, viper %r at %s" % (a, b, here)
    a = plain.square_sum(ply, WEIGHTS)
    b = viper.square_sum(ply, WEIGHTS)
    assert a == b, "square_sum: plain %r, viper %r at %s" % (a, b, here)
    count = plain.generate(ply)
    assert viper.generate(ply) == count, "generate count at " + here
    base = ply * plain.stride
    assert plain.move_list[base:base + count] == viper.move_list[base:base + count], "generate list at " + here
    for square in range(64):
        a = plain.play(ply, square)
        b = viper.play(ply, square)
        assert a == b, "play(%d): plain %r, viper %r at %s" % (square, a, b, here)
        if a:
            assert plain.position(ply + 1) == viper.position(ply + 1), "play(%d) result at %s" % (square, here)
    plain.pass_move(ply)
    viper.pass_move(ply)
    assert plain.position(ply + 1) == viper.position(ply + 1), "pass_move at " + here


def check_shape(blocked, positions, seed):
    random.seed(seed)
    g = geometry(8, blocked)
    plain = Kernel(g, 60)
    viper = ViperKernel(g, 60)
    checked = 0
    for index in range(positions):
        if index % 2:
            position = random_position(g.playable)
        else:
            position = played_position(g, Kernel(g, 64), random.getrandbits(6))
        # deep plies too: the stack's index arithmetic must hold everywhere
        ply = (0, 1, 31, 59)[index % 4]
        plain.set_root(*position)
        viper.set_root(*position)
        if ply:
            plain.pass_move(0)
            viper.pass_move(0)
            for source in range(1, ply):
                plain.pass_move(source)
                viper.pass_move(source)
            assert plain.position(ply) == viper.position(ply)
        compare_at(plain, viper, ply)
        checked += 1
    return checked


def check_methods():
    """The viper kernel has every public method of the plain one, and this test compares each of them."""
    public = [name for name in dir(Kernel) if not name.startswith("_") and callable(getattr(Kernel, name))]
    missing = [name for name in public if not hasattr(ViperKernel, name)]
    assert not missing, "ViperKernel lacks %s" % ", ".join(missing)
    unchecked = [name for name in public if name not in CHECKED]
    assert not unchecked, "fastpath_twins does not compare %s yet" % ", ".join(unchecked)


# the 6x6 board inside the 8x8 one (its ring blocked), and with a black hole on c2 too
SIX = Embedding(6).geometry.blocked
SIX_HOLE = Embedding(6, 1 << 2).geometry.blocked


def main(positions):
    check_methods()
    total = 0
    for blocked, seed in ((0, 1), (1 << 31, 2), (1 << 63, 3), (1 << 32, 4), (1 << 18, 5), (SIX, 6), (SIX_HOLE, 7)):
        total += check_shape(blocked, positions, seed)
        print("shape blocked=%#x ok" % blocked)
    print("twins ok", total)
