"""MicroPython's framebuf module for CPython, so the firmware draws the same pixels on the host.

A port of extmod/modframebuf.c (MicroPython 1.22+): the same formats,
clipping, Bresenham lines, ellipse and polygon-fill algorithms, blit with
key and palette, and scroll, checked byte for byte against the real module
by host_tests/test_hw_framebuf.py. MicroPython ignores this file: its
framebuf is built in and cannot be shadowed.

Formats: MONO_VLSB (MVLSB), MONO_HLSB, MONO_HMSB, GS2_HMSB, GS4_HMSB, GS8 and
RGB565 (little-endian, as on the Pico). text() is left out on purpose: the
firmware draws with its own font (firmware/ui/font.py), and a call to the
built-in 8x8 font must fail on the host rather than pass unnoticed.
"""

MONO_VLSB = MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

_ELLIPSE_FILL = 0x10
_ELLIPSE_ALL = 0x0F
_ELLIPSE_Q1, _ELLIPSE_Q2, _ELLIPSE_Q3, _ELLIPSE_Q4 = 1, 2, 4, 8


def _c_div(a, b):
    """C's integer division, which truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


class FrameBuffer:
    def __init__(self, buffer, width, height, format, stride=None):
        stride = width if stride is None else stride
        if width < 1 or height < 1 or width > 0xFFFF or height > 0xFFFF or stride > 0xFFFF or stride < width:
            raise ValueError()
        bpp, height_required, width_required, strides_required = 1, height, width, height - 1
        if format == MONO_VLSB:
            height_required = (height + 7) & ~7
            strides_required = height_required - 8
        elif format in (MONO_HLSB, MONO_HMSB):
            stride = (stride + 7) & ~7
            width_required = (width + 7) & ~7
        elif format == GS2_HMSB:
            stride = (stride + 3) & ~3
            width_required = (width + 3) & ~3
            bpp = 2
        elif format == GS4_HMSB:
            stride = (stride + 1) & ~1
            width_required = (width + 1) & ~1
            bpp = 4
        elif format == GS8:
            bpp = 8
        elif format == RGB565:
            bpp = 16
        else:
            raise ValueError("invalid format")
        view = memoryview(buffer).cast("B")
        if (strides_required * stride + (height_required - strides_required) * width_required) * bpp // 8 > len(view):
            raise ValueError()
        if view.readonly:
            raise TypeError("object with buffer protocol required")
        self._buf = view
        self._width = width
        self._height = height
        self._stride = stride
        self._format = format
        self._setpixel, self._getpixel, self._fill_rect = _FORMATS[format](self)

    # --- drawing, as modframebuf.c ---

    def fill(self, c):
        self._fill_rect(0, 0, self._width, self._height, c)

    def fill_rect(self, x, y, w, h, c):
        self._clipped_fill(x, y, w, h, c)

    def pixel(self, x, y, c=None):
        if 0 <= x < self._width and 0 <= y < self._height:
            if c is None:
                return self._getpixel(x, y)
            self._setpixel(x, y, c)
        return None

    def hline(self, x, y, w, c):
        self._clipped_fill(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self._clipped_fill(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self._clipped_fill(x, y, w, h, c)
        else:
            self._clipped_fill(x, y, w, 1, c)
            self._clipped_fill(x, y + h - 1, w, 1, c)
            self._clipped_fill(x, y, 1, h, c)
            self._clipped_fill(x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c):
        self._line(x1, y1, x2, y2, c)

    def ellipse(self, cx, cy, xr, yr, c, f=False, m=None):
        mask = _ELLIPSE_FILL if f else 0
        mask |= _ELLIPSE_ALL if m is None else (m & _ELLIPSE_ALL)
        if xr == 0 and yr == 0:
            self._setpixel_checked(cx, cy, c, mask & _ELLIPSE_ALL)
            return
        two_asquare = 2 * xr * xr
        two_bsquare = 2 * yr * yr
        x, y = xr, 0
        xchange = yr * yr * (1 - 2 * xr)
        ychange = xr * xr
        error = 0
        stoppingx, stoppingy = two_bsquare * xr, 0
        while stoppingx >= stoppingy:
            self._ellipse_points(cx, cy, x, y, c, mask)
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
            self._ellipse_points(cx, cy, x, y, c, mask)
            x += 1
            stoppingx += two_bsquare
            error += xchange
            xchange += two_bsquare
            if 2 * error + ychange > 0:
                y -= 1
                stoppingy -= two_asquare
                error += ychange
                ychange += two_asquare

    def poly(self, x, y, coords, c, f=False):
        values = memoryview(coords).tolist()  # like the C code: an array, not a list
        n_poly = len(values) // 2
        if n_poly == 0:
            return
        if not f:
            px1, py1 = values[0], values[1]
            i = n_poly * 2 - 1
            while i >= 0:
                py2 = values[i]
                px2 = values[i - 1]
                i -= 2
                self._line(x + px1, y + py1, x + px2, y + py2, c)
                px1, py1 = px2, py2
            return
        ys = values[1 : 2 * n_poly : 2]
        for row in range(min(ys), max(ys) + 1):
            nodes = []
            px1, py1 = values[0], values[1]
            i = n_poly * 2 - 1
            while i >= 0:
                py2 = values[i]
                px2 = values[i - 1]
                i -= 2
                if py1 != py2 and ((py1 > row >= py2) or (py1 <= row < py2)):
                    nodes.append(_c_div(32 * px1 + _c_div(32 * (px2 - px1) * (row - py1), py2 - py1) + 16, 32))
                elif row == max(py1, py2):
                    if py1 < py2:
                        self._setpixel_checked(x + px2, y + py2, c, 1)
                    elif py2 < py1:
                        self._setpixel_checked(x + px1, y + py1, c, 1)
                    else:
                        self._line(x + px1, y + py1, x + px2, y + py2, c)
                px1, py1 = px2, py2
            if not nodes:
                continue
            nodes.sort()
            for k in range(0, len(nodes) - 1, 2):
                self._clipped_fill(x + nodes[k], y + row, nodes[k + 1] - nodes[k] + 1, 1, c)

    def blit(self, fbuf, x, y, key=-1, palette=None):
        if not isinstance(fbuf, FrameBuffer):
            raise TypeError()
        if x >= self._width or y >= self._height or -x >= fbuf._width or -y >= fbuf._height:
            return
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = max(0, -x), max(0, -y)
        x0end = min(self._width, x + fbuf._width)
        y0end = min(self._height, y + fbuf._height)
        key &= 0xFFFFFFFF  # compared as uint32_t in C
        source_get = fbuf._getpixel
        palette_get = palette._getpixel if palette is not None else None
        setpixel = self._setpixel
        while y0 < y0end:
            cx1 = x1
            for cx0 in range(x0, x0end):
                col = source_get(cx1, y1)
                if palette_get is not None:
                    col = palette_get(col, 0)
                if col != key:
                    setpixel(cx0, y0, col)
                cx1 += 1
            y1 += 1
            y0 += 1

    def scroll(self, xstep, ystep):
        if xstep < 0:
            sx, xend, dx = 0, self._width + xstep, 1
            if xend <= 0:
                return
        else:
            sx, xend, dx = self._width - 1, xstep - 1, -1
            if xend >= sx:
                return
        if ystep < 0:
            y, yend, dy = 0, self._height + ystep, 1
            if yend <= 0:
                return
        else:
            y, yend, dy = self._height - 1, ystep - 1, -1
            if yend >= y:
                return
        getpixel, setpixel = self._getpixel, self._setpixel
        while y != yend:
            x = sx
            while x != xend:
                setpixel(x, y, getpixel(x - xstep, y - ystep))
                x += dx
            y += dy

    # --- helpers ---

    def _clipped_fill(self, x, y, w, h, c):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self._height or x >= self._width:
            return
        xend = min(self._width, x + w)
        yend = min(self._height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        self._fill_rect(x, y, xend - x, yend - y, c)

    def _setpixel_checked(self, x, y, c, mask):
        if mask and 0 <= x < self._width and 0 <= y < self._height:
            self._setpixel(x, y, c)

    def _ellipse_points(self, cx, cy, x, y, c, mask):
        if mask & _ELLIPSE_FILL:
            if mask & _ELLIPSE_Q1:
                self._clipped_fill(cx, cy - y, x + 1, 1, c)
            if mask & _ELLIPSE_Q2:
                self._clipped_fill(cx - x, cy - y, x + 1, 1, c)
            if mask & _ELLIPSE_Q3:
                self._clipped_fill(cx - x, cy + y, x + 1, 1, c)
            if mask & _ELLIPSE_Q4:
                self._clipped_fill(cx, cy + y, x + 1, 1, c)
        else:
            self._setpixel_checked(cx + x, cy - y, c, mask & _ELLIPSE_Q1)
            self._setpixel_checked(cx - x, cy - y, c, mask & _ELLIPSE_Q2)
            self._setpixel_checked(cx - x, cy + y, c, mask & _ELLIPSE_Q3)
            self._setpixel_checked(cx + x, cy + y, c, mask & _ELLIPSE_Q4)

    def _line(self, x1, y1, x2, y2, c):
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
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        width, height, setpixel = self._width, self._height, self._setpixel
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                if 0 <= y1 < width and 0 <= x1 < height:
                    setpixel(y1, x1, c)
            elif 0 <= x1 < width and 0 <= y1 < height:
                setpixel(x1, y1, c)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < width and 0 <= y2 < height:
            setpixel(x2, y2, c)


# --- pixel formats: (setpixel, getpixel, fill_rect) over the buffer, as the C tables ---


def _mono_vertical(fb):
    buf, stride = fb._buf, fb._stride

    def setpixel(x, y, c):
        index = (y >> 3) * stride + x
        bit = 1 << (y & 7)
        buf[index] = (buf[index] | bit) if c else (buf[index] & ~bit)

    def getpixel(x, y):
        return (buf[(y >> 3) * stride + x] >> (y & 7)) & 1

    def fill_rect(x, y, w, h, c):
        # One mask per page instead of one pixel at a time: same bytes as the C loop.
        end = y + h
        while y < end:
            page_end = min(end, (y & ~7) + 8)
            mask = ((1 << (page_end - y)) - 1) << (y & 7)
            start = (y >> 3) * stride + x
            if c:
                for index in range(start, start + w):
                    buf[index] |= mask
            else:
                keep = ~mask & 0xFF
                for index in range(start, start + w):
                    buf[index] &= keep
            y = page_end

    return setpixel, getpixel, fill_rect


def _mono_horizontal(fb):
    buf, stride = fb._buf, fb._stride
    msb_right = fb._format == MONO_HMSB

    def setpixel(x, y, c):
        index = (x + y * stride) >> 3
        bit = 1 << ((x & 7) if msb_right else 7 - (x & 7))
        buf[index] = (buf[index] | bit) if c else (buf[index] & ~bit)

    def getpixel(x, y):
        return (buf[(x + y * stride) >> 3] >> ((x & 7) if msb_right else 7 - (x & 7))) & 1

    def fill_rect(x, y, w, h, c):
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                setpixel(xx, yy, c)

    return setpixel, getpixel, fill_rect


def _packed(bits):
    def formats(fb):
        buf, stride = fb._buf, fb._stride
        per_byte = 8 // bits
        value_mask = (1 << bits) - 1

        def shift_of(x):
            if bits == 4:  # GS4_HMSB keeps the even pixel in the high nibble
                return 0 if x & 1 else 4
            return (x % per_byte) * bits

        def setpixel(x, y, c):
            index = (x + y * stride) // per_byte
            shift = shift_of(x)
            buf[index] = ((c & value_mask) << shift) | (buf[index] & ~(value_mask << shift) & 0xFF)

        def getpixel(x, y):
            return (buf[(x + y * stride) // per_byte] >> shift_of(x)) & value_mask

        def fill_rect(x, y, w, h, c):
            for yy in range(y, y + h):
                for xx in range(x, x + w):
                    setpixel(xx, yy, c)

        return setpixel, getpixel, fill_rect

    return formats


def _gs8(fb):
    buf, stride = fb._buf, fb._stride

    def setpixel(x, y, c):
        buf[x + y * stride] = c & 0xFF

    def getpixel(x, y):
        return buf[x + y * stride]

    def fill_rect(x, y, w, h, c):
        for yy in range(y, y + h):
            start = x + yy * stride
            buf[start : start + w] = bytes((c & 0xFF,)) * w

    return setpixel, getpixel, fill_rect


def _rgb565(fb):
    buf, stride = fb._buf, fb._stride

    def setpixel(x, y, c):
        index = 2 * (x + y * stride)
        buf[index] = c & 0xFF
        buf[index + 1] = (c >> 8) & 0xFF

    def getpixel(x, y):
        index = 2 * (x + y * stride)
        return buf[index] | (buf[index + 1] << 8)

    def fill_rect(x, y, w, h, c):
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                setpixel(xx, yy, c)

    return setpixel, getpixel, fill_rect


_FORMATS = {
    MONO_VLSB: _mono_vertical,
    MONO_HLSB: _mono_horizontal,
    MONO_HMSB: _mono_horizontal,
    GS2_HMSB: _packed(2),
    GS4_HMSB: _packed(4),
    GS8: _gs8,
    RGB565: _rgb565,
}
