# asmcap — read top to bottom: build the probe, probe $(CC), generate the
# Montgomery code from its verdicts, build the library, print the table.
#
#   make            everything above, for the default compiler
#   make test       install what is missing (ci/deps), run every test
#   make regen CC=clang-19    probe another toolchain and regenerate
#   make bench | bench-probe | matrix | fuzz | flavours | install | clean

CC      ?= cc
CFLAGS  ?= -O2
ASFLAGS ?=
PERL    ?= perl
PYTEST  ?= /usr/bin/python3 -m pytest
BUILD   ?= build
PREFIX  ?= /usr/local
# How asmcap itself is compiled (never the flags under test).
TOOL_CFLAGS = -std=c11 -O2 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE

all: $(BUILD)/asmcap $(BUILD)/caps.json $(BUILD)/libmont.a $(BUILD)/libmont.so
	@$(BUILD)/asmcap --cc "$(CC)" --cflags "$(CFLAGS)" --asflags "$(ASFLAGS)" --cache $(BUILD)/caps.cache

$(BUILD):
	@mkdir -p $@

## 1. The probe: build/asmcap (libc only; the catalog is compiled in) ##########
PROBE_SRC := $(sort $(wildcard probe/*.c))
PROBE_HDR := $(wildcard probe/*.h)
TEMPLATES := $(sort $(wildcard templates/*/*))

$(BUILD)/catalog.c: probe/embed-catalog.pl $(TEMPLATES) | $(BUILD)
	$(PERL) probe/embed-catalog.pl templates >$@.tmp && mv $@.tmp $@

$(BUILD)/asmcap: $(PROBE_SRC) $(PROBE_HDR) $(BUILD)/catalog.c | $(BUILD)
	$(CC) $(TOOL_CFLAGS) -Iprobe -o $@ $(PROBE_SRC) $(BUILD)/catalog.c

## 2. Caps for the default toolchain (re-probed every time; the cache makes
## that free, and -o rewrites the file only when a verdict changed) ##########
$(BUILD)/caps.json: $(BUILD)/asmcap FORCE
	@$(BUILD)/asmcap --cc "$(CC)" --cflags "$(CFLAGS)" --asflags "$(ASFLAGS)" \
		--cache $(BUILD)/caps.cache --format json -o $@
caps: $(BUILD)/caps.json

## 3. Generated Montgomery code and the library ###############################
## (mont section)

## 4. Tests, benchmarks, matrix ###############################################
test:
	ci/deps
	$(MAKE) all
	$(PYTEST) -q tests

clean:
	rm -rf $(BUILD)

FORCE:
.PHONY: all caps test clean FORCE
