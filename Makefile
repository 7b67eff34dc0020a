# clothsim - the one build.
#
#   make run        build, then start the sandbox
#   make test       build and run the test suite (Criterion + tmux end-to-end)
#   make test-load  the suite with every core kept busy by another process
#   make test-class a class session under two throwaway Unix accounts (as root)
#   make test-xterm the sandbox in xterm on a virtual X server, with a real mouse drag,
#                   and the background xterm reports (OSC 11) on black and on white
#   make sanitize   the test suite under AddressSanitizer and UBSan
#   make strict     build everything with -Werror, and check-layers
#   make check-layers  every #include goes down the layers (tests/layers.sh):
#                   core never includes the fast path (src/fast/); no loop of includes
#   make check-calls   no loop of calls between the modules (tests/calls.sh, nm)
#   make cross-aarch64  the core for aarch64 with -Werror, its bits under
#                   qemu-user against this machine's (every kernel level)
#   make mutants    plants each physics bug of tests/mutants.txt in a copy of the
#                   tree (build/mutants/) and fails if the physics suites miss one
#   make bench      the benchmark (never part of make test)
#   make fuzz       the lesson parser, run's arguments and the progress reader under libFuzzer (FUZZ_SECONDS=60 each)
#   make fuzz-keys  random keys, mouse and resizes at the sandbox and two lessons,
#                   on the sanitizer build, FUZZ_SECONDS each (FUZZ_SEED= to replay)
#   make install    PREFIX=/usr/local DESTDIR= ; make uninstall
#   make pot        extract the translatable strings into src/po/clothsim.pot
#                   and merge them into every src/po/LANG.po (msgmerge)
#   make format     apply .clang-format; make format-check: whether every
#                   C file is in its style (CI runs it)
#   make deps       install the packages the build needs (apt-get)
#
# Missing packages (and the tests' uk_UA.UTF-8 locale) are installed through
# apt-get (localedef) when we are root or have sudo, which asks for the
# password of a person at a terminal; otherwise the build stops with the one
# command to type as root, naming everything missing at once.
# make install never installs packages (AUTO_PACKAGES=no: it says which).

CC       ?= cc
PREFIX   ?= /usr/local
BINDIR    = $(PREFIX)/bin
MANDIR    = $(PREFIX)/share/man/man1
COMPLETIONDIR = $(PREFIX)/share/bash-completion/completions
SHAREDIR  = $(PREFIX)/share/clothsim
LOCALEDIR = $(PREFIX)/share/locale
VERSION   = 0.1.0

BUILD    ?= build
WARN      = -Wall -Wextra -Wpedantic -Wshadow -Wmissing-prototypes
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
# -fno-tree-slp-vectorize: GCC 12 (Debian 12's) vectorises straight-line
# code that rounds a double to float and widens it again without the
# rounding, so an -O2 build computed the shear links' spring constant
# (float stiffness 0.6 times spring_k) off by an ulp from the C the -O1
# and sanitizer builds follow, and the two played some lessons' exploding
# curtains differently. Six lines show it: float f(double d) { return
# (float)d; }, then out[i] = (float)(f(p[i]) * k) for i = 0 .. 2. The
# loops meant to run several particles at a time are vectorised as loops
# (-ftree-loop-vectorize, and the kernels' intrinsics), which this leaves.
NO_SLP    = -fno-tree-slp-vectorize
# -ffp-contract=off: a product and a sum round apart, except where the code
# calls fmaf (solver.h), so that the copies of a loop built with and without
# FMA (target_clones) give the same bits. GCC's -std=c17 means this already;
# clang's default contracts them.
NO_CONTRACT = -ffp-contract=off
ALL_CFLAGS = -std=c17 $(WARN) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS) $(NO_SLP) $(NO_CONTRACT) -pthread -D_POSIX_C_SOURCE=200809L \
             -DCLOTHSIM_VERSION='"$(VERSION)"' -DCLOTHSIM_SHAREDIR='"$(SHAREDIR)"' \
             -DCLOTHSIM_LOCALEDIR='"$(LOCALEDIR)"' \
             -Isrc -MMD -MP
LDFLAGS  ?=

