#### The PDFs: chapters/ -> build/book-{zh,en,bilingual}.pdf ################
#   chapters/*.nw  --noweave-->  build/woven.tex
#                  --tools/nwlang.py filter E-->  build/body-E.tex   (one language)
#   tex/book.tex   --latexmk: XeLaTeX, biber, xdvipdfmx-->  build/book-E.pdf
# Each body is rewritten only when its text changed, so an edit to an
# English sentence typesets the English and bilingual editions and leaves the
# Chinese one alone; latexmk (tex/latexmkrc) reruns XeLaTeX only while the
# .aux, .toc or .bbl still change.  `make zh`, `make en`, `make bilingual`
# build one edition.
# noweave -n -index -autodefs c, stage by stage, with tools/nwlocals.py twice:
# before finduses it drops what autodefs takes for a definition in a chunk
# that is a piece of a function (a local variable) and names a file's own
# statics after the file; after finduses it drops the "uses" inside strings,
# comments and file names.
NWLIB := /usr/lib/noweb
$(B)/woven.tex: $(CHAPTERS) tools/nwlocals.py
	$(call need,noweave,noweb)
	$(call msg,WEAVE,chapters/)
	$(Q)bash -o pipefail -c '$(NWLIB)/markup $(CHAPTERS) | $(NWLIB)/autodefs.c | \
	    $(PYTHON) tools/nwlocals.py | $(NWLIB)/finduses | $(PYTHON) tools/nwlocals.py uses | \
	    $(NWLIB)/noidx | $(NWLIB)/totex' > $@.tmp && mv $@.tmp $@

$(B)/body-%.stamp: $(B)/woven.tex $(NWLANG) tools/chunknames.py chapters/chunk-names.zh
	$(call msg,WEAVE,book-$*)
	$(Q)$(PYTHON) tools/nwlang.py filter $* $< > $(B)/body-$*.tex.tmp
	$(Q)$(call replace_if_changed,$(B)/body-$*.tex)
	$(Q)touch $@
$(B)/body-%.tex: $(B)/body-%.stamp ;

# noweb's identifier cross-references, as the .aux would give them to the
# second pass, for every pass (tex/attnbook.sty): the same in each edition.
$(B)/nwuses.tex: $(B)/woven.tex $(NWLANG)
	$(Q)$(PYTHON) tools/nwlang.py uses $< > $@.tmp
	$(Q)$(call replace_if_changed,$@)

# The edition's master file: one line that names the edition and reads
# tex/book.tex (TEXINPUTS), so each edition has its own .aux, .toc and .log.
# (Touched even when unchanged, or every make after an edit to this file
# would write it again; latexmk then finds nothing to typeset.)
$(B)/book-%.tex: mk/pdf.mk
	$(Q)mkdir -p $(@D)
	$(Q)printf '%s\n' '\def\bookedition{$*}\input{book.tex}' > $@.tmp
	$(Q)$(call replace_if_changed,$@)
	$(Q)touch $@

# Title, authors, fonts, the machinery's words: book.toml, as TeX.
$(B)/bookmeta.tex: book.toml tools/nwbook/meta.py
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(B)
	$(Q)$(PYTHON) tools/nwbook/meta.py tex $@

# Every glossary term defined once in each language (\defterm), every key a
# term: a term without its defining use would print "??" in the glossary.
check-terms: $(B)/terms.ok
$(B)/terms.ok: $(CHAPTERS) tools/glossary.py
	$(call msg,CHECK,glossary terms)
	$(Q)mkdir -p $(B)
	$(Q)$(PYTHON) tools/glossary.py check $(CHAPTERS)
	$(Q)touch $@

# The glossary's terms, for \defterm and the subject index (tools/glossary.py).
$(B)/glossary.tex: chapters/91-appendix-glossary.nw tools/glossary.py
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(B)
	$(Q)$(PYTHON) tools/glossary.py tex $@

# An edition waits for the checks on the source, which run beside the
# weave (order-only: a check that ran does not make the PDF stale).
$(B)/book-%.pdf: $(B)/book-%.tex $(B)/body-%.tex $(B)/nwuses.tex $(B)/bookmeta.tex $(B)/glossary.tex $(B)/chapterdeps.tex \
                 tex/book.tex $(STYLE) tex/book.bib tex/index-zh.ist tex/index-en.ist \
                 tex/latexmkrc tools/latex.sh $(FIG_TEX) $(TIKZ_TEX) $(B)/fig/tikz-%.stamp $(EXCERPT_TEX) \
                 | $(B)/lang.ok $(B)/terms.ok
	$(call need,latexmk,latexmk)
	$(call need,xelatex,texlive-xetex)
	$(call need,upmendex,texlive-binaries)
	$(Q)tools/latex.sh $(B) book-$* $(if $(Q),,-v)

pdf: $(PDFS)
$(EDITIONS): %: $(B)/book-%.pdf

.PHONY: pdf $(EDITIONS) check-terms
