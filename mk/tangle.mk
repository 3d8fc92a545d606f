#### Tangle: chapters/*.nw -> code/, and the checks on the source ###########
# The list of files the chapters tangle to (noroots), sorted into programs
# and library by tools/codefiles.py, is build/tangle.mk: make reads it, and
# restarts with it when it changes (a file added or removed, which is rare)
# or is gone.  The tangle itself is a step like the others, so an edit to a
# chapter's prose is woven and typeset while it runs: all chapters go to
# notangle together (tools/tangle.sh), and an unchanged file in code/ keeps
# its time, so nothing is compiled again (`make -n`, which cannot know
# that, lists the compiles).
$(B)/tangle.mk: $(B)/roots.stamp ;
$(B)/roots.stamp: $(CHAPTERS) tools/codefiles.py $(if $(wildcard $(B)/tangle.mk),,roots-missing)
	$(call need,noroots,noweb)
	$(Q)mkdir -p $(B)
	$(Q)noroots $(CHAPTERS) | sed -n 's/^<<\(code\/.*\)>>$$/\1/p' \
	    | $(PYTHON) tools/codefiles.py make > $(B)/tangle.mk.tmp
	$(Q)$(call replace_if_changed,$(B)/tangle.mk)
	$(Q)touch $@

ifneq ($(GENERATED_MK),)
include $(B)/tangle.mk
endif

$(B)/tangle.stamp: $(CHAPTERS) tools/tangle.sh
	$(call need,notangle,noweb)
	$(call msg,TANGLE,code/)
	$(Q)tools/tangle.sh --record $(B)/tangle.sums $(if $(FORCE),--force) code $(CHAPTERS)
	$(Q)touch $@
$(CODE): $(B)/tangle.stamp ;

# `make tangle FORCE=1` rewrites code/ from the chapters even where a file
# there was not written by the last tangle.
tangle: $(if $(FORCE),tangle-force,$(B)/tangle.stamp)
tangle-force:
	$(Q)tools/tangle.sh --record $(B)/tangle.sums --force code $(CHAPTERS)
	$(Q)touch $(B)/tangle.stamp

# The debug build's copy, with #line directives (notangle -L), so compiler
# messages and gdb point into the .nw files.
$(B)/debug/tangle.stamp: $(CHAPTERS) tools/tangle.sh
	$(call msg,TANGLE,$(B)/debug/code/ (-L))
	$(Q)mkdir -p $(B)/debug/code
	$(Q)tools/tangle.sh -L $(B)/debug/code $(CHAPTERS)
	$(Q)touch $@

$(B)/debug/code/%.c: $(B)/debug/tangle.stamp ;
$(B)/debug/code/%.h: $(B)/debug/tangle.stamp ;

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

# Every Chinese passage has its English partner and back.
check-lang: $(B)/lang.ok
$(B)/lang.ok: $(CHAPTERS) $(NWLANG)
	$(call msg,CHECK,zh/en pairs)
	$(Q)mkdir -p $(B)
	$(Q)$(PYTHON) tools/nwlang.py check $(CHAPTERS)
	$(Q)touch $@

# No code used before it is defined: code in chapter k uses only what
# chapters 1..k define, and what the appendices read as prerequisites define
# (A, the C core; D, the command line); tools/forward_use.py names the chunk,
# the chapter and the identifier of each forward use.  Part of `make`.
FORWARD_PREREQ := chapters/90-appendix-core.nw chapters/93-appendix-cli.nw
check-forward: $(B)/forward.ok
$(B)/forward.ok: $(CHAPTERS) tools/forward_use.py
	$(call msg,CHECK,no code used before it is defined)
	$(Q)mkdir -p $(B)
	$(Q)$(PYTHON) tools/forward_use.py $(FORWARD_PREREQ:%=--prerequisite %) \
	    --deps $(B)/chapterdeps.tex.tmp $(CHAPTERS)
	$(Q)$(call replace_if_changed,$(B)/chapterdeps.tex)
	$(Q)touch $@
# The same reading gives the preface's roadmap which earlier chapters each
# chapter's code builds on (\attndeps in tex/attnbook.sty).
$(B)/chapterdeps.tex: $(B)/forward.ok ;

.PHONY: tangle tangle-force roots-missing check-tangle check-lang check-forward
