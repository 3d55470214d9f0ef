"""Pure-Python stand-in for MicroPython's ``framebuf`` module (CPython 3.10+).

Put ``host_tools/shims`` on ``sys.path`` and the unchanged firmware's
``import framebuf`` gets this module.  It follows MicroPython v1.27's
``extmod/modframebuf.c``: same constants, same in-place memory layout in the
caller's buffer, same clipping and drawing algorithms, same 8x8 font (read
back from real MicroPython by ``make_font.py``).  ``tests/test_framebuf_shim.py``
checks it byte for byte against MicroPython.

All seven formats are implemented: MONO_VLSB (alias MVLSB), MONO_HLSB,
MONO_HMSB, RGB565 (little-endian, as on the RP2040), GS2_HMSB, GS4_HMSB, GS8.
MONO_VLSB (the SSD1306 layout) has fast paths for fill/fill_rect, text, blit
and scroll; the other formats work pixel by pixel.

Deliberate differences:
- ``bytes(fb)`` / ``memoryview(fb)`` need Python 3.12+ (``__buffer__``); on
  older Pythons use the buffer you passed in.
- A blit palette index past the palette's width reads out of bounds in
  MicroPython (garbage); here it reads whatever the index formula lands on,
  or raises IndexError past the end of the buffer.
- No 32-bit overflow emulation for absurd coordinates or radii.
"""

from functools import lru_cache
from operator import index as _int

try:
    from ._font8x8 import FONT as _FONT
except ImportError:  # loaded as a top-level module from the shims directory
    from _font8x8 import FONT as _FONT

MONO_VLSB = MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

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


def _cdiv(a, b):
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


# --- per-format pixel access; x, y are already in range ---------------------


def _mvlsb_get(fb, x, y):
    return (fb._fb_buf[(y >> 3) * fb._fb_stride + x] >> (y & 7)) & 1


def _mvlsb_set(fb, x, y, c):
    i = (y >> 3) * fb._fb_stride + x
    if c:
        fb._fb_buf[i] |= 1 << (y & 7)
    else:
        fb._fb_buf[i] &= ~(1 << (y & 7))


def _mvlsb_fill(fb, x, y, w, h, c):
    # Whole page bytes at once; partial pages through a translate table.
    buf, stride = fb._fb_buf, fb._fb_stride
    yend = y + h
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


def _mh_bit(fb, x):
    return x & 7 if fb._fb_fmt == MONO_HMSB else 7 - (x & 7)


def _mh_get(fb, x, y):
    return (fb._fb_buf[(x + y * fb._fb_stride) >> 3] >> _mh_bit(fb, x)) & 1


def _mh_set(fb, x, y, c):
    i = (x + y * fb._fb_stride) >> 3
    if c:
        fb._fb_buf[i] |= 1 << _mh_bit(fb, x)
    else:
        fb._fb_buf[i] &= ~(1 << _mh_bit(fb, x))


def _mh_fill(fb, x, y, w, h, c):
    # One mask for the row's byte span, applied to each row as a big int.
    b0, b1 = x >> 3, ((x + w - 1) >> 3) + 1
    mask = 0
    for xx in range(x, x + w):
        mask |= 1 << (8 * ((xx >> 3) - b0) + _mh_bit(fb, xx))
    n = b1 - b0
    buf, advance = fb._fb_buf, fb._fb_stride >> 3
    for yy in range(y, y + h):
        i = yy * advance + b0
        r = int.from_bytes(buf[i : i + n], "little")
        r = r | mask if c else (r | mask) ^ mask
        buf[i : i + n] = r.to_bytes(n, "little")


def _rgb565_get(fb, x, y):
    i = 2 * (x + y * fb._fb_stride)
    return fb._fb_buf[i] | fb._fb_buf[i + 1] << 8


def _rgb565_set(fb, x, y, c):
    i = 2 * (x + y * fb._fb_stride)
    fb._fb_buf[i] = c & 0xFF
    fb._fb_buf[i + 1] = (c >> 8) & 0xFF


