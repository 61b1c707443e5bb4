# iopath — the one build: make, make test, make check, make bench, make static, make install
# (the binary and the man page docs/iopath.1).

VERSION := $(shell git describe --always --dirty --tags 2>/dev/null || echo unknown)
PREFIX ?= /usr/local

CC ?= cc
# Parallel test processes for the criterion runners (make test TEST_JOBS=4): the integration
# tests mostly wait on the iopath they start. The MPI tests run one at a time regardless.
TEST_JOBS ?= 2
OPT ?= -O2 -g
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wformat=2 -Wvla -Wpointer-arith -Wundef -Wno-format-nonliteral
CFLAGS_ALL := -std=gnu11 $(OPT) $(WARN) -pthread $(CFLAGS)
CPPFLAGS_ALL := -Iinclude -Icore -Ibuild -D_GNU_SOURCE $(CPPFLAGS)
LIBS := -luring -laio -ljansson -lblkid -lgsl -lgslcblas -lnuma -lcrypto -lxxhash -lsqlite3 -lz -lm -pthread

# PG=1 (the default) builds the results database's PostgreSQL side (core/results/db_pg.c), which
# loads libpq (dlopen) when a postgresql:// database is first opened, so that no other run pays
# for loading it and its libraries; PG=0 (make static: Debian has no static libpq dependencies) builds db_pg_none.c, which
# refuses postgresql:// with the reason.
PG ?= 1
ifeq ($(PG),1)
CPPFLAGS_ALL += $(shell pkg-config --cflags libpq 2>/dev/null)
LIBS += -ldl
PG_SKIP := core/results/db_pg_none.c
else
PG_SKIP := core/results/db_pg.c
endif

# MPI=1 builds core/fleet/fleet_mpi.c (every MPI call) with the MPI found by pkg-config; otherwise
# core/fleet/fleet_none.c stands in, and --mpi says that MPI support is not compiled in.
MPI ?= 0
ifeq ($(MPI),1)
MPI_PC := $(firstword $(foreach p,mpi-c ompi-c mpich,$(shell pkg-config --exists $(p) && echo $(p))))
ifeq ($(MPI_PC),)
$(error MPI=1: no MPI found by pkg-config (mpi-c, mpich); install Open MPI with scripts/deps.sh --mpi)
endif
MPI_CFLAGS := $(shell pkg-config --cflags $(MPI_PC))
LIBS += $(shell pkg-config --libs $(MPI_PC))
FLEET_SKIP := core/fleet/fleet_none.c
else
FLEET_SKIP := core/fleet/fleet_mpi.c
endif

