"""The position stack that searches run on: the plain-Python kernel.

A search must not allocate in its inner loop on the Pico, where every 64-bit
integer is a heap object. So searches never hold bitboards themselves: they
hold small integers (ply numbers, square numbers, scores) and ask a kernel,
which owns a preallocated stack of positions indexed by ply:

    k = Kernel(geometry(8))
    k.set_root(P, O)            # ply 0: P to move
    n = k.generate(0)           # legal moves of ply 0 into k.move_list
    for i in range(n):
        square = k.move_list[i]     # moves of ply p start at p * k.stride
        k.play(0, square)       # ply 1 = position after the move, sides swapped
        ...                     # search ply 1; nothing to undo

This module is the reference ("plain twin"); `othello.kernel_viper` is the
device fast path with the same methods and results, and
`othello.kernels.best_kernel()` picks one for the running interpreter.
"""


from struct import pack_into

from othello.compat import bit_index, const, popcount
from othello.kernel_tables import FINAL_MULTIPLIER, HASH_MULTIPLIERS, LOCK_MULTIPLIERS

# Four squares' cells, a byte each (first square lowest), for each nibble of discs: 0b0101 -> 0x00010001.
_SPREAD = const((0x0, 0x1, 0x100, 0x101, 0x10000, 0x10001, 0x10100, 0x10101,
           0x1000000, 0x1000001, 0x1000100, 0x1000101, 0x1010000, 0x1010001, 0x1010100, 0x1010101))


