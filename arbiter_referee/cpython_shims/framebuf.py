"""Pure-Python stand-in for MicroPython's ``framebuf`` module (CPython 3.10+).

With ``arbiter_referee/cpython_shims`` on ``sys.path`` the unchanged firmware's
``import framebuf`` gets this module. It draws what the firmware draws and no
more: the SSD1306's layout (MONO_VLSB) with ``fill``, ``fill_rect``,
``pixel``, ``hline``, ``vline``, ``rect`` and ``text``, following MicroPython's
``extmod/modframebuf.c`` (same in-place layout in the caller's buffer, same
clipping, same 8x8 font, read back from real MicroPython by ``make_font.py``).
``tests/test_framebuf_shim.py`` checks it byte for byte against MicroPython.
Another format is refused in one line rather than drawn wrong.
"""

from functools import lru_cache
from operator import index as _int

try:
    from ._font8x8 import FONT as _FONT
except ImportError:  # loaded as a top-level module from the shims directory
    from _font8x8 import FONT as _FONT

MONO_VLSB = MVLSB = 0

_NOARG = object()

# Glyph for every byte value: text() maps codes outside 32..127 to 127.
_GLYPHS = tuple(
    _FONT[(c - 32) * 8 : (c - 32) * 8 + 8] if 32 <= c <= 127 else _FONT[-8:] for c in range(256)
)


@lru_cache(maxsize=None)
def _or_table(mask):
    return bytes(b | mask for b in range(256))


@lru_cache(maxsize=None)
def _clear_table(mask):
    return bytes(b & ~mask for b in range(256))


@lru_cache(maxsize=None)
def _shift_table(shift, mask):
    """Translate table: byte shifted left (or right, if negative), then masked."""
    if shift >= 0:
        return bytes((b << shift) & mask & 0xFF for b in range(256))
    return bytes((b >> -shift) & mask for b in range(256))


def _as_buffer(obj):
    if isinstance(obj, bytearray):
        return obj
    try:
        view = memoryview(obj)
    except TypeError:
        raise TypeError("object with buffer protocol required") from None
    if view.readonly:
        raise TypeError("object with buffer protocol required")
    return view if view.format == "B" and view.ndim == 1 else view.cast("B")


def _text_bytes(s):
    # MicroPython draws the UTF-8 bytes of a str (or a bytes) up to any NUL.
    if isinstance(s, str):
        data = s.encode("utf-8", "surrogatepass")
    elif isinstance(s, bytes):
        data = s
    else:
        raise TypeError("can't convert '%s' object to str implicitly" % type(s).__name__)
    end = data.find(b"\x00")
    return data if end < 0 else data[:end]


class FrameBuffer:
    """FrameBuffer(buffer, width, height, MONO_VLSB[, stride]) drawing into ``buffer`` in place."""

    # Prefixed names, so firmware subclasses (the SSD1306 driver) can't clash.
    __slots__ = ("_fb_obj", "_fb_buf", "_fb_w", "_fb_h", "_fb_stride", "_fb_pages")

    def __init__(self, buffer, width, height, format, stride=None, /):
        # Same checks, in the same order, as MicroPython's framebuf_make_new.
        width, height, format = _int(width), _int(height), _int(format)
        stride = width if stride is None else _int(stride)
        if not (0 < width <= 0xFFFF and 0 < height <= 0xFFFF and width <= stride <= 0xFFFF):
            raise ValueError()
        if format != MONO_VLSB:
            raise ValueError("this framebuf draws MONO_VLSB only (the SSD1306's layout)")
        buf = _as_buffer(buffer)
        pages = (height + 7) >> 3
        if (pages - 1) * stride + width > len(buf):
            raise ValueError()
        self._fb_obj, self._fb_buf = buffer, buf
        self._fb_w, self._fb_h, self._fb_stride, self._fb_pages = width, height, stride, pages

    def __repr__(self):
        return "<FrameBuffer>"

    def __buffer__(self, flags):  # Python 3.12+: bytes(fb), memoryview(fb)
        return memoryview(self._fb_obj)

    def _fill(self, x, y, w, h, c):
        # Clipped, then whole page bytes at once; partial pages through a table.
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self._fb_h or x >= self._fb_w:
            return
        xend, yend = min(self._fb_w, x + w), min(self._fb_h, y + h)
        x, y = max(x, 0), max(y, 0)
        w = xend - x
        buf, stride = self._fb_buf, self._fb_stride
        for page in range(y >> 3, ((yend - 1) >> 3) + 1):
            top = max(y - 8 * page, 0)
            bot = min(yend - 8 * page, 8)
            mask = ((1 << bot) - 1) ^ ((1 << top) - 1)
            i = page * stride + x
            if mask == 0xFF:
                buf[i : i + w] = (b"\xff" if c else b"\x00") * w
            else:
                table = _or_table(mask) if c else _clear_table(mask)
                buf[i : i + w] = bytes(buf[i : i + w]).translate(table)

    def fill(self, c, /):
        self._fill(0, 0, self._fb_w, self._fb_h, _int(c))

    def fill_rect(self, x, y, w, h, c, /):
        self._fill(_int(x), _int(y), _int(w), _int(h), _int(c))

    def pixel(self, x, y, c=_NOARG, /):
        x, y = _int(x), _int(y)
        if 0 <= x < self._fb_w and 0 <= y < self._fb_h:
            i = (y >> 3) * self._fb_stride + x
            if c is _NOARG:
                return (self._fb_buf[i] >> (y & 7)) & 1
            if _int(c):
                self._fb_buf[i] |= 1 << (y & 7)
            else:
                self._fb_buf[i] &= ~(1 << (y & 7))
        return None

    def hline(self, x, y, w, c, /):
        self._fill(_int(x), _int(y), _int(w), 1, _int(c))

    def vline(self, x, y, h, c, /):
        self._fill(_int(x), _int(y), 1, _int(h), _int(c))

    def rect(self, x, y, w, h, c, f=False, /):
        x, y, w, h, c = _int(x), _int(y), _int(w), _int(h), _int(c)
        if f:
            self._fill(x, y, w, h, c)
        else:
            self._fill(x, y, w, 1, c)
            self._fill(x, y + h - 1, w, 1, c)
            self._fill(x, y, 1, h, c)
            self._fill(x + w - 1, y, 1, h, c)

    def text(self, s, x, y, c=1, /):
        data = _text_bytes(s)
        x, y, c = _int(x), _int(y), _int(c)
        if data:
            strip = b"".join(map(_GLYPHS.__getitem__, data))  # column bytes, bit 0 = top
            self._text(strip, x, y, c)

    def _text(self, strip, x, y, c):
        # The glyph row at y straddles at most two pages: OR (or clear) the
        # shifted column bytes into each page row in one big-int operation.
        lo = -x if x < 0 else 0
        hi = min(len(strip), self._fb_w - x)
        if lo >= hi:
            return
        seg, n = strip[lo:hi], hi - lo
        buf, stride = self._fb_buf, self._fb_stride
        page, shift = y >> 3, y & 7
        for p, sh in ((page, shift), (page + 1, shift - 8)) if shift else ((page, 0),):
            if not 0 <= p < self._fb_pages:
                continue
            rows = self._fb_h - 8 * p
            mask = 0xFF if rows >= 8 else (1 << rows) - 1
            bits = int.from_bytes(seg.translate(_shift_table(sh, mask)), "little")
            if bits:
                i = p * stride + x + lo
                r = int.from_bytes(buf[i : i + n], "little")
                r = r | bits if c else (r | bits) ^ bits
                buf[i : i + n] = r.to_bytes(n, "little")
