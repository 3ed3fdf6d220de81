// ulpsim sample: write the interpolated colour (TRAM row 0 = the vertex
// shader's COLOR output, x y z w = r g b a) to render target 1.
alu_buffer_size = 1
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
