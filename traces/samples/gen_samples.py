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

def mat_mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]

def textured_cube(size=128):
    """A depth-tested, textured cube: faces in an order that needs the depth
    test (the far faces are drawn last), a checker texture modulated by a
    per-face colour, a D24S8 depth buffer cleared to 1.0, func less."""
    faces = [  # normal axis, sign: four corners counter-clockwise seen from outside
        ((0, 0, 1), [(-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)], (1.0, 0.45, 0.45)),
        ((1, 0, 0), [(1, -1, 1), (1, -1, -1), (1, 1, -1), (1, 1, 1)], (0.45, 1.0, 0.45)),
        ((0, 1, 0), [(-1, 1, 1), (1, 1, 1), (1, 1, -1), (-1, 1, -1)], (0.45, 0.6, 1.0)),
        ((0, 0, -1), [(1, -1, -1), (-1, -1, -1), (-1, 1, -1), (1, 1, -1)], (1.0, 1.0, 0.4)),
        ((-1, 0, 0), [(-1, -1, -1), (-1, -1, 1), (-1, 1, 1), (-1, 1, -1)], (1.0, 0.5, 1.0)),
        ((0, -1, 0), [(-1, -1, -1), (1, -1, -1), (1, -1, 1), (-1, -1, 1)], (0.4, 1.0, 1.0)),
    ]
    uv = [(0, 0), (1, 0), (1, 1), (0, 1)]
    data, idx = [], []
    # the visible faces (+z, +x, +y after the rotation) first, the hidden ones last
    for n, (axis, corners, col) in enumerate(faces):
        for c, (s, t) in zip(corners, uv):
            data += [0.5 * c[0], 0.5 * c[1], 0.5 * c[2], 1.0, s, t, 0.0, 1.0, col[0], col[1], col[2], 1.0]
        b = 4 * n
        idx += [b, b + 1, b + 2, b, b + 2, b + 3]
    ay, ax = math.radians(35), math.radians(25)
    ry = [[math.cos(ay), 0, math.sin(ay), 0], [0, 1, 0, 0], [-math.sin(ay), 0, math.cos(ay), 0], [0, 0, 0, 1]]
    rx = [[1, 0, 0, 0], [0, math.cos(ax), -math.sin(ax), 0], [0, math.sin(ax), math.cos(ax), 0], [0, 0, 0, 1]]
    tr = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, -2.2], [0, 0, 0, 1]]
    n_, f_ = 1.0, 5.0
    fy = 1 / math.tan(math.radians(30))
    proj = [[fy, 0, 0, 0], [0, fy, 0, 0], [0, 0, (f_ + n_) / (n_ - f_), 2 * f_ * n_ / (n_ - f_)], [0, 0, -1, 0]]
    mvp = mat_mul(proj, mat_mul(tr, mat_mul(rx, ry)))
    consts = [round(v, 6) for row in mvp for v in row]
    checker = []
    for y in range(8):
        for x in range(8):
            on = (x + y) % 2 == 0
            checker += [235, 235, 235, 255] if on else [70, 70, 90, 255]
    return {
        "format": "ulpsim-trace", "version": 1, "name": "textured_cube", "gpu": "tegra2",
        "resources": {
            "vertices": {"type": "buffer", "f32": [round(v, 6) for v in data]},
            "indices": {"type": "buffer", "u16": idx},
            "checker": {"type": "texture", "format": "RGBA8888", "width": 8, "height": 8, "u8": checker},
        },
        "shaders": {
            "vs": {"stage": "vertex", "tgsi_file": "textured_cube.vs.tgsi"},
            "fs": {"stage": "fragment", "tgsi_file": "textured_cube.fs.tgsi"},
        },
        "commands": [
            {"cmd": "framebuffer", "width": size, "height": size, "cbufs": [{"format": "RGBA8888"}],
             "zsbuf": {"format": "D24S8"}},
            {"cmd": "viewport", "scale": [size / 2, size / 2, 0.5], "translate": [size / 2, size / 2, 0.5]},
            {"cmd": "depth_stencil_alpha", "depth": {"enabled": True, "writemask": True, "func": "less"}},
            {"cmd": "bind_shaders", "vs": "vs", "fs": "fs"},
            {"cmd": "vertex_elements", "elements": [
                {"buffer": "vertices", "offset": 0, "stride": 48, "format": "R32G32B32A32_FLOAT"},
                {"buffer": "vertices", "offset": 16, "stride": 48, "format": "R32G32B32A32_FLOAT"},
                {"buffer": "vertices", "offset": 32, "stride": 48, "format": "R32G32B32A32_FLOAT"}]},
            {"cmd": "constant_buffer", "stage": "vertex", "index": 0, "f32": consts},
            {"cmd": "sampler_view", "index": 0, "resource": "checker"},
            {"cmd": "sampler", "index": 0, "filter": "nearest", "wrap": "clamp"},
            {"cmd": "clear", "color": [0.05, 0.05, 0.08, 1.0], "depth": 1.0},
            {"cmd": "draw", "mode": "triangles", "count": len(idx),
             "index_buffer": "indices", "index_size": 2},
            {"cmd": "checkpoint", "name": "frame0"},
        ],
    }

