#### Programs: code/ -> build/libattn.a and build/bin/ #####################
# code/chNN-*.c and code/appX-*.c are programs (PROG_SRCS); every other .c
# file goes into the library (LIB_SRCS): build/tangle.mk, tools/codefiles.py.
PROGRAMS  := $(PROG_SRCS:code/%.c=$(B)/bin/%)
DBG_PROGS := $(PROG_SRCS:code/%.c=$(B)/debug/bin/%)

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

# The debug build: tangled with #line directives (mk/tangle.mk), so compiler
# messages and gdb point into the .nw files; built with AddressSanitizer and
# UndefinedBehaviorSanitizer.  The tests run the programs this way too.
$(B)/debug/obj/%.o: $(B)/debug/code/%.c
	$(call msg,CC-DBG,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -I$(B)/debug/code -D_POSIX_C_SOURCE=200809L $(DBGFLAGS) -MMD -MP -c -o $@ $<

$(B)/debug/bin/%: $(B)/debug/obj/%.o $(LIB_SRCS:code/%.c=$(B)/debug/obj/%.o)
	$(call msg,LD-DBG,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(DBGFLAGS) -o $@ $^ $(LDLIBS)

debug: $(DBG_PROGS)

# The C must also compile warning-free with clang.
check-clang: $(B)/clang.ok
$(B)/clang.ok: $(CODE)
	$(call msg,CHECK,clang -Werror)
	$(Q)mkdir -p $(@D)
	$(Q)for f in $(filter %.c,$(CODE)); do \
	  clang $(CPPFLAGS) $(CFLAGS) -fsyntax-only $$f || exit 1; done
	$(Q)touch $@

#### Chapters' own flags ######################################################
# Chapter 8: the training kernels are compiled with -O3 (the 4 x 8 register
# block of gemm.c is unrolled and vectorised only there; so are Chapter 5's
# ReLU loops, which training calls on every hidden layer), and model.c with
# -fno-math-errno (Adam's sqrt becomes one vector instruction; no result
# changes, only errno would).  Everything else keeps the common flags.
$(B)/obj/gemm.o $(B)/obj/model.o $(B)/obj/ffn.o: CFLAGS += -O3
$(B)/obj/model.o: CFLAGS += -fno-math-errno

# Chapter 10: only its objects get these flags: -O3 and the SIMD pragmas for
# the kernel (no OpenMP runtime in the library), OpenMP threads and OpenBLAS
# for the program.  No -march: the kernel picks AVX2+FMA at run time.
CH10_SIMD := -O3 -fopenmp-simd -DATTN_OMP_SIMD -ffp-contract=fast -fno-trapping-math
$(B)/obj/fastattn.o: private CFLAGS += $(CH10_SIMD)
$(B)/obj/ch10-fast-attention.o: private CFLAGS += $(CH10_SIMD) -fopenmp
$(B)/bin/ch10-fast-attention: private LDLIBS += -fopenmp -lopenblas
$(B)/debug/obj/fastattn.o: private DBGFLAGS += -fopenmp-simd -DATTN_OMP_SIMD
$(B)/debug/obj/ch10-fast-attention.o: private DBGFLAGS += -fopenmp
$(B)/debug/bin/ch10-fast-attention: private LDLIBS += -fopenmp -lopenblas
# The fuzz build (mk/qa.mk, clang, no OpenMP runtime) links OpenBLAS only.
$(B)/fuzz/fuzz-cli-ch10-fast-attention $(B)/fuzz/replay-cli-ch10-fast-attention: private LDLIBS += -lopenblas

.PHONY: programs debug check-clang
