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

from othello.compat import bit_index, popcount


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