# The binary's own source: main. Everything else, the command table and the compiled-in docs too,
# is the library the unit tests and fuzzers link.
MAIN_SRC := core/cli/main.c
CORE_SRC := $(filter-out $(MAIN_SRC) $(FLEET_SKIP) $(PG_SKIP),$(wildcard core/*/*.c))
ENGINE_SRC := $(wildcard engines/*.c)
WORKLOADS := $(sort $(wildcard workloads/*.fio))
DOCS := $(sort $(wildcard docs/*.md))
GEN_SRC := build/workloads_data.c

OBJ_DIR := build/obj$(if $(filter 1,$(MPI)),-mpi)
LIB_OBJ := $(patsubst %.c,$(OBJ_DIR)/%.o,$(CORE_SRC) $(ENGINE_SRC) $(GEN_SRC) build/docs_data.c)
MAIN_OBJ := $(patsubst %.c,$(OBJ_DIR)/%.o,$(MAIN_SRC))

UNIT_SRC := $(wildcard tests/unit/*.c)
INTEG_SRC := $(wildcard tests/integration/*.c)
UNIT_BIN := build/unit-tests
INTEG_BIN := build/integration-tests

.PHONY: verdict-test FORCE all faultfs run test unit integration check valgrind fuzz static install clean deps bench mpi-test layout pg-test fio-tests consumers-test html-test gallery realjobs-test
all: iopath

deps:
	@scripts/deps.sh

# build/flavour changes when MPI= does, so that ./iopath is relinked from the other objects.
$(shell mkdir -p build; [ "$$(cat build/flavour 2>/dev/null)" = "MPI=$(MPI)" ] || echo "MPI=$(MPI)" > build/flavour)

iopath: $(MAIN_OBJ) $(LIB_OBJ) build/flavour
	$(CC) $(CFLAGS_ALL) -o $@ $(MAIN_OBJ) $(LIB_OBJ) $(LIBS) $(LDFLAGS)

$(OBJ_DIR)/core/fleet/fleet_mpi.o: CPPFLAGS_ALL += $(MPI_CFLAGS)

# Before the first compile: the libraries' headers are there, or one line saying how to get them
# (a preprocess of each, once until make clean).
HEADERS_OK := build/headers-ok
BUILD_HEADERS := liburing.h libaio.h jansson.h blkid/blkid.h gsl/gsl_statistics.h numa.h \
	openssl/evp.h xxhash.h sqlite3.h zlib.h $(if $(filter 1,$(PG)),libpq-fe.h)
$(HEADERS_OK):
	@mkdir -p build
	@missing=; for h in $(BUILD_HEADERS); do \
		echo "#include <$$h>" | $(CC) $(CPPFLAGS_ALL) -E -x c - >/dev/null 2>&1 || missing="$$missing $$h"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "iopath: missing headers:$$missing: run scripts/deps.sh (or make deps) to install them" >&2; \
		exit 1; fi; touch $@

# Each object depends on the headers it includes (-MMD -MP writes them to OBJ.d beside it); the
# generated headers (build/buildinfo.h, build/engine_decls.h) are named by their includers' rules
# below, so that a clean build makes them first.
$(OBJ_DIR)/%.o: %.c Makefile | $(HEADERS_OK)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -MMD -MP -c -o $@ $<

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d)

# The build's version and git revision for result files, rewritten only when they change.
BUILDINFO := build/buildinfo.h
$(BUILDINFO): FORCE
	@mkdir -p build
	@printf '#define IOPATH_BUILD_VERSION "%s"\n#define IOPATH_GIT_REV "%s"\n#define IOPATH_BUILD_CFLAGS "%s"\n' \
		"$(VERSION)" "$$(git rev-parse HEAD 2>/dev/null || echo unknown)" "$(strip $(OPT) $(CFLAGS))" > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(OBJ_DIR)/core/base/version.o: $(BUILDINFO)
FORCE:

# The registry's declarations of every engine's ops table.
build/engine_decls.h: $(filter-out engines/registry.c,$(ENGINE_SRC)) scripts/engine-decls.sh
	@mkdir -p build
	scripts/engine-decls.sh $(filter-out engines/registry.c,$(ENGINE_SRC)) > $@.tmp && mv $@.tmp $@
$(OBJ_DIR)/engines/registry.o: build/engine_decls.h

# Adding an engine is one file and one registry line: build/iopath-enginecopy is iopath with a
# copy of the null engine under another name (nulltwin, flagged for a probe trial) made exactly
# so, which the engine-copy tests run through the probe, the runner and a sweep.
ECOPY := build/enginecopy
build/iopath-enginecopy: $(MAIN_OBJ) $(LIB_OBJ) engines/null.c engines/registry.c scripts/engine-decls.sh
	@mkdir -p $(ECOPY)
	sed 's/null_engine/nulltwin_engine/; s/\.name = "null"/.name = "nulltwin"/; s/\.flags = ENGINE_DISKLESS/.flags = ENGINE_DISKLESS | ENGINE_TRIAL/' \
		engines/null.c > $(ECOPY)/nulltwin.c
	sed 's/^\t{ NULL, NULL, false },/\t{ "nulltwin", \&nulltwin_engine, false },\n&/' engines/registry.c > $(ECOPY)/registry.c
	scripts/engine-decls.sh $(filter-out engines/registry.c,$(ENGINE_SRC)) $(ECOPY)/nulltwin.c > $(ECOPY)/engine_decls.h
	$(CC) -I$(ECOPY) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -o $@ $(ECOPY)/nulltwin.c $(ECOPY)/registry.c \
		$(MAIN_OBJ) $(filter-out $(OBJ_DIR)/engines/registry.o,$(LIB_OBJ)) $(LIBS) $(LDFLAGS)

# Built-in workloads: every workloads/*.fio compiled in as a string.
$(GEN_SRC): $(WORKLOADS) scripts/embed-workloads.sh
	@mkdir -p build
	scripts/embed-workloads.sh $(WORKLOADS) > $@.tmp && mv $@.tmp $@

# The reference: every docs/*.md compiled in byte for byte, for iopath help TOPIC. build/docs.list
# changes when a topic is added or removed, so that the table is rebuilt then too.
build/docs.list: FORCE
	@mkdir -p build
	@echo $(DOCS) > $@.tmp; cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

build/docs_data.c: $(DOCS) build/docs.list scripts/embed-docs.sh
	scripts/embed-docs.sh $(DOCS) > $@.tmp && mv $@.tmp $@

run: deps iopath
	./iopath

$(UNIT_BIN): $(UNIT_SRC) $(wildcard tests/unit/*.h tests/common/*.h) $(LIB_OBJ)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -Itests -Wno-format-truncation -o $@ $(UNIT_SRC) $(LIB_OBJ) -lcriterion $(LIBS)

$(INTEG_BIN): $(INTEG_SRC) tests/integration/harness.h $(wildcard tests/integration/*.h tests/common/*.h)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -Itests -Wno-format-truncation -o $@ $(INTEG_SRC) -lcriterion -ljansson -lz -lm

# The fault-injecting FUSE filesystem the fault tests mount (tests skip without it); make faultfs
# builds it alone (README: "A share to try it on").
FAULTFS := build/faultfs
faultfs: $(FAULTFS)
FUSE_CFLAGS := $(shell pkg-config --cflags fuse3 2>/dev/null)
FUSE_LIBS := $(shell pkg-config --libs fuse3 2>/dev/null)

$(FAULTFS): tests/tools/faultfs.c Makefile
	@mkdir -p build
	@if [ -n "$(FUSE_LIBS)" ]; then \
		echo "$(CC) -o $@ $<"; \
		$(CC) -std=gnu11 $(OPT) $(WARN) $(FUSE_CFLAGS) -o $@ $< $(FUSE_LIBS); \
	else echo "faultfs: libfuse3-dev missing, the fault tests will skip" >&2; fi

# The proportional slowdown of direct reads and writes make verdict-test's A/B sides run under
# (LD_PRELOAD, SLOWIO_FACTOR; tests/tools/slowio.c).
SLOWIO := build/slowio.so
$(SLOWIO): tests/tools/slowio.c Makefile
	@mkdir -p build
	$(CC) -std=gnu11 $(OPT) $(WARN) -fPIC -shared -o $@ $< -ldl

TEST_ENV = IOPATH_BIN=$(CURDIR)/iopath FAULTFS_BIN=$(CURDIR)/$(FAULTFS) \
	IOPATH_ENGINECOPY_BIN=$(CURDIR)/build/iopath-enginecopy

unit: iopath $(UNIT_BIN)
	$(UNIT_BIN) --jobs $(TEST_JOBS)

integration: iopath build/iopath-enginecopy $(INTEG_BIN) $(FAULTFS)
	$(TEST_ENV) $(INTEG_BIN) --jobs $(TEST_JOBS)

# make pg-test: the results-store tests (store/*, which make test runs against SQLite) against
# a real PostgreSQL server, a throw-away cluster scripts/pg-test starts and removes.
pg-test: deps iopath $(INTEG_BIN)
	$(TEST_ENV) scripts/pg-test $(INTEG_BIN) --jobs $(TEST_JOBS) --filter 'store/*'

# make layout: the #include graph against the allowed directions between core/'s folders (one
# table, scripts/layout-check's LAYERS, which ARCHITECTURE.md's direction table must equal), no
# circle between folders nor between files (the objects' uses of each other, by nm), no source
# file over 1,000 lines, no function over 100 (but the per-I/O loop, FUNC_LONG_ALLOWED, which may
# not grow).
layout: $(MAIN_OBJ) $(LIB_OBJ)
	@scripts/layout-check --objects $(OBJ_DIR) $(MAIN_OBJ) $(LIB_OBJ)

test: deps layout
	$(MAKE) iopath build/iopath-enginecopy $(UNIT_BIN) $(INTEG_BIN) $(FAULTFS)
	$(UNIT_BIN) --jobs $(TEST_JOBS)
	$(TEST_ENV) $(INTEG_BIN) --jobs $(TEST_JOBS)

# make check: the whole suite under ASan+UBSan, then the integration tests (the threaded
# runner) against an iopath built with TSan (run with ASLR off: TSan's fixed memory layout
# does not fit this kernel's mmap randomisation); each build in its own directory. Every report
# goes to a log file (a report inside a child that exits 1 on purpose would otherwise pass
# unseen): check fails when any log holds one. Warnings that depend on the optimiser do not
# fail these builds (the normal build is the -Werror gate).
SAN_ASAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_TSAN := -fsanitize=thread
SAN_BIN ?= build/san/iopath

$(SAN_BIN): $(MAIN_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LIBS) $(LDFLAGS)

san_build = $(MAKE) --no-print-directory OPT="-O1 -g $(2)" CFLAGS="$(CFLAGS) -Wno-error" OBJ_DIR=build/$(1)/obj \
	SAN_BIN=build/$(1)/iopath UNIT_BIN=build/$(1)/unit-tests INTEG_BIN=build/$(1)/integration-tests
san_env = ASAN_OPTIONS=log_path=$(CURDIR)/build/$(1)/log/asan:detect_leaks=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=log_path=$(CURDIR)/build/$(1)/log/ubsan:print_stacktrace=1 \
	TSAN_OPTIONS=log_path=$(CURDIR)/build/$(1)/log/tsan:second_deadlock_stack=1 \
	IOPATH_BIN=$(CURDIR)/build/$(1)/iopath FAULTFS_BIN=$(CURDIR)/$(FAULTFS)
san_logs = @if ls build/$(1)/log/* >/dev/null 2>&1; then \
	cat build/$(1)/log/* | head -150; echo "check: sanitizer reports in build/$(1)/log" >&2; \
	exit 1; else echo "check: $(1): no sanitizer reports"; fi

check: deps $(FAULTFS)
	$(call san_build,asan,$(SAN_ASAN)) build/asan/iopath build/asan/unit-tests build/asan/integration-tests
	rm -rf build/asan/log && mkdir -p build/asan/log
	$(call san_env,asan) build/asan/unit-tests --jobs $(TEST_JOBS)
	$(call san_env,asan) build/asan/integration-tests --jobs $(TEST_JOBS)
	$(call san_logs,asan)
	$(call san_build,tsan,$(SAN_TSAN)) build/tsan/iopath
	$(MAKE) --no-print-directory $(INTEG_BIN)
	rm -rf build/tsan/log && mkdir -p build/tsan/log
	$(call san_env,tsan) setarch -R $(INTEG_BIN) --jobs $(TEST_JOBS)
	$(call san_logs,tsan)

# Valgrind memcheck on the integration tests: every iopath they start runs under valgrind
# (scripts/valgrind-iopath); fails on any memcheck error or definite leak.
valgrind: iopath $(INTEG_BIN) $(FAULTFS)
	scripts/deps.sh --bench
	rm -rf build/valgrind && mkdir -p build/valgrind && chmod 1777 build/valgrind
	IOPATH_REAL_BIN=$(CURDIR)/iopath VALGRIND_LOG_DIR=$(CURDIR)/build/valgrind \
		IOPATH_BIN=$(CURDIR)/scripts/valgrind-iopath FAULTFS_BIN=$(CURDIR)/$(FAULTFS) \
		$(INTEG_BIN) --jobs $(TEST_JOBS) $(VALGRIND_TESTS)
	@if grep -l "ERROR SUMMARY: [1-9]" build/valgrind/*.log; then \
		echo "valgrind: memcheck errors (logs above)" >&2; exit 1; \
	else echo "valgrind: $$(ls build/valgrind | wc -l) iopath runs, no memcheck errors"; fi

# make fuzz: libFuzzer harnesses (tests/fuzz/) for the job-file parser, the command line and
# the result-file loader, each run for FUZZ_SECONDS from a seed corpus (job files: the
# built-in workloads and tests/jobs; command lines: tests/fuzz/seeds/cli; results: JSON this
# build and fio write, and tests/fuzz/seeds/results: a small lab.json). Fails on any crash, leak, UB or timeout; the input that caused it is
# kept as build/fuzz/NAME-crash-* (replay: build/fuzz/fuzz-NAME FILE).
FUZZ_SECONDS ?= 60
FUZZERS := jobfile cli results
FUZZ_SAN := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all

build/fuzz/fuzz-%: tests/fuzz/fuzz_%.c $(LIB_OBJ)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -fsanitize=fuzzer -o $@ $< $(LIB_OBJ) $(LIBS)

fuzz: iopath
	scripts/deps.sh --fuzz
	$(MAKE) --no-print-directory CC=clang OPT="-O1 -g $(FUZZ_SAN)" CFLAGS="$(CFLAGS) -Wno-error" \
		OBJ_DIR=build/fuzz/obj $(FUZZERS:%=build/fuzz/fuzz-%)
	mkdir -p $(FUZZERS:%=build/fuzz/corpus-%)
	for f in workloads/*.fio $(wildcard tests/jobs/*.fio tests/jobs/*/*.fio); do \
		cp $$f build/fuzz/corpus-jobfile/$$(echo $$f | tr / _) || exit 1; done
	cp tests/fuzz/seeds/cli/* build/fuzz/corpus-cli/
	cp tests/fuzz/seeds/results/* build/fuzz/corpus-results/
	./iopath --name=seed --ioengine=null --size=64k --output-format=json+ \
		--output=build/fuzz/corpus-results/iopath-run.json
	-command -v fio >/dev/null && fio --name=seed --ioengine=null --size=64k \
		--output-format=json > build/fuzz/corpus-results/fio.json
	mkdir -p build/fuzz/scratch
	# from a scratch directory: whatever an input makes the code create lands there
	for f in $(FUZZERS); do \
		echo "fuzz: $$f for $(FUZZ_SECONDS) s"; \
		(cd build/fuzz/scratch && ../fuzz-$$f -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-rss_limit_mb=2048 -close_fd_mask=3 -print_final_stats=1 \
			-artifact_prefix=../$$f- ../corpus-$$f < /dev/null) || exit 1; \
	done

# The side-by-side benchmark against fio (not a test: nothing is asserted). BENCH_ARGS are
# passed on, e.g. make bench BENCH_ARGS="--quick" or BENCH_ARGS="--only cost,cached"; FIO_SRC=DIR
# builds t/io_uring from that fio source (default: Debian's source package, docs/benchmark.md).
# BENCH_ONLY=CELLS runs only those cells of the t/io_uring section (nop, nulldev, cached,
# direct), BENCH_PAIRS=N as N alternating pairs: make bench BENCH_ONLY=nop BENCH_PAIRS=40.
bench: iopath
	scripts/deps.sh --bench
	scripts/bench $(if $(BENCH_ONLY),--only tiouring --cells $(BENCH_ONLY)) $(if $(BENCH_PAIRS),--repeats $(BENCH_PAIRS)) $(BENCH_ARGS)

# fio's consumers (bench-fio, fio-plot, cdm from ../shared/consumers, installed into a
# throw-away virtualenv) run through a `fio` that execs ./iopath and with Debian's fio; every
# run must complete with numbers within 2x of fio's. Skipped, with the reason, where the copies
# or fio are absent. About 2 minutes.
consumers-test: iopath
	scripts/deps.sh --consumers
	tests/consumers/consumers-test

# make html-test: every kind of HTML report (sweep, run, suite, compare, history, probe, a
# 1,000-cell sweep) opened in headless Chromium: no console error, no load of anything, every
# chart drawn, the tables' numbers equal to the JSON's; screenshots in build/html-test/. Skipped,
# with the reason, where Chromium or Selenium is missing (scripts/deps.sh --browser).
html-test: iopath
	IOPATH_BIN=$(CURDIR)/iopath /usr/bin/python3 tests/html/browser_test.py

# make gallery: one page of each kind (sweep, explain, compare, history, trend, run, suite,
# a NOT direct target, probe) from the fixed results in tests/html/gallery/, into build/gallery/ with screenshots
# at 1280 px and as printed (index.html shows them), to look at after a change. Measures
# nothing; the screenshots are skipped, with the reason, without Chromium. About 30 s.
gallery: iopath
	IOPATH_BIN=$(CURDIR)/iopath /usr/bin/python3 tests/html/gallery.py

# The MPI tests: their own MPI build (build/iopath-mpi), run under mpirun on this machine.
# Skipped, with the reason, where Open MPI is not installed (scripts/deps.sh --mpi).
MPI_TEST_SRC := $(wildcard tests/mpi/*.c) tests/integration/harness.c
MPI_TEST_BIN := build/mpi-tests

# make fio-tests: fio's own regression tests (t/run-fio-tests.py and fio's standalone test
# scripts, a copy in ../shared/fio-tests; FIO_TESTS= names another) against ./iopath; the ones
# iopath fails are listed with their reasons in tests/fio-tests.expected (scripts/fio-tests).
# Without FIO_TESTS, skipped with the reason where ../shared/fio-tests (beside the checkout)
# is absent; FIO_TESTS=DIR given (CI's .ci/run gives it) and absent fails. About 4 minutes on
# 2 cores.
FIO_TESTS ?= ../shared/fio-tests
fio-tests: iopath
	scripts/fio-tests $(if $(filter file,$(origin FIO_TESTS)),,--required) ./iopath $(FIO_TESTS)

# make realjobs-test: real users' fio job files (../shared/realjobs beside the checkout;
# REALJOBS=DIR names another) adapted alike for both tools (paths into a scratch directory,
# sizes and times capped in the file), run with --parse-only and for real through Debian's fio
# and ./iopath, and compared; every difference must be listed with its reason in
# tests/realjobs/expected. Skipped with the reason where the copy is absent, failed where
# REALJOBS is given or CI=true. About 2 minutes on 2 cores.
realjobs-test: iopath
	tests/realjobs/realjobs-test --jobs $(TEST_JOBS)

mpi-test:
	@if ! command -v mpirun >/dev/null 2>&1 || ! pkg-config --exists mpi-c; then \
		echo "mpi-test: skipped: Open MPI is not installed (scripts/deps.sh --mpi)"; exit 0; fi; \
	$(MAKE) MPI=1 build/iopath-mpi $(MPI_TEST_BIN) $(FAULTFS) && \
	IOPATH_BIN=$(CURDIR)/build/iopath-mpi FAULTFS_BIN=$(CURDIR)/$(FAULTFS) $(MPI_TEST_BIN) --jobs 1

build/iopath-mpi: $(MAIN_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LIBS) $(LDFLAGS)

$(MPI_TEST_BIN): $(MPI_TEST_SRC) tests/integration/harness.h
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -Itests -Itests/integration -Wno-format-truncation -o $@ $(MPI_TEST_SRC) -lcriterion -ljansson

static:
	$(MAKE) OBJ_DIR=build/static-obj PG=0 CFLAGS="$(CFLAGS)" iopath-static

iopath-static: $(MAIN_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS_ALL) -static -o $@ $^ $(LIBS) $(LDFLAGS)

install: iopath
	install -D -m 0755 iopath $(DESTDIR)$(PREFIX)/bin/iopath
	install -D -m 0644 docs/iopath.1 $(DESTDIR)$(PREFIX)/share/man/man1/iopath.1

clean:
	rm -rf build iopath iopath-static

# The QEMU storage-path lab (docs/lab.md): `make lab LAB_ARGS='--paths 9p-*'`, and its
# quick self-test (a few minutes under TCG; skips with the reason where QEMU cannot run).
.PHONY: lab lab-test
lab: static
	scripts/vmlab --iopath ./iopath-static $(LAB_ARGS)

# make verdict-test: compare's verdicts measured on this machine (scripts/verdict-test): real
# compares, the kinds in turn: of four separate sweep --save sides run A B A B (A/A with load
# through all sides, drift with the load starting after the first side, A/B with each CUR side
# 30% slower: build/slowio.so preloaded, every direct read held 1/0.7 of its own time), and the
# same three as one sweep --compare of two targets whose repeats alternate (slowio's
# SLOWIO_PATH slowing only CUR's target); prints each compare's measured change (median
# CUR/BASE IOPS), each miss with why, the rates, and fails only on its own goals ($VERDICT_GATE
# chooses which). VERDICT_PAIRS compares of each kind (default 20: about 16 minutes on the
# shared machine at load 7-12; .ci/run gives 10: about 8).
verdict-test: iopath $(SLOWIO)
	IOPATH_BIN=$(CURDIR)/iopath SLOWIO_LIB=$(CURDIR)/$(SLOWIO) scripts/verdict-test

lab-test: static
	tests/lab/lab-test

# make lab-upgrade-test: QEMU 7.2 (the system's) against 10.0 (bookworm-backports, fetched into
# the cache by scripts/deps.sh --lab-upgrade, never installed) on 9p and virtio-blk, the builds
# booted alternately, in both orders, each QEMU held to one CPU, judged by iopath compare on
# IOPS and on I/Os per QEMU CPU second (docs/lab.md). Under TCG about 12 minutes
# (LAB_UPGRADE_BOOTS, LAB_UPGRADE_ROUNDS); not in .ci/run.
.PHONY: lab-upgrade-test
lab-upgrade-test: static
	tests/lab/lab-upgrade-test
