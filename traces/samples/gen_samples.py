#!/usr/bin/env python3
"""Generates the bundled sample traces that carry geometry (run from the
repository root: python3 traces/samples/gen_samples.py).  The outputs are
committed; this script documents how they were made."""
import json
import math

def lit_sphere(rings=12, segments=16, radius=0.8):
    verts, tris = [], []
    for i in range(rings + 1):
        th = math.pi * i / rings
        for j in range(segments + 1):
            ph = 2 * math.pi * j / segments
            n = (math.sin(th) * math.cos(ph), math.cos(th), math.sin(th) * math.sin(ph))
            verts.append(n)
    row = segments + 1
    for i in range(rings):
        for j in range(segments):
            a, b = i * row + j, i * row + j + 1
            c, d = a + row, b + row
            tris += [(a, c, b), (b, c, d)]
    # no depth test yet: draw far triangles first (the eye looks down -z)
    tris.sort(key=lambda t: sum(verts[k][2] for k in t))
    data = []
    for (x, y, z) in verts:
        data += [round(radius * x, 6), round(radius * y, 6), round(radius * z, 6), 1.0,
                 round(x, 6), round(y, 6), round(z, 6), 0.0]
    idx = [k for t in tris for k in t]
    l = (0.4, 0.6, 0.7)
    ln = math.sqrt(sum(c * c for c in l))
    light = [round(c / ln, 6) for c in l] + [0.0]
    consts = [0.85, 0, 0, 0,  0, 0.85, 0, 0,  0, 0, -0.5, 0,  0, 0, 0, 1] + light + \
             [0.9, 0.55, 0.2, 0.0] + [0.08, 0.08, 0.12, 1.0]
    return {
        "format": "ulpsim-trace", "version": 1, "name": "lit_sphere", "gpu": "tegra2",
        "resources": {
            "vertices": {"type": "buffer", "f32": data},
            "indices": {"type": "buffer", "u16": idx},
        },
        "shaders": {
            "vs": {"stage": "vertex", "tgsi_file": "lit_sphere.vs.tgsi"},
            "fs": {"stage": "fragment", "grate_file": "triangle.fs.asm"},
        },
        "commands": [
            {"cmd": "framebuffer", "width": 128, "height": 128, "cbufs": [{"format": "RGBA8888"}]},
            {"cmd": "bind_shaders", "vs": "vs", "fs": "fs"},
            {"cmd": "vertex_elements", "elements": [
                {"buffer": "vertices", "offset": 0, "stride": 32, "format": "R32G32B32A32_FLOAT"},
                {"buffer": "vertices", "offset": 16, "stride": 32, "format": "R32G32B32A32_FLOAT"}]},
            {"cmd": "constant_buffer", "stage": "vertex", "index": 0, "f32": consts},
            {"cmd": "clear", "color": [0.02, 0.02, 0.05, 1.0]},
            {"cmd": "draw", "mode": "triangles", "count": len(idx),
             "index_buffer": "indices", "index_size": 2},
            {"cmd": "checkpoint", "name": "frame0"},
        ],
    }

def teaching():
    return {
        "format": "ulpsim-trace", "version": 1, "name": "teaching_8x8", "gpu": "tegra2",
        "resources": {"vertices": {"type": "buffer", "f32": [
            -0.75, -0.75, 0.0, 1.0,  1.0, 0.0, 0.0, 1.0,
             0.75, -0.75, 0.0, 1.0,  0.0, 1.0, 0.0, 1.0,
            -0.75,  0.75, 0.0, 1.0,  0.0, 0.0, 1.0, 1.0]}},
        "shaders": {
            "vs": {"stage": "vertex", "tgsi_file": "triangle.vs.tgsi"},
            "fs": {"stage": "fragment", "grate_file": "triangle.fs.asm"},
        },
        "commands": [
            {"cmd": "framebuffer", "width": 8, "height": 8, "cbufs": [{"format": "RGBA8888"}]},
            {"cmd": "bind_shaders", "vs": "vs", "fs": "fs"},
            {"cmd": "vertex_elements", "elements": [
                {"buffer": "vertices", "offset": 0, "stride": 32, "format": "R32G32B32A32_FLOAT"},
                {"buffer": "vertices", "offset": 16, "stride": 32, "format": "R32G32B32A32_FLOAT"}]},
            {"cmd": "clear", "color": [0.0, 0.0, 0.0, 1.0]},
            {"cmd": "draw", "mode": "triangles", "count": 3},
            {"cmd": "checkpoint", "name": "frame0"},
        ],
    }

def write(name, trace):
    with open("traces/samples/" + name, "w") as f:
        json.dump(trace, f, indent=1)
        f.write("\n")

write("lit_sphere.json", lit_sphere())
write("teaching_8x8.json", teaching())