def _rgb565_fill(fb, x, y, w, h, c):
    row = (c & 0xFFFF).to_bytes(2, "little") * w
    buf, stride = fb._fb_buf, fb._fb_stride
    for yy in range(y, y + h):
        i = 2 * (x + yy * stride)
        buf[i : i + 2 * w] = row


def _gs8_get(fb, x, y):
    return fb._fb_buf[x + y * fb._fb_stride]


def _gs8_set(fb, x, y, c):
    fb._fb_buf[x + y * fb._fb_stride] = c & 0xFF


def _gs8_fill(fb, x, y, w, h, c):
    row = bytes((c & 0xFF,)) * w
    buf, stride = fb._fb_buf, fb._fb_stride
    for yy in range(y, y + h):
        i = x + yy * stride
        buf[i : i + w] = row


def _gs4_get(fb, x, y):
    b = fb._fb_buf[(x + y * fb._fb_stride) >> 1]
    return b & 0x0F if x & 1 else b >> 4


def _gs4_set(fb, x, y, c):
    i = (x + y * fb._fb_stride) >> 1
    b = fb._fb_buf[i]
    fb._fb_buf[i] = (c & 0x0F) | (b & 0xF0) if x & 1 else ((c & 0x0F) << 4) | (b & 0x0F)


def _gs2_get(fb, x, y):
    return (fb._fb_buf[(x + y * fb._fb_stride) >> 2] >> ((x & 3) << 1)) & 3


def _gs2_set(fb, x, y, c):
    i = (x + y * fb._fb_stride) >> 2
    shift = (x & 3) << 1
    fb._fb_buf[i] = ((c & 3) << shift) | (fb._fb_buf[i] & ~(3 << shift))


def _pixel_fill(fb, x, y, w, h, c):
    setpixel = fb._fb_set
    for yy in range(y, y + h):
        for xx in range(x, x + w):
            setpixel(fb, xx, yy, c)


# format -> (getpixel, setpixel, fill_rect on a clipped, non-empty rectangle)
_FORMATS = {
    MONO_VLSB: (_mvlsb_get, _mvlsb_set, _mvlsb_fill),
    RGB565: (_rgb565_get, _rgb565_set, _rgb565_fill),
    GS4_HMSB: (_gs4_get, _gs4_set, _pixel_fill),
    MONO_HLSB: (_mh_get, _mh_set, _mh_fill),
    MONO_HMSB: (_mh_get, _mh_set, _mh_fill),
    GS2_HMSB: (_gs2_get, _gs2_set, _pixel_fill),
    GS8: (_gs8_get, _gs8_set, _gs8_fill),
}


def _as_buffer(obj, writable):
    if isinstance(obj, bytearray) or (isinstance(obj, bytes) and not writable):
        return obj
    try:
        view = memoryview(obj)
    except TypeError:
        raise TypeError("object with buffer protocol required") from None
    if writable and view.readonly:
        raise TypeError("object with buffer protocol required")
    if view.format != "B" or view.ndim != 1:
        view = view.cast("B")
    return view


def _base(buf):
    """The object that owns a buffer's memory (to spot blits onto oneself)."""
    while isinstance(buf, memoryview):
        buf = buf.obj
    return buf


