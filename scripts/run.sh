#!/usr/bin/env bash
# make run: the main job on the bundled default.  It assembles the bundled
# PICA200 vertex shader and runs one vertex through the clocked shader unit
# with a trace, then a batch of 100,000 vertices over the four units; then it
# replays the bundled triangle trace through the whole pipeline to a PNG.
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
echo "replayed traces/samples/triangle.json and lit_sphere.json: TGSI vertex shaders compiled to PICA200,"
echo "uploaded by register writes, fragments through the Tegra PSEQ/MFU/TEX/ALU/DW units."
echo "outputs: $out/triangle.png, $out/triangle.commands.txt (the register writes),"
echo "         $out/lit_sphere.png, $out/lit_sphere.stats.txt, $out/lit_sphere.timeline.json (Perfetto),"
echo "         $out/lit_vertex.shbin, $out/lit_vertex.disasm.txt,"
echo "         $out/lit_vertex.trace.txt (per-instruction trace), $out/lit_vertex.result.json,"
echo "         $out/lit_vertex.batch.json"
