#!/bin/bash
# Typeset one deck:  tools/html/slides.sh BUILDDIR NAME
# BUILDDIR/slides/NAME.tex (written by tools/html/slides.py) becomes
# BUILDDIR/slides/NAME.pdf.  xelatex runs in BUILDDIR, where the book's
# figures are (fig/NAME.tex and .pdf), once: a deck has no cross-references.
# On an error it prints the error lines of the log, not the log.
set -euo pipefail

builddir=$1
name=$2
cd "$builddir"
if ! xelatex -interaction=nonstopmode -halt-on-error -file-line-error \
        -output-directory=slides "slides/$name.tex" > /dev/null 2>&1; then
    echo "xelatex failed on slides/$name.tex (full log: $builddir/slides/$name.log):" >&2
    grep -a -A 3 -E '^(\./|/)?[^ ]*:[0-9]+: |^! ' "slides/$name.log" | head -n 30 >&2
    exit 1
fi
