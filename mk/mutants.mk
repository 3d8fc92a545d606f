#### Known wrong solutions (exercises/ID/mutants/): feedback that names the bug
# make grade-mutants [EX=ID]   grade every mutant on the check that catches it
#                              and print, per exercise, how many are told
#                              their own mistake (VERBOSE=1: each feedback)
grade-mutants:
	$(Q)$(PYTHON) tools/grade_mutants.py $(if $(EX),--ex '$(EX)') $(if $(VERBOSE),--verbose)

.PHONY: grade-mutants