VS_POS_COLOR = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\n" \
               "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[1]\n  2: END\n"
FS_COLOR = "FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n"

def tri_data(tris):
    """(x, y, r, g, b, a) per vertex -> position (z 0, w 1) and colour, interleaved."""
    data = []
    for t in tris:
        for (x, y, r, g, b, a) in t:
            data += [x, y, 0.0, 1.0, r, g, b, a]
    return data

def alpha_blend(size=96):
    """An opaque white triangle, then three translucent ones blended over it
    with src_alpha / inv_src_alpha: the blend is compiled into the fragment
    program (PSEQ fetches the destination, the ALU mixes)."""
    opaque = [(-0.9, -0.9, 1, 1, 1, 1), (0.9, -0.9, 1, 1, 1, 1), (0.0, 0.9, 1, 1, 1, 1)]
    glass = [
        [(-0.8, -0.2, 1, 0, 0, 0.5), (0.3, -0.2, 1, 0, 0, 0.5), (-0.25, 0.8, 1, 0, 0, 0.5)],
        [(-0.3, -0.8, 0, 1, 0, 0.5), (0.8, -0.8, 0, 1, 0, 0.5), (0.25, 0.2, 0, 1, 0, 0.5)],
        [(-0.6, -0.6, 0, 0, 1, 0.35), (0.6, -0.6, 0, 0, 1, 0.35), (0.0, 0.6, 0, 0, 1, 0.35)],
    ]
    data = tri_data([opaque] + glass)
    els = {"cmd": "vertex_elements", "elements": [
        {"buffer": "vertices", "offset": 0, "stride": 32, "format": "R32G32B32A32_FLOAT"},
        {"buffer": "vertices", "offset": 16, "stride": 32, "format": "R32G32B32A32_FLOAT"}]}
    return {
        "format": "ulpsim-trace", "version": 1, "name": "alpha_blend", "gpu": "tegra2",
        "resources": {"vertices": {"type": "buffer", "f32": data}},
        "shaders": {"vs": {"stage": "vertex", "tgsi": VS_POS_COLOR},
                    "fs": {"stage": "fragment", "tgsi": FS_COLOR}},
        "commands": [
            {"cmd": "framebuffer", "width": size, "height": size, "cbufs": [{"format": "RGBA8888"}]},
            {"cmd": "bind_shaders", "vs": "vs", "fs": "fs"},
            els,
            {"cmd": "clear", "color": [0.05, 0.05, 0.15, 1.0]},
            {"cmd": "draw", "mode": "triangles", "start": 0, "count": 3},
            {"cmd": "blend", "enable": True, "rgb_func": "add", "rgb_src": "src_alpha",
             "rgb_dst": "inv_src_alpha", "alpha_src": "one", "alpha_dst": "inv_src_alpha"},
            {"cmd": "draw", "mode": "triangles", "start": 3, "count": 9},
            {"cmd": "checkpoint", "name": "frame0"},
        ],
    }

