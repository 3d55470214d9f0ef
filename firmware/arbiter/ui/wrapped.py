"""The drawing kit's rarer half, loaded when first needed: titles and list rows too
long for a line, wrapped onto the next lines (see ``ui.title`` and ``ui.listing``)."""

from arbiter.ui.lines import COLS, line, text, width, window, wrap


def title(fb, s):
    parts = wrap(s)[:3]
    fb.fill_rect(0, 0, 128, 8 * len(parts), 1)
    for row in range(len(parts)):
        text(fb, parts[row], (128 - width(parts[row])) // 2, 8 * row, 0)
    return len(parts)


def listing(fb, top, cursor, texts, row0, rows, pad):
    lines = []  # (item, text) a line
    first = last = 0
    for i in range(len(texts)):
        if i == cursor:
            first = len(lines)
        for part in wrap(texts[i], COLS - pad):
            lines.append((i, part))
        if i == cursor:
            last = len(lines) - 1
    top = window(top, first, len(lines), rows)
    if last >= top + rows:  # the cursor's last line in view too
        top = last - rows // 2
    top = max(0, min(top, len(lines) - rows, first))
    shown = min(rows, len(lines) - top)
    for r in range(shown):
        item, part = lines[top + r]
        line(fb, row0 + r, part, item == cursor, pad)
    return top, shown
