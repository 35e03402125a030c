"""The docs name only things that exist: every repository path, `make` target and
`tools/othello` subcommand that README.md, CHANGELOG.md and docs/*.md cite.

A file moved or a target renamed without its docs fails here, so the commands
beside the docs' figures cannot go stale silently; a link to a section of a doc
must find that section's heading. Paths under build/ (made by the commands) are
not checked, nor whether a linked document exists (docs other changes bring).
"""

import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCS = sorted([REPO / "README.md", REPO / "CHANGELOG.md", *(REPO / "docs").glob("*.md")])
DOCS = [doc for doc in DOCS if doc.exists()]

# A path from the repository's root: its folder, then at least one more character of a name.
ROOT_PATH = re.compile(r"(?<![\w./-])((?:tools|firmware|host_tests|board_configs|docs/screens)/[\w*][\w./*-]*)")
# A module path as the docs write it inside firmware/ (`player/levels.py`).
FIRMWARE_PATH = re.compile(r"(?<![\w./-])((?:othello|player|ui|hw)/\w+\.py)\b")
# Code: fenced blocks and inline spans, where commands are written.
FENCED = re.compile(r"^```.*?^```", re.M | re.S)
INLINE = re.compile(r"`([^`\n]+)`")
MAKE = re.compile(r"(?:^|[\s;&(|])make ([a-z][a-z0-9-]*)")
OTHELLO = re.compile(r"(?:^|[\s;&(|])tools/othello ([a-z][a-z-]*)")
LINK = re.compile(r"\]\(([^)#\s]+\.md)#([^)\s]+)\)")
HEADING = re.compile(r"^#+ (.+)$", re.M)
INSTALLED = "node_modules"  # the emulated Pico's npm packages: `make pico-deps` installs them, git does not hold them


def code_of(text):
    blocks = FENCED.findall(text)
    rest = FENCED.sub("", text)
    blocks += [line for block in blocks for line in block.splitlines()]
    return blocks + INLINE.findall(rest)


def exists(path):
    path = path.rstrip(".,;:")
    if INSTALLED in path.split("/"):
        return True
    if "*" in path:
        return any(REPO.glob(path))
    return (REPO / path).exists()


def cited(pattern, texts):
    return sorted({match for text in texts for match in pattern.findall(text)})


def anchor(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@functools.lru_cache(maxsize=None)
def make_targets():
    makefile = (REPO / "Makefile").read_text()
    return set(re.findall(r"^([a-z][a-z0-9-]*):", makefile, re.M))


@functools.lru_cache(maxsize=None)
def othello_commands():
    shown = subprocess.run([sys.executable, str(REPO / "tools" / "othello"), "--help"],
                           capture_output=True, text=True, check=True).stdout
    return set(re.findall(r"^    ([a-z][a-z-]*)", shown, re.M))


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_every_path_a_doc_names_exists(doc):
    text = doc.read_text()
    missing = [path for path in cited(ROOT_PATH, [text]) if not exists(path)]
    missing += ["firmware/" + path for path in cited(FIRMWARE_PATH, code_of(text))
                if not exists("firmware/" + path)]
    assert not missing, f"{doc.name} names files that do not exist: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_every_make_target_a_doc_names_exists(doc):
    unknown = sorted(set(cited(MAKE, code_of(doc.read_text()))) - make_targets())
    assert not unknown, f"{doc.name} names make targets the Makefile does not have: {unknown}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_every_othello_subcommand_a_doc_names_exists(doc):
    unknown = sorted(set(cited(OTHELLO, code_of(doc.read_text()))) - othello_commands())
    assert not unknown, f"{doc.name} names tools/othello subcommands that do not exist: {unknown}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_every_section_a_doc_links_to_exists(doc):
    broken = []
    for target, section in LINK.findall(doc.read_text()):
        linked = doc.parent / target
        if linked.exists() and section not in {anchor(h) for h in HEADING.findall(linked.read_text())}:
            broken.append(target + "#" + section)
    assert not broken, f"{doc.name} links to sections that do not exist: {broken}"


def test_the_checks_find_what_is_missing():
    text = "Run `make no-such-target` and `tools/no_such_tool.py`, then `tools/othello no-such-command`."
    assert not exists(cited(ROOT_PATH, [text])[0])
    assert cited(MAKE, code_of(text)) == ["no-such-target"]
    assert "no-such-target" not in make_targets()
    assert cited(OTHELLO, code_of(text)) == ["no-such-command"]
    assert "no-such-command" not in othello_commands()
    assert cited(FIRMWARE_PATH, code_of("`player/levels.py` and `player/gone.py`")) == [
        "player/gone.py", "player/levels.py"]
    assert anchor("4. The emulated Pico") == "4-the-emulated-pico"
    assert anchor("Why the engine looks as it does") == "why-the-engine-looks-as-it-does"