def discard(size=64):
    """A quad whose fragment shader discards outside the unit disc of its
    texture coordinate: a disc with a colour gradient (KILL_IF)."""
    fs = ("FRAG\nDCL IN[0], COLOR, COLOR\nDCL IN[1], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
          "DCL TEMP[0]\nIMM[0] FLT32 {    1.0000,     0.0000,     0.0000,     0.0000}\n"
          "  0: DP2 TEMP[0].x, IN[1].xyyy, IN[1].xyyy\n"
          "  1: ADD TEMP[0].x, IMM[0].xxxx, -TEMP[0].xxxx\n"
          "  2: KILL_IF TEMP[0].xxxx\n  3: MOV OUT[0], IN[0]\n  4: END\n")
    vs = ("VERT\nDCL IN[0]\nDCL IN[1]\nDCL IN[2]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\n"
          "DCL OUT[2], GENERIC[0]\n  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[1]\n"
          "  2: MOV OUT[2], IN[2]\n  3: END\n")
    corners = [(-0.9, -0.9, 1, 0, 0, -1, -1), (0.9, -0.9, 0, 1, 0, 1, -1),
               (-0.9, 0.9, 0, 0, 1, -1, 1), (0.9, 0.9, 1, 1, 0, 1, 1)]
    data = []
    for (x, y, r, g, b, s, t) in corners:
        data += [x, y, 0.0, 1.0, r, g, b, 1.0, s, t, 0.0, 1.0]
    return {
        "format": "ulpsim-trace", "version": 1, "name": "discard", "gpu": "tegra2",
        "resources": {"vertices": {"type": "buffer", "f32": data}},
        "shaders": {"vs": {"stage": "vertex", "tgsi": vs}, "fs": {"stage": "fragment", "tgsi": fs}},
        "commands": [
            {"cmd": "framebuffer", "width": size, "height": size, "cbufs": [{"format": "RGBA8888"}]},
            {"cmd": "bind_shaders", "vs": "vs", "fs": "fs"},
            {"cmd": "vertex_elements", "elements": [
                {"buffer": "vertices", "offset": 0, "stride": 48, "format": "R32G32B32A32_FLOAT"},
                {"buffer": "vertices", "offset": 16, "stride": 48, "format": "R32G32B32A32_FLOAT"},
                {"buffer": "vertices", "offset": 32, "stride": 48, "format": "R32G32B32A32_FLOAT"}]},
            {"cmd": "clear", "color": [0.1, 0.1, 0.1, 1.0]},
            {"cmd": "draw", "mode": "triangle_strip", "start": 0, "count": 4},
            {"cmd": "checkpoint", "name": "frame0"},
        ],
    }