class Kernel:
    name = "plain"

    def __init__(self, geometry, max_ply=64):
        self.geometry = geometry
        self.max_ply = max_ply
        self.stride = geometry.squares  # room for the moves of one ply
        self.players = [0] * (max_ply + 2)  # discs of the side to move at each ply
        self.opponents = [0] * (max_ply + 2)
        self.move_list = bytearray(self.stride * (max_ply + 1))
        self._moves = geometry.moves
        self._flips = geometry.flips
        # masks and tables for the evaluation methods below
        n = geometry.size
        self._n = n
        self._se = n + 1  # shift to the south-east neighbour (north-west to the right)
        self._ne = n - 1  # shift to the south-west neighbour (north-east to the right)
        column_a = 0
        for row in range(n):
            column_a |= 1 << (row * n)
        self._not_column_a = geometry.full ^ column_a
        self._not_last_column = geometry.full ^ (column_a << (n - 1))
        self._corner_x = geometry.corner_x  # the playable board's: a 6x6 board inside the 8x8 one has its own
        self._words = (n * n + 31) // 32

    def set_root(self, player, opponent):
        self.players[0] = player
        self.opponents[0] = opponent

    def position(self, ply):
        """(discs to move, other discs) at `ply`: for tests and the host, allocates."""
        return self.players[ply], self.opponents[ply]

    def generate(self, ply):
        """Write the legal moves at `ply` into move_list[ply * stride ...], lowest square first; return how many."""
        mask = self._moves(self.players[ply], self.opponents[ply])
        base = ply * self.stride
        count = 0
        while mask:
            low = mask & -mask
            self.move_list[base + count] = bit_index(low)
            count += 1
            mask ^= low
        return count

    def mobility(self, ply):
        """Number of legal moves of the side to move at `ply`."""
        return popcount(self._moves(self.players[ply], self.opponents[ply]))

    def opponent_mobility(self, ply):
        """Number of legal moves the other side would have at `ply`."""
        return popcount(self._moves(self.opponents[ply], self.players[ply]))

    def play(self, ply, square):
        """Write the position after `square` into ply + 1 (sides swapped); return the number of discs flipped.

        Returns 0 and writes nothing if the move flips nothing (illegal).
        """
        player = self.players[ply]
        opponent = self.opponents[ply]
        flipped = self._flips(player, opponent, square)
        if not flipped:
            return 0
        self.players[ply + 1] = opponent ^ flipped
        self.opponents[ply + 1] = player | flipped | (1 << square)
        return popcount(flipped)

    def pass_move(self, ply):
        """Ply + 1 is the same position with the other side to move."""
        self.players[ply + 1] = self.opponents[ply]
        self.opponents[ply + 1] = self.players[ply]

    def discs(self, ply):
        """Discs of the side to move at `ply`."""
        return popcount(self.players[ply])

    def opponent_discs(self, ply):
        return popcount(self.opponents[ply])

    def empties(self, ply):
        return popcount(self.geometry.playable & ~(self.players[ply] | self.opponents[ply]))

    # ----- what the computer player's evaluation and hash table read -------
    #
    # The player (firmware/player/) asks for these per node, so they take a
    # ply and return small integers. The viper twin must give the same values.

    def potential_mobility(self, ply):
        """Empty squares next to an opponent disc: where the side to move may get moves later."""
        return self._potential(self.players[ply], self.opponents[ply])

    def opponent_potential_mobility(self, ply):
        """Empty squares next to a disc of the side to move."""
        return self._potential(self.opponents[ply], self.players[ply])

    def _potential(self, player, opponent):
        x = opponent
        east = x & self._not_last_column  # discs that have a square to their east
        west = x & self._not_column_a
        around = (
            (east << 1) | (west >> 1) | (x << self._n) | (x >> self._n)
            | (east << self._se) | (east >> self._ne) | (west << self._ne) | (west >> self._se)
        )
        return popcount(around & self.geometry.playable & ~(player | opponent))

    def x_squares(self, ply):
        """The mover's discs on X-squares (diagonally next to a corner) whose corner is empty, minus the opponent's."""
        player = self.players[ply]
        opponent = self.opponents[ply]
        empty = self.geometry.playable & ~(player | opponent)  # a black-hole corner cannot be taken
        count = 0
        for corner, x_square in self._corner_x:
            if empty & corner:
                if player & x_square:
                    count += 1
                elif opponent & x_square:
                    count -= 1
        return count

    def hash(self, ply):
        """A 30-bit hash of the position at `ply` (discs and who is to move): the table slot."""
        return self._mix(ply, HASH_MULTIPLIERS)

    def lock(self, ply):
        """A second, independent 30-bit hash that confirms a table entry belongs to this position."""
        return self._mix(ply, LOCK_MULTIPLIERS)

    def _mix(self, ply, multipliers):
        """Each 32-bit word of both masks is folded, multiplied (mod 2**32) by its own odd constant
        and xored in; the sum is mixed once more. Every step works on 32-bit values, so the viper
        twin can compute the same number."""
        words = self._words
        x = _fold_words(self.players[ply], multipliers, 0, words) ^ _fold_words(self.opponents[ply], multipliers, words, words)
        x ^= x >> 15
        x = (x * FINAL_MULTIPLIER) & 0xFFFFFFFF
        x ^= x >> 13
        return x >> 2

    def square_sum(self, ply, weights):
        """Sum of weights[square] over the mover's discs minus the same over the opponent's."""
        return self._square_sum(self.players[ply], weights) - self._square_sum(self.opponents[ply], weights)

    def _square_sum(self, mask, weights):
        total = 0
        while mask:
            low = mask & -mask
            total += weights[bit_index(low)]
            mask ^= low
        return total

    def features(self, ply, out):
        """The player's evaluation's scalar features, in one call (the viper twin makes it one fast one):

            out[0] mobility               out[4] x_squares
            out[1] opponent_mobility      out[5] discs - opponent_discs
            out[2] potential_mobility     out[6] empties
            out[3] opponent_potential_mobility
        """
        out[0] = self.mobility(ply)
        out[1] = self.opponent_mobility(ply)
        out[2] = self.potential_mobility(ply)
        out[3] = self.opponent_potential_mobility(ply)
        out[4] = self.x_squares(ply)
        out[5] = self.discs(ply) - self.opponent_discs(ply)
        out[6] = self.empties(ply)

    def cells(self, ply, out):
        """out[square] = 1 for a disc of the side to move, 2 for the other side's, 0 for an empty square
        (out: a bytearray of the board's squares), what the evaluation's patterns read."""
        player = self.players[ply]
        opponent = self.opponents[ply]
        squares = self.geometry.squares  # a multiple of 4 (6x6, 8x8, 10x10)
        square = 0
        while square < squares:
            # 16 squares from one shift of each board (where 64-bit integers live on the heap, the 32-bit
            # builds, a shift per square would allocate 128 of them a call), then 4 squares a store
            mine = player >> square & 0xFFFF
            theirs = opponent >> square & 0xFFFF
            end = min(square + 16, squares)
            while square < end:
                pack_into("<I", out, square, _SPREAD[mine & 15] | _SPREAD[theirs & 15] << 1)
                mine >>= 4
                theirs >>= 4
                square += 4


def _fold_words(mask, multipliers, first, words):
    x = 0
    for i in range(first, first + words):
        w = mask & 0xFFFFFFFF
        w ^= w >> 16
        x ^= (w * multipliers[i]) & 0xFFFFFFFF
        mask >>= 32
    return x
