"""Pictures of the panel: an OLED-looking PIL image, and text for a terminal."""

from PIL import Image, ImageDraw

OLED_TINT = (140, 215, 255)  # the blue-white of common monochrome OLEDs
GLASS = (10, 12, 16)  # unlit pixels: the glass is not quite black
BEZEL = (26, 28, 32)


def oled_image(rows, brightness=1.0, scale=4, margin=None):
    """The panel as a PIL RGB image: pixels scale x scale with a dark gap between them, on a bezel."""
    height, width = len(rows), len(rows[0])
    margin = scale * 2 if margin is None else margin
    level = max(0.0, min(1.0, brightness))
    lit = tuple(int(GLASS[i] + (OLED_TINT[i] - GLASS[i]) * level) for i in range(3))
    mask = Image.frombytes("L", (width, height), bytes(255 if value else 0 for row in rows for value in row))
    mask = mask.resize((width * scale, height * scale), Image.NEAREST)
    glass = Image.new("RGB", mask.size, GLASS)
    glass.paste(lit, mask=mask)
    if scale >= 3:
        draw = ImageDraw.Draw(glass)
        for x in range(scale - 1, width * scale, scale):
            draw.line([(x, 0), (x, height * scale - 1)], fill=GLASS)
        for y in range(scale - 1, height * scale, scale):
            draw.line([(0, y), (width * scale - 1, y)], fill=GLASS)
    image = Image.new("RGB", (width * scale + 2 * margin, height * scale + 2 * margin), BEZEL)
    image.paste(glass, (margin, margin))
    return image


def half_blocks(rows):
    """The panel as text, two pixel rows per line: ' ', '▀', '▄' and '█'."""
    glyphs = (" ", "▄", "▀", "█")  # index: top * 2 + bottom
    lines = []
    for y in range(0, len(rows), 2):
        top = rows[y]
        bottom = rows[y + 1] if y + 1 < len(rows) else [0] * len(top)
        lines.append("".join(glyphs[t * 2 + b] for t, b in zip(top, bottom)))
    return lines


def save_gif(images, path, frame_ms=100):
    """An animated GIF of PIL images, frame_ms each, looping."""
    if not images:
        raise ValueError("no frames to write")
    first, rest = images[0], images[1:]
    first.save(path, save_all=True, append_images=rest, duration=frame_ms, loop=0, optimize=False)
