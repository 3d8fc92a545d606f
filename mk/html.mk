# The HTML edition and the slides, from the same chapters/*.nw (tools/html/).
# Included at the end of the Makefile:  make html, make slides.
#
#   build/html/{zh,en}/       index.html, one page per chapter, fig/*.svg
#   build/html-svg/{zh,en}/   the figures as SVG, one language each
#   build/slides/             NN-topic-{zh,en}.pdf: one beamer deck per chapter
#                             with % slide marks, and language

HTML_TOOLS := $(wildcard tools/html/*.py tools/html/*.css tools/html/*.js tools/html/*.lua \
              tools/html/*.html5) $(NWBOOK) book.toml \
              tools/chunknames.py chapters/chunk-names.zh

# Figures that draw (a `plot`), as opposed to scripts that print numbers.
SVG_FIGS := $(basename $(notdir $(shell grep -l -E '^[[:space:]]*s?plot[[:space:]]' \
              $(FIGURES:%=figures/%.gp) /dev/null)))

# Every figure as SVG, one language in one XeLaTeX run (tools/tikzfig.py; most
# of a run is loading the fonts): the plots as gnuplot's cairolatex terminal
# drew them for the PDFs, their \zhen labels in that language, and the TikZ
# diagrams, all typeset on their own in the book's fonts as the pages of
# html-svg/LANG/figures.pdf, which pdftocairo (poppler-utils) cuts into SVG.
# The numbers a diagram cites (a chapter, an appendix) come from the .aux of
# the PDF in that language; a diagram that shows its program's numbers
# (mk/figures.mk) reads them from build/data/NAME.dat.
tikz_arg = figures/$(1).tikz$(if $(filter $(1),$(TIKZ_DATA_FIGURES)),=$(B)/data/$(1).dat)
HTML_FIGS := $(SVG_FIGS) $(TIKZ_FIGURES)
define svg_rules
$(HTML_FIGS:%=$(B)/html-svg/$(1)/%.svg) $(B)/html-svg/$(1)/figures.pdf &: \
        $(SVG_FIGS:%=$(B)/fig/%.tex) $(TIKZ_FIGURES:%=figures/%.tikz) tools/tikzfig.py $(NWBOOK) \
        $(FIGSTYLE) \
        tools/chunknames.py chapters/chunk-names.zh $(B)/bookmeta.tex $(B)/book-$(1).pdf \
        $(TIKZ_DATA_FIGURES:%=$(B)/data/%.dat)
	$$(call need,xelatex,texlive-xetex)
	$$(call need,pdftocairo,poppler-utils)
	$$(call msg,SVG,$(B)/html-svg/$(1)/: $(words $(HTML_FIGS)) figures)
	$(Q)$(PYTHON) tools/tikzfig.py svgs $(1) $(B)/book-$(1).aux $(B)/html-svg/$(1) \
	    $(SVG_FIGS:%=$(B)/fig/%.tex) $(foreach f,$(TIKZ_FIGURES),$(call tikz_arg,$(f)))
endef
$(foreach l,zh en,$(eval $(call svg_rules,$(l))))
HTML_SVG := $(foreach l,zh en,$(HTML_FIGS:%=$(B)/html-svg/$(l)/%.svg))

# Both editions come from one run (noweb's front end once, one pandoc run a
# language: the LaTeX reader, the Lua filter tools/html/book.lua, the HTML
# writer through the template tools/html/page.html5).  Warnings (an unknown
# label, math pandoc could not convert) go to build/html/warnings.txt too,
# where tests/test_html.py looks for them.
# Every number (chapters, sections, equations, figures, tables, exercises)
# is LaTeX's: read from the .aux of the PDF in the same language; the
# references' numbers are biber's, from the .bbl beside it.
HTML_AUX := $(B)/book-zh.pdf $(B)/book-en.pdf

$(B)/html/.stamp: $(CHAPTERS) $(B)/lang.ok $(HTML_AUX) $(HTML_TOOLS) $(HTML_SVG) $(FIG_TEX) $(CODE) \
                  $(EXCERPT_TEX)
	$(call need,pandoc,pandoc)
	$(call msg,PANDOC,$(B)/html/zh/ $(B)/html/en/)
	$(Q)rm -rf $(B)/html && mkdir -p $(B)/html
	$(Q)$(PYTHON) tools/html/book2html.py $(B)/html $(B)/fig $(B)/html-svg $(CHAPTERS) \
	    2> $(B)/html/warnings.txt; s=$$?; cat $(B)/html/warnings.txt >&2; exit $$s
	$(Q)touch $@

html: $(B)/html/.stamp

# Slides: chapters with `% slide` marks.  One run writes every deck's LaTeX
# (a pandoc run a deck: the Lua filter tools/html/slides.lua builds the
# frames from the data tools/html/slides.py writes, the beamer writer and the
# template tools/html/slides.latex the rest), and each language's decks as
# one document, rewriting only the files that changed; xelatex then typesets
# each language's document once and xdvipdfmx cuts it into the decks
# (tools/html/slides.sh), the two languages in parallel under make -j.
SLIDE_SRCS := $(shell grep -l -E '^[[:space:]]*%[[:space:]]*slide' $(CHAPTERS) /dev/null)
SLIDE_DECKS := $(foreach c,$(SLIDE_SRCS),$(foreach l,zh en,$(basename $(notdir $(c)))-$(l)))
SLIDES := $(SLIDE_DECKS:%=$(B)/slides/%.pdf)
SLIDE_TOOLS := $(addprefix tools/html/,slides.py slides.lua nwname.lua slides.latex htmlbook.py book2html.py)

$(B)/slides/.stamp: $(CHAPTERS) $(B)/lang.ok $(HTML_AUX) $(SLIDE_TOOLS) $(NWBOOK) book.toml \
                    $(B)/bookmeta.tex $(FIG_TEX) \
                    tools/chunknames.py chapters/chunk-names.zh \
                    $(TIKZ_TEX) tools/tikzfig.py $(STYLE)
	$(call need,pandoc,pandoc)
	$(call msg,PANDOC,$(B)/slides/*.tex)
	$(Q)mkdir -p $(B)/slides
	$(Q)$(PYTHON) tools/html/slides.py $(B)/slides $(CHAPTERS)
	$(Q)touch $@

$(B)/slides/%.tex: $(B)/slides/.stamp ;

define slide_rules
$(filter %-$(1).pdf,$(SLIDES)) &: $(B)/slides/decks-$(1).tex $(FIG_TEX) tools/html/slides.sh tex/attnshared.tex
	$$(call need,xelatex,texlive-xetex)
	$$(call msg,XELATEX,$(B)/slides/*-$(1).pdf)
	$(Q)tools/html/slides.sh $(B) $(1)
endef
$(foreach l,zh en,$(eval $(call slide_rules,$(l))))

slides: $(SLIDES)



# Not part of the default build, which has its own budget; `make bench-html`
# times these (budget 30 s on 2 cores) and prints their CPU time: xelatex
# for the decks, pandoc for the HTML, XeLaTeX and gnuplot for the SVGs.
# The tests need them, so `make test` builds them.
test: html slides
.PHONY: html slides

# make bench-html (in the Makefile, tools/bench.py) times html and slides.

# make check-pandoc3 PANDOC_WASM=DIR: the HTML edition's and the decks'
# pandoc runs again on pandoc 3, to check that the Lua filters use only what
# pandoc 3 keeps (Debian 13 ships pandoc 3).  DIR is the npm package
# pandoc-wasm (the official pandoc.wasm; `npm install pandoc-wasm` puts it in
# node_modules/pandoc-wasm), run by node.  Not part of `make test`: nothing
# is fetched at build or test time.  tools/pandoc3/pandoc stands in for pandoc
# and writes a line per run to build/pandoc3.log.
check-pandoc3:
	@test -f "$(PANDOC_WASM)/src/index.node.js" || { echo "check-pandoc3: PANDOC_WASM=DIR," \
	    "the npm package pandoc-wasm (npm install pandoc-wasm: node_modules/pandoc-wasm)" >&2; exit 2; }
	$(call need,node,nodejs)
	$(Q)rm -rf $(B)/html/.stamp $(B)/slides/.stamp $(B)/pandoc3.log $(B)/pandoc3 && mkdir -p $(B)/pandoc3
	$(Q)PATH="$(CURDIR)/tools/pandoc3:$$PATH" PANDOC_WASM="$(abspath $(PANDOC_WASM))" \
	    PANDOC3_LOG="$(abspath $(B))/pandoc3.log" PANDOC3_WORK="$(abspath $(B))/pandoc3" \
	    $(MAKE) --no-print-directory html $(B)/slides/.stamp
	$(Q)cat $(B)/pandoc3.log; ! grep -q -E '^(FAIL|DIFF)' $(B)/pandoc3.log
.PHONY: check-pandoc3
