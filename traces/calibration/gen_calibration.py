#!/usr/bin/env python3
"""Write the calibration micro-benchmark traces (docs/calibration.md).
usage: gen_calibration.py [OUTDIR]   (default: this folder)
Each trace draws one full-screen quad (two triangles) of W x H pixels, so the
fragment work dwarfs the few cycles of vertex work and pipeline fill."""
import json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1] if len(sys.argv) > 1 else here
W = H = 256

VS = ("VERT\nDCL IN[0]\nDCL IN[1]\nDCL IN[2]\nDCL OUT[0], POSITION\n"
      "DCL OUT[1], COLOR\nDCL OUT[2].xy, GENERIC[0]\n"
      "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[1]\n  2: MOV OUT[2].xy, IN[2].xyxx\n  3: END\n")
# the passed-through colour (Mesa's fs_color, ../shared/perf)
FS_COLOR = ("FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nDCL IN[0], COLOR, COLOR\n"
            "DCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n")
# a constant colour
FS_CONST = ("FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nDCL OUT[0], COLOR\n"
            "IMM[0] FLT32 {    0.2500,     0.5000,     0.7500,     1.0000}\n"
            "  0: MOV OUT[0], IMM[0]\n  1: END\n")
# texture x colour (Mesa's fs_tex, ../shared/perf)
FS_TEX = ("FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nDCL IN[0], COLOR, COLOR\n"
          "DCL IN[1].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
          "DCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\n"
          "  0: TEX TEMP[0], IN[1].xyyy, SAMP[0], 2D\n  1: MUL OUT[0], TEMP[0], IN[0]\n  2: END\n")
# a long ALU program: ALU_MADS dependent vec4 MADs
ALU_MADS = 24
FS_ALU = ("FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nDCL IN[0], COLOR, COLOR\n"
          "DCL OUT[0], COLOR\nDCL TEMP[0]\n"
          "IMM[0] FLT32 {    0.5000,     0.5000,     0.5000,     0.5000}\n"
          "IMM[1] FLT32 {    0.2500,     0.2500,     0.2500,     0.2500}\n"
          "  0: MOV TEMP[0], IN[0]\n"
          + "".join(f"  {i + 1}: MAD TEMP[0], TEMP[0], IMM[0], IMM[1]\n" for i in range(ALU_MADS))
          + f"  {ALU_MADS + 1}: MOV OUT[0], TEMP[0]\n  {ALU_MADS + 2}: END\n")
# a human-written grate program: the passed-through colour in one ALU packet
# (the shape of grate's and xf86-video-opentegra's solid/colour programs)
FS_GRATE = """alu_buffer_size = 1
pseq_to_dw_exec_nb = 1

.asm
EXEC
	MFU:	sfu: rcp r4
		mul0: bar, sfu, bar0
		mul1: bar, sfu, bar1
		ipl: t0.fp20, t0.fp20, t0.fp20, t0.fp20
	TEX:	NOP
	ALU:
		ALU0:	MAD  r3.*h,  r3,         #1,         #0,         #1
		ALU1:	MAD  r3.l*,  r2,         #1,         #0,         #1
		ALU2:	MAD  r2.*h,  r1,         #1,         #0,         #1
		ALU3:	MAD  r2.l*,  r0,         #1,         #0,         #1
	DW:	store rt1, r2, r3
;
"""

# a human-written textured fill: the texel as it comes, TEX and DW in the EXEC
# of the interpolation (grate's texture-wrap program without its scale)
FS_GRATE_TEX = """alu_buffer_size = 1
pseq_to_dw_exec_nb = 1

.asm
EXEC
	MFU:	sfu: rcp r4
		mul0: bar, sfu, bar0
		mul1: bar, sfu, bar1
		ipl: t1.fp20, t1.fp20, NOP, NOP
	TEX:	tex r2, r3, tex0, r0, r1, r2
	DW:	store rt1, r2, r3
;
"""
# a human-written long ALU program: GRATE_ALU_EXECS EXECs of three full ALU
# packets (4 MADs each), then the one-packet pack to UNORM8 and the store
GRATE_ALU_EXECS = 8
_MADS = "".join("\tALU:\n" + "".join(f"\t\tALU{i}:\tMAD  r{i}.lh,  r{i},  #1,  #0\n" for i in range(4))
                for _ in range(3))
