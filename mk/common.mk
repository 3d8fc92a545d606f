# What every stage shares: the directories, the tools, the compilers' flags,
# the quiet output (one aligned line a step; V=1 shows every command), and
# the date every dated output carries.

B        := build
PYTHON   := /usr/bin/python3
# The one reader of the .nw markup (tools/nwbook/); NWLANG: the parts the
# language check and the editions' filter (tools/nwlang.py) run.
NWBOOK   := tools/nwlang.py tools/nwlocals.py $(wildcard tools/nwbook/*.py)
NWLANG   := tools/nwlang.py tools/nwbook/__init__.py tools/nwbook/lang.py tools/nwbook/tex.py
CHAPTERS := $(sort $(wildcard chapters/*.nw))
# The book's style: what every document set in the book's look reads;
# FIGSTYLE, the part that the figures typeset on their own read
# (tools/tikzfig.py's figdoc), without the book's page and machinery.
FIGSTYLE := tex/attnclass.tex tex/xecjkfast.sty tex/attnshared.tex tex/attnfonts.tex
STYLE    := tex/attnbook.sty $(FIGSTYLE)
EDITIONS := zh en bilingual
# The bilingual edition first: its XeLaTeX passes are the longest, and make
# starts a target's prerequisites in this order, so with make -j2 the other
# two editions share the second core instead of the bilingual one waiting.
PDFS     := $(patsubst %,$(B)/book-%.pdf,bilingual $(filter-out bilingual,$(EDITIONS)))

CC       ?= cc
CPPFLAGS := -Icode -D_POSIX_C_SOURCE=200809L
CFLAGS   := -std=c11 -O2 -Wall -Wextra -Werror -pedantic
DBGFLAGS := -std=c11 -O1 -g -Wall -Wextra -Werror -pedantic \
            -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDLIBS   := -lm

ifeq ($(V),1)
  Q :=
  msg :=
else
  Q := @
  msg = @printf '  %-8s %s\n' '$(1)' '$(2)';
endif

# Tools the build needs, and the Debian package each comes from.
need = $(if $(shell command -v $(1) 2>/dev/null),,$(error $(1) not found: install the Debian package $(2) (./build.sh does this)))

# $(call replace_if_changed,FILE): FILE.tmp becomes FILE only if the content
# differs (noweb's cpif), so FILE keeps its time and what depends on it is
# not remade.  A rule that writes this way records its run in a stamp.
replace_if_changed = if cmp -s $(1).tmp $(1); then rm -f $(1).tmp; else mv $(1).tmp $(1); fi

# The generated makefiles (build/tangle.mk, build/excerpts.mk) are read for
# every goal but these, which need none.
NO_GENERATED_GOALS := help clean check-lang check-terms
GENERATED_MK := $(if $(MAKECMDGOALS),$(filter-out $(NO_GENERATED_GOALS),$(MAKECMDGOALS)),all)

#### Reproducible builds ######################################################
# Every date a tool writes (the PDFs' CreationDate and /ID through xdvipdfmx,
# TeX's \today, the release archives' timestamps) is the last commit's date,
# or a fixed one outside git.  FORCE_SOURCE_DATE=1 makes XeTeX use it too.
ifeq ($(origin SOURCE_DATE_EPOCH),undefined)
  SOURCE_DATE_EPOCH := $(shell git log -1 --format=%ct 2>/dev/null || echo 1700000000)
endif
export SOURCE_DATE_EPOCH
export FORCE_SOURCE_DATE := 1
