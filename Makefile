# iopath — the one build: make, make test, make check, make bench, make static, make install.

VERSION := $(shell git describe --always --dirty --tags 2>/dev/null || echo unknown)
PREFIX ?= /usr/local

CC ?= cc
OPT ?= -O2 -g
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wformat=2 -Wvla -Wpointer-arith -Wundef -Wno-format-nonliteral
CFLAGS_ALL := -std=gnu11 $(OPT) $(WARN) -pthread $(CFLAGS)
CPPFLAGS_ALL := -Iinclude -Icore -Ibuild -D_GNU_SOURCE -DIOPATH_VERSION='"$(VERSION)"' \
	-DIOPATH_CFLAGS='"$(strip $(OPT) $(CFLAGS))"' $(CPPFLAGS)
LIBS := -luring -laio -ljansson -lblkid -lgsl -lgslcblas -lm -pthread

CORE_SRC := $(filter-out core/main.c,$(wildcard core/*.c))
ENGINE_SRC := $(wildcard engines/*.c)
WORKLOADS := $(sort $(wildcard workloads/*.fio))
GEN_SRC := build/workloads_data.c

OBJ_DIR := build/obj
LIB_OBJ := $(patsubst %.c,$(OBJ_DIR)/%.o,$(CORE_SRC) $(ENGINE_SRC) $(GEN_SRC))
MAIN_OBJ := $(OBJ_DIR)/core/main.o

UNIT_SRC := $(wildcard tests/unit/*.c)
INTEG_SRC := $(wildcard tests/integration/*.c)
UNIT_BIN := build/unit-tests
INTEG_BIN := build/integration-tests

.PHONY: FORCE all run test unit integration check static install clean deps bench
all: iopath

deps:
	@scripts/deps.sh

iopath: $(MAIN_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LIBS) $(LDFLAGS)

$(OBJ_DIR)/%.o: %.c $(wildcard include/iopath/*.h core/*.h) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -c -o $@ $<

# The build's version and git revision for result files, rewritten only when they change.
BUILDINFO := build/buildinfo.h
$(BUILDINFO): FORCE
	@mkdir -p build
	@printf '#define IOPATH_BUILD_VERSION "%s"\n#define IOPATH_GIT_REV "%s"\n' "$(VERSION)" \
		"$$(git rev-parse HEAD 2>/dev/null || echo unknown)" > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(OBJ_DIR)/core/results.o: $(BUILDINFO)
FORCE:

# Built-in workloads: every workloads/*.fio compiled in as a string.
$(GEN_SRC): $(WORKLOADS) scripts/embed-workloads.sh
	@mkdir -p build
	scripts/embed-workloads.sh $(WORKLOADS) > $@.tmp && mv $@.tmp $@

run: deps iopath
	./iopath

$(UNIT_BIN): $(UNIT_SRC) $(LIB_OBJ)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -Itests -Wno-format-truncation -o $@ $(UNIT_SRC) $(LIB_OBJ) -lcriterion $(LIBS)

$(INTEG_BIN): $(INTEG_SRC) tests/integration/harness.h $(wildcard tests/integration/*.h)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -Itests -Wno-format-truncation -o $@ $(INTEG_SRC) -lcriterion -ljansson

# The fault-injecting FUSE filesystem the fault tests mount; tests skip without it.
FAULTFS := build/faultfs
FUSE_CFLAGS := $(shell pkg-config --cflags fuse3 2>/dev/null)
FUSE_LIBS := $(shell pkg-config --libs fuse3 2>/dev/null)

$(FAULTFS): tests/tools/faultfs.c Makefile
	@mkdir -p build
	@if [ -n "$(FUSE_LIBS)" ]; then \
		echo "$(CC) -o $@ $<"; \
		$(CC) -std=gnu11 $(OPT) $(WARN) $(FUSE_CFLAGS) -o $@ $< $(FUSE_LIBS); \
	else echo "faultfs: libfuse3-dev missing, the fault tests will skip" >&2; fi

TEST_ENV = IOPATH_BIN=$(CURDIR)/iopath FAULTFS_BIN=$(CURDIR)/$(FAULTFS)

unit: iopath $(UNIT_BIN)
	$(UNIT_BIN) --jobs 2

integration: iopath $(INTEG_BIN) $(FAULTFS)
	$(TEST_ENV) $(INTEG_BIN) --jobs 2

test: deps
	$(MAKE) iopath $(UNIT_BIN) $(INTEG_BIN) $(FAULTFS)
	$(UNIT_BIN) --jobs 2
	$(TEST_ENV) $(INTEG_BIN) --jobs 2

# The side-by-side benchmark against fio (not a test: nothing is asserted). BENCH_ARGS are
# passed on, e.g. make bench BENCH_ARGS="--quick" or BENCH_ARGS="--only cost,cached".
bench: iopath
	scripts/deps.sh --bench
	scripts/bench $(BENCH_ARGS)

static:
	$(MAKE) OBJ_DIR=build/static-obj CFLAGS="$(CFLAGS)" iopath-static

iopath-static: $(MAIN_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS_ALL) -static -o $@ $^ $(LIBS) $(LDFLAGS)

install: iopath
	install -D -m 0755 iopath $(DESTDIR)$(PREFIX)/bin/iopath

clean:
	rm -rf build iopath iopath-static
