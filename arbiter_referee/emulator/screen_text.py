"""Read the text back off the OLED's display RAM, for tests and ``--json`` output.

Text lines sit on pages (8 pixel rows), at any x. Each page is scanned for
8-column cells that match a glyph of MicroPython's font, normal or inverted
(for title bars and highlighted rows). Drawings that are not text are skipped.
"""

from __future__ import annotations

from arbiter_referee.cpython_shims._font8x8 import FONT

WIDTH = 128
_GLYPHS = {FONT[i * 8 : i * 8 + 8]: chr(32 + i) for i in range(len(FONT) // 8 - 1, 0, -1)}


def _read_page(cells: bytes) -> str:
    out: list[str] = []
    x = 0
    last_end = 0
    while x <= WIDTH - 8:
        ch = _GLYPHS.get(cells[x : x + 8])
        if ch is None:
            x += 1
            continue
        gap = x - last_end
        if out and gap >= 4:
            out.append(" " * max(1, (gap + 4) // 8))
        out.append(ch)
        x += 8
        last_end = x
    return "".join(out)


def read_lines(ram: bytes) -> list[str]:
    """One string per page: the characters found there, spaces where there are gaps."""
    lines = []
    for page in range(len(ram) // WIDTH):
        cells = bytes(ram[page * WIDTH : (page + 1) * WIDTH])
        text = _read_page(cells)
        inverted = _read_page(bytes(b ^ 0xFF for b in cells))
        lines.append(inverted if len(inverted.strip()) > len(text.strip()) else text)
    return lines


def read_text(ram: bytes) -> str:
    return "\n".join(line for line in read_lines(ram) if line)
