"""PNG files written with zlib and struct only, in every form image-classifier reads: grey,
RGB, RGBA, grey+alpha, palette, 1-bit and 16-bit samples, Adam7-interlaced, and broken ones
(cut short, a bad CRC). The tests make their images with it at run time."""
import struct
import zlib

GREY, RGB, PALETTE, GREY_ALPHA, RGBA = 0, 2, 3, 4, 6
SAMPLES = {GREY: 1, RGB: 3, PALETTE: 1, GREY_ALPHA: 2, RGBA: 4}


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def _pack_row(row, depth):
    """Samples of one row as bytes: 16-bit big-endian, 8-bit as is, 1/2/4-bit packed from the left."""
    if depth == 16:
        return b"".join(struct.pack(">H", v) for v in row)
    if depth == 8:
        return bytes(row)
    per = 8 // depth
    out = bytearray()
    for i in range(0, len(row), per):
        byte = 0
        for j, v in enumerate(row[i:i + per]):
            byte |= v << (8 - depth * (j + 1))
        out.append(byte)
    return bytes(out)


# Adam7's passes: first column and row, column and row steps (PNG spec, 8.2).
ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))


def encode(rows, kind, depth=8, palette=None, interlace=False):
    """rows: h lists of w * SAMPLES[kind] sample values."""
    n = SAMPLES[kind]
    h, w = len(rows), len(rows[0]) // n
    if interlace:  # each pass a small image of its own rows, each row filter 0
        raw = b""
        for x0, y0, dx, dy in ADAM7:
            for y in range(y0, h, dy):
                sub = [v for x in range(x0, w, dx) for v in rows[y][x * n:(x + 1) * n]]
                if sub:
                    raw += b"\0" + _pack_row(sub, depth)
    else:
        raw = b"".join(b"\0" + _pack_row(r, depth) for r in rows)
    header = struct.pack(">IIBBBBB", w, h, depth, kind, 0, 0, 1 if interlace else 0)
    data = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
    if palette is not None:
        data += _chunk(b"PLTE", bytes(v for rgb in palette for v in rgb))
    return data + _chunk(b"IDAT", zlib.compress(raw)) + _chunk(b"IEND", b"")


def write(path, rows, kind, depth=8, palette=None):
    with open(path, "wb") as f:
        f.write(encode(rows, kind, depth, palette))


def grey(path, pixels):
    """pixels: h x w values 0..255 (numpy or lists)."""
    write(path, [[int(v) for v in r] for r in pixels], GREY)


def rgb(path, pixels):
    """pixels: h x w x 3 values 0..255."""
    write(path, [[int(v) for px in r for v in px] for r in pixels], RGB)
