# ulpsim — one GNU Makefile, per-folder wildcards, objects under $(BUILD)/.
#   make            library, CLI (and the viewer where SDL2 is present)
#   make deps       install missing Debian packages (idempotent, silent)
#   make test       deps + build + Criterion suite
#   make san        the same suite under ASan+UBSan (in build/san)
#   make run        build and run the main job on the bundled default
#   make bench      benchmarks (prints a table; not a test)
#   make piglit     piglit's shader tests through the simulated GPU, scored
#   make mesa       Mesa 22.3.6 with the ulpsim Gallium driver (cached, docs/gl.md)
#   make piglit-gl  the real piglit shader_runner on the simulated GPU
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
SHELL := /bin/bash

BUILD   ?= build
CC      ?= cc
OPT     ?= -O2 -g
SAN     := -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all
CORPUS  ?= ../shared/corpus

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wpointer-arith -Wformat=2 -Wundef -Wvla
ifneq ($(CI),)
WARN += -Werror
endif

PKGS     := libcjson libpng
PKG_CFL  := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CPPFLAGS += -I. -Iinclude -D_DEFAULT_SOURCE
CFLAGS   += -std=c17 $(OPT) $(WARN) $(PKG_CFL) -MMD -MP
LDLIBS   += $(PKG_LIBS) -lm

# frontends/gallium is built by Mesa's build (make mesa, docs/gl.md).
LIB_SRC    := $(filter-out frontends/gallium/%,$(wildcard base/*.c isa/*.c isa/*/*.c sim/*/*.c \
                units/*.c units/*/*.c frontends/*/*.c traces/*.c traces/*/*.c))
