"""Which kernel a search gets on this interpreter.

The plain kernel (kernel.py) is the reference and the one CPython uses. The
device fast path (kernel_viper.py) is chosen where viper code runs and the
board shape is one it handles (8x8, with or without a black hole, and a 6x6
board inside it, othello.geometry.Embedding, as the player searches 6x6);
every search goes through make_kernel().

Viper is a compile-time feature. On CPython kernel_viper refuses to import
(ImportError: a `micropython` stub package may be installed there, but viper
code cannot run), and MicroPython builds without native code generation, such
as the WASI build, reject the viper decorator when the module is compiled
(SyntaxError). Any other error in kernel_viper is a bug and is not hidden.
"""

try:
    from othello.kernel_viper import SIZE as VIPER_SIZE
    from othello.kernel_viper import ViperKernel
except (ImportError, SyntaxError):
    ViperKernel = None
    VIPER_SIZE = None


def make_kernel(geometry, max_ply=64):
    if ViperKernel is not None and geometry.size == VIPER_SIZE:
        return ViperKernel(geometry, max_ply)
    from othello.kernel import Kernel  # here, so that the device, which runs the viper kernel, never loads it

    return Kernel(geometry, max_ply)