# What xgettext extracts: every string wrapped in _(), N_(), T_(), ngettext,
# or given to a message funnel (cli_error, tui_message, lesson_error, the
# lesson parser's fail). make pot and the translation test use the same.
XGETTEXT_FLAGS = --from-code=UTF-8 --language=C --sort-by-file --add-location=file \
  --add-comments=TRANSLATORS: --package-name=clothsim --package-version=$(VERSION) \
  --keyword=_ --keyword=N_ --keyword=T_ --keyword=ngettext:1,2 \
  --keyword=cli_error --keyword=tui_message:2 --keyword=lesson_error:6 --keyword=fail:3 --keyword=fail_at:4 \
  --flag=cli_error:1:c-format --flag=tui_message:2:c-format --flag=lesson_error:6:c-format \
  --flag=fail:3:c-format --flag=fail_at:4:c-format

# What the objects are built with, kept in $(BUILD)/config: a change (another
# PREFIX, whose share folder is compiled in; CFLAGS, CPPFLAGS) rebuilds them.
CONFIG_TEXT = $(CC) | $(CPPFLAGS) | $(CFLAGS) | $(EXTRA_CFLAGS) | $(NO_SLP) $(NO_CONTRACT) | $(LDFLAGS) | $(SHAREDIR) | $(VERSION) | $(XGETTEXT_FLAGS)
ifneq ($(file < $(BUILD)/config),$(CONFIG_TEXT))
$(shell mkdir -p $(BUILD))
$(file > $(BUILD)/config,$(CONFIG_TEXT))
endif
CURSES_CFLAGS = $(shell pkg-config --cflags ncursesw 2>/dev/null)
CURSES_LIBS   = $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw)
CRITERION_LIBS = $(shell pkg-config --libs criterion 2>/dev/null || echo -lcriterion)
# A class session's server keeps the class in SQLite (src/app/class_server.c).
SQLITE_LIBS   = $(shell pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3)

