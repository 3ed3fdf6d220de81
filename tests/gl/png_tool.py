#!/usr/bin/env python3
"""png_tool.py black W H OUT.png: an opaque black RGBA PNG (a reference for
`ulpsim compare` when counting lit pixels; tests/gl/run.sh).
png_tool.py size IN.png: prints "W H" from the PNG header."""
import struct
import sys
import zlib


def chunk(kind, data):
    c = struct.pack(">I", len(data)) + kind + data
    return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "size":
        with open(sys.argv[2], "rb") as f:
            head = f.read(24)
        if head[:8] != b"\x89PNG\r\n\x1a\n":
            sys.exit("not a PNG: " + sys.argv[2])
        print(*struct.unpack(">II", head[16:24]))
        return
    if len(sys.argv) != 5 or sys.argv[1] != "black":
        sys.exit("usage: png_tool.py black W H OUT.png")
    w, h = int(sys.argv[2]), int(sys.argv[3])
    row = b"\0" + b"\0\0\0\xff" * w
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(row * h)) + chunk(b"IEND", b"")
    with open(sys.argv[4], "wb") as f:
        f.write(png)


main()
