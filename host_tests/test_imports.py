"""Imports run one way (the house rules): no module of firmware/ or tools/ imports, even late inside a
function, one that imports it back; tools/ imports firmware/, never the other way; and the app reaches
its screens only by name (ui/places.py)."""

import ast
import importlib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIRMWARE = REPO / "firmware"
TOOLS = REPO / "tools"


def module_name(path, root):
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules_under(root):
    return {module_name(path, root): path for path in root.rglob("*.py") if "node_modules" not in path.parts}


def firmware_modules():
    return modules_under(FIRMWARE)


def tools_modules():
    return modules_under(TOOLS)


def imports_of(path, known, name=""):
    """The known modules `path` (module `name`) imports anywhere in it: `import a.b`, `from a import b`
    (b a module or a name in a), `from a.b import c`, and relative ones (`from .b import c`, `from . import b`)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1] if package else []
                base = ".".join(parent + ([base] if base else []))
            if not base:
                continue
            names = [base] + [base + "." + alias.name for alias in node.names]
        else:
            continue
        found.update(name for name in names if name in known)
    return found


def import_graph(modules=None):
    """{module: the modules it imports}, over firmware/ and tools/ by default."""
    if modules is None:
        modules = dict(firmware_modules(), **tools_modules())
    graph = {name: imports_of(path, modules, name) - {name} for name, path in modules.items()}
    # A package's modules import the package (its __init__) first: that is not an import back.
    for name in graph:
        graph[name] = {target for target in graph[name] if not name.startswith(target + ".")}
    return graph


def cycles(graph):
    """Every import circle, each as the list of modules round it (depth-first search, three colours)."""
    found = []
    state = {}
    path = []

    def visit(name):
        state[name] = "open"
        path.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == "open":
                found.append(path[path.index(target):] + [target])
            elif target not in state:
                visit(target)
        path.pop()
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name)
    return found


def test_the_graph_sees_late_imports_and_names_from_packages():
    graph = import_graph()
    assert "ui.places" in graph["ui.menu"]
    assert "player.book" in graph["player.engine"]  # imported inside a function
    assert "ui.settings" in graph["ui.app"]  # `from ui import settings as ...`


def test_the_graph_sees_the_tools_imports():
    graph = import_graph()
    assert "device.firmware_build" in graph["device.pico_emulator"]  # `from device import fetch_firmware, firmware_build`
    assert "device.bench" in graph["device.deploy"]  # imported inside a function
    assert "simulator.hardware" in graph["simulator.local"]  # `from .hardware import Hardware`
    assert "simulator.simulated" in graph["simulator.cli"]  # `from .simulated import ...`
    assert "runners.micropython_runner" in graph["simulator.simulated"]
    assert "othello.board" in graph["match.versus"]  # tools import firmware modules


def test_the_cycle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]


def test_no_module_imports_one_that_imports_it_back():
    assert cycles(import_graph()) == []


def test_firmware_imports_nothing_from_tools():
    tools = set(tools_modules())
    graph = import_graph()
    assert {name: graph[name] & tools for name in firmware_modules() if graph[name] & tools} == {}


def test_screens_do_not_import_the_app_or_each_other():
    from ui.places import PLACES

    graph = import_graph()
    screen_modules = {module for module, _ in PLACES.values()}
    for module in screen_modules:
        assert "ui.app" not in graph[module], module
        assert not graph[module] & screen_modules, module


def test_every_place_names_a_screen_maker_in_its_module():
    from ui.places import PLACES

    for place, (module, factory) in PLACES.items():
        assert callable(getattr(importlib.import_module(module), factory)), place


def test_the_modules_only_screens_use_are_named_for_the_app_to_let_go():
    """A module outside ui/ that a screen imports and nothing else in firmware/ does is in SCREEN_HELPERS."""
    from ui.places import PLACES, SCREEN_HELPERS

    graph = import_graph()
    screens = {module for module, _ in PLACES.values()} | {"ui.records", "ui.cursor"}
    for module in sorted(set().union(*(graph[screen] for screen in screens))):
        if module.startswith("ui.") or module in ("player", "othello"):
            continue
        users = {name for name, targets in graph.items() if module in targets}
        if users <= screens:
            assert module in SCREEN_HELPERS, module