# Layers depend downward only: core <- render <- lesson <- app, and the
# fast path (src/fast/) beside core, which it uses and which never uses it.
CORE_SRC   = $(sort $(wildcard src/core/*.c))
FAST_SRC   = $(sort $(wildcard src/fast/*.c))
RENDER_SRC = $(sort $(wildcard src/render/*.c))
LESSON_SRC = $(sort $(wildcard src/lesson/*.c))
APP_SRC    = $(sort $(wildcard src/app/*.c))
LIB_SRC    = $(CORE_SRC) $(FAST_SRC) $(RENDER_SRC) $(LESSON_SRC) $(filter-out src/app/main.c,$(APP_SRC))
TEST_SRC   = $(sort $(filter-out tests/fuzz/% tests/cross/%,$(wildcard tests/*/*.c tests/*.c)))

LIB_OBJ  = $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ = $(BUILD)/src/app/main.o
TEST_OBJ = $(TEST_SRC:%.c=$(BUILD)/%.o)
BIN      = clothsim
TEST_BIN = $(BUILD)/clothsim-tests

# Translations: every src/po/LANG.po is a language (a new one is only that
# file and lessons/LANG/), compiled into the build tree, where a binary run
# from the checkout finds it (src/app/i18n.c).
PO_FILES = $(sort $(wildcard src/po/*.po))
LANGS    = $(PO_FILES:src/po/%.po=%)
MO_FILES = $(LANGS:%=$(BUILD)/locale/%/LC_MESSAGES/clothsim.mo)

.PHONY: test-class pot check-test-locale check-layers check-calls all run test test-load check-long test-unit test-e2e test-xterm sanitize strict mutants bench bench-threads cross-aarch64 fuzz fuzz-deps fuzz-keys install uninstall clean format format-check deps check-deps

all: check-deps $(BIN) $(MO_FILES)

# ---------------------------------------------------------------- packages
# Debian package -> a file that proves it is there.
NEED_BUILD = libncurses-dev:/usr/include/ncursesw/curses.h pkg-config:/usr/bin/pkg-config gettext:/usr/bin/msgfmt \
             libsqlite3-dev:/usr/include/sqlite3.h
NEED_TEST  = libcriterion-dev:/usr/include/criterion/criterion.h tmux:/usr/bin/tmux \
             libxml2-utils:/usr/bin/xmllint locales:/usr/share/i18n/locales/uk_UA \
             asciinema:/usr/bin/asciinema

missing = $(strip $(foreach p,$(1),$(if $(wildcard $(lastword $(subst :, ,$(p)))),,$(firstword $(subst :, ,$(p))))))

# The tests play the interface in Ukrainian: the uk_UA.UTF-8 locale must
# exist, and a fresh Debian has only C and POSIX. localedef makes it (as root).
TEST_LOCALE   = uk_UA
MAKE_LOCALE   = localedef -i $(TEST_LOCALE) -f UTF-8 $(TEST_LOCALE).UTF-8
LOCALE_MISSING = $(if $(shell locale -a 2>/dev/null | grep -ix '$(TEST_LOCALE)\.utf-\?8'),,yes)

# What is missing, in words, and the one command, as root, that sets it all
# up: $(1) the packages, $(2) non-empty when the locale is missing too.
missing_words = $(strip $(1)$(if $(2),$(if $(1), and) the $(TEST_LOCALE).UTF-8 locale))
setup_command = $(if $(1),apt-get update && apt-get install -y $(1))$(if $(and $(1),$(2)), && )$(if $(2),$(MAKE_LOCALE))

# How to become root, into SUDO: empty (we are), "sudo -n" (no password
# asked), sudo (a person at a terminal, whom it asks for the password), or
# none.
define pick_sudo
if [ "$$(id -u)" = 0 ]; then SUDO=; \
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
elif command -v sudo >/dev/null 2>&1 && [ -t 0 ] && [ -t 2 ] && [ "$(AUTO_PACKAGES)" != no ]; then SUDO=sudo; \
else SUDO=none; fi
endef

# $(1): the packages to install now; $(2): every missing package, $(3) the
# locale if missing too, to name where the person must set them up: once,
# everything the build and the tests need.
define install_packages
	@pkgs="$(1)"; \
	if [ -n "$$pkgs" ]; then \
	  $(pick_sudo); \
	  if [ "$(AUTO_PACKAGES)" = no ] || [ "$$SUDO" = none ]; then \
	    echo "clothsim: missing: $(call missing_words,$(or $(2),$(1)),$(3))"; \
	    echo "clothsim: set them up first, as root:  $(call setup_command,$(or $(2),$(1)),$(3))"; exit 1; fi; \
	  if ! command -v apt-get >/dev/null 2>&1; then \
	    echo "clothsim: missing packages: $(or $(2),$(1)) (no apt-get here: install them with your package manager)"; exit 1; fi; \
	  if [ "$$SUDO" = sudo ]; then echo "clothsim: sudo asks for your password to install $$pkgs"; fi; \
	  echo "clothsim: installing $$pkgs with apt-get"; \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$pkgs >/dev/null || \
	  { echo "clothsim: apt-get failed; as root:  apt-get update && apt-get install -y $$pkgs"; exit 1; }; \
	fi
endef

# A person who must install them gets every missing package of the build
# and the tests, and the locale, at once, not the rest on a second try.
check-deps:
	$(call install_packages,$(call missing,$(NEED_BUILD)),$(call missing,$(NEED_BUILD) $(NEED_TEST)),$(LOCALE_MISSING))

check-test-deps: check-deps
	$(call install_packages,$(call missing,$(NEED_TEST)),,$(LOCALE_MISSING))
	@$(MAKE) --no-print-directory check-test-locale

check-test-locale:
	@if [ -n "$(LOCALE_MISSING)" ]; then \
	  $(pick_sudo); \
	  if [ "$(AUTO_PACKAGES)" = no ] || [ "$$SUDO" = none ]; then \
	    echo "clothsim: missing: $(call missing_words,,yes)"; \
	    echo "clothsim: set it up first, as root:  $(MAKE_LOCALE)"; exit 1; fi; \
	  if [ "$$SUDO" = sudo ]; then echo "clothsim: sudo asks for your password to make the $(TEST_LOCALE).UTF-8 locale"; fi; \
	  echo "clothsim: making the $(TEST_LOCALE).UTF-8 locale (localedef)"; \
	  $$SUDO $(MAKE_LOCALE) || \
	  { echo "clothsim: localedef failed; as root:  $(MAKE_LOCALE)"; exit 1; }; \
	fi

deps:
	$(call install_packages,$(call missing,$(NEED_BUILD) $(NEED_TEST)),,$(LOCALE_MISSING))
	@$(MAKE) --no-print-directory check-test-locale

# ---------------------------------------------------------------- build
# Packages come first whatever -j says: every object waits for the check
# (order-only, so a check that installs nothing rebuilds nothing).
$(LIB_OBJ) $(MAIN_OBJ): | check-deps
$(TEST_OBJ): | check-test-deps

$(BUILD)/%.o: %.c $(BUILD)/config
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(FILE_CFLAGS) $(CURSES_CFLAGS) -c $< -o $@

# The solver's loops over links take square roots, which GCC runs several
# at a time only when they need not set errno (none of them can: they never
# see a negative number). The same bits either way; only faster.
# The solver's other files (solver_internal.h) take the same flags as
# solver.c, whose code they were: the same instructions.
SOLVER_OBJ = $(addprefix $(BUILD)/src/core/,solver.o forces.o integrate.o relax.o checks.o state.o)
$(SOLVER_OBJ) $(BUILD)/src/core/springs.o: FILE_CFLAGS = -fno-math-errno
# The implicit solve's build (implicit.c) too, and its selects (a link of
# no length) between values worked out either way, which GCC runs several
# at a time only when it may work out a division it then discards: no
# program here turns floating-point traps on, so nothing can tell.
$(BUILD)/src/core/implicit.o: FILE_CFLAGS = -fno-math-errno -fno-trapping-math
# The sequential walk (relax_helix_walk.h) once per instruction-set level,
# each file with its level's flags, as zlib-ng builds arch/x86/*_avx2.c:
# only relax_fast.c's table, filled from what the processor has, calls
# them. The portable and NEON files take the build's own flags (every
# aarch64 processor has NEON). -Wno-psabi: GCC warns that a vector of
# doubles wider than the level's registers would be passed differently
# by other compilers; relax_lanes.h's functions are all inlined, never
# called across files.
TARGET_MACHINE := $(shell $(CC) -dumpmachine 2>/dev/null)
HELIX_FLAGS = -fno-math-errno -Wno-psabi
$(BUILD)/src/fast/relax_helix_portable.o $(BUILD)/src/fast/relax_helix_neon.o: FILE_CFLAGS = $(HELIX_FLAGS)
ifneq ($(filter x86_64-%,$(TARGET_MACHINE)),)
$(BUILD)/src/fast/relax_helix_avx2.o: FILE_CFLAGS = $(HELIX_FLAGS) -mavx2 -mfma
$(BUILD)/src/fast/relax_helix_avx512.o: FILE_CFLAGS = $(HELIX_FLAGS) $(KERNELS_AVX512_FLAGS)
endif
# The colored order's kernels (relax_kernels.h) the same way, AVX-512's too.
KERNELS_AVX2_FLAGS = -mavx2 -mfma
KERNELS_AVX512_FLAGS = -mavx512f -mavx512dq -mavx2 -mfma
$(BUILD)/src/fast/relax_kernels_portable.o $(BUILD)/src/fast/relax_kernels_neon.o: FILE_CFLAGS = $(HELIX_FLAGS)
ifneq ($(filter x86_64-%,$(TARGET_MACHINE)),)
$(BUILD)/src/fast/relax_kernels_avx2.o: FILE_CFLAGS = $(HELIX_FLAGS) $(KERNELS_AVX2_FLAGS)
$(BUILD)/src/fast/relax_kernels_avx512.o: FILE_CFLAGS = $(HELIX_FLAGS) $(KERNELS_AVX512_FLAGS)
endif

$(BUILD)/locale/%/LC_MESSAGES/clothsim.mo: src/po/%.po | check-deps
	@mkdir -p $(dir $@)
	msgfmt --check -o $@ $<

$(BUILD)/libclothsim.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(MAIN_OBJ) $(BUILD)/libclothsim.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(CURSES_LIBS) $(SQLITE_LIBS) -lm

# The sanitizer build lives in its own folder with its own binary.
ifeq ($(BUILD),build)
TEST_BIN_DEF = -DCLOTHSIM_BIN='"$(CURDIR)/$(BIN)"'
else
TEST_BIN_DEF = -DCLOTHSIM_BIN='"$(CURDIR)/$(BUILD)/$(BIN)"'
$(BUILD)/$(BIN): $(MAIN_OBJ) $(BUILD)/libclothsim.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(CURSES_LIBS) $(SQLITE_LIBS) -lm
endif

$(BUILD)/tests/%.o: tests/%.c $(BUILD)/config
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(TEST_BIN_DEF) -DCLOTHSIM_SRCDIR='"$(CURDIR)"' $(TEST_DEFS) -Wno-missing-prototypes -c $< -o $@

# The translation test extracts the strings as make pot does.
$(BUILD)/tests/app/test_i18n.o: TEST_DEFS = -DCLOTHSIM_XGETTEXT_FLAGS='"$(XGETTEXT_FLAGS)"'


$(TEST_BIN): $(TEST_OBJ) $(BUILD)/libclothsim.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(CRITERION_LIBS) $(CURSES_LIBS) $(SQLITE_LIBS) -lm

run: all
	./$(BIN)

# ---------------------------------------------------------------- tests
# Six test workers on two cores: most of the suite's wall time is tmux tests
# waiting on a screen, and more workers fill it (this project's 2-core
# machine, shared, 5 December 2026, with the physics tests shortened: 73 and
# 70 s of wall time at -j4, 60 and 59 at -j6, 55 at -j8; 82 to 86 s of
# processor time at each).
TEST_JOBS ?= 6
TEST_ARGS ?=
# The sanitizer build tests its own binary and leaves ./clothsim alone.
test: check-layers check-calls check-test-deps $(if $(filter-out build,$(BUILD)),$(BUILD)/$(BIN),$(BIN)) $(TEST_BIN) $(MO_FILES)
	$(TEST_BIN) -j$(TEST_JOBS) --short-filename $(TEST_ARGS)

# The same suite with the equality tests and the longest physics runs at
# their full length and every case (tests/support.h: support_steps,
# support_long; make test runs a spread of the cases, and fewer steps);
# 80 s of wall time here, 120 s of processor time. CI runs it.
check-long: check-test-deps $(if $(filter-out build,$(BUILD)),$(BUILD)/$(BIN),$(BIN)) $(TEST_BIN) $(MO_FILES)
	CLOTHSIM_TEST_LONG=1 $(TEST_BIN) -j$(TEST_JOBS) --short-filename $(TEST_ARGS)

# The suite with every core kept busy by other programs (a spinning shell a
# core, at the same priority): no test may depend on the machine being
# quiet (a class's server never is). CI runs it.
test-load: check-test-deps $(if $(filter-out build,$(BUILD)),$(BUILD)/$(BIN),$(BIN)) $(TEST_BIN) $(MO_FILES)
	@spinners=; trap 'kill $$spinners 2>/dev/null' EXIT INT TERM; \
	for k in $$(seq $$(nproc)); do sh -c 'while :; do :; done' & spinners="$$spinners $$!"; done; \
	echo "clothsim: the suite beside $$(nproc) spinning processes"; \
	CLOTHSIM_TEST_SLOW=3 $(TEST_BIN) -j$(TEST_JOBS) --short-filename $(TEST_ARGS)

# A real terminal emulator, not only tmux: xterm on Xvfb, keys and a mouse
# drag from xdotool (tests/xterm/drag.sh, a few seconds each): as xterm, and
# as a type whose terminfo has ncurses read X10 reports, in a terminal left
# sending SGR ones.
# Then the background found from xterm's answer to OSC 11 (tests/xterm/
# background.sh): black on white, -rv, Solarized light, in 8 and 256 colours,
# read off screenshots.
NEED_XTERM = xvfb:/usr/bin/Xvfb xterm:/usr/bin/xterm xdotool:/usr/bin/xdotool \
             fonts-dejavu:/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf procps:/usr/bin/pgrep \
             imagemagick:/usr/bin/import
test-xterm: check-deps $(BIN)
	$(call install_packages,$(call missing,$(NEED_XTERM)))
	timeout 60 tests/xterm/drag.sh ./$(BIN)
	INNER_TERM=tmux-256color timeout 60 tests/xterm/drag.sh ./$(BIN)
	timeout 90 tests/xterm/background.sh ./$(BIN)
	INNER_TERM=xterm-256color timeout 90 tests/xterm/background.sh ./$(BIN)

# A class session under two real Unix accounts (tests/class/two_accounts.sh):
# as root, two throwaway accounts (useradd, removed after), 15 students
# under each answering at once through setpriv; every answer under the
# account that sent it, neither may teach nor see the others' answers.
NEED_CLASS = python3:/usr/bin/python3 util-linux:/usr/bin/setpriv passwd:/usr/sbin/useradd
test-class: check-deps $(BIN)
	$(call install_packages,$(call missing,$(NEED_CLASS)))
	@$(pick_sudo); if [ "$$SUDO" = none ]; then \
	  echo "clothsim: make test-class makes two throwaway accounts: run it as root (or with sudo)"; exit 1; fi; \
	$$SUDO timeout 120 tests/class/two_accounts.sh ./$(BIN)

SANITIZE = LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp CLOTHSIM_TEST_SLOW=3 \
	$(MAKE) --no-print-directory BUILD=build/san OPT=-O1 \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined"
sanitize:
	$(SANITIZE) test

# The key fuzzer of make test (tests/app/test_fuzz_keys.c, a few seconds a
# test there) for FUZZ_SECONDS a test, on the sanitizer build. A failure
# prints its seed: FUZZ_SEED=that replays the same events (as near as the
# clock allows).
FUZZ_SEED ?=
fuzz-keys:
	CLOTHSIM_FUZZ_SECONDS=$(FUZZ_SECONDS) CLOTHSIM_FUZZ_SEED=$(FUZZ_SEED) \
	$(SANITIZE) TEST_ARGS="--filter 'fuzz_keys/*'" test

# Core never includes the fast path, nor any layer one above it.
check-layers:
	@sh tests/layers.sh

# No module calls itself through others (read from the objects: the
# includes miss a call through a header the callee does not own).
check-calls: $(LIB_OBJ) $(MAIN_OBJ)
	@sh tests/calls.sh $(BUILD)

strict: check-layers
	$(MAKE) --no-print-directory BUILD=build/strict EXTRA_CFLAGS=-Werror build/strict/clothsim-tests build/strict/$(BIN)
	@sh tests/calls.sh build/strict

# Mutation testing (tests/mutants.sh): each plausible physics bug listed in
# tests/mutants.txt (a hold counter never reset, a dashpot's sign, ...)
# planted alone in a scratch copy of the tree under build/mutants/, which is
# built and tested with the physics suites and the lessons' claims; a mutant
# they pass survives, and this fails. MUTANT_JOBS=2 side by side, MUTANTS=a,b
# only those. It starts from the objects of make test's build. CI runs it.
MUTANT_JOBS ?= 2
mutants: check-test-deps $(TEST_BIN)
	MUTANT_JOBS=$(MUTANT_JOBS) MUTANTS='$(MUTANTS)' sh tests/mutants.sh

bench: all
	./$(BIN) bench

# Wall time of clothsim run on 1, 2 and the idle cores' threads, with the
# machine as it is and with its other cores kept busy (tests/bench_threads.sh).
bench-threads: all
	sh tests/bench_threads.sh ./$(BIN)

# The aarch64 build with -Werror (Debian's cross compiler), and its bits
# under qemu-user against this machine's: tests/cross/dump_levels.c steps
# a few scenes at every kernel level the processor has (portable and NEON
# there), checks that they agree and prints a hash of their positions and
# remainders; the two outputs must be the same bytes. The core only: there
# is no terminal library for aarch64 here.
NEED_CROSS = gcc-aarch64-linux-gnu:/usr/bin/aarch64-linux-gnu-gcc \
             libc6-dev-arm64-cross:/usr/aarch64-linux-gnu/lib/libc.a qemu-user:/usr/bin/qemu-aarch64
CORE_OBJ = $(CORE_SRC:%.c=$(BUILD)/%.o) $(FAST_SRC:%.c=$(BUILD)/%.o)
$(BUILD)/dump_levels: tests/cross/dump_levels.c $(CORE_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(if $(filter aarch64-%,$(TARGET_MACHINE)),-static) -o $@ $^ -lm
cross-aarch64: check-deps $(BUILD)/dump_levels
	$(call install_packages,$(call missing,$(NEED_CROSS)))
	$(MAKE) --no-print-directory BUILD=build/aarch64 CC=aarch64-linux-gnu-gcc EXTRA_CFLAGS=-Werror build/aarch64/dump_levels
	./$(BUILD)/dump_levels > $(BUILD)/dump_levels.txt
	qemu-aarch64 build/aarch64/dump_levels > build/aarch64/dump_levels.txt
	cmp $(BUILD)/dump_levels.txt build/aarch64/dump_levels.txt
	@echo "clothsim: aarch64 (portable, neon) gives this machine's bits"

# The fuzzers under libFuzzer with AddressSanitizer and UBSan, each for
# FUZZ_SECONDS (default 60): the lesson parser (seeded with the course), the
# argument parser of clothsim run, the progress-file reader. A crash stops
# make with the input that did it. Needs clang and libclang-rt-dev.
NEED_FUZZ = clang:/usr/bin/clang libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a
FUZZ_SECONDS ?= 60
FUZZ_CC = clang -std=c17 -g -O1 -D_POSIX_C_SOURCE=200809L $(CURSES_CFLAGS) -Isrc -Werror=implicit-function-declaration \
          -DCLOTHSIM_VERSION='"$(VERSION)"'
FUZZ_SAN = -fsanitize=fuzzer-no-link,address,undefined
FUZZ_RUN = -max_total_time=$(FUZZ_SECONDS) -timeout=5 -close_fd_mask=3
# Each file is compiled once for the three fuzzers (build/fuzz/obj/), so
# `make -j fuzz` builds them side by side: under UBSan clang takes some
# four minutes for each build of the walk (relax_helix_portable.c,
# relax_helix_avx2.c), which three builds a fuzzer made twenty minutes of
# CI. The walks and the colored kernels take their level's flags, as in
# the build (above).
FUZZ_OBJ = build/fuzz/obj
fuzz_obj = $(patsubst %.c,$(FUZZ_OBJ)/%.o,$(1))
FUZZ_CORE = $(call fuzz_obj,$(CORE_SRC) $(FAST_SRC))
$(FUZZ_OBJ)/src/fast/relax_helix_portable.o $(FUZZ_OBJ)/src/fast/relax_helix_neon.o: FUZZ_FILE_FLAGS = $(HELIX_FLAGS)
ifneq ($(filter x86_64-%,$(TARGET_MACHINE)),)
$(FUZZ_OBJ)/src/fast/relax_helix_avx2.o: FUZZ_FILE_FLAGS = $(HELIX_FLAGS) -mavx2 -mfma
$(FUZZ_OBJ)/src/fast/relax_kernels_avx2.o: FUZZ_FILE_FLAGS = $(HELIX_FLAGS) $(KERNELS_AVX2_FLAGS)
$(FUZZ_OBJ)/src/fast/relax_kernels_avx512.o: FUZZ_FILE_FLAGS = $(HELIX_FLAGS) $(KERNELS_AVX512_FLAGS)
$(FUZZ_OBJ)/src/fast/relax_helix_avx512.o: FUZZ_FILE_FLAGS = $(HELIX_FLAGS) $(KERNELS_AVX512_FLAGS)
endif
$(FUZZ_OBJ)/src/fast/relax_kernels_portable.o $(FUZZ_OBJ)/src/fast/relax_kernels_neon.o: FUZZ_FILE_FLAGS = $(HELIX_FLAGS)
fuzz-deps: check-deps
	$(call install_packages,$(call missing,$(NEED_FUZZ)))
$(FUZZ_OBJ)/%.o: %.c | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_SAN) $(FUZZ_FILE_FLAGS) -MMD -MP -c $< -o $@
-include $(wildcard $(FUZZ_OBJ)/src/*/*.d $(FUZZ_OBJ)/tests/fuzz/*.d)
FUZZ_LINK = $(FUZZ_CC) -fsanitize=fuzzer,address,undefined $^ -lm -lpthread -o $@
build/fuzz/fuzz_lesson: $(call fuzz_obj,tests/fuzz/fuzz_lesson.c $(LESSON_SRC) $(RENDER_SRC)) $(FUZZ_CORE)
	$(FUZZ_LINK)
build/fuzz/fuzz_args: $(call fuzz_obj,tests/fuzz/fuzz_args.c src/app/cli.c src/app/headless.c src/app/output.c src/app/i18n.c $(RENDER_SRC)) $(FUZZ_CORE)
	$(FUZZ_LINK)
build/fuzz/fuzz_progress: $(call fuzz_obj,tests/fuzz/fuzz_progress.c src/app/progress.c src/app/cli.c src/app/i18n.c) $(FUZZ_CORE)
	$(FUZZ_LINK)
fuzz: check-deps build/fuzz/fuzz_lesson build/fuzz/fuzz_args build/fuzz/fuzz_progress
	@mkdir -p build/fuzz/corpus build/fuzz/corpus-args build/fuzz/corpus-progress
	for f in lessons/*.lesson lessons/*/*.lesson; do cp "$$f" "build/fuzz/corpus/$$(echo "$$f" | tr / _)"; done
	printf -- '--steps\0003\000--csv\000-\000--set\000iterations=5' > build/fuzz/corpus-args/seed-1
	printf -- '--frames\000--size\00040x12\000--mode\000wire\000--scene=flag\000--seconds\0000.5' > build/fuzz/corpus-args/seed-2
	printf '3\t0\t/a.lesson\n0\t1\t/b/c.lesson\n' > build/fuzz/corpus-progress/seed-1
	printf 'lesson\t2\t1\t1/2\t125\t01-a.lesson\nanswer\tquestion\t1\t2\t2\t3\t0\t1\t1\t01-a.lesson\n' > build/fuzz/corpus-progress/seed-2
	build/fuzz/fuzz_lesson $(FUZZ_RUN) -max_len=4096 build/fuzz/corpus
	build/fuzz/fuzz_args $(FUZZ_RUN) -max_len=2048 build/fuzz/corpus-args
	build/fuzz/fuzz_progress $(FUZZ_RUN) -max_len=8192 build/fuzz/corpus-progress

# ---------------------------------------------------------------- install
install: AUTO_PACKAGES = no
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SHAREDIR)/lessons
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/$(BIN)
	install -d $(DESTDIR)$(MANDIR) && install -m 644 src/clothsim.1 $(DESTDIR)$(MANDIR)/clothsim.1
	install -d $(DESTDIR)$(COMPLETIONDIR) && install -m 644 src/completion/clothsim.bash $(DESTDIR)$(COMPLETIONDIR)/clothsim
	cd lessons && find . -name '*.lesson' -o -name README.md -o -name PLAN.md | while read -r f; do \
	  install -d "$(DESTDIR)$(SHAREDIR)/lessons/$$(dirname "$$f")" && install -m 644 "$$f" "$(DESTDIR)$(SHAREDIR)/lessons/$$f"; done
	for lang in $(LANGS); do \
	  install -d $(DESTDIR)$(LOCALEDIR)/$$lang/LC_MESSAGES && \
	  install -m 644 $(BUILD)/locale/$$lang/LC_MESSAGES/clothsim.mo $(DESTDIR)$(LOCALEDIR)/$$lang/LC_MESSAGES/clothsim.mo; done

# The folders install made go too, where nothing else is left in them: up to
# DESTDIR (a package's staging tree), or, installed in place, within
# PREFIX/share (PREFIX/bin and the like stay).
UNINSTALL_STOP = $(if $(DESTDIR),$(patsubst %/,%,$(DESTDIR)),$(PREFIX)/share)
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/$(BIN) $(DESTDIR)$(MANDIR)/clothsim.1 $(DESTDIR)$(COMPLETIONDIR)/clothsim
	rm -rf $(DESTDIR)$(SHAREDIR)
	for lang in $(LANGS); do rm -f $(DESTDIR)$(LOCALEDIR)/$$lang/LC_MESSAGES/clothsim.mo; done
	@stop='$(UNINSTALL_STOP)'; \
	for d in $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(COMPLETIONDIR) $(patsubst %/,%,$(dir $(DESTDIR)$(SHAREDIR))) \
	         $(foreach l,$(LANGS),$(DESTDIR)$(LOCALEDIR)/$(l)/LC_MESSAGES); do \
	  while case "$$d" in "$$stop"/*) true;; *) false;; esac && rmdir "$$d" 2>/dev/null; do d=$$(dirname "$$d"); done; \
	done

# What a translator works from: src/po/clothsim.pot, merged into every LANG.po.
pot:
	xgettext $(XGETTEXT_FLAGS) -o src/po/clothsim.pot $(CORE_SRC) $(FAST_SRC) $(RENDER_SRC) $(LESSON_SRC) $(APP_SRC) $(wildcard src/*/*.h)
	for po in $(PO_FILES); do msgmerge --quiet --update --backup=none --no-fuzzy-matching --add-location=file $$po src/po/clothsim.pot; done

clean:
	rm -rf build $(BIN)

# Every C file in the house style (.clang-format); CI checks it
# (format-check: nothing to change, or the files and lines that differ).
FORMAT_FILES = $(CORE_SRC) $(FAST_SRC) $(RENDER_SRC) $(LESSON_SRC) $(APP_SRC) $(TEST_SRC) $(wildcard src/*/*.h) \
               $(wildcard tests/*.h)
NEED_FORMAT = clang-format:/usr/bin/clang-format
format:
	$(call install_packages,$(call missing,$(NEED_FORMAT)))
	clang-format -i $(FORMAT_FILES)

format-check:
	$(call install_packages,$(call missing,$(NEED_FORMAT)))
	@clang-format --dry-run --Werror $(FORMAT_FILES) || \
	  { echo "clothsim: these files are not in .clang-format's style: make format rewrites them"; exit 1; }

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
