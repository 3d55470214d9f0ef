"""Drawing helpers for the 128x64 screen: 21 columns by 8 text lines.

Text is X11's misc-fixed 5x8 (public domain) in 6-pixel cells (``ui/font.py``).
Text lines sit exactly on the SSD1306's pages (line n = page n), so a line is
drawn by copying glyph columns into the display buffer (nothing allocated), and
changing one line costs one page on the bus.
"""

from arbiter.ui.lines import CELL, COLS, line, text, width, window, wrap  # noqa: F401


def busy(fb):
    """The top right cell turned over and sent at once: a press was seen and its work
    is under way (a few hundred ms for some). The next frame draws over it."""
    buf = fb.buffer
    for col in range(128 - CELL, 128):
        buf[col] ^= 0xFF
    fb.show_part(0, 128 - CELL, 127)


def title(fb, s):
    """Inverted bar on line 0; a title longer than a line wraps onto the next lines
    (up to 3), in the bar too. Returns the first line under it."""
    if len(s) > COLS:
        from arbiter.ui.wrapped import title as long_title

        return long_title(fb, s)
    fb.fill_rect(0, 0, 128, 8, 1)
    text(fb, s, (128 - width(s)) // 2, 0, 0)
    return 1


def listing(fb, top, cursor, texts, row0=1, rows=6, pad=0):
    """``texts`` one under another from line ``row0`` after ``pad`` blank cells, the
    ``cursor``'s highlighted and kept in view as ``window`` keeps it; a text longer
    than a line wraps onto the next. Returns the new top line and the lines drawn."""
    room = COLS - pad
    for item in texts:
        if len(item) > room:
            break
    else:  # one line each (nearly always): nothing built
        top = window(top, cursor, len(texts), rows)
        shown = min(rows, len(texts) - top)
        for r in range(shown):
            line(fb, row0 + r, texts[top + r], top + r == cursor, pad)
        return top, shown
    from arbiter.ui.wrapped import listing as long_listing

    return long_listing(fb, top, cursor, texts, row0, rows, pad)


def centred(fb, row, s):
    s = s[:COLS]
    text(fb, s, (128 - width(s)) // 2, row * 8)


def hint(fb, s):
    """Key help on the bottom line (no rule above it: descenders on line 6 reach
    the page's last pixel row)."""
    centred(fb, 7, s)


def draw_lines(fb, lines):
    """A whole screen from eight text lines: line 0 a title bar, line 7 the key hint."""
    fb.fill(0)
    title(fb, lines[0])
    for row in range(1, 7):
        if row < len(lines) and lines[row]:
            line(fb, row, lines[row])
    if len(lines) > 7:
        hint(fb, lines[7])
