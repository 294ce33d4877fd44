# SPDX-License-Identifier: MIT
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
# asmcap's version, kept in VERSION alone (--version, caps.json, mont.pc, the
# CMake version file and the man page take it from there).
VERSION := $(shell cat VERSION)
# How asmcap itself is compiled (never the flags under test).
TOOL_CFLAGS = -std=c11 -O2 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
              -D_FILE_OFFSET_BITS=64   # 32-bit builds: readdir fails on 64-bit inodes without it

all: $(BUILD)/asmcap $(BUILD)/caps.json $(BUILD)/libmont.a $(BUILD)/libmont.so \
     $(BUILD)/AsmcapConfigVersion.cmake
	@$(BUILD)/asmcap --cc "$(CC)" --cflags "$(CFLAGS)" --asflags "$(ASFLAGS)" --cache $(BUILD)/caps.cache

$(BUILD):
	@mkdir -p $@

## 1. The probe: build/asmcap (libc only; the catalog is compiled in) ##########
# probe/: main.c; cmd/ the subcommands; engine/ the assembler probe (catalog,
# runs, cache, results); arch/ one module per architecture; obj/ the object
# readers (ELF, COFF, Mach-O, ar: a library of their own, which the fuzzers
# and tests/objects build alone); lib/ general helpers.
PROBE_DIRS := probe $(patsubst %/,%,$(sort $(dir $(wildcard probe/*/*.c))))
PROBE_SRC := $(sort $(wildcard $(addsuffix /*.c,$(PROBE_DIRS))))
PROBE_HDR := $(wildcard $(addsuffix /*.h,$(PROBE_DIRS)))
PROBE_INC := $(addprefix -I,$(PROBE_DIRS))
OBJ_SRC   := $(sort $(wildcard probe/obj/*.c))
TEMPLATES := $(sort $(wildcard templates/*/* templates/*/c/*.c))
EMBED     := probe/engine/embed-catalog.pl
DRIVER    := probe/cmd/driver/choose-driver.c

# The catalog, and the test driver `asmcap choose` compiles (a real C file,
# carried as text).
$(BUILD)/catalog.c: $(EMBED) $(TEMPLATES) $(DRIVER) VERSION | $(BUILD)
	$(PERL) $(EMBED) templates --text choose_driver_c $(DRIVER) --line asmcap_version_line VERSION \
		>$@.tmp && mv $@.tmp $@

$(BUILD)/asmcap: $(PROBE_SRC) $(PROBE_HDR) $(BUILD)/catalog.c | $(BUILD)
	$(CC) $(TOOL_CFLAGS) $(PROBE_INC) -o $@ $(PROBE_SRC) $(BUILD)/catalog.c

## 2. Caps for the default toolchain (re-probed every time; the cache makes
## that free, and -o rewrites the file only when a verdict changed) ##########
$(BUILD)/caps.json: $(BUILD)/asmcap FORCE
	@$(BUILD)/asmcap --cc "$(CC)" --cflags "$(CFLAGS)" --asflags "$(ASFLAGS)" \
		--cache $(BUILD)/caps.cache --format json -o $@
caps: $(BUILD)/caps.json

## 3. Generated Montgomery code and the library ###############################
# CAPS: the verdicts the kernels are generated from. Override it to build a
# library from another toolchain's caps into another BUILD, e.g.
#   make BUILD=build/noadx CAPS=build/noadx-caps.json build/noadx/libmont.a
# The asm kernels are built when $(CC) $(CFLAGS) targets x86_64 (asked of its
# preprocessor); for any other target the library is the C code only.
CAPS        ?= $(BUILD)/caps.json
MONT_GEN    := perlasm/x86_64-mont.pl
IFMA_GEN    := perlasm/x86_64-ifma.pl
IFMA_MB_GEN := perlasm/x86_64-ifma-mb.pl
MONT_X86_64 := $(shell echo __x86_64__ | $(CC) $(CFLAGS) -E -P - 2>/dev/null)
MONT_CFLAGS  = -std=c11 -Wall -Wextra -Werror -fPIC -fvisibility=hidden \
	       -Imont -I$(BUILD)
MONT_OBJ    := $(patsubst mont/%.c,$(BUILD)/mont/%.o,$(sort $(wildcard mont/*.c)))
MONT_DEPS   := $(wildcard mont/*.h)
MONT_GEN_OUT = $(BUILD)/mont-x86_64.s $(BUILD)/mont-ifma.s $(BUILD)/mont-ifma-mb.s \
	       $(BUILD)/mont-kernels.h

ifeq ($(MONT_X86_64),1)
MONT_OBJ    += $(BUILD)/mont/mont-x86_64.o $(BUILD)/mont/mont-ifma.o $(BUILD)/mont/mont-ifma-mb.o
MONT_CFLAGS += -DMONT_ASM
# mont-kernels.h: the generators' --header parts (the rule is below both targets)
MONT_HDR_GEN  := $(MONT_GEN) $(IFMA_GEN) $(IFMA_MB_GEN)
MONT_HDR_ARGS := --header $(CAPS)
MONT_HDR_DEPS := $(wildcard perlasm/*.pm) $(CAPS)
# The flavour (elf, macosx, mingw64) is the one the probe found for $(CC),
# and $(CC) assembles it. Outputs are replaced only when they change, so a
# re-probe that changes no verdict rebuilds nothing. nasm or yasm kernels:
#   make MONT_FLAVOUR=nasm-elf MONT_AS='nasm -f elf64'
# MASM kernels (Windows x64; ml64 and llvm-ml name object and source with
# /Fo and /Ta, as a path may start with `/'):
#   make MONT_FLAVOUR=masm MONT_AS='llvm-ml -m64 /c' MONT_AS_IO='/Fo$$@ /Ta$$<'
MONT_FLAVOUR ?= $$($(PERL) -ne 'print $$1 if /"flavour":\s*"(\w+)"/' $(CAPS))
MONT_AS      ?= $(CC) $(CFLAGS) $(ASFLAGS) -c
MONT_AS_IO   ?= -o $@ $<
$(BUILD)/mont-x86_64.s: $(MONT_GEN) $(wildcard perlasm/*.pm) $(CAPS) | $(BUILD)
	$(PERL) -Iperlasm $(MONT_GEN) $(MONT_FLAVOUR) $(CAPS) >$@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@
# The IFMA kernels (AVX-512, radix 2^52) from their own generator, into
# their own object; without avx512ifma in the caps it holds a lone ret.
$(BUILD)/mont-ifma.s: $(IFMA_GEN) $(wildcard perlasm/*.pm) $(CAPS) | $(BUILD)
	$(PERL) -Iperlasm $(IFMA_GEN) $(MONT_FLAVOUR) $(CAPS) >$@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@
$(BUILD)/mont/mont-x86_64.o: $(BUILD)/mont-x86_64.s | $(BUILD)/mont
	$(MONT_AS) $(MONT_AS_IO)
$(BUILD)/mont/mont-ifma.o: $(BUILD)/mont-ifma.s | $(BUILD)/mont
	$(MONT_AS) $(MONT_AS_IO)
# The 8-lane IFMA kernels of mont_modexp_batch, the same way.
$(BUILD)/mont-ifma-mb.s: $(IFMA_MB_GEN) $(wildcard perlasm/*.pm) $(CAPS) | $(BUILD)
	$(PERL) -Iperlasm $(IFMA_MB_GEN) $(MONT_FLAVOUR) $(CAPS) >$@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@
$(BUILD)/mont/mont-ifma-mb.o: $(BUILD)/mont-ifma-mb.s | $(BUILD)/mont
	$(MONT_AS) $(MONT_AS_IO)
endif

# AArch64: ARMv8.0 kernels (perlasm/aarch64-mont.pl reads no caps: they use
# nothing an assembler could lack), in the object format the target's
# preprocessor names: Mach-O (__APPLE__), COFF (_WIN32) or ELF.
MONT_AARCH64 := $(shell echo __aarch64__ | $(CC) $(CFLAGS) -E -P - 2>/dev/null)
ifeq ($(MONT_AARCH64),1)
MONT_A64_GEN  := perlasm/aarch64-mont.pl
MONT_A64_FLAV := $(shell printf '__APPLE__ _WIN32\n' | $(CC) $(CFLAGS) -E -P - 2>/dev/null | \
	awk '{ print $$1 == "1" ? "macosx" : $$2 == "1" ? "coff" : "elf" }')
# Branch protection (BTI landing pads, PAC return addresses, the ELF
# property note, GCS marked) as the build's macros ask (-mbranch-protection=...).
MONT_A64_PROT := $(shell printf '__ARM_FEATURE_BTI_DEFAULT __ARM_FEATURE_PAC_DEFAULT __ARM_FEATURE_GCS_DEFAULT\n' | \
	$(CC) $(CFLAGS) -E -P - 2>/dev/null | awk '{ split("bti pac gcs", k); \
	for (i = 1; i <= 3; i++) printf "%s=%s ", k[i], ($$i ~ /^[0-9]+$$/ ? $$i : 0) }')
MONT_OBJ    += $(BUILD)/mont/mont-aarch64.o
MONT_CFLAGS += -DMONT_ASM
MONT_HDR_GEN  := $(MONT_A64_GEN)
MONT_HDR_ARGS := --header
MONT_HDR_DEPS := perlasm/Montk.pm
$(BUILD)/mont-aarch64.s: $(MONT_A64_GEN) FORCE | $(BUILD)
	$(PERL) $(MONT_A64_GEN) $(MONT_A64_FLAV) $(MONT_A64_PROT) >$@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@
$(BUILD)/mont/mont-aarch64.o: $(BUILD)/mont-aarch64.s | $(BUILD)/mont
	$(CC) $(CFLAGS) -c -o $@ $<
endif

# The kernels' C declarations, from the generators of the target's kernels
# (replaced only when they change, as the kernels are).
ifneq ($(MONT_HDR_GEN),)
MONT_DEPS   += $(BUILD)/mont-kernels.h
$(BUILD)/mont-kernels.h: $(MONT_HDR_GEN) $(MONT_HDR_DEPS) | $(BUILD)
	for g in $(MONT_HDR_GEN); do $(PERL) -Iperlasm $$g $(MONT_HDR_ARGS) || exit 1; done >$@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@
endif

$(BUILD)/mont:
	@mkdir -p $@
$(BUILD)/mont/%.o: mont/%.c $(MONT_DEPS) | $(BUILD)/mont
	$(CC) $(CFLAGS) $(MONT_CFLAGS) -c -o $@ $<
$(BUILD)/libmont.a: $(MONT_OBJ)
	rm -f $@ && $(AR) rcs $@ $^
# The test build, never installed: its dispatcher lets MONT_ASSUME_CPU
# claim features CPUID hides (valgrind's CPUID hides ADX though valgrind
# runs it); the shipped one only narrows CPUID with it.
MONT_TEST_OBJ = $(filter-out $(BUILD)/mont/dispatch.o,$(MONT_OBJ)) $(BUILD)/mont/dispatch-test.o
$(BUILD)/mont/dispatch-test.o: mont/dispatch.c $(MONT_DEPS) | $(BUILD)/mont
	$(CC) $(CFLAGS) $(MONT_CFLAGS) -DMONT_TEST_ASSUME_WIDENS -c -o $@ $<
$(BUILD)/libmont-test.a: $(MONT_TEST_OBJ)
	rm -f $@ && $(AR) rcs $@ $^
# Exports only the mont.h API (version script); -z text refuses text relocations.
# The soname carries the ABI version; the .so.0 link lets programs linked
# here run from here.
$(BUILD)/libmont.so: $(MONT_OBJ) mont/libmont.map
	$(CC) $(CFLAGS) -shared -Wl,-soname,libmont.so.0 -Wl,--version-script=mont/libmont.map -Wl,-z,text \
		-o $@ $(MONT_OBJ) -lpthread
	ln -sf libmont.so $@.0
# The tests' driver (tests/mont/): hex vectors on stdin, results on stdout.
# LDFLAGS: e.g. -static for a harness qemu-user or Wine runs.
# mont-harness-test: the same against the test build (the valgrind tests).
$(BUILD)/mont-harness: $(BUILD)/libmont.a
$(BUILD)/mont-harness-test: $(BUILD)/libmont-test.a
$(BUILD)/mont-harness $(BUILD)/mont-harness-test: tests/mont/harness.c
	$(CC) $(CFLAGS) $(MONT_CFLAGS) -g -D_POSIX_C_SOURCE=200809L $(LDFLAGS) -o $@ $< \
		$(filter %.a,$^) -lpthread -lm

# Another toolchain: make regen CC=clang-19 (re-probes, regenerates, rebuilds).
regen:
	rm -rf $(BUILD)/mont $(MONT_GEN_OUT) $(BUILD)/libmont.a $(BUILD)/libmont-test.a $(BUILD)/libmont.so
	$(MAKE) all

## 4. Tests, benchmarks, matrix ###############################################
# make test: the probe's and libmont's suites under ASan+UBSan too (a report
# exits with a code of its own: tests/conftest.py), a short run of the audit
# fuzzer, and the whole suite last, so its skip reasons (-rs) end the output.
SAN_CFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
test:
	ci/deps
	$(MAKE) all
	$(MAKE) $(BUILD)/asan/asmcap && ASMCAP_BIN=$(BUILD)/asan/asmcap $(PYTEST) -q -rfEs \
		tests/probe tests/ccprobe tests/cprobe tests/legacy tests/objects/test_audit.py \
		tests/objects/test_audit_cross.py
	# (test_cross_arch builds its own qemu harnesses: the last pass runs it)
	MONT_TEST_BUILD=$(BUILD)/asan-mont MONT_TEST_MAKEFLAGS="CAPS=$(CAPS) CFLAGS='$(SAN_CFLAGS)'" \
		$(PYTEST) -q -rfEs tests/mont --ignore=tests/mont/test_cross_arch.py
	$(MAKE) fuzz-audit FUZZ_TIME=5
	$(PYTEST) -q -rfEs tests

# The suite without apt: what is installed is used, a missing base tool
# fails naming its package. T=PATH runs one folder, file or test.
T ?= tests
check: all
	$(PYTEST) -q -rfEs $(T)

# The long forms of the seeded loops in tests/probe/test_reliability.py (a
# flaky launcher 100 times, 240 random signals, 500 MB of noise); make test
# runs their short forms.
test-slow: $(BUILD)/asmcap
	ASMCAP_SLOW=1 $(PYTEST) -q tests/probe/test_reliability.py

# matrix: every installed toolchain probed, its code regenerated, built,
# audited and tested; the table in $(BUILD)/matrix.md and .json.
#   make matrix MATRIX_ONLY=gcc-12,clang-19
# Then the variant choices of examples/*/*.spec per compiler (ci/choices,
# serial: it measures), in $(BUILD)/choices.md.
matrix: $(BUILD)/asmcap
	ASMCAP_BIN=$(BUILD)/asmcap ci/matrix --out $(BUILD) $(if $(MATRIX_ONLY),--only $(MATRIX_ONLY))
	ASMCAP_BIN=$(BUILD)/asmcap ci/choices --out $(BUILD)

# peers: Debian's OpenSSL 3.0 and 4.0 built with clang-19, stock and with
# asmcap deciding its perlasm gates (integrations/openssl): the gate table,
# speed ratios and all of OpenSSL's tests, in build/peers/openssl.md; then
# libgcrypt with its checks answered by asmcap (integrations/libgcrypt),
# in build/peers/libgcrypt.md (sources through apt-get source; builds
# under build/peers/). PEERS_FLAGS=--reuse keeps the builds an earlier
# run finished (the tests and speed runs are made again).
peers: $(BUILD)/asmcap
	ASMCAP_BIN=$(BUILD)/asmcap ci/peers openssl $(PEERS_FLAGS)
	ASMCAP_BIN=$(BUILD)/asmcap ci/peers libgcrypt $(PEERS_FLAGS)

## Install (DESTDIR for staging; Perl finds site_perl under /usr/local by default)
PERLDIR ?= $(PREFIX)/lib/site_perl
# aclocal searches its own directory (Debian: /usr/share/aclocal) and those
# its dirlist file names, not $(PREFIX)/share/aclocal: an install outside
# DESTDIR adds that directory to the dirlist, so autoreconf finds asmcap.m4
# without ACLOCAL_PATH. ACLOCAL_DIRLIST= (empty) leaves the dirlist alone.
ACLOCAL_DIRLIST ?= $(if $(DESTDIR),,$(addsuffix /dirlist,$(shell aclocal --print-ac-dir 2>/dev/null)))
$(BUILD)/AsmcapConfigVersion.cmake: cmake/AsmcapConfigVersion.cmake.in VERSION | $(BUILD)
	sed 's|@VERSION@|$(VERSION)|' $< >$@
install: all $(BUILD)/AsmcapConfigVersion.cmake
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/asmcap \
		$(DESTDIR)$(PERLDIR) $(DESTDIR)$(PREFIX)/share/aclocal \
		$(DESTDIR)$(PREFIX)/lib/cmake/Asmcap $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 755 $(BUILD)/asmcap $(DESTDIR)$(PREFIX)/bin/asmcap
	install -m 644 completion/asmcap.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/asmcap
	cp -R templates $(DESTDIR)$(PREFIX)/share/asmcap/
	sed "s|^our \$$TEMPLATES = .*|our \$$TEMPLATES = '$(PREFIX)/share/asmcap/templates';|" perlasm/Asmcap.pm \
		>$(DESTDIR)$(PERLDIR)/Asmcap.pm && chmod 644 $(DESTDIR)$(PERLDIR)/Asmcap.pm
	install -m 644 m4/asmcap.m4 $(DESTDIR)$(PREFIX)/share/aclocal/asmcap.m4
	install -m 644 cmake/AsmcapConfig.cmake $(BUILD)/AsmcapConfigVersion.cmake \
		$(DESTDIR)$(PREFIX)/lib/cmake/Asmcap/
	install -m 644 man/asmcap.1 $(DESTDIR)$(PREFIX)/share/man/man1/asmcap.1
	install -m 644 mont/mont.h $(DESTDIR)$(PREFIX)/include/mont.h
	install -m 644 $(BUILD)/libmont.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libmont.so $(DESTDIR)$(PREFIX)/lib/libmont.so.0
	ln -sf libmont.so.0 $(DESTDIR)$(PREFIX)/lib/libmont.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' mont/mont.pc.in \
		>$(DESTDIR)$(PREFIX)/lib/pkgconfig/mont.pc
	@d=$(PREFIX)/share/aclocal; l='$(ACLOCAL_DIRLIST)'; \
	if [ -n "$$l" ] && [ "$${l%/dirlist}" != "$$d" ] && ! grep -qxF "$$d" "$$l" 2>/dev/null; then \
		echo "$$d" >>"$$l" && echo "aclocal now also searches $$d (listed in $$l)"; fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/asmcap $(DESTDIR)$(PERLDIR)/Asmcap.pm \
		$(DESTDIR)$(PREFIX)/share/aclocal/asmcap.m4 \
		$(DESTDIR)$(PREFIX)/lib/cmake/Asmcap/AsmcapConfig.cmake \
		$(DESTDIR)$(PREFIX)/lib/cmake/Asmcap/AsmcapConfigVersion.cmake \
		$(DESTDIR)$(PREFIX)/share/man/man1/asmcap.1 $(DESTDIR)$(PREFIX)/include/mont.h \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/asmcap \
		$(DESTDIR)$(PREFIX)/lib/libmont.a $(DESTDIR)$(PREFIX)/lib/libmont.so \
		$(DESTDIR)$(PREFIX)/lib/libmont.so.0 \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig/mont.pc
	rm -rf $(DESTDIR)$(PREFIX)/share/asmcap
	-rmdir $(DESTDIR)$(PREFIX)/lib/cmake/Asmcap 2>/dev/null

## bench: montbench, ours against OpenSSL and GMP ######
# Linked against the static libcrypto.a: only it exports the raw kernels
# (bn_mul_mont, bn_power5) timed beside the API. montbench pins itself to the
# first CPU it may use, so `taskset -c 1 make bench` picks the CPU.
BENCH_SRC  := $(sort $(wildcard bench/*.c))
BENCH_ARGS ?=
# montbench-test: against the test build (callgrind: valgrind hides ADX).
$(BUILD)/montbench: $(BUILD)/libmont.a
$(BUILD)/montbench-test: $(BUILD)/libmont-test.a
$(BUILD)/montbench $(BUILD)/montbench-test: $(BENCH_SRC) bench/bench.h $(MONT_DEPS) | $(BUILD)
	$(CC) $(TOOL_CFLAGS) -Imont -I$(BUILD) -o $@ $(BENCH_SRC) $(filter %.a,$^) \
		-Wl,-Bstatic -lcrypto -lgmp -Wl,-Bdynamic -lpthread -ldl
bench: $(BUILD)/montbench
	$(BUILD)/montbench $(BENCH_ARGS)
# bench-peers: the same, with OpenSSL 4.0.2 beside Debian's 3.0 (ossl4-api,
# ossl4-x2). ci/peers builds 4.0.2 once from Debian's source package under
# build/peers/; without it (no deb-src reach, a failed build) the bench runs
# without those two and says so. The two libcryptos share one process:
# bench/openssl.c built against 4.0.2 is linked with its libcrypto.a into
# one object (ld -r; -d gives its common symbols, OPENSSL_ia32cap_P, their
# own space) in which objcopy leaves only bench_ossl4_* global.
OSSL4 := $(BUILD)/peers/openssl-4.0-stock
$(BUILD)/ossl4.o: bench/openssl.c bench/bench.h $(OSSL4)/libcrypto.a | $(BUILD)
	$(CC) $(TOOL_CFLAGS) -DOSSL_TAG=4 -I$(OSSL4)/include -c -o $(BUILD)/ossl4-own.o bench/openssl.c
	ld -r -d -o $(BUILD)/ossl4-all.o $(BUILD)/ossl4-own.o $(OSSL4)/libcrypto.a
	objcopy --wildcard --keep-global-symbol='bench_ossl4_*' $(BUILD)/ossl4-all.o $@
$(BUILD)/montbench-peers: $(BENCH_SRC) bench/bench.h $(MONT_DEPS) $(BUILD)/libmont.a $(BUILD)/ossl4.o
	$(CC) $(TOOL_CFLAGS) -DBENCH_OSSL4 -Imont -I$(BUILD) -o $@ $(BENCH_SRC) $(filter %.a %.o,$^) \
		-Wl,-Bstatic -lcrypto -lgmp -Wl,-Bdynamic -lpthread -ldl
bench-peers: $(BUILD)/montbench
	@if ci/peers openssl --stock-lib --versions 4.0 >/dev/null; then \
		$(MAKE) --no-print-directory $(BUILD)/montbench-peers && \
		$(BUILD)/montbench-peers $(BENCH_ARGS); \
	else \
		echo "bench-peers: OpenSSL 4.0.2 cannot be had here (ci/peers says why above):" \
		     "ossl4-api and ossl4-x2 are skipped" >&2; \
		$(BUILD)/montbench $(BENCH_ARGS); \
	fi
# Instruction counts, repeatable where times are not. valgrind's CPUID hides
# ADX although it runs it: MONT_ASSUME_CPU reaches our ADX kernels (and the
# AVX2 table lookup this CPU would run) and
# OPENSSL_ia32cap=:0x80108 (word 2 = BMI1+BMI2+ADX) OpenSSL's MULX code.
bench-callgrind: $(BUILD)/montbench-test
	rm -rf $(BUILD)/callgrind && mkdir -p $(BUILD)/callgrind
	MONT_ASSUME_CPU=adx,bmi2,avx2 OPENSSL_ia32cap=:0x80108 valgrind -q \
		--tool=callgrind --collect-atstart=no \
		--callgrind-out-file=$(BUILD)/callgrind/cg.%p \
		$(BUILD)/montbench-test --callgrind $(BENCH_ARGS)
	bench/callgrind-table $(BUILD)/callgrind/cg.*

## fuzz: a libFuzzer target per object reader and
## the x86 decoder ###########################################################
# (fuzz/fuzz_reader.c built once per reader) run for FUZZ_TIME seconds each
# on the seed corpus tests/corpus/<reader>; what they learn stays in
# $(BUILD)/fuzz/corpus-<reader>, crashes in $(BUILD)/fuzz/crash-*.
FUZZ_CC      ?= clang-14
FUZZ_TIME    ?= 12
FUZZ_READERS := elf coff macho ar x86
FUZZ_OBJ_SRC := $(OBJ_SRC) probe/arch/x86dec.c probe/arch/armattr.c
FUZZ_CFLAGS  := -std=c11 -g -O1 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $(PROBE_INC)
$(BUILD)/fuzz/%: fuzz/fuzz_reader.c $(FUZZ_OBJ_SRC) probe/obj/obj.h probe/arch/armattr.h probe/arch/x86dec.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -DFUZZ_READER=$* -o $@ fuzz/fuzz_reader.c $(FUZZ_OBJ_SRC)
fuzz: $(addprefix $(BUILD)/fuzz/,$(FUZZ_READERS))
	@for t in $(FUZZ_READERS); do mkdir -p $(BUILD)/fuzz/corpus-$$t; \
		echo "fuzz $$t: $(FUZZ_TIME)s"; \
		$(BUILD)/fuzz/$$t -max_total_time=$(FUZZ_TIME) -print_final_stats=1 \
			-artifact_prefix=$(BUILD)/fuzz/ $(BUILD)/fuzz/corpus-$$t tests/corpus/$$t \
			2>$(BUILD)/fuzz/$$t.log || { tail -40 $(BUILD)/fuzz/$$t.log; exit 1; }; \
		grep -E '^#[0-9]+[[:space:]]+DONE' $(BUILD)/fuzz/$$t.log; done
# The whole audit command (catalog patterns, decoder, symbol ranges), then
# the cache's reading of the same file as a program (its dynamic section and
# the libraries it names), on mutated objects and programs; make test runs
# it 5 s, longer: make fuzz-audit FUZZ_TIME=60
FUZZ_AUDIT_SRC := $(filter-out probe/main.c,$(PROBE_SRC)) $(BUILD)/catalog.c
$(BUILD)/fuzz/audit: fuzz/fuzz_audit.c $(FUZZ_AUDIT_SRC) $(PROBE_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ fuzz/fuzz_audit.c $(FUZZ_AUDIT_SRC)
fuzz-audit: $(BUILD)/fuzz/audit
	@mkdir -p $(BUILD)/fuzz/corpus-audit
	$(BUILD)/fuzz/audit -max_total_time=$(FUZZ_TIME) -close_fd_mask=1 -print_final_stats=1 \
		-artifact_prefix=$(BUILD)/fuzz/ $(BUILD)/fuzz/corpus-audit \
		$(addprefix tests/corpus/,elf coff macho ar) 2>$(BUILD)/fuzz/audit.log || \
		{ tail -40 $(BUILD)/fuzz/audit.log; exit 1; }
	@grep -E '^#[0-9]+[[:space:]]+DONE' $(BUILD)/fuzz/audit.log
# Line coverage the corpora reach (needs llvm-14's llvm-cov): make fuzz-coverage
FUZZ_COV_FLAGS := -std=c11 -g -O0 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	-fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping $(PROBE_INC)
$(BUILD)/fuzz/cov-%: fuzz/fuzz_reader.c $(FUZZ_OBJ_SRC) probe/obj/obj.h probe/arch/armattr.h probe/arch/x86dec.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_COV_FLAGS) -DFUZZ_READER=$* -o $@ fuzz/fuzz_reader.c $(FUZZ_OBJ_SRC)
fuzz-coverage: $(addprefix $(BUILD)/fuzz/cov-,$(FUZZ_READERS))
	@for t in $(FUZZ_READERS); do mkdir -p $(BUILD)/fuzz/corpus-$$t; \
		LLVM_PROFILE_FILE=$(BUILD)/fuzz/cov-$$t.profraw $(BUILD)/fuzz/cov-$$t -runs=0 \
			$(BUILD)/fuzz/corpus-$$t tests/corpus/$$t 2>/dev/null || exit 1; done
	llvm-profdata-14 merge -o $(BUILD)/fuzz/cov.profdata $(BUILD)/fuzz/cov-*.profraw
	llvm-cov-14 report $(BUILD)/fuzz/cov-elf $(patsubst %,-object=$(BUILD)/fuzz/cov-%,$(filter-out elf,$(FUZZ_READERS))) \
		-instr-profile=$(BUILD)/fuzz/cov.profdata $(FUZZ_OBJ_SRC)

## flavours: every flavour (elf, macosx, mingw64, nasm,
## masm, elf-win64, nasm-elf) of the Montgomery generator, assembled by its real
## assembler and checked:
## symbols, .pdata/.xdata against the prologues, disassembly against the elf
## object. COFF and Mach-O objects cannot run here: the table says "not run";
## the SysV and Win64 (ms_abi) ELF builds are run side by side, and the
## nasm-elf kernels (nasm and yasm) against the elf ones.
flavours: $(CAPS)
	python3 tests/perlasm/flavours.py --caps $(CAPS) --out $(BUILD)/flavours $(MONT_GEN)

## probe checks ##############################################################
# build/asan/asmcap: the probe under ASan+UBSan (make test runs the suites of
# every subcommand with it too: probe, cc-flag/frame/choose, legacy, audit)
# bench-probe: probe speed against a bare `$CC -c` (not a test).
BENCH_PROBE_CCS ?= gcc clang-14
$(BUILD)/asan/asmcap: $(PROBE_SRC) $(PROBE_HDR) $(BUILD)/catalog.c
	@mkdir -p $(@D)
	$(CC) $(TOOL_CFLAGS) $(SAN_CFLAGS) $(PROBE_INC) -o $@ $(PROBE_SRC) $(BUILD)/catalog.c
asan: $(BUILD)/asan/asmcap
bench-probe: $(BUILD)/asmcap
	python3 tests/probe/bench_probe.py --asmcap $(BUILD)/asmcap $(BENCH_PROBE_CCS)

clean:
	rm -rf $(BUILD)

FORCE:

# Targets that name no file
.PHONY: all caps regen test check test-slow matrix peers install uninstall bench bench-peers bench-callgrind \
	fuzz fuzz-audit fuzz-coverage flavours asan bench-probe clean FORCE
