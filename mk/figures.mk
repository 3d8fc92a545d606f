#### Figures and quoted output: build/bin/ -> build/data/, build/fig/, build/excerpt/
# figures/NAME.gp draws build/fig/NAME.{tex,pdf} from build/data/NAME.dat;
# its first line says which program prints that data:  # data: PROGRAM ARGS
# A diagram, figures/NAME.tikz, that shows numbers says so the same way in
# TeX's comment:  % data: PROGRAM ARGS
FIGURES  := $(filter-out common,$(basename $(notdir $(wildcard figures/*.gp))))
# Every script's first line, read by one awk (a no-op build stays fast):
# NAME=PROGRAM|ARG|... a figure; fig_data gives back PROGRAM ARG ...
HASH     := \#
FIG_DATA := $(shell awk 'FNR == 1 && sub(/^[$(HASH)%] data: /, "") { n = FILENAME; \
              sub(/.*\//, "", n); sub(/\.(gp|tikz)$$/, "", n); gsub(/ /, "|"); print n "=" $$0 }' \
              $(FIGURES:%=figures/%.gp) $(wildcard figures/*.tikz))
fig_data  = $(subst |, ,$(patsubst $(1)=%,%,$(filter $(1)=%,$(FIG_DATA))))

# A figure whose data are times (data/timings/NAME.dat exists) draws what
# `make record-timings` measured and recorded there, so that two builds give
# the same book; every other figure's data come from its program at build time.
TIMED_FIGURES := $(basename $(notdir $(wildcard data/timings/*.dat)))

define data_rules
ifeq ($(filter $(1),$(TIMED_FIGURES)),)
$(B)/data/$(1).dat: $(B)/bin/$(firstword $(call fig_data,$(1)))
	$$(call msg,RUN,$(call fig_data,$(1)))
	$(Q)mkdir -p $$(@D)
	$(Q)$(B)/bin/$(call fig_data,$(1)) > $$@.tmp && mv $$@.tmp $$@
else
$(B)/data/$(1).dat: data/timings/$(1).dat
	$$(call msg,COPY,$$< (make record-timings measures again))
	$(Q)mkdir -p $$(@D)
	$(Q)cp $$< $$@
endif
endef
# gnuplot under the C locale warns on every figure that iconv cannot convert
# common.gp's degree sign (a container without LANG): C.UTF-8 is always there.
define figure_rules
$(B)/fig/$(1).tex: figures/$(1).gp figures/common.gp $(B)/data/$(1).dat
	$$(call need,gnuplot,gnuplot-nox)
	$$(call msg,GNUPLOT,$(1))
	$(Q)mkdir -p $$(@D)
	$(Q)cd $(B) && LC_ALL=C.UTF-8 GNUPLOT_LIB=../figures gnuplot \
	    -e "datafile='data/$(1).dat'; outfile='fig/$(1).tex'" ../figures/$(1).gp
endef
$(foreach f,$(FIGURES),$(eval $(call data_rules,$(f)))$(eval $(call figure_rules,$(f))))
FIG_TEX := $(FIGURES:%=$(B)/fig/%.tex)

# figures/NAME.tikz is a diagram (TikZ): labels, which tools/tikzfig.py puts
# in each edition's language as build/fig/NAME-EDITION.tex, and, when its
# first line names a program, the numbers that program prints into
# build/data/NAME.dat (TIKZ_DATA_FIGURES; tikzfig.py's \figdata).
TIKZ_FIGURES := $(basename $(notdir $(wildcard figures/*.tikz)))
TIKZ_DATA_FIGURES := $(foreach f,$(TIKZ_FIGURES),$(if $(call fig_data,$(f)),$(f)))
$(B)/fig/%-zh.tex $(B)/fig/%-en.tex $(B)/fig/%-bilingual.tex: \
    figures/%.tikz tools/tikzfig.py tools/chunknames.py chapters/chunk-names.zh
	$(call msg,TIKZ,$*)
	$(Q)mkdir -p $(@D)
	$(Q)for e in zh en bilingual; do \
	    $(PYTHON) tools/tikzfig.py tex $$e $< $(B)/fig/$*-$$e.tex $(filter %.dat,$^) || exit 1; done
$(foreach f,$(TIKZ_DATA_FIGURES),$(eval $(call data_rules,$(f)))$(eval \
  $(foreach e,zh en bilingual,$(B)/fig/$(f)-$(e).tex): $(B)/data/$(f).dat))
# (The PDFs read them; a deck writes its own, slides/fig/NAME-LANG.tex.)
TIKZ_TEX := $(foreach e,zh en bilingual,$(TIKZ_FIGURES:%=$(B)/fig/%-$(e).tex))

# A diagram that cites no number of the book is typeset once, not on every
# pass of XeLaTeX: its NAME-EDITION.tex includes NAME-EDITION.pdf, which
# tools/tikzfig.py book makes for all such diagrams of an edition in one run.
define tikz_book_rules
$(B)/fig/tikz-$(1).stamp: $(TIKZ_FIGURES:%=$(B)/fig/%-$(1).tex) tools/tikzfig.py $(FIGSTYLE) \
        $(B)/bookmeta.tex
	$$(call need,xelatex,texlive-xetex)
	$$(call msg,TIKZ,$(B)/fig/*-$(1).pdf)
	$(Q)$(PYTHON) tools/tikzfig.py book $(1) $(TIKZ_FIGURES:%=$(B)/fig/%-$(1).tex)
	$(Q)touch $$@
endef
$(foreach e,zh en bilingual,$(eval $(call tikz_book_rules,$(e))))
TIKZ_PDFS := $(foreach e,zh en bilingual,$(B)/fig/tikz-$(e).stamp)

figures: $(FIG_TEX) $(TIKZ_TEX) $(TIKZ_PDFS)

# \programoutput{NAME}{PROGRAM ARGS}{SECTION} in a chapter: the build runs the
# program (once per distinct command) and sets the section verbatim
# (tools/excerpt.py writes these rules into build/excerpts.mk).
# A stamp, as for build/tangle.mk: the rules are rewritten only when they
# change (rarely: a \programoutput added or removed), so an edit to a
# chapter's prose does not make make read its makefiles twice.
$(B)/excerpts.mk: $(B)/excerpts.stamp ;
$(B)/excerpts.stamp: $(CHAPTERS) tools/excerpt.py $(if $(wildcard $(B)/excerpts.mk),,excerpts-missing)
	$(Q)mkdir -p $(B)
	$(Q)$(PYTHON) tools/excerpt.py rules $(CHAPTERS) > $(B)/excerpts.mk.tmp
	$(Q)$(call replace_if_changed,$(B)/excerpts.mk)
	$(Q)touch $@

ifneq ($(GENERATED_MK),)
include $(B)/excerpts.mk
endif
.PHONY: excerpts-missing

# The programs speak the reader's language (Appendix D: LC_ALL, LC_MESSAGES,
# LANG, or --lang).  What the build runs -- the figures' data, the output the
# book quotes, the trained models -- must not depend on the builder's locale,
# so every program the build runs sees LC_ALL=C.UTF-8: English.
$(B)/data/%: export LC_ALL := C.UTF-8
$(B)/run/%: export LC_ALL := C.UTF-8

#### Chapter 8: the recorded training step ##################################
# The chapter replays data/ch08-measured.dat (make bench-train RECORD=1).
CH08_RECORD := data/ch08-measured.dat
$(B)/run/ch08-training_--report_data_ch08-measured.dat.out: $(CH08_RECORD)

#### Chapter 9: the number-translation model #################################
# The build trains two small models on the number task, with label smoothing
# 0.1 and without.  What they learn depends only on the program (its code
# fixes the plan and the seed) and the arguments here, so a no-op build does
# not retrain.  `make train` (mk/bench.mk) runs the full plan into
# build/train/, which --translate then prefers.
CH09      := $(B)/bin/ch09-translate
CH09_CKPT := $(B)/data/ch09-model.ckpt
CH09_NOLS := $(B)/data/ch09-model-nols.ckpt

$(CH09_CKPT): $(CH09)
	$(call msg,TRAIN,ch09 number task (label smoothing 0.1))
	$(Q)mkdir -p $(@D)
	$(Q)$(CH09) --train $@.tmp > $(B)/data/ch09-train.out && mv $@.tmp $@

$(CH09_NOLS): $(CH09)
	$(call msg,TRAIN,ch09 number task (no label smoothing))
	$(Q)mkdir -p $(@D)
	$(Q)$(CH09) --train $@.tmp --smoothing 0 > $(B)/data/ch09-train-nols.out && mv $@.tmp $@

# What the chapter quotes or draws from the trained models and the records.
$(B)/run/ch09-translate_--evaluate_--model_build_data_ch09-model.ckpt.out: $(CH09_CKPT)
$(B)/run/ch09-translate_--evaluate_--model_build_data_ch09-model-nols.ckpt.out: $(CH09_NOLS)
$(B)/data/ch09-attention.dat: $(CH09_CKPT)
$(B)/run/ch08-training_--report_data_ch09-full-train.dat.out: data/ch09-full-train.dat
CH09_KV_RECORD := data/ch09-kv-bench.dat
$(B)/run/ch08-training_--report_data_ch09-kv-bench.dat.out: $(CH09_KV_RECORD)

#### Chapter 10: the recorded sweep ##########################################
# The chapter's table and figures replay the committed measurements
# (make bench-attention RECORD=1).
CH10_RECORD := data/ch10-measured.dat
$(B)/data/ch10-roofline.dat $(B)/data/ch10-speed.dat \
  $(B)/run/ch10-fast-attention_--report_data_ch10-measured.dat.out: $(wildcard $(CH10_RECORD))

.PHONY: figures
