"""The firmware in layers, imports going one way (docs/internals.md):
drivers (``hw``) know no game, the game knows no screen, only the screens use both
the game and the drawing kit (``ui``), and nothing imports in a circle. The host
package has no cycles either, and no product code imports the tests."""

import ast
from pathlib import Path

import pytest
from helpers import REPO

FIRMWARE = REPO / "firmware"
HOST = REPO / "arbiter_referee"
# what each layer of arbiter may import from arbiter (besides itself)
ALLOWED = {
    "hw": set(),
    "game": set(),
    "ui": {"hw"},
    "store": {"hw", "game"},
    "screens": {"hw", "game", "ui", "store", "core"},
    "core": {"hw", "game", "ui", "store", "screens", "core"},  # arbiter/*.py: the shell
}


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, root: Path, package: str) -> set[str]:
    """Every module of ``package`` that ``path`` imports, at the top or in a function."""
    found = set()
    here = module_name(path, root)
    known = {module_name(p, root) for p in root.rglob("*.py")}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            base = node.module
            if node.level:  # relative
                base = ".".join(here.split(".")[:-node.level] + [node.module])
            for alias in node.names:  # a submodule by name, else a name of the package's
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    out = set()
    for name in found:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name.split(".")[0] == package and name != here:
            out.add(name)
    return out


