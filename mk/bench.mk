#### Time budgets and recorded measurements ##################################
# No test asserts a time: the budgets are measured here, by hand, on a quiet
# machine.  Each bench-* target prints `what  measured  budget  OK|OVER`
# lines (tools/bench.py line prints one) and fails if a budget is missed.
# `make bench` runs every target in BENCH_TARGETS and fails if any did; a
# part of the book adds its own with  BENCH_TARGETS += bench-NAME.
BENCH_TARGETS += bench-build bench-edit bench-demos bench-grade bench-html bench-test

bench:
	$(Q)s=0; for t in $(BENCH_TARGETS); do \
	  $(MAKE) --no-print-directory $$t || { s=1; echo "  $$t: OVER BUDGET or failed"; }; done; \
	  exit $$s

bench-build:
	$(Q)tools/bench-build.sh

# The author's loop: a sentence edited in a copy of the built tree, then one
# edition (<= 15 s) and all three (<= 25 s with make -j2) typeset again.
bench-edit: all
	$(Q)tools/bench-edit.sh

bench-demos: $(PROGRAMS)
	$(Q)$(PYTHON) tools/bench.py demos

# bench-grade is in mk/exercises.mk (tools/grade_bench.py).

bench-html: $(PROGRAMS)
	$(Q)$(PYTHON) tools/bench.py html

# make test from a built tree <= 90 s (a first make test that only collects
# the tests builds what they need).  Over it on a 2-core machine: the
# grader's sweeps (tests/test_grader*.py) take half of the time.
bench-test:
	$(Q)$(PYTHON) tools/bench.py test

# Chapter 8, make bench-train: one training step of Chapter 8's model in C
# and in PyTorch (same weights, batches, precision and threads), as a ratio.
# RECORD=1 writes data/ch08-measured.dat, which the chapter replays.  It also
# profiles the chapter's first and previous versions of ch08-training, each
# built from its commit into build/old/COMMIT/ (git archive, then that
# commit's own make), so that the record's three profiles come from one
# machine in one sitting.  (FIRST=PROG, BEFORE=PROG: other programs.)
# OpenBLAS chooses its own kernels for this processor: OPENBLAS_CORETYPE
# and OPENBLAS_L2_SIZE, which a machine may set to pin older kernels, are
# unset for this command alone, as for bench-attention; the record names the
# kernels.
CH08_FIRST_COMMIT    := 4632f39
CH08_PREVIOUS_COMMIT := 39a3d26
ifneq ($(RECORD),)
FIRST  ?= $(B)/old/$(CH08_FIRST_COMMIT)/build/bin/ch08-training
BEFORE ?= $(B)/old/$(CH08_PREVIOUS_COMMIT)/build/bin/ch08-training
endif
bench-train: $(B)/bin/ch08-training $(filter $(B)/old/%,$(FIRST) $(BEFORE))
	$(Q)env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(PYTHON) tools/bench_train.py $(if $(THREADS),--threads $(THREADS)) \
	    $(if $(RECORD),--record $(CH08_RECORD)) $(if $(FIRST),--first $(FIRST)) \
	    $(if $(BEFORE),--before $(BEFORE))

$(B)/old/%/build/bin/ch08-training:
	$(call msg,BUILD,ch08-training as of commit $*)
	$(Q)rm -rf $(B)/old/$* && mkdir -p $(B)/old/$*
	$(Q)git archive $* | tar -x -C $(B)/old/$*
	$(Q)env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $(MAKE) -s -C $(B)/old/$* build/bin/ch08-training \
	    >$(B)/old/$*.log 2>&1 || { tail -n 20 $(B)/old/$*.log; exit 1; }

# Chapter 9, make train: the full plan (at most ten minutes) into
# build/train/, on OpenBLAS's products (Chapter 8, "Calling OpenBLAS
# instead") on one thread; RECORD=1 also writes its log and its scores on the
# test set to data/ch09-full-train.dat, which Chapter 9 quotes.
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

# Chapter 9, make bench-decode: decoding speed, the key-value cache against
# recomputing the prefix.  The chapter quotes the recorded run
# (data/ch09-kv-bench.dat, a time measured live would make two builds
# differ); RECORD=1 measures again into it.
bench-decode: $(CH09_CKPT)
	$(Q)$(CH09) --kv-bench --model $(CH09_CKPT) > $(B)/kv-bench.out
	$(Q)cat $(B)/kv-bench.out
	$(Q)if [ -n "$(RECORD)" ]; then \
	  cpu="$$(lscpu | sed -n 's/^Model name: *//p')"; at="$$(date -u '+%Y-%m-%d %H:%M')"; \
	  load="$$(cut -d' ' -f1 /proc/loadavg)"; \
	  { echo "# Chapter 9 measurements: make bench-decode RECORD=1 on $$cpu" \
	      "($$(nproc) CPUs) at $$at UTC, load $$load"; \
	    echo; echo "## machine"; echo "cpu: $$cpu ($$(nproc) logical CPUs)"; \
	    echo "measured: $$at UTC, 1-minute load average $$load at the start"; \
	    echo; cat $(B)/kv-bench.out; } > $(CH09_KV_RECORD); echo "bench-decode: wrote $(CH09_KV_RECORD)"; fi

# Chapter 10, make bench-attention: the full sweep (a few minutes; not part
# of the build or the tests).  RECORD=1 writes $(CH10_RECORD), which the
# build then replays.
bench-attention: $(B)/bin/ch10-fast-attention
	$(Q)env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(PYTHON) tools/bench-attention.py \
	    $(if $(RECORD),--record $(CH10_RECORD),--record $(B)/bench-attention.dat)

.PHONY: bench bench-build bench-edit bench-demos bench-grade bench-html bench-test bench-train \
        train train-ch09 bench-decode bench-attention
