# The attention book: chapters/*.nw -> code/ (tangled C) -> build/bin/ (one
# program per chapter) -> build/data/ -> build/fig/ (gnuplot) -> three PDFs.
# Quiet by default, one line per step; `make V=1` shows every command.
# `make help` lists the targets.

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:
.SECONDARY:

B        := build
PYTHON   := /usr/bin/python3
CHAPTERS := $(sort $(wildcard chapters/*.nw))
EDITIONS := zh en bilingual
PDFS     := $(EDITIONS:%=$(B)/book-%.pdf)

CC       ?= cc
CPPFLAGS := -Icode -D_POSIX_C_SOURCE=200809L
CFLAGS   := -std=c11 -O2 -Wall -Wextra -Werror -pedantic
DBGFLAGS := -std=c11 -O1 -g -Wall -Wextra -Werror -pedantic \
            -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDLIBS   := -lm

ifeq ($(V),1)
  Q :=
  msg :=
else
  Q := @
  msg = @printf '  %-8s %s\n' '$(1)' '$(2)';
endif

# Tools the build needs, and the Debian package each comes from.
need = $(if $(shell command -v $(1) 2>/dev/null),,$(error $(1) not found: install the Debian package $(2) (./build.sh does this)))

#### Tangle ##################################################################
# All chapters go to notangle together.  The list of files it wrote is
# included below, so make restarts with it after the chapters change.
$(B)/tangle.mk: $(CHAPTERS) tools/tangle.sh
	$(call need,notangle,noweb)
	$(call msg,TANGLE,code/)
	$(Q)mkdir -p $(B)
	$(Q)tools/tangle.sh --record $(B)/tangle.sums $(if $(FORCE),--force) code $(CHAPTERS)
	$(Q)printf 'CODE := %s\n' "$$(noroots $(CHAPTERS) | sed -n 's/^<<\(code\/.*\)>>$$/\1/p' | sort | tr '\n' ' ')" > $@

ifeq ($(filter help clean,$(MAKECMDGOALS)),)
include $(B)/tangle.mk
endif
-include exercises/exercises.mk  # exercises and their autograder: make grade, student, gradescope

# `make tangle FORCE=1` rewrites code/ from the chapters even where a file
# there was not written by the last tangle.
tangle:
ifneq ($(FORCE),)
	$(Q)tools/tangle.sh --record $(B)/tangle.sums --force code $(CHAPTERS)
endif

PROG_SRCS := $(filter code/ch%.c code/app%.c,$(CODE))
LIB_SRCS  := $(filter-out $(PROG_SRCS),$(filter %.c,$(CODE)))
PROGRAMS  := $(PROG_SRCS:code/%.c=$(B)/bin/%)
DBG_PROGS := $(PROG_SRCS:code/%.c=$(B)/debug/bin/%)

#### Compile #################################################################
$(B)/obj/%.o: code/%.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(B)/libattn.a: $(LIB_SRCS:code/%.c=$(B)/obj/%.o)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/bin/%: $(B)/obj/%.o $(B)/libattn.a
	$(call msg,LD,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

-include $(wildcard $(B)/obj/*.d $(B)/debug/obj/*.d)

programs: $(PROGRAMS)

# Debug build: tangled with #line directives (notangle -L), so compiler
# messages and gdb point into the .nw files; built with AddressSanitizer and
# UndefinedBehaviorSanitizer.  The tests run the programs this way too.
$(B)/debug/tangle.stamp: $(CHAPTERS) tools/tangle.sh
	$(call msg,TANGLE,$(B)/debug/code/ (-L))
	$(Q)mkdir -p $(B)/debug/code
	$(Q)tools/tangle.sh -L $(B)/debug/code $(CHAPTERS)
	$(Q)touch $@

$(B)/debug/code/%.c: $(B)/debug/tangle.stamp ;
$(B)/debug/code/%.h: $(B)/debug/tangle.stamp ;

$(B)/debug/obj/%.o: $(B)/debug/code/%.c
	$(call msg,CC-DBG,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -I$(B)/debug/code -D_POSIX_C_SOURCE=200809L $(DBGFLAGS) -MMD -MP -c -o $@ $<

$(B)/debug/bin/%: $(B)/debug/obj/%.o $(LIB_SRCS:code/%.c=$(B)/debug/obj/%.o)
	$(call msg,LD-DBG,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(DBGFLAGS) -o $@ $^ $(LDLIBS)

debug: $(DBG_PROGS)

#### Figures #################################################################
# figures/NAME.gp draws build/fig/NAME.{tex,pdf} from build/data/NAME.dat;
# its first line says which program prints that data:  # data: PROGRAM ARGS
FIGURES  := $(filter-out common,$(basename $(notdir $(wildcard figures/*.gp))))
fig_data  = $(shell sed -n '1s/^\# data: //p' figures/$(1).gp)

# A figure whose data are times (data/timings/NAME.dat exists) draws what
# `make record-timings` measured and recorded there, so that two builds give
# the same book; every other figure's data come from its program at build time.
TIMED_FIGURES := $(basename $(notdir $(wildcard data/timings/*.dat)))

define figure_rules
ifeq ($(filter $(1),$(TIMED_FIGURES)),)
$(B)/data/$(1).dat: $(B)/bin/$(firstword $(call fig_data,$(1)))
	$$(call msg,RUN,$(call fig_data,$(1)))
	$(Q)mkdir -p $$(@D)
	$(Q)$(B)/bin/$(call fig_data,$(1)) > $$@.tmp && mv $$@.tmp $$@
else
$(B)/data/$(1).dat: data/timings/$(1).dat
	$$(call msg,COPY,$$< (make record-timings measures again))
	$(Q)mkdir -p $$(@D)
	$(Q)cp $$< $$@
endif
$(B)/fig/$(1).tex: figures/$(1).gp figures/common.gp $(B)/data/$(1).dat
	$$(call need,gnuplot,gnuplot-nox)
	$$(call msg,GNUPLOT,$(1))
	$(Q)mkdir -p $$(@D)
	$(Q)cd $(B) && GNUPLOT_LIB=../figures gnuplot \
	    -e "datafile='data/$(1).dat'; outfile='fig/$(1).tex'" ../figures/$(1).gp
endef
$(foreach f,$(FIGURES),$(eval $(call figure_rules,$(f))))
FIG_TEX := $(FIGURES:%=$(B)/fig/%.tex)

figures: $(FIG_TEX)

#### Program output quoted in the text ######################################
# \programoutput{NAME}{PROGRAM ARGS}{SECTION} in a chapter: the build runs the
# program (once per distinct command) and sets the section verbatim.
$(B)/excerpts.mk: $(CHAPTERS) tools/excerpt.py
	$(Q)mkdir -p $(B)
	$(Q)$(PYTHON) tools/excerpt.py rules $(CHAPTERS) > $@.tmp && mv $@.tmp $@

ifeq ($(filter help clean,$(MAKECMDGOALS)),)
include $(B)/excerpts.mk
endif

#### Weave and typeset #######################################################
$(B)/lang.ok: $(CHAPTERS) tools/nwlang.py
	$(call msg,CHECK,zh/en pairs)
	$(Q)mkdir -p $(B)
	$(Q)$(PYTHON) tools/nwlang.py check $(CHAPTERS)
	$(Q)touch $@

$(B)/woven.tex: $(CHAPTERS) $(B)/lang.ok
	$(call need,noweave,noweb)
	$(call msg,WEAVE,chapters/)
	$(Q)noweave -n -index -autodefs c $(CHAPTERS) > $@.tmp && mv $@.tmp $@

$(B)/body-%.tex: $(B)/woven.tex tools/nwlang.py tools/chunknames.py chapters/chunk-names.zh
	$(call msg,WEAVE,book-$*)
	$(Q)$(PYTHON) tools/nwlang.py filter $* $< > $@.tmp && mv $@.tmp $@

$(B)/book-%.pdf: $(B)/body-%.tex tex/book.tex tex/attnbook.sty tex/book.bib $(FIG_TEX) $(EXCERPT_TEX) tools/latex.sh
	$(call need,xelatex,texlive-xetex)
	$(call msg,XELATEX,book-$*)
	$(Q)tools/latex.sh $(B) $*

pdf: $(PDFS)

#### Top level ###############################################################
all: $(PROGRAMS) $(PDFS)

check-lang: $(B)/lang.ok

# code/ is committed; it must be exactly what the chapters tangle to.
# A stamp: it runs again only when a chapter, a file in code/ or code/'s
# list of files (the directory's time: a stray file added) changes.
check-tangle: $(B)/tangle.ok
$(B)/tangle.ok: $(CHAPTERS) $(wildcard code/*) code tools/tangle.sh
	$(call msg,CHECK,code/ = tangle(chapters/))
	$(Q)rm -rf $(B)/check-tangle && mkdir -p $(B)/check-tangle
	$(Q)tools/tangle.sh $(B)/check-tangle $(CHAPTERS)
	$(Q)diff -r -q code $(B)/check-tangle >/dev/null || { \
	  echo "check-tangle: code/ differs from what chapters/*.nw tangle to:" >&2; \
	  diff -r -u code $(B)/check-tangle | head -n 20 >&2; \
	  echo "check-tangle: edit the chapter, not code/, then run make" >&2; exit 1; }
	$(Q)touch $@

# The C must also compile warning-free with clang.
check-clang: $(B)/clang.ok
$(B)/clang.ok: $(CODE)
	$(call msg,CHECK,clang -Werror)
	$(Q)mkdir -p $(@D)
	$(Q)for f in $(filter %.c,$(CODE)); do \
	  clang $(CPPFLAGS) $(CFLAGS) -fsyntax-only $$f || exit 1; done
	$(Q)touch $@

UNIT_TESTS := $(patsubst tests/unit/%.c,$(B)/tests/%,$(wildcard tests/unit/*.c))
$(B)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(B)/libattn.a
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) -std=gnu11 -O1 -g -Wall -Wextra -Werror -o $@ $< $(B)/libattn.a -lcriterion $(LDLIBS)

# The tests run under pytest (pytest.ini, tests/conftest.py) on both cores;
# PYTEST_ARGS='-k NAME' runs a subset.  No test asserts a time: see bench.
PYTEST_ARGS ?=
test: all debug $(UNIT_TESTS) check-tangle check-clang
	$(call msg,TEST,pytest -n 2 tests/)
	$(Q)$(PYTHON) -m pytest -n 2 --dist loadfile $(PYTEST_ARGS)

#### Benchmarks ##############################################################
# No test asserts a time: the budgets are measured here, by hand, on a quiet
# machine.  Each bench-* target prints `what  measured  budget  OK|OVER`
# lines (tools/bench.py line prints one) and fails if a budget is missed.
# `make bench` runs every target in BENCH_TARGETS and fails if any did; a
# part of the book adds its own with  BENCH_TARGETS += bench-NAME.
BENCH_TARGETS += bench-build bench-demos bench-grade bench-html

bench:
	$(Q)s=0; for t in $(BENCH_TARGETS); do \
	  $(MAKE) --no-print-directory $$t || { s=1; echo "  $$t: OVER BUDGET or failed"; }; done; \
	  exit $$s

bench-build:
	$(Q)tools/bench-build.sh

bench-demos: $(PROGRAMS)
	$(Q)$(PYTHON) tools/bench.py demos

# bench-grade is in exercises/exercises.mk (tools/grade_bench.py).

bench-html: $(PROGRAMS)
	$(Q)$(PYTHON) tools/bench.py html

clean:
	rm -rf $(B)

help:
	@echo 'Targets (V=1 shows every command):'
	@echo '  all           programs and the three PDFs (the default)'
	@echo '  programs      the chapter programs in $(B)/bin/'
	@echo '  pdf           $(B)/book-zh.pdf, $(B)/book-en.pdf, $(B)/book-bilingual.pdf'
	@echo '  figures       the gnuplot figures in $(B)/fig/'
	@echo '  html          the HTML edition, $(B)/html/{zh,en}/index.html (not in the default build)'
	@echo '  slides        one beamer deck per chapter and language in $(B)/slides/ (likewise)'
	@echo '  grade         grade every exercise (EX=<id> grades one); LANG=zh or en picks the feedback'
	@echo '  student       the student release: build/student/ and build/student.tar.gz'
	@echo '  gradescope    the Gradescope autograder: build/gradescope.zip'
	@echo '  bench-grade   how long grading takes (every exercise, one), against its budgets'
	@echo '  debug         programs tangled with #line and built with ASan+UBSan in $(B)/debug/bin/'
	@echo '  test          everything, then all tests under pytest -n 2 (PYTEST_ARGS="-k NAME": a subset)'
	@echo '  check-lang    every Chinese passage has its English partner and back'
	@echo '  tangle        write code/ from the chapters (FORCE=1 overwrites hand edits)'
	@echo '  check-tangle  code/ is exactly what the chapters tangle to'
	@echo '  check-clang   the C compiles with clang -Werror too'
	@echo '  bench         every bench-* target below (and those other parts add): time budgets'
	@echo '  bench-build   time a clean build (<= 90 s), a no-op build (<= 1 s), a one-chapter rebuild'
	@echo '  bench-demos   each demo, median of 5 runs (< 1 s)'
	@echo '  bench-html    make html slides from a built tree (<= 30 s)'
	@echo '  fuzz          build the libFuzzer targets (tests/fuzz/) and run each FUZZ_SECONDS (60)'
	@echo '  memcheck      every demo and data mode under valgrind: zero errors, zero leaks'
	@echo '  check-reproducible  two clean builds, compared byte for byte (a few minutes)'
	@echo '  record-timings  measure the timing figures again into data/timings/ (idle machine)'
	@echo '  bench-train   one training step of Chapter 8 in C and in PyTorch (THREADS=n; RECORD=1: data/ch08-measured.dat)'
	@echo '  train         the full training runs (Chapter 9: build/train/ch09-full.ckpt, <= 10 min; RECORD=1: data/ch09-full-train.dat)'
	@echo '  bench-decode  Chapter 9: decoding time with the key-value cache and without'
	@echo '  bench-attention  Chapter 10 against OpenBLAS and PyTorch (RECORD=1: data/ch10-measured.dat)'
	@echo '  clean         remove $(B)/'

PHONY_EXTRA := tangle
.PHONY: $(PHONY_EXTRA) all programs debug figures pdf check-lang check-tangle check-clang test bench bench-build bench-demos bench-grade bench-html clean help

include tools/html.mk
include tools/qa.mk
include mk/zh.mk

#### Chapter 8: training ####################################################
# The training kernels are compiled with -O3 (the 4 x 8 register block of
# gemm.c is unrolled and vectorised only there); everything else keeps the
# common flags.
$(B)/obj/gemm.o $(B)/obj/model.o: CFLAGS += -O3

# make bench-train: one training step of Chapter 8's model in C and in
# PyTorch (same weights, batches, precision and threads), as a ratio.
# RECORD=1 writes data/ch08-measured.dat, which the chapter replays
# (BEFORE=PROG: an older ch08-training whose profile the record keeps).
CH08_RECORD := data/ch08-measured.dat
bench-train: $(B)/bin/ch08-training
	$(Q)$(PYTHON) tools/bench_train.py $(if $(THREADS),--threads $(THREADS)) \
	    $(if $(RECORD),--record $(CH08_RECORD)) $(if $(BEFORE),--before $(BEFORE))
$(B)/run/ch08-training_--report_data_ch08-measured.dat.out: $(CH08_RECORD)

.PHONY: bench-train

#### Chapter 9: the number-translation model #################################
# The build trains two small models on the number task, with label smoothing
# 0.1 and without.  What they learn depends only on the program (its code
# fixes the plan and the seed) and the arguments here, so a no-op build does
# not retrain.  `make train` runs the full plan (at most ten minutes) into
# build/train/, which --translate then prefers.
CH09      := $(B)/bin/ch09-translate
CH09_CKPT := $(B)/data/ch09-model.ckpt
CH09_NOLS := $(B)/data/ch09-model-nols.ckpt

$(CH09_CKPT): $(CH09)
	$(call msg,TRAIN,ch09 number task (label smoothing 0.1))
	$(Q)mkdir -p $(@D)
	$(Q)$(CH09) --train $@.tmp > $(B)/data/ch09-train.out && mv $@.tmp $@

$(CH09_NOLS): $(CH09)
	$(call msg,TRAIN,ch09 number task (no label smoothing))
	$(Q)mkdir -p $(@D)
	$(Q)$(CH09) --train $@.tmp --smoothing 0 > $(B)/data/ch09-train-nols.out && mv $@.tmp $@

# What the chapter quotes or draws from the trained models.
$(B)/run/ch09-translate_--evaluate_--model_build_data_ch09-model.ckpt.out: $(CH09_CKPT)
$(B)/run/ch09-translate_--evaluate_--model_build_data_ch09-model-nols.ckpt.out: $(CH09_NOLS)
$(B)/data/ch09-attention.dat: $(CH09_CKPT)
$(B)/run/ch08-training_--report_data_ch09-full-train.dat.out: data/ch09-full-train.dat

# It uses OpenBLAS's products (Chapter 8, "Calling OpenBLAS instead") on one
# thread; RECORD=1 also writes its log and its scores on the test set to
# data/ch09-full-train.dat, which Chapter 9 quotes.
CH09_FULL_ENV := ATTN_BLAS=openblas OMP_NUM_THREADS=1
train: train-ch09
train-ch09: $(CH09)
	$(call msg,TRAIN,ch09 full plan: build/train/ch09-full.ckpt)
	$(Q)mkdir -p $(B)/train
	$(Q)start=$$(date +%s); $(CH09_FULL_ENV) $(CH09) --train $(B)/train/ch09-full.ckpt.tmp --full \
	    > $(B)/train/ch09-full.out && \
	  mv $(B)/train/ch09-full.ckpt.tmp $(B)/train/ch09-full.ckpt && \
	  $(CH09_FULL_ENV) $(CH09) --evaluate --model $(B)/train/ch09-full.ckpt >> $(B)/train/ch09-full.out && \
	  printf '## time\n%s s wall, load %s at the end\n' "$$(( $$(date +%s) - start ))" \
	    "$$(cut -d' ' -f1 /proc/loadavg)" >> $(B)/train/ch09-full.out
	$(Q)cat $(B)/train/ch09-full.out
	$(Q)if [ -n "$(RECORD)" ]; then \
	  { echo "# Chapter 9 measurements: make train RECORD=1 on $$(lscpu | sed -n 's/^Model name: *//p')" \
	      "($$(nproc) CPUs) at $$(date -u '+%Y-%m-%d %H:%M UTC')"; echo; \
	    cat $(B)/train/ch09-full.out; } > data/ch09-full-train.dat; fi

# Decoding speed, the key-value cache against recomputing the prefix.  The
# chapter quotes the recorded run (data/ch09-kv-bench.dat, a time measured
# live would make two builds differ); RECORD=1 measures again into it.
CH09_KV_RECORD := data/ch09-kv-bench.dat
bench-decode: $(CH09_CKPT)
	$(Q)$(CH09) --kv-bench --model $(CH09_CKPT) > $(B)/kv-bench.out
	$(Q)cat $(B)/kv-bench.out
	$(Q)if [ -n "$(RECORD)" ]; then \
	  { echo "# Chapter 9 measurements: make bench-decode RECORD=1 on $$(lscpu | sed -n 's/^Model name: *//p')" \
	      "($$(nproc) CPUs) at $$(date -u '+%Y-%m-%d %H:%M UTC'), load $$(cut -d' ' -f1 /proc/loadavg)"; \
	    echo; cat $(B)/kv-bench.out; } > $(CH09_KV_RECORD); echo "bench-decode: wrote $(CH09_KV_RECORD)"; fi
$(B)/run/ch08-training_--report_data_ch09-kv-bench.dat.out: $(CH09_KV_RECORD)

.PHONY: train train-ch09 bench-decode

#### Chapter 10: fast attention ##############################################
# Only this chapter's objects get these flags: -O3 and the SIMD pragmas for
# the kernel (no OpenMP runtime in the library), OpenMP threads and OpenBLAS
# for the program.  No -march: the kernel picks AVX2+FMA at run time.
CH10_SIMD := -O3 -fopenmp-simd -DATTN_OMP_SIMD -ffp-contract=fast -fno-trapping-math
$(B)/obj/fastattn.o: private CFLAGS += $(CH10_SIMD)
$(B)/obj/ch10-fast-attention.o: private CFLAGS += $(CH10_SIMD) -fopenmp
$(B)/bin/ch10-fast-attention: private LDLIBS += -fopenmp -lopenblas
$(B)/debug/obj/fastattn.o: private DBGFLAGS += -fopenmp-simd -DATTN_OMP_SIMD
$(B)/debug/obj/ch10-fast-attention.o: private DBGFLAGS += -fopenmp
$(B)/debug/bin/ch10-fast-attention: private LDLIBS += -fopenmp -lopenblas
# The fuzz build (tools/qa.mk, clang, no OpenMP runtime) links OpenBLAS only.
$(B)/fuzz/fuzz-cli-ch10-fast-attention $(B)/fuzz/replay-cli-ch10-fast-attention: private LDLIBS += -lopenblas
# The chapter's table and figures replay the committed measurements.
CH10_RECORD := data/ch10-measured.dat
$(B)/data/ch10-roofline.dat $(B)/data/ch10-speed.dat \
  $(B)/run/ch10-fast-attention_--report_data_ch10-measured.dat.out: $(wildcard $(CH10_RECORD))

# The full sweep (a few minutes; not part of the build or the tests).
# RECORD=1 writes $(CH10_RECORD), which the build then replays.
bench-attention: $(B)/bin/ch10-fast-attention
	$(Q)env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(PYTHON) tools/bench-attention.py \
	    $(if $(RECORD),--record $(CH10_RECORD),--record $(B)/bench-attention.dat)
.PHONY: bench-attention

#### The programs' language in the build ####################################
# The programs speak the reader's language (Appendix D: LC_ALL, LC_MESSAGES,
# LANG, or --lang).  What the build runs -- the figures' data, the output the
# book quotes, the trained models -- must not depend on the builder's locale,
# so every program the build runs sees LC_ALL=C.UTF-8: English.
$(B)/data/%: export LC_ALL := C.UTF-8
$(B)/run/%: export LC_ALL := C.UTF-8

#### No code used before it is defined #######################################
# Code in chapter k uses only what chapters 1..k define, and what the
# appendices read as prerequisites define (A, the C core; D, the command
# line); tools/forward_use.py names the chunk, the chapter and the identifier
# of each forward use.  Part of `make` (and so of `make test`).
FORWARD_PREREQ := chapters/90-appendix-core.nw chapters/93-appendix-cli.nw
$(B)/forward.ok: $(CHAPTERS) tools/forward_use.py
	$(call msg,CHECK,no code used before it is defined)
	$(Q)mkdir -p $(B)
	$(Q)$(PYTHON) tools/forward_use.py $(FORWARD_PREREQ:%=--prerequisite %) $(CHAPTERS)
	$(Q)touch $@

all: $(B)/forward.ok
check-forward: $(B)/forward.ok
.PHONY: check-forward
