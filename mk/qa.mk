# Fuzzing, memory checking and reproducible builds (issue 17).
# (SOURCE_DATE_EPOCH, which makes the build reproducible: mk/common.mk.)
#
#   make fuzz              build the libFuzzer targets and run each for
#                          FUZZ_SECONDS (default 60); FUZZ_TARGETS=... picks
#   make memcheck          every program's demo and a data-mode run under
#                          valgrind's memcheck: zero errors, zero leaks
#   make check-reproducible  two clean builds, compared byte for byte
#   make record-timings    measure the timing figures' data again, into
#                          data/timings/ (the build replays what is there)
#
# The fuzz targets (tests/fuzz/):  mat_read, the matrix-file reader;  mask,
# Chapter 4's mask reader;  cli-PROGRAM, one program's command line, for each
# program in FUZZ_PROGRAMS.  Each target is also linked without libFuzzer as
# build/fuzz/replay-TARGET, which `make test` runs over the target's corpus
# (tests/fuzz/corpus/TARGET/) and the inputs that once crashed it
# (tests/fuzz/regress/TARGET/).

#### Fuzzing ##################################################################
FUZZ_CC       := clang
FUZZ_SECONDS  ?= 60
FUZZ_PROGRAMS ?= $(notdir $(PROG_SRCS:.c=))
FUZZ_TARGETS  ?= mat_read mask $(FUZZ_PROGRAMS:%=cli-%)
FZ            := $(B)/fuzz
FUZZ_SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS   := -std=c11 -g -O1 -fno-omit-frame-pointer -Wall -Wextra -Werror \
                 $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_FIXTURES := $(abspath tests/fuzz/fixtures)
FUZZ_LIB_OBJS := $(LIB_SRCS:code/%.c=$(FZ)/obj/%.o)

# Library and program objects: coverage-instrumented, so the same objects
# serve libFuzzer and the replay programs (the sanitizer runtime has no-op
# coverage hooks).  A program's main becomes program_main.
$(FZ)/obj/%.o: code/%.c
	$(call msg,CC-FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<
$(FZ)/obj/%.main.o: code/%.c
	$(call msg,CC-FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -Dmain=program_main -MMD -MP -c -o $@ $<
$(FZ)/obj/fuzz_cli-%.o: tests/fuzz/fuzz_cli.c tests/fuzz/sandbox.h
	$(call msg,CC-FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -DPROGRAM_NAME='"$*"' \
	    -DFIXTURE_DIR='"$(FUZZ_FIXTURES)"' -c -o $@ $<
$(FZ)/obj/fuzz_%.o: tests/fuzz/fuzz_%.c tests/fuzz/sandbox.h
	$(call msg,CC-FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<
$(FZ)/obj/replay.o: tests/fuzz/replay.c
	$(call msg,CC-FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<
$(FZ)/libattn.a: $(FUZZ_LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

# What each target links: its harness (and program), the library; targets
# that run code which may call exit() wrap exit (tests/fuzz/sandbox.h).
fuzz_objs = $(if $(filter cli-%,$(1)),$(FZ)/obj/fuzz_cli-$(1:cli-%=%).o \
              $(FZ)/obj/$(1:cli-%=%).main.o,$(FZ)/obj/fuzz_$(1).o) $(FZ)/libattn.a
fuzz_wrap = $(if $(filter mat_read,$(1)),,-Wl,--wrap=exit)

define fuzz_rules
$(FZ)/fuzz-$(1): $(call fuzz_objs,$(1))
	$$(call msg,LD-FUZZ,$$@)
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $(call fuzz_wrap,$(1)) -o $$@ $$^ $$(LDLIBS)
$(FZ)/replay-$(1): $(FZ)/obj/replay.o $(call fuzz_objs,$(1))
	$$(call msg,LD-FUZZ,$$@)
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) $(call fuzz_wrap,$(1)) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_rules,$(t))))

# A dictionary of each program's words: its options and the words of its
# --help (mode names like causal, short, post), the fixtures' names, numbers.
$(FZ)/cli-%.dict: $(B)/bin/% tests/fuzz/fixtures
	$(Q)mkdir -p $(@D)
	$(Q){ $(B)/bin/$* --help | LC_ALL=C grep -oE -- '-*[A-Za-z][A-Za-z0-9-]*'; \
	      ls tests/fuzz/fixtures; printf '%s\n' - 0 1 -1 2 3 4 8 1e308 1e-300 0.5; } \
	    | LC_ALL=C sort -u | sed 's/.*/"&"/' > $@

-include $(wildcard $(FZ)/obj/*.d)

FUZZ_BINS   := $(FUZZ_TARGETS:%=$(FZ)/fuzz-%)
REPLAY_BINS := $(FUZZ_TARGETS:%=$(FZ)/replay-%)
fuzz-build: $(FUZZ_BINS) $(REPLAY_BINS) $(FUZZ_PROGRAMS:%=$(FZ)/cli-%.dict)

fuzz: fuzz-build
	$(Q)status=0; for t in $(FUZZ_TARGETS); do \
	  tools/fuzz.sh $(FZ) $$t $(FUZZ_SECONDS) || status=1; done; exit $$status

# make test replays every saved input (tests/test_fuzz_regress.py).
test: $(REPLAY_BINS)

.PHONY: fuzz fuzz-build

#### Recorded timings #########################################################
# The figures that plot measured times (TIMINGS) draw data/timings/NAME.dat;
# this measures them again on this machine.  Run it on an idle machine.
TIMINGS ?= ch01-timing ch02-cost
record-timings: $(PROGRAMS)
	$(Q)tools/record-timings.sh $(B) $(TIMINGS)

.PHONY: record-timings

#### Reproducibility check ####################################################
# Two clean builds of the tracked files, in two directories, at two times,
# with different umask, TZ and locale: every PDF, the HTML, the slides and
# the release archives must be byte-identical (a few minutes; not in make test).
check-reproducible:
	$(Q)tools/check-reproducible.sh

.PHONY: check-reproducible

#### Memory checking ##########################################################
# Every demo and data mode under valgrind's memcheck: zero errors, zero leaks
# (even still-reachable blocks).  A few minutes; not part of make test.
memcheck: $(PROGRAMS)
	$(call need,valgrind,valgrind)
	$(Q)tools/memcheck.sh $(B)

.PHONY: memcheck

# The harness's own check: a program that breaks the contract on purpose.
$(FZ)/obj/selftest.main.o: tests/fuzz/selftest.c
	$(call msg,CC-FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -Dmain=program_main -c -o $@ $<
$(FZ)/replay-cli-selftest: $(FZ)/obj/replay.o $(FZ)/obj/fuzz_cli-selftest.o $(FZ)/obj/selftest.main.o
	$(call msg,LD-FUZZ,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) -Wl,--wrap=exit -o $@ $^
test: $(FZ)/replay-cli-selftest