def _setup(fb, buffer, width, height, fmt, stride, writable):
    # Same checks, in the same order, as MicroPython's framebuf_make_new.
    width, height, fmt = _int(width), _int(height), _int(fmt)
    stride = width if stride is None else _int(stride)
    if not (0 < width <= 0xFFFF and 0 < height <= 0xFFFF and width <= stride <= 0xFFFF):
        raise ValueError()
    bpp, height_req, width_req, strides_req = 1, height, width, height - 1
    if fmt == MONO_VLSB:
        height_req = (height + 7) & ~7
        strides_req = height_req - 8
    elif fmt in (MONO_HLSB, MONO_HMSB):
        stride = (stride + 7) & ~7
        width_req = (width + 7) & ~7
    elif fmt == GS2_HMSB:
        stride = (stride + 3) & ~3
        width_req = (width + 3) & ~3
        bpp = 2
    elif fmt == GS4_HMSB:
        stride = (stride + 1) & ~1
        width_req = (width + 1) & ~1
        bpp = 4
    elif fmt == GS8:
        bpp = 8
    elif fmt == RGB565:
        bpp = 16
    else:
        raise ValueError("invalid format")
    buf = _as_buffer(buffer, writable)
    if (strides_req * stride + (height_req - strides_req) * width_req) * bpp // 8 > len(buf):
        raise ValueError()
    fb._fb_obj = buffer
    fb._fb_buf = buf
    fb._fb_w = width
    fb._fb_h = height
    fb._fb_fmt = fmt
    fb._fb_stride = stride
    fb._fb_pages = (height + 7) >> 3
    fb._fb_get, fb._fb_set, fb._fb_fill = _FORMATS[fmt]


def _source(obj):
    """blit()'s source/palette: a FrameBuffer or (buffer, w, h, format[, stride])."""
    if isinstance(obj, FrameBuffer):
        return obj
    if not isinstance(obj, (tuple, list)):
        raise TypeError("object '%s' isn't a tuple or list" % type(obj).__name__)
    if not 4 <= len(obj) <= 5:
        raise ValueError()
    fb = FrameBuffer.__new__(FrameBuffer)
    _setup(fb, obj[0], obj[1], obj[2], obj[3], obj[4] if len(obj) == 5 else None, False)
    return fb


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


def _column(fb, x):
    """MONO_VLSB column x as an int, bit n = row n (plus any padding rows)."""
    stride = fb._fb_stride
    return int.from_bytes(fb._fb_buf[x : x + (fb._fb_pages - 1) * stride + 1 : stride], "little")


def _set_column(fb, x, value):
    stride = fb._fb_stride
    fb._fb_buf[x : x + (fb._fb_pages - 1) * stride + 1 : stride] = value.to_bytes(
        fb._fb_pages, "little"
    )


def _clip_fill(fb, x, y, w, h, c):
    if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= fb._fb_h or x >= fb._fb_w:
        return
    xend = min(fb._fb_w, x + w)
    yend = min(fb._fb_h, y + h)
    x = max(x, 0)
    y = max(y, 0)
    fb._fb_fill(fb, x, y, xend - x, yend - y, c)


def _pixel_checked(fb, x, y, c):
    if 0 <= x < fb._fb_w and 0 <= y < fb._fb_h:
        fb._fb_set(fb, x, y, c)


def _line(fb, x1, y1, x2, y2, c):
    # Bresenham exactly as modframebuf.c, so the same pixels are chosen.
    width, height, setpixel = fb._fb_w, fb._fb_h, fb._fb_set
    dx = x2 - x1
    if dx > 0:
        sx = 1
    else:
        dx, sx = -dx, -1
    dy = y2 - y1
    if dy > 0:
        sy = 1
    else:
        dy, sy = -dy, -1
    steep = dy > dx
    if steep:
        x1, y1, dx, dy, sx, sy = y1, x1, dy, dx, sy, sx
    e = 2 * dy - dx
    for _ in range(dx):
        if steep:
            if 0 <= y1 < width and 0 <= x1 < height:
                setpixel(fb, y1, x1, c)
        elif 0 <= x1 < width and 0 <= y1 < height:
            setpixel(fb, x1, y1, c)
        while e >= 0:
            y1 += sy
            e -= 2 * dx
        x1 += sx
        e += 2 * dy
    if 0 <= x2 < width and 0 <= y2 < height:
        setpixel(fb, x2, y2, c)