def graph(root: Path, package: str) -> dict[str, set[str]]:
    return {module_name(p, root): imports(p, root, package) for p in (root / package).rglob("*.py")
            if "__pycache__" not in p.parts} if (root / package).is_dir() else \
        {module_name(p, root): imports(p, root, package) for p in root.rglob("*.py")}


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in ALLOWED) else "core"


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    found, state = [], {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == "open":
                found.append(path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    return found


FIRMWARE_GRAPH = graph(FIRMWARE, "arbiter")


@pytest.mark.parametrize("module", sorted(FIRMWARE_GRAPH))
def test_each_firmware_module_imports_only_what_its_layer_may(module):
    mine = layer(module)
    wrong = sorted(name for name in FIRMWARE_GRAPH[module]
                   if layer(name) != mine and layer(name) not in ALLOWED[mine]
                   and not (name == "arbiter" and mine != "game"))  # (its VERSION)
    assert not wrong, f"{module} ({mine}) imports {wrong}"


def test_only_the_screens_use_both_the_game_and_the_drawing_kit():
    # (game.jobs, what code comes and goes, is the shell's too)
    both = [m for m, names in FIRMWARE_GRAPH.items()
            if any(layer(n) == "game" and n != "arbiter.game.jobs" for n in names)
            and any(layer(n) == "ui" for n in names)]
    assert all(layer(m) == "screens" for m in both), both


def test_the_firmware_has_no_import_cycle():
    assert cycles(FIRMWARE_GRAPH) == []


def test_the_host_package_has_no_import_cycle_and_never_imports_the_tests():
    host = graph(REPO, "arbiter_referee")
    assert cycles(host) == []
    for path in HOST.rglob("*.py"):
        tree = ast.parse(path.read_text())
        names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        tested = ("tests", "conftest", "helpers", "bench_")
        assert not any(n.startswith(tested) for n in names), path


def top_level_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def let_go_modules():
    """Every module game/jobs.py lets go, by its full name."""
    from arbiter.game.jobs import LET_GO, SCREENS

    return {"arbiter." + name for name in LET_GO.split()} | {
        "arbiter.screens." + name for name in SCREENS}


def test_modules_let_go_are_imported_at_the_top_only_by_each_other():
    # else a module that stays would keep them in the heap after they are let go
    let_go = let_go_modules()
    assert all((FIRMWARE / (name.replace(".", "/") + ".py")).is_file() for name in let_go)
    for path in (FIRMWARE / "arbiter").rglob("*.py"):
        module = module_name(path, FIRMWARE)
        if module in let_go or module == "arbiter.store.install":  # (a PC's, then a reset)
            continue
        held = top_level_imports(path) & let_go
        assert not held, f"{module} imports {sorted(held)} at its top"


def test_only_the_jobs_table_forgets_a_module_and_each_let_go_is_in_it():
    # one place decides what code comes and goes (game/jobs.py), and names each
    # module that does: a module let go that it does not name fails here
    from arbiter.game.jobs import KEPT

    let_go = let_go_modules()
    assert {name.rpartition(".")[2] for name in let_go} >= set(KEPT)
    for path in FIRMWARE.rglob("*.py"):
        source = path.read_text()
        if path.name != "jobs.py":
            assert "sys.modules.pop" not in source and "unload(" not in source, path
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.module == "arbiter.game.jobs":
                assert "forget" not in [a.name for a in node.names] or path.name == "jobs.py"
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "let_go" \
                    and path.name != "jobs.py":
                package, name = (arg.value for arg in node.args)
                assert f"arbiter.{package}.{name}" in let_go, (path, node.lineno)


def test_no_test_module_imports_another():
    # what tests share lives in tests/helpers/, so each test file reads alone
    for path in (REPO / "tests").glob("test_*.py"):
        tree = ast.parse(path.read_text())
        names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not any(n.startswith("test_") for n in names), path


def draws(path):
    """The ``draw`` methods of the classes of ``path``: (class name, its node)."""
    for cls in ast.walk(ast.parse(path.read_text())):
        if isinstance(cls, ast.ClassDef):
            yield from ((cls.name, f) for f in cls.body
                        if isinstance(f, ast.FunctionDef) and f.name == "draw")


def test_a_screens_draw_only_draws():
    # micro-gui's rule: what a screen works out or opens before it is drawn goes in its
    # ``ready`` (app.App.render), so a drawing never moves the app along: it uses no
    # app's method that does, and hands the app to no call
    moves = {"push", "pop", "home", "insert", "later", "idle", "redraw", "busy", "log"}
    for path in (FIRMWARE / "arbiter").rglob("*.py"):
        for name, draw in draws(path):
            used = {n.attr for n in ast.walk(draw) if isinstance(n, ast.Attribute)
                    and isinstance(n.value, ast.Name) and n.value.id == "app"}
            assert not used & moves, (path.name, name, sorted(used & moves))
            handed = [n.lineno for n in ast.walk(draw) if isinstance(n, ast.Call)
                      and getattr(n.func, "attr", "") != "draw"  # (a class's own above)
                      and any(isinstance(a, ast.Name) and a.id == "app" for a in n.args)]
            assert not handed, (path.name, name, handed)


def test_no_screen_changes_the_games_fields():
    # issue 43: the game's state and the working state of its action in progress are
    # the game's; a screen asks (game.evaluate_bound), never sets or swaps them
    for path in (FIRMWARE / "arbiter" / "screens").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Attribute):
                        owner = sub.value
                        name = owner.attr if isinstance(owner, ast.Attribute) else \
                            getattr(owner, "id", "")
                        assert name != "game", (path.name, node.lineno, ast.unparse(target))


def _shape_tests(node) -> list[str]:
    """The type tests under ``node``: ``isinstance``, ``type(...)`` and ``__class__``."""
    found = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and \
                sub.func.id in ("isinstance", "type"):
            found.append(ast.unparse(sub))
        elif isinstance(sub, ast.Attribute) and sub.attr == "__class__":
            found.append(ast.unparse(sub))
    return found


def test_a_loaded_ruleset_is_one_shape_read_one_way():
    # issue 43: "No isinstance/type() test in the firmware tells ruleset shapes
    # apart". A compiled ruleset's parts are lines read through its one reader
    # (LINES): what reads them never asks which shape it holds, and nothing in the
    # firmware tells an offset or packed bytes from a parsed part any more
    readers, old_tests = [], []
    for path in sorted((FIRMWARE / "arbiter").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and "[LINES](" in ast.unparse(node):
                readers.append(node.name)
                assert not _shape_tests(node), (path.name, node.name)
        for test in _shape_tests(tree):
            if test.startswith("type(") and test != "type(exc)" and \
                    "(screen)" not in test and "(other)" not in test or "bytes" in test:
                old_tests.append(f"{path.name}: {test}")
    assert sorted(readers) == ["_parsed", "_read"]  # effects' and teams'
    assert old_tests == []
