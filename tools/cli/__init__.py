"""The subcommands of tools/othello, one module per area.

Each module in COMMAND_MODULES has `register(subparsers)`, which adds its
subcommands with their help, and sets `func(args) -> exit status` on each.
"""

import argparse
import importlib

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
    args = build_parser().parse_args(argv)
    return args.func(args)
