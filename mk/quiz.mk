#### Quizzes and question banks (Issue 18) ###################################
# quizzes/chNN.toml: a reading quiz and an exam bank per chapter, in Chinese
# and English (format: tools/quiz.py).  `make quiz` runs the chapter programs
# the quizzes read their numbers from, then writes to build/quiz/:
#   gift/chNN-LANG.gift.txt, gift/all-LANG.gift.txt   Moodle GIFT
#   canvas/chNN-LANG.zip, canvas/all-LANG.zip          Canvas QTI 1.2
#   gradescope/chNN-LANG.md                           to paste into a Gradescope online assignment
#   quiz-zh.pdf, quiz-en.pdf                          for print: questions, then the answers
# Instructor material: not part of the default build nor of the student release.
QUIZ_SRC   := $(sort $(wildcard quizzes/ch*.toml))
QUIZ_DIR   := $(B)/quiz
QUIZ_PROGS := $(sort $(shell sed -n 's/.*\brun *= *"\([^ "]*\).*/\1/p' $(QUIZ_SRC)))

# The values also depend on what the programs read: the sentences in
# quizzes/data/ and the committed measurements in data/.
$(QUIZ_DIR)/values.json: $(QUIZ_SRC) tools/quiz.py $(QUIZ_PROGS:%=$(B)/bin/%) \
    $(wildcard quizzes/data/*) $(wildcard data/*.dat)
	$(call msg,QUIZ,values from $(words $(QUIZ_PROGS)) chapter programs)
	$(Q)mkdir -p $(@D)
	$(Q)$(PYTHON) tools/quiz.py values --bin $(B)/bin --out $@ $(QUIZ_SRC)
	$(Q)touch $@

$(QUIZ_DIR)/export.stamp: $(QUIZ_DIR)/values.json
	$(call msg,QUIZ,GIFT / Canvas QTI / Gradescope / LaTeX)
	$(Q)$(PYTHON) tools/quiz.py export --values $< --out $(QUIZ_DIR) $(QUIZ_SRC)
	$(Q)touch $@

# Two runs: the contents.
$(QUIZ_DIR)/quiz-%.pdf: $(QUIZ_DIR)/export.stamp tex/attnbook.sty $(B)/bookmeta.tex
	$(call need,xelatex,texlive-xetex)
	$(call msg,XELATEX,quiz-$*)
	$(Q)cd $(QUIZ_DIR) && for run in 1 2; do \
	  TEXINPUTS=".:$(CURDIR)/$(B):$(CURDIR)/tex//:" xelatex -interaction=nonstopmode -halt-on-error \
	    -file-line-error quiz-$*.tex > /dev/null 2>&1 || { \
	  echo "xelatex failed on $(QUIZ_DIR)/quiz-$*.tex (log: $(QUIZ_DIR)/quiz-$*.log):" >&2; \
	  grep -a -A 3 -E '^[^ ]*:[0-9]+: |^! ' quiz-$*.log | head -n 20 >&2; exit 1; }; done

quiz: $(QUIZ_DIR)/quiz-zh.pdf $(QUIZ_DIR)/quiz-en.pdf

# Parse and check every quiz (both languages, an answer each); no program runs.
check-quiz:
	$(Q)$(PYTHON) tools/quiz.py check $(QUIZ_SRC)

.PHONY: quiz check-quiz
