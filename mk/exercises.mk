#### Exercises and their autograder (exercises/, tools/grade.py) ###########
# make grade [EX=ID]   grade the files in exercises/ (here: the solutions);
#                      LANG=zh or LANG=en picks the feedback language
# make student         build/student/ and build/student.tar.gz: stubs, visible
#                      checks, the grader and the library it links
# make gradescope      build/gradescope.zip: the Gradescope autograder (without
#                      EX: also one package per week and track,
#                      build/gradescope/TRACK-weekN.zip, tools/course.py)
# make test-grader     the grader's own tests (also part of make test)
# make bench-grade     how long grading takes, against its budgets (30 s, 5 s)
# See exercises/INSTRUCTOR.md.
grade:
	$(Q)$(PYTHON) tools/grade.py $(if $(EX),--ex '$(EX)')

student:
	$(Q)EX='$(EX)' $(PYTHON) tools/grade_release.py student

gradescope:
	$(Q)EX='$(EX)' $(PYTHON) tools/grade_release.py gradescope
	$(if $(EX),,$(Q)$(PYTHON) tools/course.py gradescope-weeks)

test-grader:
	$(call msg,TEST,tests/test_grader.py)
	$(Q)$(PYTHON) -m pytest -n 2 tests/test_grader.py

bench-grade:
	$(call msg,BENCH,grading: every exercise and one, cold and warm)
	$(Q)$(PYTHON) tools/grade_bench.py

.PHONY: grade student gradescope test-grader bench-grade
