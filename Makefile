# The attention book: chapters/*.nw -> code/ (tangled C) -> build/bin/ (one
# program per chapter) -> build/data/ -> build/fig/ (gnuplot) -> three PDFs.
# Quiet by default, one line per step; `make V=1` shows every command.
# `make help` prints this table: each target, what it makes, where its rules are.
#
# target              makes                                                   rules in
# all (the default)   the programs, the three PDFs, the checks on the source  Makefile
# tangle              code/ from chapters/ (FORCE=1: over hand edits)         mk/tangle.mk
# check-tangle        code/ is exactly what the chapters tangle to            mk/tangle.mk
# check-lang          every Chinese passage has its English partner           mk/tangle.mk
# check-terms         each glossary term has one \defterm per language        mk/pdf.mk
# check-forward       no code used before the chapter defining it             mk/tangle.mk
# programs            build/bin/chNN-*, appA-matrix; build/libattn.a          mk/programs.mk
# debug               build/debug/bin/: #line into the .nw, ASan+UBSan        mk/programs.mk
# check-clang         the C compiles with clang -Werror too                   mk/programs.mk
# figures             build/fig/*.tex: plots (gnuplot), diagrams (TikZ)       mk/figures.mk
# pdf                 build/book-{zh,en,bilingual}.pdf (latexmk)              mk/pdf.mk
# zh, en, bilingual   one of them                                             mk/pdf.mk
# html                build/html/{zh,en}/index.html (not in all)              mk/html.mk
# slides              build/slides/NN-topic-{zh,en}.pdf (not in all)          mk/html.mk
# grade               grade every exercise (EX=<id>: one; LANG=zh|en)         mk/exercises.mk
# student             build/student.tar.gz, the student release               mk/exercises.mk
# gradescope          build/gradescope.zip; one per week: build/gradescope/   mk/exercises.mk
# test                everything, then every test (PYTEST_ARGS='-k NAME')     mk/test.mk
# fuzz                libFuzzer on tests/fuzz/, FUZZ_SECONDS (60) each        mk/qa.mk
# memcheck            every demo and data mode under valgrind                 mk/qa.mk
# check-reproducible  two clean builds compared byte for byte                 mk/qa.mk
# check-pandoc3       HTML and decks again on pandoc 3 (PANDOC_WASM=DIR)      mk/html.mk
# record-timings      the timing figures' data/timings/ (idle machine)        mk/qa.mk
# bench               every bench-* budget (and those parts add)              mk/bench.mk
# bench-build         a clean build <= 90 s, a no-op build <= 1 s             mk/bench.mk
# bench-edit          a sentence edited: one edition <= 15 s, all <= 25 s     mk/bench.mk
# bench-demos         each demo, median of 5 runs < 1 s                       mk/bench.mk
# grade-mutants       every known wrong solution graded; is its bug named?    mk/mutants.mk
# instructor          build/instructor.tar.gz: keys, rubrics, tracks, quizzes  mk/course.mk
# bench-grade         grading every exercise <= 30 s, one <= 5 s              mk/exercises.mk
# bench-html          make html slides from a built tree <= 30 s              mk/bench.mk
# bench-test          make test from a built tree <= 90 s                     mk/bench.mk
# bench-train         Chapter 8: a step in C and PyTorch; RECORD=1 records    mk/bench.mk
# train               Chapter 9, the full run <= 10 min; RECORD=1 records     mk/bench.mk
# bench-decode        Chapter 9: decoding with the key-value cache            mk/bench.mk
# bench-attention     Chapter 10 vs OpenBLAS, PyTorch; RECORD=1 records       mk/bench.mk
# quiz                build/quiz/: GIFT, Canvas QTI, print (not in all)        mk/quiz.mk
# clean               remove build/                                           Makefile

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:
.SECONDARY:

include mk/common.mk         # directories, tools, flags, quiet output, the source date
include mk/tangle.mk         # chapters -> code/; the checks on the source
include mk/programs.mk       # code/ -> build/bin/, build/debug/bin/
include mk/figures.mk        # programs -> build/data/, build/fig/, build/excerpt/
include mk/pdf.mk            # chapters, figures, excerpts -> build/book-*.pdf
include mk/html.mk           # chapters -> build/html/, build/slides/
include mk/exercises.mk      # exercises -> grades, student release, Gradescope zip
include mk/course.mk         # tracks, answer keys, the instructor release
include mk/mutants.mk        # the known wrong solutions and their named hints
include mk/test.mk           # make test
include mk/qa.mk             # fuzzing, valgrind, reproducibility, recorded timings
include mk/bench.mk          # time budgets and recorded measurements
include mk/quiz.mk           # quizzes and question banks (not in all)
include mk/zh.mk             # the Chinese edition's program output

all: $(PROGRAMS) $(PDFS) $(B)/forward.ok

clean:
	rm -rf $(B)

help:
	@sed -n '1,/^$$/s/^# \{0,1\}//p' Makefile

.PHONY: all clean help