def gs_particles(size=128, n=32):
    """32 particles on a two-turn helix, drawn as points; a geometry shader
    (gs_particles.gs.tgsi) expands each into a camera-facing quad (a
    4-vertex triangle strip: 2 triangles) of the particle's colour, over a
    gradient background drawn without one.  No depth test: the particles
    are sorted far to near."""
    ay, ax = math.radians(20), math.radians(-25)
    ry = [[math.cos(ay), 0, math.sin(ay), 0], [0, 1, 0, 0], [-math.sin(ay), 0, math.cos(ay), 0], [0, 0, 0, 1]]
    rx = [[1, 0, 0, 0], [0, math.cos(ax), -math.sin(ax), 0], [0, math.sin(ax), math.cos(ax), 0], [0, 0, 0, 1]]
    tr = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, -3.0], [0, 0, 0, 1]]
    n_, f_ = 1.0, 6.0
    fy = 1 / math.tan(math.radians(25))
    proj = [[fy, 0, 0, 0], [0, fy, 0, 0], [0, 0, (f_ + n_) / (n_ - f_), 2 * f_ * n_ / (n_ - f_)], [0, 0, -1, 0]]
    view = mat_mul(tr, mat_mul(rx, ry))
    mvp = mat_mul(proj, view)
    parts = []
    for i in range(n):
        a = 2 * math.pi * i / 16
        p = (0.85 * math.cos(a), -0.7 + 1.4 * i / (n - 1), 0.85 * math.sin(a))
        h = i / n                      # hue -> a saturated colour per particle
        k = [(5 + 6 * h) % 6, (3 + 6 * h) % 6, (1 + 6 * h) % 6]
        col = [1 - max(0, min(v, 4 - v, 1)) for v in k]
        ez = sum(view[2][j] * c for j, c in enumerate(p)) + view[2][3]
        parts.append((ez, p, col))
    parts.sort(key=lambda q: q[0])     # eye z: most negative (farthest) first
    data = []
    for _, p, col in parts:
        data += [round(p[0], 6), round(p[1], 6), round(p[2], 6), 1.0] + [round(c, 6) for c in col] + [1.0]
    bg = []
    top, bot = (0.05, 0.08, 0.22), (0.18, 0.06, 0.16)
    for (x, y) in [(-1, -1), (1, -1), (1, 1), (-1, -1), (1, 1), (-1, 1)]:
        c = top if y > 0 else bot
        bg += [x, y, 0.0, 1.0, c[0], c[1], c[2], 1.0]
    r = 0.09                           # half size in world units, at the particle
    return {
        "format": "ulpsim-trace", "version": 1, "name": "gs_particles", "gpu": "tegra2",
        "resources": {
            "particles": {"type": "buffer", "f32": data},
            "background": {"type": "buffer", "f32": bg},
        },
        "shaders": {
            "bg_vs": {"stage": "vertex", "tgsi_file": "triangle.vs.tgsi"},
            "vs": {"stage": "vertex", "tgsi_file": "gs_particles.vs.tgsi"},
            "gs": {"stage": "geometry", "tgsi_file": "gs_particles.gs.tgsi"},
            "fs": {"stage": "fragment", "tgsi_file": "triangle.fs.tgsi"},
        },
        "commands": [
            {"cmd": "framebuffer", "width": size, "height": size, "cbufs": [{"format": "RGBA8888"}]},
            {"cmd": "clear", "color": [0.0, 0.0, 0.0, 1.0]},
            {"cmd": "bind_shaders", "vs": "bg_vs", "fs": "fs"},
            {"cmd": "vertex_elements", "elements": [
                {"buffer": "background", "offset": 0, "stride": 32, "format": "R32G32B32A32_FLOAT"},
                {"buffer": "background", "offset": 16, "stride": 32, "format": "R32G32B32A32_FLOAT"}]},
            {"cmd": "draw", "mode": "triangles", "count": 6},
            {"cmd": "bind_shaders", "vs": "vs", "gs": "gs", "fs": "fs"},
            {"cmd": "vertex_elements", "elements": [
                {"buffer": "particles", "offset": 0, "stride": 32, "format": "R32G32B32A32_FLOAT"},
                {"buffer": "particles", "offset": 16, "stride": 32, "format": "R32G32B32A32_FLOAT"}]},
            {"cmd": "constant_buffer", "stage": "vertex", "index": 0,
             "f32": [round(v, 6) for row in mvp for v in row]},
            {"cmd": "constant_buffer", "stage": "geometry", "index": 0,
             "f32": [round(proj[0][0] * r, 6), round(proj[1][1] * r, 6), 0.0, 0.0]},
            {"cmd": "rasterizer", "cull": "back"},
            {"cmd": "draw", "mode": "points", "count": n},
            {"cmd": "checkpoint", "name": "frame0", "expect_image": "gs_particles.png", "tolerance": 2},
        ],
    }

def write(name, trace):
    with open("traces/samples/" + name, "w") as f:
        json.dump(trace, f, indent=1)
        f.write("\n")

write("lit_sphere.json", lit_sphere())
write("teaching_8x8.json", teaching())
write("textured_cube.json", textured_cube())
write("alpha_blend.json", alpha_blend())
write("discard.json", discard())
write("gs_particles.json", gs_particles())
