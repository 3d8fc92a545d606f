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

# latexmk, as for the book (tools/latex.sh): as many runs as the contents need.
$(QUIZ_DIR)/quiz-%.pdf: $(QUIZ_DIR)/export.stamp $(STYLE) $(B)/bookmeta.tex \
                        tools/latex.sh tex/latexmkrc
	$(call need,latexmk,latexmk)
	$(call need,xelatex,texlive-xetex)
	$(Q)LATEX_INPUTS=$(B) tools/latex.sh $(QUIZ_DIR) quiz-$* $(if $(Q),,-v)

quiz: $(QUIZ_DIR)/quiz-zh.pdf $(QUIZ_DIR)/quiz-en.pdf

# Parse and check every quiz (both languages, an answer each); no program runs.
check-quiz:
	$(Q)$(PYTHON) tools/quiz.py check $(QUIZ_SRC)

.PHONY: quiz check-quiz
