# The Chinese edition quotes the programs' Chinese runs (issue 14).
#
# tools/excerpt.py runs every quoted command twice, in English and with
# LC_ALL=zh_CN.UTF-8; the Chinese runs need what the English ones need.
$(B)/run/ch08-training_--report_data_ch08-measured.dat.zh.out: $(CH08_RECORD)
$(B)/run/ch08-training_--report_data_ch09-full-train.dat.zh.out: data/ch09-full-train.dat
$(B)/run/ch08-training_--report_data_ch09-kv-bench.dat.zh.out: $(CH09_KV_RECORD)
$(B)/run/ch09-translate_--evaluate_--model_build_data_ch09-model.ckpt.zh.out: $(CH09_CKPT)
$(B)/run/ch09-translate_--evaluate_--model_build_data_ch09-model-nols.ckpt.zh.out: $(CH09_NOLS)
$(B)/run/ch10-fast-attention_--report_data_ch10-measured.dat.zh.out: $(wildcard $(CH10_RECORD))

# The demos a chapter quotes by hand ("% transcript: PROGRAM" before a
# verbatim block): the Chinese edition shows the same lines of the Chinese run.
$(B)/body-zh.stamp: $(B)/woven.tex $(NWLANG) tools/chunknames.py chapters/chunk-names.zh \
                    tools/excerpt.py $(TRANSCRIPT_RUNS)
	$(call msg,WEAVE,book-zh)
	$(Q)$(PYTHON) tools/nwlang.py filter zh $< | $(PYTHON) tools/excerpt.py transcripts $(B)/run \
	    > $(B)/body-zh.tex.tmp
	$(Q)$(call replace_if_changed,$(B)/body-zh.tex)
	$(Q)touch $@

# Records are written in English whatever the recorder's locale: the programs
# that print them translate them for a Chinese reader (Appendix D).
train-ch09 bench-decode: export LC_ALL := C.UTF-8
