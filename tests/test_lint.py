"""Style is part of the build: ruff (line length 99) over everything we ship."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_ruff_is_clean():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=REPO,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_private_const_is_defined_before_the_code_that_reads_it():
    # MicroPython's compiler puts ``_NAME = const(n)`` in place of _NAME where it reads
    # on, and keeps no global _NAME: code above the line finds no such name on a Pico
    # (CPython's const shim hides it, so it is read here)
    import ast

    late = []
    for path in sorted((REPO / "firmware").rglob("*.py")):
        tree = ast.parse(path.read_text())
        defined = {}
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                    getattr(node.value.func, "id", None) == "const":
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id.startswith("_"):
                        defined[target.id] = node.lineno
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and \
                    node.id in defined and node.lineno < defined[node.id]:
                late.append(f"{path.relative_to(REPO)}:{node.lineno} {node.id}")
    assert late == []