def _ellipse_points(fb, cx, cy, x, y, c, mask):
    # Quadrants: Q2 Q1 / Q3 Q4
    if mask & 0x10:
        if mask & 1:
            _clip_fill(fb, cx, cy - y, x + 1, 1, c)
        if mask & 2:
            _clip_fill(fb, cx - x, cy - y, x + 1, 1, c)
        if mask & 4:
            _clip_fill(fb, cx - x, cy + y, x + 1, 1, c)
        if mask & 8:
            _clip_fill(fb, cx, cy + y, x + 1, 1, c)
    else:
        if mask & 1:
            _pixel_checked(fb, cx + x, cy - y, c)
        if mask & 2:
            _pixel_checked(fb, cx - x, cy - y, c)
        if mask & 4:
            _pixel_checked(fb, cx - x, cy + y, c)
        if mask & 8:
            _pixel_checked(fb, cx + x, cy + y, c)


def _scroll_vlsb(fb, xstep, ystep):
    # MicroPython's loop order always reads a pixel before overwriting it,
    # so scrolling equals copying from a snapshot; do that per column.
    width, height = fb._fb_w, fb._fb_h
    cols = [_column(fb, x) for x in range(width)]
    if ystep >= 0:
        region = ((1 << height) - 1) & ~((1 << ystep) - 1)
    else:
        region = (1 << (height + ystep)) - 1
    xs = range(xstep, width) if xstep >= 0 else range(0, width + xstep)
    for x in xs:
        src = cols[x - xstep]
        src = src << ystep if ystep >= 0 else src >> -ystep
        _set_column(fb, x, (cols[x] & ~region) | (src & region))


def _text_vlsb(fb, strip, x, y, c):
    # The glyph row at y straddles at most two pages: OR (or clear) the
    # shifted column bytes into each page row in one big-int operation.
    lo = -x if x < 0 else 0
    hi = min(len(strip), fb._fb_w - x)
    if lo >= hi:
        return
    seg = strip[lo:hi]
    n = hi - lo
    buf, stride, height = fb._fb_buf, fb._fb_stride, fb._fb_h
    page, shift = y >> 3, y & 7
    for p, sh in ((page, shift), (page + 1, shift - 8)) if shift else ((page, 0),):
        if not 0 <= p < fb._fb_pages:
            continue
        rows = height - 8 * p
        mask = 0xFF if rows >= 8 else (1 << rows) - 1
        bits = int.from_bytes(seg.translate(_shift_table(sh, mask)), "little")
        if not bits:
            continue
        i = p * stride + x + lo
        r = int.from_bytes(buf[i : i + n], "little")
        r = r | bits if c else (r | bits) ^ bits
        buf[i : i + n] = r.to_bytes(n, "little")


