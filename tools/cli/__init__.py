"""The subcommands of tools/othello, one module per area.

Each module in COMMAND_MODULES has `register(subparsers)`, which adds its
subcommands with their help, and sets `func(args) -> exit status` on each.
"""

import argparse
import importlib
import sys

from cli.values import looks_like_squares

COMMAND_MODULES = (
    "cli.engine",  # perft, show, bench
    "cli.player",  # solve, analyse, match
    "cli.hardware",  # check-config
    "cli.review",  # review
    "cli.records",  # records pull, push, check
)


def build_parser():
    parser = argparse.ArgumentParser(
        prog="othello",
        description="Pocket Othello on the host: positions, perft, analysis, matches and benchmarks.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    # A position's squares may begin with '-' (an empty a1), which argparse takes for an option.
    # It reads a word with a space in it as a value, and a position ignores the space.
    argv = [word + " " if word.startswith("-") and looks_like_squares(word) else word for word in argv]
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:  # Ctrl-C on a long search or count: a line, not a traceback
        sys.stderr.write("othello %s: interrupted\n" % args.command)
        return 130
