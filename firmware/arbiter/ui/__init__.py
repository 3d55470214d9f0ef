"""Drawing helpers for the 128x64 screen: 16 columns by 8 text lines of 8x8.

Text lines sit exactly on the SSD1306's pages (line n = page n), so changing
one line costs one page on the bus.
"""

import framebuf

COLS = 16
_glyph_buf = bytearray(8)
_glyph = framebuf.FrameBuffer(_glyph_buf, 8, 8, framebuf.MONO_VLSB)


def title(fb, text):
    """Inverted bar on line 0."""
    fb.fill_rect(0, 0, 128, 8, 1)
    fb.text(text[:COLS], (128 - 8 * min(len(text), COLS)) // 2, 0, 0)


def line(fb, row, text, inverted=False):
    if inverted:  # as wide as the text: a cursor move then sends only those columns
        fb.fill_rect(0, row * 8, min(128, 8 * len(text) + 2), 8, 1)
    fb.text(text[:COLS], 0, row * 8, 0 if inverted else 1)


def window(top, cursor, count, rows):
    """The first of ``count`` items to show in ``rows`` lines, ``top`` the one shown
    now: kept while the cursor is in view, else moved so the cursor lands mid-window.
    So the next moves only move the highlight (two lines on the bus), not the list."""
    if cursor < top:
        top = cursor - (rows - 1) // 2
    elif cursor >= top + rows:
        top = cursor - rows // 2
    return max(0, min(top, count - rows))


def centred(fb, row, text):
    fb.text(text[:COLS], (128 - 8 * min(len(text), COLS)) // 2, row * 8, 1)


def hint(fb, text):
    """Key help on the bottom line (no rule above it: descenders on line 6 reach
    the page's last pixel row)."""
    fb.text(text[:COLS], (128 - 8 * min(len(text), COLS)) // 2, 56, 1)


def big(fb, text, x, y, scale=2):
    """Text at ``scale`` times the font size (for totals and results)."""
    for ch in text:
        _glyph.fill(0)
        _glyph.text(ch, 0, 0, 1)
        for col in range(8):
            bits = _glyph_buf[col]
            for row in range(8):
                if bits >> row & 1:
                    fb.fill_rect(x + col * scale, y + row * scale, scale, scale, 1)
        x += 8 * scale


def wrap(text, width=COLS):
    """Split text into lines of at most ``width`` characters, at spaces when possible."""
    out = []
    for para in text.split("\n"):
        while len(para) > width:
            cut = para.rfind(" ", 0, width + 1)
            if cut <= 0:
                cut = width
            out.append(para[:cut])
            para = para[cut:].lstrip()
        out.append(para)
    return out


def draw_lines(fb, lines):
    """A whole screen from eight text lines: line 0 a title bar, line 7 the key hint."""
    fb.fill(0)
    title(fb, lines[0])
    for row in range(1, 7):
        if row < len(lines) and lines[row]:
            line(fb, row, lines[row])
    if len(lines) > 7:
        hint(fb, lines[7])
