#!/bin/bash
# Typeset one edition of the book:  tools/latex.sh BUILDDIR EDITION
#
# Runs xelatex in BUILDDIR on tex/book.tex with \bookedition=EDITION until the
# .aux and .toc files stop changing (at most four runs), so chunk
# cross-references, the contents and the bookmarks are right.  On an error it
# prints only the error lines of the log (and where they are), not the log.
set -euo pipefail

builddir=$1
edition=$2
job=book-$edition
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$builddir"
export TEXINPUTS=".:$top/tex//:"

state() { { cat "$job.aux" "$job.toc" "$job.bbl" 2>/dev/null || true; } | md5sum; }
bcf_seen=

for run in 1 2 3 4; do
    before=$(state)
    if ! xelatex -no-pdf -interaction=nonstopmode -halt-on-error -file-line-error \
            -jobname="$job" "\\def\\bookedition{$edition}\\input{book.tex}" \
            > /dev/null 2>&1; then
        echo "xelatex failed on $job (full log: $builddir/$job.log):" >&2
        # file:line:error lines, the TeX context after them, and the l.NN line.
        grep -a -A 3 -E '^(\./|/)?[^ ]*:[0-9]+: |^! ' "$job.log" | head -n 30 >&2
        exit 1
    fi
    # The bibliography: biber reads what the run asked for (.bcf) and writes
    # the .bbl the next run sets; only when that request changed.
    if [ -f "$job.bcf" ]; then
        bcf_now=$(md5sum < "$job.bcf")
        if [ "$bcf_now" != "$bcf_seen" ]; then
            bcf_seen=$bcf_now
            if ! biber --quiet --input-directory="$top/tex" "$job" > "$job.biber.out" 2>&1; then
                echo "biber failed on $job:" >&2
                grep -E 'ERROR|WARN' "$job.biber.out" | head -n 20 >&2
                exit 1
            fi
        fi
    fi
    after=$(state)
    if [ "$before" = "$after" ] && [ "$run" -gt 1 ]; then
        break
    fi
done
# xelatex -no-pdf writes .xdv; one xdvipdfmx pass makes the PDF.
xdvipdfmx -q -o "$job.pdf" "$job.xdv" 2>/dev/null
