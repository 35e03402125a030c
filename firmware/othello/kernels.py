"""Which kernel a search gets on this interpreter.

The plain kernel (kernel.py) is the reference and the one CPython uses. The
device fast path (kernel_viper.py) is chosen where viper code runs and the
board shape is one it handles; every search goes through make_kernel().
"""

from othello.kernel import Kernel


def make_kernel(geometry, max_ply=64):
    return Kernel(geometry, max_ply)
