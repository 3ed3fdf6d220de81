# ulpsim — one GNU Makefile, per-folder wildcards, objects under $(BUILD)/.
#   make            library, CLI (and the viewer where SDL2 is present)
#   make deps       install missing Debian packages (idempotent, silent)
#   make test       deps + build + Criterion suite
#   make san        the same suite under ASan+UBSan (in build/san)
#   make run        build and run the main job on the bundled default
#   make bench      benchmarks (prints a table; not a test)
#   make piglit     piglit's shader tests through the simulated GPU, scored
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
SHELL := /bin/bash

BUILD   ?= build
CC      ?= cc
OPT     ?= -O2 -g
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
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
TEST_SRC   := $(wildcard tests/*.c)
BENCH_SRC  := $(wildcard bench/*.c)
VIEWER_SRC := $(wildcard viewer/*.c)

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
LIB    := $(BUILD)/libulpsim.a
CLI    := $(BUILD)/ulpsim
TESTS  := $(BUILD)/ulpsim-tests
BENCH  := $(BUILD)/ulpsim-bench
VIEWER := $(BUILD)/ulpsim-view

HAVE_SDL := $(shell pkg-config --exists sdl2 SDL2_ttf 2>/dev/null && echo 1)
ALL := $(LIB) $(CLI)
ifneq ($(and $(HAVE_SDL),$(VIEWER_SRC)),)
ALL += $(VIEWER)
endif

.PHONY: all deps test test-run san run bench piglit clean
all: $(ALL)

# "CC file" per object; V=1 prints the full commands
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(if $(V),,@echo "CC $<"; )$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIB): $(call obj,$(LIB_SRC))
	@mkdir -p $(@D)
	$(if $(V),,@echo "AR $@"; )rm -f $@ && $(AR) rcs $@ $^

$(CLI): $(call obj,$(CLI_SRC)) $(LIB)
	$(if $(V),,@echo "LD $@"; )$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(TESTS): $(call obj,$(TEST_SRC)) $(LIB)
	$(if $(V),,@echo "LD $@"; )$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) $(shell pkg-config --libs criterion) -o $@

$(BENCH): $(call obj,$(BENCH_SRC)) $(LIB)
	$(if $(V),,@echo "LD $@"; )$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(call obj,$(VIEWER_SRC)): CFLAGS += $(shell pkg-config --cflags sdl2 SDL2_ttf 2>/dev/null)
$(VIEWER): $(call obj,$(VIEWER_SRC)) $(LIB)
	$(if $(V),,@echo "LD $@"; )$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) $(shell pkg-config --libs sdl2 SDL2_ttf) -lpthread -o $@

deps:
	@bash scripts/deps.sh

# Sub-make so that pkg-config is asked after deps has installed what was missing.
test: deps
	@$(MAKE) --no-print-directory test-run

test-run: $(ALL) $(TESTS)
	@bash scripts/check_layers.sh
	ULPSIM_BIN=$(CLI) ULPSIM_VIEW=$(if $(filter $(VIEWER),$(ALL)),$(VIEWER)) \
	    ULPSIM_CORPUS=$(CORPUS) $(TESTS) --jobs 2 $(TESTFLAGS)

# Criterion's workers can report a leak and still pass, so the log is
# searched for sanitizer reports too.
san: deps
	@mkdir -p build/san
	@set -o pipefail; $(MAKE) --no-print-directory BUILD=build/san OPT="-O1 -g $(SAN)" \
	    LDFLAGS="$(SAN)" test-run 2>&1 | tee build/san/test.log
	@! grep -E 'ERROR: (Leak|Address)Sanitizer|runtime error:' build/san/test.log \
	    || { echo "san: sanitizer reports above" >&2; exit 1; }

run: deps
	@$(MAKE) --no-print-directory all
	@bash scripts/run.sh $(CLI)

bench: deps
	@$(MAKE) --no-print-directory $(BENCH) $(CLI)
	ULPSIM_CORPUS=$(CORPUS) $(BENCH)

# The whole visible piglit corpus through the simulated GPU (docs/piglit.md).
piglit: deps
	@$(MAKE) --no-print-directory $(CLI)
	$(CLI) piglit $(CORPUS)/tgsi-noint/* --compare-softpipe --quiet --report-only

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
