"""``main.py`` as the emulator runs it: inside a function whose names are globals.

The WASI build's collector does not scan the C stack (see ``guest/drv.py``).
Run as a module, ``main.py``'s code object would be alive only there while its
main loop runs, and a ``gc.collect()`` in that loop (the firmware collects
after every busy pass, as a Pico may) would free it. So the emulator defines
``__main__()`` holding ``main.py``'s body, with every name the body binds at
the top level declared global, and calls it: nothing it uses lives only on the
C stack. Tracebacks get ``main.py``'s own line numbers back (``HEADER`` lines).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

HEADER = 2  # lines added before main.py's first


def wrap(source: str) -> str | None:
    """The wrapped source, or None if CPython cannot parse it (then it runs as is)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    names = sorted({"__main__", *_bound(tree)})
    inside = _inside_strings(source)  # a string's own lines keep their text
    body = "".join(line if number in inside or not line.strip() else " " + line
                   for number, line in enumerate(source.splitlines(keepends=True), 1))
    return f"def __main__():\n global {', '.join(names)}\n{body}\n"


def _inside_strings(source: str) -> set[int]:
    """Numbers of the lines that continue a string begun on an earlier line."""
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        lines.update(range(token.start[0] + 1, token.end[0] + 1))
    return lines


def _bound(tree: ast.Module) -> set[str]:
    """Names the module binds at its top level (not inside functions or classes)."""
    found = _Bound()
    found.visit(tree)
    return found.names


class _Bound(ast.NodeVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self.names.add(node.id)

    def visit_FunctionDef(self, node) -> None:  # its body binds its own names
        self.names.add(node.name)

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Lambda(self, node) -> None:  # so do these
        pass

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_Lambda

    def visit_alias(self, node: ast.alias) -> None:
        if node.name != "*":
            self.names.add(node.asname or node.name.split(".")[0])

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self.names.add(node.name)
        self.generic_visit(node)


_LINE = re.compile(rb'(File "main\.py", line )(\d+)')


def own_lines(traceback: bytes) -> bytes:
    """A traceback with main.py's line numbers as in the file."""
    return _LINE.sub(lambda m: m.group(1) + b"%d" % (int(m.group(2)) - HEADER), traceback)