FS_GRATE_ALU = ("alu_buffer_size = 1\npseq_to_dw_exec_nb = %d\n\n.asm\n" % (GRATE_ALU_EXECS + 1)
                + "EXEC\n\tMFU:\tsfu: rcp r4\n\t\tmul0: bar, sfu, bar0\n\t\tmul1: bar, sfu, bar1\n"
                  "\t\tipl: t0.fp20, t0.fp20, t0.fp20, t0.fp20\n" + _MADS + ";\n"
                + ("EXEC\n" + _MADS + ";\n") * (GRATE_ALU_EXECS - 1)
                + "EXEC\n\tALU:\n"
                  "\t\tALU0:\tMAD  r3.*h,  r3,  #1,  #0,  #1\n\t\tALU1:\tMAD  r3.l*,  r2,  #1,  #0,  #1\n"
                  "\t\tALU2:\tMAD  r2.*h,  r1,  #1,  #0,  #1\n\t\tALU3:\tMAD  r2.l*,  r0,  #1,  #0,  #1\n"
                  "\tDW:\tstore rt1, r2, r3\n;\n")
GRATE = (FS_GRATE, FS_GRATE_TEX, FS_GRATE_ALU)

# x y z w  r g b a  s t
def quad(z):
    c = [[-1, -1, 0, 0], [1, -1, 1, 0], [1, 1, 1, 1], [-1, 1, 0, 1]]
    v = []
    for i in (0, 1, 2, 0, 2, 3):
        x, y, s, t = c[i]
        v += [x, y, z, 1, 0.25 + 0.5 * s, 0.5, 0.75 - 0.5 * t, 1, s, t]
    return v

TS = 64
tex = []
for y in range(TS):
    for x in range(TS):
        tex += [x * 255 // (TS - 1), y * 255 // (TS - 1), 255 if (x ^ y) & 8 else 0, 255]

def trace(name, gpu, fs, depth=False, texture=False):
    fsd = {"stage": "fragment", "grate": fs} if any(fs is g for g in GRATE) else {"stage": "fragment", "tgsi": fs}
    fb = {"cmd": "framebuffer", "width": W, "height": H, "cbufs": [{"format": "RGBA8888"}]}
    if depth:
        fb["zsbuf"] = {"format": "D16"}
    cmds = [fb,
            {"cmd": "viewport", "scale": [W / 2, H / 2, 0.5], "translate": [W / 2, H / 2, 0.5]},
            {"cmd": "rasterizer", "cull": "none"},
            {"cmd": "bind_shaders", "vs": "vs", "fs": "fs"},
            {"cmd": "vertex_elements", "elements": [
                {"buffer": "vb", "offset": 0, "stride": 40, "format": "R32G32B32A32_FLOAT"},
                {"buffer": "vb", "offset": 16, "stride": 40, "format": "R32G32B32A32_FLOAT"},
                {"buffer": "vb", "offset": 32, "stride": 40, "format": "R32G32_FLOAT"}]}]
    res = {"vb": {"type": "buffer", "f32": quad(0.0)}}
    if texture:
        res["tex"] = {"type": "texture", "format": "RGBA8888", "width": TS, "height": TS, "u8": tex}
        cmds += [{"cmd": "sampler_view", "index": 0, "resource": "tex"},
                 {"cmd": "sampler", "index": 0, "filter": "linear", "wrap": "repeat"}]
    if depth:
        # every fragment (window z 0.5) fails LESS against a depth buffer cleared to 0
        cmds += [{"cmd": "depth_stencil_alpha", "depth": {"enabled": True, "writemask": True, "func": "less"}},
                 {"cmd": "clear", "color": [0, 0, 0, 1], "depth": 0.0}]
    else:
        cmds += [{"cmd": "clear", "color": [0, 0, 0, 1]}]
    cmds += [{"cmd": "draw", "mode": "triangles", "start": 0, "count": 6},
             {"cmd": "checkpoint", "name": "end"}]
    t = {"format": "ulpsim-trace", "version": 1, "name": name, "gpu": gpu, "resources": res,
         "shaders": {"vs": {"stage": "vertex", "tgsi": VS}, "fs": fsd}, "commands": cmds}
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(t, f, indent=1)
        f.write("\n")

os.makedirs(out, exist_ok=True)
for gpu in ("tegra2", "tegra3"):
    trace(f"fill_grate.{gpu}", gpu, FS_GRATE)
    trace(f"fill_color.{gpu}", gpu, FS_COLOR)
    trace(f"fill_const.{gpu}", gpu, FS_CONST)
    trace(f"zreject.{gpu}", gpu, FS_COLOR, depth=True)
    trace(f"fill_tex.{gpu}", gpu, FS_TEX, texture=True)
    trace(f"alu_long.{gpu}", gpu, FS_ALU)
    trace(f"fill_grate_tex.{gpu}", gpu, FS_GRATE_TEX, texture=True)
    trace(f"alu_grate.{gpu}", gpu, FS_GRATE_ALU)
