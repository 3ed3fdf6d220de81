#!/usr/bin/env bash
# make run: the main job on the bundled default.  It assembles the bundled
# PICA200 vertex shader and runs one vertex through the clocked shader unit
# with a trace, then a batch of 100,000 vertices over the four units; then it
# replays the bundled triangle, lit sphere, depth-tested cube, alpha-blending
# and GS particle traces to PNGs.
set -euo pipefail
bin=${1:-build/ulpsim}
out=build/run
mkdir -p "$out"
src=traces/samples/lit_vertex.v.pica
"$bin" pica asm -o "$out/lit_vertex.shbin" "$src"
"$bin" pica disasm "$out/lit_vertex.shbin" > "$out/lit_vertex.disasm.txt"
"$bin" pica run "$out/lit_vertex.shbin" --case traces/samples/lit_vertex.case.json \
    --trace > "$out/lit_vertex.result.json" 2> "$out/lit_vertex.trace.txt"
"$bin" pica run "$out/lit_vertex.shbin" --case traces/samples/lit_vertex.case.json \
    --batch 100000 > "$out/lit_vertex.batch.json"
echo "ulpsim: assembled $src and ran it on the clocked PICA200 shader unit."
echo "one vertex (outputs and cycles):"
cat "$out/lit_vertex.result.json"
echo "100,000 vertices over 4 units:"
cat "$out/lit_vertex.batch.json"
"$bin" replay traces/samples/triangle.json -o "$out/triangle.png" --dump-commands \
    > "$out/triangle.commands.txt"
"$bin" replay traces/samples/lit_sphere.json -o "$out/lit_sphere.png" \
    --stats "$out/lit_sphere.stats.txt" --timeline "$out/lit_sphere.timeline.json"
"$bin" replay traces/samples/textured_cube.json -o "$out/textured_cube.png" \
    --stats "$out/textured_cube.stats.txt"
"$bin" replay traces/samples/alpha_blend.json -o "$out/alpha_blend.png"
"$bin" replay traces/samples/gs_particles.json -o "$out/gs_particles.png" \
    --stats "$out/gs_particles.stats.txt"
echo "replayed traces/samples/triangle.json, lit_sphere.json, textured_cube.json (depth-tested),"
echo "alpha_blend.json (blending compiled into the fragment program) and gs_particles.json (points"
echo "expanded by a geometry shader on the fourth PICA200 unit): TGSI vertex/geometry shaders compiled to PICA200,"
echo "uploaded by register writes, fragments through the Tegra ZS (early depth)/PSEQ/MFU/TEX/ALU/DW units."
echo "outputs: $out/triangle.png, $out/triangle.commands.txt (the register writes),"
echo "         $out/lit_sphere.png, $out/lit_sphere.stats.txt, $out/lit_sphere.timeline.json (Perfetto),"
echo "         $out/textured_cube.png, $out/textured_cube.stats.txt, $out/alpha_blend.png,"
echo "         $out/gs_particles.png, $out/gs_particles.stats.txt,"
echo "         $out/lit_vertex.shbin, $out/lit_vertex.disasm.txt,"
echo "         $out/lit_vertex.trace.txt (per-instruction trace), $out/lit_vertex.result.json,"
echo "         $out/lit_vertex.batch.json"
