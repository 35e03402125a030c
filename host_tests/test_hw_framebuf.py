"""The CPython framebuf stand-in draws byte for byte what MicroPython's built-in framebuf draws."""

import random

import simulator

simulator.install_standins()
import framebuf  # noqa: E402  (the stand-in)

FORMATS = ("MONO_VLSB", "MONO_HLSB", "MONO_HMSB", "GS2_HMSB", "GS4_HMSB", "GS8", "RGB565")
BYTES_FOR = {  # buffer size for width w, height h, stride s
    "MONO_VLSB": lambda w, h, s: s * ((h + 7) // 8),
    "MONO_HLSB": lambda w, h, s: ((s + 7) // 8) * h,
    "MONO_HMSB": lambda w, h, s: ((s + 7) // 8) * h,
    "GS2_HMSB": lambda w, h, s: ((s + 3) // 4) * h,
    "GS4_HMSB": lambda w, h, s: ((s + 1) // 2) * h,
    "GS8": lambda w, h, s: s * h,
    "RGB565": lambda w, h, s: 2 * s * h,
}

# The drawing runs inside functions: the WASI build once mishandled module-level loops.
PROGRAM = """
import framebuf
from array import array

def canvas(fmt, w, h, stride, fill):
    buf = bytearray(SIZES[fmt])
    for i in range(len(buf)):
        buf[i] = (i * fill) & 0xFF
    return buf, framebuf.FrameBuffer(buf, w, h, getattr(framebuf, fmt), stride)

def run():
    for fmt, w, h, stride, fill, ops in CASES:
        buf, fb = canvas(fmt, w, h, stride, fill)
        got = []
        for op in ops:
            name, args = op[0], op[1:]
            if name == "poly":
                fb.poly(args[0], args[1], array("h", args[2]), *args[3:])
            elif name == "blit":
                sfmt, sw, sh, sfill, x, y, rest = args
                _, source = canvas(sfmt, sw, sh, sw, sfill)
                if rest and rest[-1] == "palette":
                    _, palette = canvas(fmt, 2, 1, 2, 7)
                    fb.blit(source, x, y, rest[0], palette)
                else:
                    fb.blit(source, x, y, *rest)
            elif name == "get":
                got.append(fb.pixel(*args))
            else:
                getattr(fb, name)(*args)
        print(fmt, w, h, "".join("%02x" % b for b in buf), got)

run()
"""


def _color(rng, fmt):
    return rng.choice((0, 1, rng.randrange(4), rng.randrange(16), rng.randrange(256), rng.randrange(65536)))


def _cases(seed, count):
    rng = random.Random(seed)
    cases, sizes = [], {}
    for index in range(count):
        fmt = FORMATS[index % len(FORMATS)]
        w, h = rng.choice(((128, 64), (37, 21), (8, 8), (13, 40), (64, 3)))
        stride = w + rng.choice((0, 0, 5))
        sizes[fmt] = max(sizes.get(fmt, 0), BYTES_FOR[fmt](128, 64, 133))
        ops = []
        for _ in range(40):
            kind = rng.choice(("fill", "pixel", "get", "hline", "vline", "rect", "fill_rect", "line", "ellipse", "poly", "blit", "scroll"))
            c = _color(rng, fmt)
            x, y = rng.randrange(-20, w + 20), rng.randrange(-20, h + 20)
            if kind == "fill":
                ops.append(("fill", c))
            elif kind == "pixel":
                ops.append(("pixel", x, y, c))
            elif kind == "get":
                ops.append(("get", rng.randrange(-2, w + 2), rng.randrange(-2, h + 2)))
            elif kind in ("hline", "vline"):
                ops.append((kind, x, y, rng.randrange(-5, 90), c))
            elif kind == "rect":
                ops.append(("rect", x, y, rng.randrange(-3, 70), rng.randrange(-3, 50), c, rng.random() < 0.5))
            elif kind == "fill_rect":
                ops.append(("fill_rect", x, y, rng.randrange(-3, 70), rng.randrange(-3, 50), c))
            elif kind == "line":
                ops.append(("line", x, y, rng.randrange(-30, w + 30), rng.randrange(-30, h + 30), c))
            elif kind == "ellipse":
                ops.append(("ellipse", x, y, rng.randrange(0, 40), rng.randrange(0, 30), c, rng.random() < 0.5, rng.randrange(16)))
            elif kind == "poly":
                points = [v for _ in range(rng.randrange(1, 7)) for v in (rng.randrange(-10, 60), rng.randrange(-10, 40))]
                ops.append(("poly", x // 2, y // 2, points, c, rng.random() < 0.6))
            elif kind == "blit":
                sw, sh = rng.randrange(1, 30), rng.randrange(1, 20)
                rest = rng.choice(((), (c,), (rng.randrange(2), "palette")))
                # a palette maps the 0s and 1s of a one-bit source to the target's colours
                source_format = "MONO_HLSB" if rest and rest[-1] == "palette" else fmt
                ops.append(("blit", source_format, sw, sh, rng.randrange(1, 255), x, y, rest))
            else:
                ops.append(("scroll", rng.randrange(-20, 20), rng.randrange(-20, 20)))
        cases.append((fmt, w, h, stride, rng.randrange(1, 255), ops))
    return cases, sizes


def _program(cases, sizes):
    return "CASES = %r\nSIZES = %r\n%s" % (cases, sizes, PROGRAM)


def _run_here(source):
    lines = []
    scope = {"print": lambda *args: lines.append(" ".join(str(a) for a in args))}
    exec(compile(source, "drawing", "exec"), scope)
    return lines


def test_stand_in_matches_micropython(micropython):
    cases, sizes = _cases(seed=22, count=28 if micropython.interpreter == "unix" else 14)
    source = _program(cases, sizes)
    expected = micropython(source, heap="4M").splitlines()
    assert _run_here(source) == expected


def test_constructor_checks_like_micropython():
    for args in ((bytearray(1023), 128, 64, framebuf.MONO_VLSB), (bytearray(100), 0, 8, framebuf.MONO_VLSB), (bytearray(8), 8, 8, 99)):
        try:
            framebuf.FrameBuffer(*args)
        except ValueError:
            continue
        raise AssertionError("accepted %r" % (args[1:],))
    assert not hasattr(framebuf.FrameBuffer, "text"), "the firmware draws text with its own font"
