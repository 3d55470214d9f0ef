"""Read the text back off the OLED's display RAM, for tests and ``--json`` output.

Text lines sit on pages (8 pixel rows), at any x, in the firmware's font (X11's
5x8 in 6-pixel cells, ``firmware/arbiter/ui/font.py``). Each page is scanned for
cells that match a glyph, normal or inverted (title bars, highlighted rows);
drawings that are not text are skipped.
"""

from __future__ import annotations

from arbiter_referee.paths import FIRMWARE

WIDTH = 128
CELL = 6


def _load_glyphs() -> dict[bytes, str]:
    scope: dict = {}
    exec((FIRMWARE / "arbiter" / "ui" / "font.py").read_text(), scope)
    font = scope["GLYPHS"]
    glyphs = {}
    for i in range(len(font) // 5 - 1, 0, -1):  # not the space: gaps are counted
        glyphs[bytes(font[i * 5 : i * 5 + 5]) + b"\0"] = chr(32 + i)
    return glyphs


_GLYPHS = _load_glyphs()


def _read_page(cells: bytes) -> str:
    """A glyph is found where a lit column is: the cell may start up to 5 columns
    before it (glyphs with blank left columns). Of the cells that match, the one in
    step with the text read so far on the page wins."""
    out: list[str] = []
    x = 0
    last_end = None
    while x < WIDTH:
        if not cells[x]:
            x += 1
            continue
        found = None
        for lead in range(CELL):
            start = x - lead
            if start < 0 or (last_end is not None and start < last_end):
                break
            cell = cells[start : start + CELL]
            if len(cell) < CELL:  # the last column of the screen: a blank sixth
                cell = cell + b"\0" * (CELL - len(cell))
            ch = _GLYPHS.get(cell)
            if ch is None or any(cells[start:x]):
                continue
            if found is None or (last_end is not None and (start - last_end) % CELL == 0):
                found = (start, ch)
        if found is None:
            x += 1
            continue
        start, ch = found
        if out and last_end is not None:
            gap = start - last_end
            if gap >= CELL // 2:
                out.append(" " * max(1, (gap + CELL // 2) // CELL))
        out.append(ch)
        last_end = x = start + CELL
    return "".join(out)


def read_lines(ram: bytes) -> list[str]:
    """One string per page: the characters found there, spaces where there are gaps."""
    return [text for text, _ in read_marked(ram)]


def read_marked(ram: bytes) -> list[tuple[str, bool]]:
    """Each page's text (read_lines) and whether it is drawn inverted: a title bar, the
    row under a menu's cursor."""
    lines = []
    for page in range(len(ram) // WIDTH):
        cells = bytes(ram[page * WIDTH : (page + 1) * WIDTH])
        text = _read_page(cells)
        inverted = _read_page(bytes(b ^ 0xFF for b in cells))
        lit = len(inverted.strip()) > len(text.strip())
        lines.append((inverted, True) if lit else (text, False))
    return lines


def read_text(ram: bytes) -> str:
    return "\n".join(line for line in read_lines(ram) if line)