class FrameBuffer:
    """FrameBuffer(buffer, width, height, format[, stride]) drawing into ``buffer`` in place."""

    # Prefixed names, so firmware subclasses (e.g. an SSD1306 driver) can't clash.
    __slots__ = (
        "_fb_obj", "_fb_buf", "_fb_w", "_fb_h", "_fb_fmt", "_fb_stride", "_fb_pages",
        "_fb_get", "_fb_set", "_fb_fill",
    )  # fmt: skip

    def __init__(self, buffer, width, height, format, stride=None, /):
        _setup(self, buffer, width, height, format, stride, True)

    def __repr__(self):
        return "<FrameBuffer>"

    def __buffer__(self, flags):  # Python 3.12+: bytes(fb), memoryview(fb)
        return memoryview(self._fb_obj)

    def fill(self, c, /):
        self._fb_fill(self, 0, 0, self._fb_w, self._fb_h, _int(c))

    def fill_rect(self, x, y, w, h, c, /):
        _clip_fill(self, _int(x), _int(y), _int(w), _int(h), _int(c))

    def pixel(self, x, y, c=_NOARG, /):
        x, y = _int(x), _int(y)
        if 0 <= x < self._fb_w and 0 <= y < self._fb_h:
            if c is _NOARG:
                return self._fb_get(self, x, y)
            self._fb_set(self, x, y, _int(c))
        return None

    def hline(self, x, y, w, c, /):
        _clip_fill(self, _int(x), _int(y), _int(w), 1, _int(c))

    def vline(self, x, y, h, c, /):
        _clip_fill(self, _int(x), _int(y), 1, _int(h), _int(c))

    def rect(self, x, y, w, h, c, f=False, /):
        x, y, w, h, c = _int(x), _int(y), _int(w), _int(h), _int(c)
        if f:
            _clip_fill(self, x, y, w, h, c)
        else:
            _clip_fill(self, x, y, w, 1, c)
            _clip_fill(self, x, y + h - 1, w, 1, c)
            _clip_fill(self, x, y, 1, h, c)
            _clip_fill(self, x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c, /):
        _line(self, _int(x1), _int(y1), _int(x2), _int(y2), _int(c))

    def ellipse(self, x, y, xr, yr, c, f=False, m=_NOARG, /):
        cx, cy, xr, yr, c = _int(x), _int(y), _int(xr), _int(yr), _int(c)
        mask = 0x10 if f else 0
        mask |= 0x0F if m is _NOARG else _int(m) & 0x0F
        if xr == 0 and yr == 0:
            if mask & 0x0F:
                _pixel_checked(self, cx, cy, c)
            return
        two_asquare = 2 * xr * xr
        two_bsquare = 2 * yr * yr
        x, y = xr, 0
        xchange = yr * yr * (1 - 2 * xr)
        ychange = xr * xr
        error = 0
        stoppingx, stoppingy = two_bsquare * xr, 0
        while stoppingx >= stoppingy:
            _ellipse_points(self, cx, cy, x, y, c, mask)
            y += 1
            stoppingy += two_asquare
            error += ychange
            ychange += two_asquare
            if 2 * error + xchange > 0:
                x -= 1
                stoppingx -= two_bsquare
                error += xchange
                xchange += two_bsquare
        x, y = 0, yr
        xchange = yr * yr
        ychange = xr * xr * (1 - 2 * yr)
        error = 0
        stoppingx, stoppingy = 0, two_asquare * yr
        while stoppingx <= stoppingy:
            _ellipse_points(self, cx, cy, x, y, c, mask)
            x += 1
            stoppingx += two_bsquare
            error += xchange
            xchange += two_bsquare
            if 2 * error + ychange > 0:
                y -= 1
                stoppingy -= two_asquare
                error += ychange
                ychange += two_asquare

    def poly(self, x, y, coords, c, f=False, /):
        x, y = _int(x), _int(y)
        try:
            view = memoryview(coords)
        except TypeError:
            raise TypeError("object with buffer protocol required") from None
        pts = view.tolist() if view.ndim == 1 else view.cast("B").tolist()
        n_poly = len(pts) // 2
        if n_poly == 0:
            return
        c = _int(c)
        if not f:
            px1, py1 = pts[0], pts[1]
            for i in range(n_poly - 1, -1, -1):
                px2, py2 = pts[2 * i], pts[2 * i + 1]
                _line(self, x + px1, y + py1, x + px2, y + py2, c)
                px1, py1 = px2, py2
            return
        # Integer scan-line fill (alienryderflex.com/polygon_fill) as in C.
        ys = pts[1 : 2 * n_poly : 2]
        for row in range(min(ys), max(ys) + 1):
            nodes = []
            px1, py1 = pts[0], pts[1]
            for i in range(n_poly - 1, -1, -1):
                px2, py2 = pts[2 * i], pts[2 * i + 1]
                if py1 != py2 and ((py1 > row >= py2) or (py1 <= row < py2)):
                    num = 32 * px1 + _cdiv(32 * (px2 - px1) * (row - py1), py2 - py1) + 16
                    nodes.append(_cdiv(num, 32))
                elif row == max(py1, py2):
                    # Local minima / horizontal edges that the node rule misses.
                    if py1 < py2:
                        _pixel_checked(self, x + px2, y + py2, c)
                    elif py2 < py1:
                        _pixel_checked(self, x + px1, y + py1, c)
                    else:
                        _line(self, x + px1, y + py1, x + px2, y + py2, c)
                px1, py1 = px2, py2
            nodes.sort()
            for i in range(0, len(nodes) - 1, 2):
                _clip_fill(self, x + nodes[i], y + row, nodes[i + 1] - nodes[i] + 1, 1, c)

    def blit(self, fbuf, x, y, key=-1, palette=None, /):
        src = _source(fbuf)
        x, y, key = _int(x), _int(y), _int(key) & 0xFFFFFFFF
        pal = None if palette is None else _source(palette)
        if x >= self._fb_w or y >= self._fb_h or -x >= src._fb_w or -y >= src._fb_h:
            return
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = max(0, -x), max(0, -y)
        x0end = min(self._fb_w, x + src._fb_w)
        y0end = min(self._fb_h, y + src._fb_h)
        if (
            pal is None
            and self._fb_fmt == MONO_VLSB
            and src._fb_fmt == MONO_VLSB
            and _base(src._fb_buf) is not _base(self._fb_buf)
        ):
            # Whole columns as ints. Not for overlapping self-blits, where
            # MicroPython's pixel order matters.
            region = ((1 << (y0end - y0)) - 1) << y0
            for cx0 in range(x0, x0end):
                bits = ((_column(src, x1 + cx0 - x0) >> y1) << y0) & region
                if key == 0:  # only set pixels are drawn
                    if bits:
                        _set_column(self, cx0, _column(self, cx0) | bits)
                elif key == 1:  # only clear pixels are drawn
                    clear = region & ~bits
                    if clear:
                        _set_column(self, cx0, _column(self, cx0) & ~clear)
                else:
                    _set_column(self, cx0, (_column(self, cx0) & ~region) | bits)
            return
        getpixel, setpixel = src._fb_get, self._fb_set
        for yy in range(y0, y0end):
            cx1 = x1
            for cx0 in range(x0, x0end):
                col = getpixel(src, cx1, y1)
                if pal is not None:
                    col = pal._fb_get(pal, col, 0)
                if col != key:
                    setpixel(self, cx0, yy, col)
                cx1 += 1
            y1 += 1

    def scroll(self, xstep, ystep, /):
        xstep, ystep = _int(xstep), _int(ystep)
        width, height = self._fb_w, self._fb_h
        # Steps of a whole width/height or more are no-ops in MicroPython.
        if xstep <= -width or xstep >= width or ystep <= -height or ystep >= height:
            return
        if self._fb_fmt == MONO_VLSB:
            _scroll_vlsb(self, xstep, ystep)
            return
        if xstep < 0:
            sx, xend, dx = 0, width + xstep, 1
        else:
            sx, xend, dx = width - 1, xstep - 1, -1
        if ystep < 0:
            y, yend, dy = 0, height + ystep, 1
        else:
            y, yend, dy = height - 1, ystep - 1, -1
        getpixel, setpixel = self._fb_get, self._fb_set
        while y != yend:
            for x in range(sx, xend, dx):
                setpixel(self, x, y, getpixel(self, x - xstep, y - ystep))
            y += dy

    def text(self, s, x, y, c=1, /):
        data = _text_bytes(s)
        x, y, c = _int(x), _int(y), _int(c)
        if not data:
            return
        strip = b"".join(map(_GLYPHS.__getitem__, data))  # column bytes, bit 0 = top
        if self._fb_fmt == MONO_VLSB:
            _text_vlsb(self, strip, x, y, c)
            return
        width, height, setpixel = self._fb_w, self._fb_h, self._fb_set
        for j, bits in enumerate(strip):
            xx = x + j
            if 0 <= xx < width:
                yy = y
                while bits:
                    if bits & 1 and 0 <= yy < height:
                        setpixel(self, xx, yy, c)
                    bits >>= 1
                    yy += 1


def FrameBuffer1(buffer, width, height, stride=None, /):
    """Legacy constructor: a MONO_VLSB FrameBuffer."""
    return FrameBuffer(buffer, width, height, MONO_VLSB, width if stride is None else stride)
