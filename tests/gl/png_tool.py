#!/usr/bin/env python3
"""png_tool.py black W H OUT.png: an opaque black RGBA PNG (a reference for
`ulpsim compare` when counting lit pixels; tests/gl/run.sh).
png_tool.py size IN.png: prints "W H" from the PNG header.
png_tool.py opaque IN.png OUT.png: IN (8-bit RGB or RGBA, not interlaced)
as RGBA with alpha 255, as an RGB snapshot (eglretrace's) reads (a capture's
replay beside a snapshot; both show the window the right way up:
docs/capture.md)."""
import struct
import sys
import zlib


def chunk(kind, data):
    c = struct.pack(">I", len(data)) + kind + data
    return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_rgba(path, w, h, rows):
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(b"".join(b"\0" + r for r in rows))) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def read_rgba(path):
    """The rows of an 8-bit RGB/RGBA PNG as RGBA bytes."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG: " + path)
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, lace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or lace:
                sys.exit("%s: only 8-bit RGB/RGBA, not interlaced" % path)
            bpp = 4 if ctype == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        rows.append(bytes(line) if bpp == 4 else b"".join(bytes(line[k:k + 3]) + b"\xff" for k in range(0, stride, 3)))
    return w, h, rows


def main():
    a = sys.argv
    if len(a) == 3 and a[1] == "size":
        with open(a[2], "rb") as f:
            head = f.read(24)
        if head[:8] != b"\x89PNG\r\n\x1a\n":
            sys.exit("not a PNG: " + a[2])
        print(*struct.unpack(">II", head[16:24]))
    elif len(a) == 4 and a[1] == "opaque":
        w, h, rows = read_rgba(a[2])
        rows = [bytes(v if i % 4 != 3 else 255 for i, v in enumerate(r)) for r in rows]
        write_rgba(a[3], w, h, rows)
    elif len(a) == 5 and a[1] == "black":
        w, h = int(a[2]), int(a[3])
        write_rgba(a[4], w, h, [b"\0\0\0\xff" * w] * h)
    else:
        sys.exit("usage: png_tool.py black W H OUT.png | size IN.png | opaque IN.png OUT.png")


main()
