#!/bin/bash
# Typeset one language's decks:  tools/html/slides.sh BUILDDIR LANG
# BUILDDIR/slides/decks-LANG.tex (tools/html/slides.py: every deck of LANG
# in one document) becomes BUILDDIR/slides/NAME.pdf for each deck NAME-LANG,
# and its part of the log NAME.log.  xelatex runs in BUILDDIR, where the
# book's figures are (fig/NAME.tex and .pdf), once (a deck has no
# cross-references), and xdvipdfmx makes each deck's PDF from its pages: the
# log says where each deck starts (ATTN-DECK NAME PAGE).  One run instead
# of one a deck saves nine preambles of ten, most of the decks' time.
# On an error it prints the error lines of the log, not the log.
set -euo pipefail

builddir=$1
lang=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$builddir"
# tex/attnshared.tex: what the decks set as the book does
export TEXINPUTS=".:$top/tex:"
job=slides/decks-$lang
if ! xelatex -no-pdf -interaction=nonstopmode -halt-on-error -file-line-error \
        -output-directory=slides "$job.tex" > /dev/null 2>&1; then
    echo "xelatex failed on $job.tex (full log: $builddir/$job.log):" >&2
    grep -a -A 3 -E '^(\./|/)?[^ ]*:[0-9]+: |^! ' "$job.log" | head -n 30 >&2
    exit 1
fi
# NAME FIRST LAST for each deck, from the marks in the log
grep -a '^ATTN-DECK ' "$job.log" |
    awk 'NR > 1 { print name, first, $3 - 1 } { name = $2; first = $3 }' > "$job.pages"
while read -r name first last; do
    xdvipdfmx -q -s "$first-$last" -o "slides/$name.pdf" "$job.xdv"
done < "$job.pages"
# each deck's part of the log, for its warnings (tests/test_slides.py)
awk -v dir=slides '/^ATTN-DECK / { if (out) close(out); out = ($2 == "END") ? "" : dir "/" $2 ".log" }
                   out { print > out }' "$job.log"
