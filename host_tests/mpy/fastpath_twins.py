"""The viper kernel against the plain Kernel, method by method.

Under the MicroPython unix port, main() prints one line per board shape checked
and "twins ok <positions>" at the end; the first difference raises
AssertionError naming the method, ply and position. For the emulated Pico,
where the plain kernel's 64-bit arithmetic is slow, print_answers() prints a
digest of each answer from either kernel, for the host to compare.
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


def answers(kernel, ply):
    """(what, value) for every method of `kernel` at `ply`, in a fixed order: the twins must give the same list."""
    out = [("position", kernel.position(ply))]
    for method in PLY_METHODS:
        out.append((method, getattr(kernel, method)(ply)))
    features = [0] * FEATURE_COUNT
    kernel.features(ply, features)
    out.append(("features", features))
    cells = bytearray(64)
    kernel.cells(ply, cells)
    out.append(("cells", list(cells)))
    out.append(("square_sum", kernel.square_sum(ply, WEIGHTS)))
    count = kernel.generate(ply)
    base = ply * kernel.stride
    out.append(("generate", [count] + list(kernel.move_list[base:base + count])))
    for square in range(64):
        flipped = kernel.play(ply, square)
        # an illegal move writes nothing: ply + 1 is compared only after a legal one
        out.append(("play(%d)" % square, (flipped, kernel.position(ply + 1)) if flipped else flipped))
    kernel.pass_move(ply)
    out.append(("pass_move", kernel.position(ply + 1)))
    return out


def compare_at(plain, viper, ply):
    """Every method of both kernels at `ply`, which both hold the same position."""
    here = where(ply, plain.position(ply))
    for (what, a), (_, b) in zip(answers(plain, ply), answers(viper, ply)):
        assert a == b, "%s: plain %r, viper %r at %s" % (what, a, b, here)


def fold(value):
    """A 32-bit digest of an int, or of a list or tuple of them, the same on every port: what a Pico prints of
    each answer, so that its output stays short."""
    if isinstance(value, (list, tuple)):
        digest = 2166136261
        for item in value:
            digest = ((digest ^ fold(item)) * 16777619) & WORD
        return digest
    return ((value & WORD) * 16777619 ^ ((value >> 32) & WORD)) & WORD


def set_at(kernel, position, ply):
    """`position` to move at `ply`, the plies below it passes: deep plies too, as the stack's index arithmetic
    must hold everywhere."""
    kernel.set_root(*position)
    for below in range(ply):
        kernel.pass_move(below)


def shape_cases(blocked, positions, seed):
    """(blocked, player, opponent, ply) for `positions` random positions on the board with `blocked` squares."""
    random.seed(seed)
    g = geometry(8, blocked)
    cases = []
    for index in range(positions):
        if index % 2:
            position = random_position(g.playable)
        else:
            position = played_position(g, Kernel(g, 64), random.getrandbits(6))
        cases.append((blocked,) + position + ((0, 1, 31, 59)[index % 4],))
    return cases


def check_shape(blocked, positions, seed):
    g = geometry(8, blocked)
    plain = Kernel(g, 60)
    viper = ViperKernel(g, 60)
    cases = shape_cases(blocked, positions, seed)
    for _, player, opponent, ply in cases:
        set_at(plain, (player, opponent), ply)
        set_at(viper, (player, opponent), ply)
        assert plain.position(ply) == viper.position(ply)
        compare_at(plain, viper, ply)
    return len(cases)


def print_answers(cases, viper):
    """'answers <i> <digest of each answer>' for each of `cases` (from shape_cases), from the viper or the plain
    kernel: the emulated Pico runs the viper one, the unix port the plain one, and the host compares."""
    kernels = {}
    for i, (blocked, player, opponent, ply) in enumerate(cases):
        kernel = kernels.get(blocked)
        if kernel is None:
            kernel = kernels[blocked] = (ViperKernel if viper else Kernel)(geometry(8, blocked), 60)
        set_at(kernel, (player, opponent), ply)
        listed = answers(kernel, ply)
        if not i:
            print("names", " ".join(what for what, _ in listed))
        print("answers", i, " ".join("%x" % fold(value) for _, value in listed))
    print("answered", len(cases))


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
