"""Frames from the virtual board: parsed from dump lines, drawn as text or PNG."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

WIDTH, HEIGHT = 128, 64
_HALF_BLOCKS = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}
# A Braille cell's dot bits by (row, column) of its 2x4 pixels (U+2800 has none).
_BRAILLE_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


@dataclass
class Frame:
    t: int
    on: bool
    inverted: bool
    contrast: int
    leds: list[tuple[int, int, int]]
    ram: bytes

    @classmethod
    def parse(cls, line: str) -> Frame:
        fields = dict(item.split("=", 1) for item in line[2:].split())
        raw = bytes.fromhex(fields["leds"])
        return cls(int(fields["t"]), fields["on"] == "1", fields["inv"] == "1",
                   int(fields["c"]), [tuple(raw[i : i + 3]) for i in range(0, len(raw), 3)],
                   bytes.fromhex(fields["ram"]))

    @classmethod
    def from_board(cls, board) -> Frame:
        oled, shown = board.oled, board.neopixel.shown
        return cls(board.elapsed, oled.on, oled.inverted, oled.contrast,
                   [tuple(shown[i : i + 3]) for i in range(0, len(shown), 3)], bytes(oled.ram))

    def pixel(self, x: int, y: int) -> int:
        if not self.on:
            return 0
        bit = self.ram[(y >> 3) * WIDTH + x] >> (y & 7) & 1
        return bit ^ 1 if self.inverted else bit


def leds_text(frame: Frame, colour: bool,
              paint: Callable[[tuple[int, int, int], str], str] | None = None) -> str:
    """The ring as dots; ``paint(rgb, text)`` colours one (default: 24-bit escapes)."""
    if not colour:
        return " ".join("%02x%02x%02x" % rgb for rgb in frame.leds)
    paint = paint or (lambda rgb, text: "\x1b[38;2;%d;%d;%dm%s\x1b[0m" % (*rgb, text))
    cells = []
    for rgb in brightened(frame.leds):
        cells.append("\u25cb" if rgb == (0, 0, 0) else paint(rgb, "\u25cf"))
    return " ".join(cells)


def brightened(leds):
    """The ring brightened for a screen (the device caps LEDs at a quarter): the
    brightest LED at full, the others in proportion, so a dimmed LED looks dim."""
    peak = max([max(rgb) for rgb in leds] + [1])
    return [tuple(min(255, c * 255 // peak) for c in rgb) for rgb in leds]


def oled_rows(frame: Frame, cells: str = "blocks") -> list[str]:
    """The OLED as text: ``blocks`` draws 1x2 pixels a character (Unicode half blocks:
    128x32 characters), ``braille`` 2x4 (Braille patterns: 64x16, for an 80x24
    terminal)."""
    if cells == "braille":
        return [_braille_row(frame, y) for y in range(0, HEIGHT, 4)]
    return ["".join(_HALF_BLOCKS[frame.pixel(x, y), frame.pixel(x, y + 1)]
                    for x in range(WIDTH)) for y in range(0, HEIGHT, 2)]


def _braille_row(frame: Frame, top: int) -> str:
    out = []
    for x in range(0, WIDTH, 2):
        bits = 0
        for dy, row in enumerate(_BRAILLE_DOTS):
            for dx, bit in enumerate(row):
                if frame.pixel(x + dx, top + dy):
                    bits |= bit
        out.append(chr(0x2800 + bits) if bits else " ")
    return "".join(out)


def to_text(frame: Frame, colour: bool = False, cells: str = "blocks",
            paint: Callable[[tuple[int, int, int], str], str] | None = None) -> str:
    """The OLED in Unicode cells (``oled_rows``), framed, LEDs below."""
    rows = oled_rows(frame, cells)
    width = len(rows[0])
    lines = ["\u250c" + "\u2500" * width + "\u2510"]
    lines += ["\u2502" + row + "\u2502" for row in rows]
    lines.append("\u2514" + "\u2500" * width + "\u2518")
    lines.append(" LEDs " + leds_text(frame, colour, paint))
    return "\n".join(lines)


def text_panel(frame: Frame, invert: Callable[[str], str] | None = None) -> list[str]:
    """The OLED as the words on it (read back off its RAM, ``screen_text``), framed:
    23 columns by 10 lines, readable in any terminal; drawings are left out. A line
    the OLED draws inverted (a title bar, a menu's cursor) is marked ``>`` at the
    left and drawn by ``invert`` (reverse video in a terminal)."""
    from arbiter_referee.emulator.screen_text import read_marked

    words = read_marked(frame.ram) if frame.on else [("", False)] * (HEIGHT // 8)
    invert = invert or (lambda text: text)
    return (["\u250c" + "\u2500" * 21 + "\u2510"]
            + [(">" + invert(line[:21].ljust(21)) if lit else
                "\u2502" + line[:21].ljust(21)) + "\u2502" for line, lit in words]
            + ["\u2514" + "\u2500" * 21 + "\u2518"])


def strip(panels: list[list[str]], gap: str = "  ") -> str:
    """Panels of equal height side by side."""
    return "\n".join(gap.join(row).rstrip() for row in zip(*panels, strict=True))


def to_png(frame: Frame, path, scale: int = 4) -> None:
    """A picture of the device: the OLED (pixels as the panel lights them) and the ring."""
    from PIL import Image, ImageDraw

    margin = 8 * scale
    ring = 14 * scale
    width = WIDTH * scale + 2 * margin
    height = HEIGHT * scale + 2 * margin + ring
    image = Image.new("RGB", (width, height), (28, 28, 32))
    draw = ImageDraw.Draw(image)
    lit = 110 + frame.contrast * 145 // 255
    draw.rectangle([margin - 4, margin - 4, margin + WIDTH * scale + 3,
                    margin + HEIGHT * scale + 3], fill=(0, 0, 0))
    for y in range(HEIGHT):
        for x in range(WIDTH):
            if frame.pixel(x, y):
                x0, y0 = margin + x * scale, margin + y * scale
                draw.rectangle([x0, y0, x0 + scale - 2, y0 + scale - 2],
                               fill=(lit * 3 // 4, lit * 7 // 8, lit))
    count = len(frame.leds)
    step = (width - 2 * margin) / max(count, 1)
    cy = margin * 3 // 2 + HEIGHT * scale + ring // 2
    radius = min(step, ring) * 0.35
    for i, (r, g, b) in enumerate(brightened(frame.leds)):
        cx = margin + step * (i + 0.5)
        fill = (45, 45, 50) if max(r, g, b) == 0 else (r, g, b)
        draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], fill=fill,
                     outline=(90, 90, 96))
    image.save(path)