CLI_SRC    := $(wildcard cli/*.c)
TEST_SRC   := $(wildcard tests/*.c tests/*/*.c)
BENCH_SRC  := $(filter-out bench/gl_side.c,$(wildcard bench/*.c))
VIEWER_SRC := $(wildcard viewer/*.c)

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
LIB    := $(BUILD)/libulpsim.a
CLI    := $(BUILD)/ulpsim
TESTS  := $(BUILD)/ulpsim-tests
BENCH  := $(BUILD)/ulpsim-bench
GL_SIDE := $(BUILD)/gl-side
VIEWER := $(BUILD)/ulpsim-view

HAVE_SDL := $(shell pkg-config --exists sdl2 SDL2_ttf 2>/dev/null && echo 1)
ALL := $(LIB) $(CLI)
ifneq ($(and $(HAVE_SDL),$(VIEWER_SRC)),)
ALL += $(VIEWER)
endif

.PHONY: all deps test test-run test-gl san memcheck run bench piglit mesa piglit-gl clean
all: $(ALL)

# "CC file" per object; V=1 prints the full commands
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(if $(V),,@echo "CC $<"; )$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# The library once more, position-independent, as one relocatable object
# for the Gallium driver (make mesa): everything but the symbols named in
# frontends/gallium/exports.txt made local, so none clashes with Mesa's.
picobj = $(patsubst %.c,$(BUILD)/pic/obj/%.o,$(1))
PIC_OBJ := $(BUILD)/pic/ulpsim.o
$(BUILD)/pic/obj/%.o: %.c
	@mkdir -p $(@D)
	$(if $(V),,@echo "CC (pic) $<"; )$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -c $< -o $@

$(PIC_OBJ): $(call picobj,$(LIB_SRC)) frontends/gallium/exports.txt
	$(if $(V),,@echo "LD $@"; )$(LD) -r -o $@.all.o $(filter %.o,$^)
	@objcopy --wildcard --keep-global-symbols=frontends/gallium/exports.txt $@.all.o $@
	rm -f $@.all.o

$(LIB): $(call obj,$(LIB_SRC))
	@mkdir -p $(@D)
	$(if $(V),,@echo "AR $@"; )rm -f $@ && $(AR) rcs $@ $^

$(CLI): $(call obj,$(CLI_SRC)) $(LIB)
	$(if $(V),,@echo "LD $@"; )$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(TESTS): $(call obj,$(TEST_SRC)) $(LIB)
	$(if $(V),,@echo "LD $@"; )$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) $(shell pkg-config --libs criterion) -o $@

$(BENCH): $(call obj,$(BENCH_SRC)) $(LIB)
	$(if $(V),,@echo "LD $@"; )$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# make bench's GL program (bench/gl_side.c): EGL surfaceless + GLES 2
$(GL_SIDE): bench/gl_side.c
	$(if $(V),,@echo "LD $@"; )$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< -lEGL -lGLESv2 -o $@

$(call obj,$(VIEWER_SRC)): CFLAGS += $(shell pkg-config --cflags sdl2 SDL2_ttf 2>/dev/null)
$(VIEWER): $(call obj,$(VIEWER_SRC)) $(LIB)
	$(if $(V),,@echo "LD $@"; )$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) $(shell pkg-config --libs sdl2 SDL2_ttf) -lpthread -o $@

deps:
	@bash scripts/deps.sh

# Sub-make so that pkg-config is asked after deps has installed what was missing.
# test-gl needs Mesa (built once per machine, ~25 min the first time); make
# san runs test-run only, so it never builds Mesa.
test: deps
	@$(MAKE) --no-print-directory test-run
	@$(MAKE) --no-print-directory test-gl

test-run: $(ALL) $(TESTS)
	@bash scripts/check_layers.sh
	ULPSIM_BIN=$(CLI) ULPSIM_VIEW=$(if $(filter $(VIEWER),$(ALL)),$(VIEWER)) \
	    ULPSIM_CORPUS=$(CORPUS) $(TESTS) --jobs 2 $(TESTFLAGS)

# Criterion's workers can report a leak and still pass, and its runner
# leaks on its own now and then, so scripts/san_check.sh judges the log:
# every sanitizer report fails but a leak wholly inside libcriterion.
san: deps
	@mkdir -p build/san
	@set -o pipefail; $(MAKE) --no-print-directory BUILD=build/san OPT="-O1 -g $(SAN)" \
	    LDFLAGS="$(SAN)" test-run 2>&1 | tee build/san/test.log
	@bash scripts/san_check.sh build/san/test.log

# Valgrind's memcheck over replays (scripts/memcheck.sh): reads of memory
# nothing wrote, which the sanitizers of make san cannot see.
memcheck: deps $(CLI) $(BENCH)
	@ULPSIM_CORPUS=$(CORPUS) bash scripts/memcheck.sh $(BUILD)

# The GL tests (tests/gl/run.sh): piglit's shader_runner on a fixed sample,
# a link error, es2gears and glmark2 frames against llvmpipe.
test-gl: mesa $(CLI)
	ULPSIM_BIN=$(CLI) bash tests/gl/run.sh

mesa: $(PIC_OBJ)
	@bash scripts/mesa.sh $(BUILD)/mesa/lib

# The real piglit over mesa-driver.md §4's list (docs/gl.md "piglit").
piglit-gl: deps
	@$(MAKE) --no-print-directory mesa
	ULPSIM_BIN=$(CLI) bash scripts/piglit_gl.sh

run: deps
	@$(MAKE) --no-print-directory all
	@bash scripts/run.sh $(CLI)
	@$(CLI) replay traces/captures/es2gears/frame-0020.json -o build/run/es2gears-frame-0020.png
	@echo "replayed traces/captures/es2gears/frame-0020.json: frame 20 of es2gears_x11 (Mesa's demos, MIT;"
	@echo "Debian mesa-utils-bin 8.5.0) captured at the ulpsim Gallium driver with ulpsim gl --capture, replayed"
	@echo "without Mesa to its image and cycles (traces/captures/es2gears/NOTE.md, docs/capture.md):"
	@echo "         build/run/es2gears-frame-0020.png"

# The simulator's own table, then ulpsim against Mesa's softpipe side by
# side (bench/side_by_side.sh; docs/speed-history.md "Measuring against softpipe").
bench: deps
	@$(MAKE) --no-print-directory $(BENCH) $(CLI) $(GL_SIDE) mesa
	ULPSIM_CORPUS=$(CORPUS) $(BENCH)
	ULPSIM_CORPUS=$(CORPUS) BUILD=$(BUILD) nice bash bench/side_by_side.sh

# The whole visible piglit corpus through the simulated GPU (docs/piglit.md).
piglit: deps
	@$(MAKE) --no-print-directory $(CLI)
	$(CLI) piglit $(CORPUS)/tgsi-noint/* --compare-softpipe --quiet --report-only

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj $(BUILD)/pic -name '*.d' 2>/dev/null)

# ---- fuzzing (docs/robustness.md) -------------------------------------------
#   make fuzz        every libFuzzer target for FUZZ_SECONDS each (default 60);
#                    fails on any finding and prints the reproducer's path
#   make fuzz-smoke  a fixed number of inputs per target (about 15 s each)
#                    from seed 1 and the seeds alone: what CI runs
# The library is compiled again with clang into $(BUILD)/fuzz/ with ASan,
# UBSan (float-cast-overflow included) and libFuzzer's coverage.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SAN     := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all \
                -fno-omit-frame-pointer
FUZZ_CFLAGS  := -std=c17 -O1 -g $(FUZZ_SAN) $(PKG_CFL) -MMD -MP -Wall -Wextra
FUZZ_SRC     := $(wildcard fuzz/fuzz_*.c)
FUZZ_TARGETS := $(patsubst fuzz/%.c,%,$(FUZZ_SRC))
FUZZ_BIN     := $(addprefix $(BUILD)/fuzz/,$(FUZZ_TARGETS))
fuzzobj = $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(1))

.PHONY: fuzz fuzz-smoke fuzz-build fuzz-deps
$(BUILD)/fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(BUILD)/fuzz/libulpsim.a: $(call fuzzobj,$(LIB_SRC))
	rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/fuzz/fuzz_%: $(BUILD)/fuzz/obj/fuzz/fuzz_%.o $(BUILD)/fuzz/libulpsim.a
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $^ $(LDLIBS) -o $@

fuzz-deps:
	@bash scripts/deps-fuzz.sh

# the CLI too: fuzz/run.sh assembles the .fp container's seeds with it
fuzz-build: fuzz-deps
	@$(MAKE) --no-print-directory $(FUZZ_BIN) $(CLI)

fuzz: fuzz-build
	@bash fuzz/run.sh $(BUILD) $(FUZZ_SECONDS) $(CORPUS) $(FUZZ_TARGETS)

# The smoke runs a fixed number of inputs from a fixed seed, so CI asks the
# same questions every time (a campaign, make fuzz, seeds from the clock).
fuzz-smoke: fuzz-build
	@bash fuzz/run.sh $(BUILD) smoke $(CORPUS) $(FUZZ_TARGETS)
-include $(shell find $(BUILD)/fuzz/obj -name '*.d' 2>/dev/null)
# ---- end of fuzzing ---------------------------------------------------------
