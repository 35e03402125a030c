"""Artefacts built once and shared by every process that needs them: the test suite's parallel workers,
or two tools run side by side.

Each artefact is a directory build/cache/NAME-KEY, where KEY is a hash of everything it is made from
(source files, tool versions, options), so a changed input makes a new one and a stale one is never
read. The first process to want it makes it under a file lock while the others wait, then every one
reads the same files. A directory is made in a scratch place and renamed into place whole, so a build
cut short leaves nothing that looks finished.
"""

import hashlib
import os
import shutil
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / "build" / "cache"


def key_of(*parts):
    """A short hash of the parts: bytes and strings as they are, a Path by its contents (a directory by the
    names and contents of every file below it, __pycache__ left out)."""
    digest = hashlib.sha256()
    for part in parts:
        if isinstance(part, Path):
            files = [part] if part.is_file() else sorted(path for path in part.rglob("*") if path.is_file()
                                                         and "__pycache__" not in path.parts)
            for path in files:
                digest.update(str(path.relative_to(part) if path != part else path.name).encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
        else:
            digest.update((part if isinstance(part, bytes) else str(part).encode()) + b"\0")
    return digest.hexdigest()[:16]


@contextmanager
def locked(path):
    """Hold an exclusive lock on the file `path` (made if missing) for the block: other processes wait."""
    import fcntl

    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def directory(name, key, make, cache=CACHE):
    """The directory cache/NAME-KEY, made by make(path) (which fills the empty directory `path`) by the
    first process that asks; every other one waits for it and gets the same directory."""
    target = Path(cache) / ("%s-%s" % (name, key))
    if target.is_dir():
        return target
    with locked(Path(cache) / ("%s-%s.lock" % (name, key))):
        if target.is_dir():  # made while this process waited
            return target
        scratch = Path(cache) / ("%s-%s.partial-%d" % (name, key, os.getpid()))
        if scratch.exists():
            shutil.rmtree(scratch)
        scratch.mkdir(parents=True)
        try:
            make(scratch)
        except BaseException:
            shutil.rmtree(scratch, ignore_errors=True)
            raise
        scratch.rename(target)
    return target
