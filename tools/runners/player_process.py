"""The computer player of a firmware tree in its own process (tools/runners/player_worker.py), asked move by move.

Two firmware trees cannot share one interpreter (both are the packages `othello` and `player`), so each
side of tools/match/versus.py, and the host's player in tools/device/replay.py, is one of these: CPython on the plain
code or MicroPython's unix port on the viper code, as on the Pico.
"""

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
WORKER = HERE / "player_worker.py"
FIRMWARE = REPO / "firmware"


class WorkerError(Exception):
    """The player process failed: the message says on what."""


class PlayerProcess:
    """tools/runners/player_worker.py for one firmware tree under one interpreter: think(position, ...) -> words."""

    def __init__(self, firmware=FIRMWARE, interpreter="cpython"):
        env = dict(os.environ)
        if interpreter == "unix":
            from runners import micropython_runner

            try:
                command = [micropython_runner.unix_binary(), str(WORKER)]
            except micropython_runner.MicroPythonError as error:
                raise WorkerError(str(error))
            env["MICROPYPATH"] = os.pathsep.join([str(firmware), ".frozen"])
        else:
            command = [sys.executable, str(WORKER)]
            env["PYTHONPATH"] = str(firmware)
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
                                        cwd=str(REPO))

    def think(self, position, seed, level, nodes=None, solver_nodes=None, anti=False):
        """(move, depth, nodes, solver nodes, exact, book, score) of the level's move (in Anti-Othello if `anti`)."""
        self.process.stdin.write("think %s %d %d %s %s%s\n" % (position, seed, level, nodes or "-", solver_nodes or "-",
                                                                " anti" if anti else ""))
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        words = line.split()
        if not words or words[0] != "decision":
            self.close()
            raise WorkerError("the player worker failed on %r: %s" % (position, line.strip() or "no answer"))
        return (words[1], int(words[2]), int(words[3]), int(words[4]), words[5] == "1", words[6] == "1",
                float(words[7]))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait()
