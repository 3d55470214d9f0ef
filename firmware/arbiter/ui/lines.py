"""Text on the screen: a string drawn in the font, a line of it, the lines that fit.

The hot core of the drawing kit (``arbiter.ui`` offers it all), apart so that the
kit's rarer half (``ui/wrapped.py``) can use it without importing the kit.
"""

from struct import pack_into

from micropython import const

from arbiter.ui.font import GLYPHS

COLS = 21
CELL = const(6)
_UNKNOWN = const(155)  # "?": (63 - 32) * 5
# A string's bytes, copied in C without allocating: iterating a str makes each
# character a str (an interned one, looked up), which cost twice the drawing.
_CODES = bytearray(64)


def _pack_encoded(fmt, buf, at, s):
    pack_into(fmt, buf, at, s.encode())


_pack = pack_into
try:
    pack_into("1s", _CODES, 0, "")
except Exception:  # CPython's struct (the emulator's other runtime) takes bytes only
    _pack = _pack_encoded


def text(fb, s, x, y, c=1):
    """``s`` at ``x, y``; ``c`` 0 draws dark glyphs (on a lit bar). On a page (y % 8
    == 0) each cell is written whole, its background included."""
    buf = getattr(fb, "buffer", None)
    if buf is None or y & 7 or not 0 <= y < fb.height:
        _pixels(fb, s, x, y, c)
        return
    n = len(s)
    codes = _CODES
    _pack("64s", codes, 0, s)  # the bytes, copied in C: see _CODES
    if n > 63 or codes[n]:  # too long, or not ASCII (more bytes than characters)
        for ch in s:
            text(fb, ch if ord(ch) < 127 else "?", x, y, c)
            x += CELL
        return
    glyphs = GLYPHS
    flip = 0 if c else 0xFF
    row = (y >> 3) * 128
    first = 0 if x >= 0 else (CELL - 1 - x) // CELL  # the cells whole on the screen
    last = min(n, (128 - x) // CELL)
    at = row + x + first * CELL
    for k in range(first, last):  # a cell's columns written out: a loop costs twice as much
        i = codes[k] - 32
        i = _UNKNOWN if i < 0 or i > 94 else i * 5
        buf[at] = glyphs[i] ^ flip
        buf[at + 1] = glyphs[i + 1] ^ flip
        buf[at + 2] = glyphs[i + 2] ^ flip
        buf[at + 3] = glyphs[i + 3] ^ flip
        buf[at + 4] = glyphs[i + 4] ^ flip
        buf[at + 5] = flip
        at += CELL
    if 0 < first <= n:  # cells across an edge: their columns on the screen
        _edge(buf, codes[first - 1], x + (first - 1) * CELL, row, flip)
    if 0 <= last < n:
        _edge(buf, codes[last], x + last * CELL, row, flip)


def _edge(buf, code, x, row, flip):
    i = code - 32
    i = _UNKNOWN if i < 0 or i > 94 else i * 5
    for col in range(CELL):
        if 0 <= x + col <= 127:
            buf[row + x + col] = (GLYPHS[i + col] if col < 5 else 0) ^ flip


def _pixels(fb, s, x, y, c):
    # off the page grid: pixel by pixel, the background left as it is
    for ch in s:
        i = ord(ch) - 32
        i = _UNKNOWN if i < 0 or i > 94 else i * 5
        for col in range(5):
            bits = GLYPHS[i + col]
            for row in range(8):
                if bits >> row & 1:
                    fb.pixel(x + col, y + row, c)
        x += CELL


def width(s):
    return CELL * len(s)


def line(fb, row, s, inverted=False, pad=0):
    """``s`` on line ``row``, after ``pad`` blank cells (a menu's margin)."""
    if inverted:  # as wide as the text: a cursor move then sends only those columns
        fb.fill_rect(0, row * 8, min(128, width(s) + CELL * pad + 2), 8, 1)
    text(fb, s[:COLS - pad] if len(s) > COLS - pad else s, CELL * pad, row * 8,
         0 if inverted else 1)


def window(top, cursor, count, rows):
    """The first of ``count`` items to show in ``rows`` lines, ``top`` the one shown
    now: kept while the cursor is in view, else moved so the cursor lands mid-window.
    So the next moves only move the highlight (two lines on the bus), not the list."""
    if cursor < top:
        top = cursor - (rows - 1) // 2
    elif cursor >= top + rows:
        top = cursor - rows // 2
    return max(0, min(top, count - rows))


def wrap(s, cols=COLS):
    """Split text into lines of at most ``cols`` characters, at spaces when possible."""
    if len(s) <= cols and "\n" not in s:  # nearly every line: nothing split
        return [s]
    out = []
    for para in s.split("\n"):
        while len(para) > cols:
            cut = para.rfind(" ", 0, cols + 1)
            if cut <= 0:
                cut = cols
            out.append(para[:cut])
            para = para[cut:].lstrip()
        out.append(para)
    return out
