#!/bin/bash
# Typeset a LaTeX job with latexmk:  tools/latex.sh DIR JOB [-v]
#
# latexmk (settings: tex/latexmkrc) typesets DIR/JOB.tex in DIR: XeLaTeX as
# often as the .aux, .toc and .bbl need (none at all when nothing it reads
# changed), biber when the bibliography request changed, upmendex for the
# subject index, then xdvipdfmx.  The book's editions (mk/pdf.mk: JOB is
# book-EDITION, which reads tex/book.tex), the quizzes (mk/quiz.mk) and the
# instructor's guide (tools/course.py) all go through here.  TeX finds
# tex/'s files, and the build directory's generated ones (bookmeta.tex);
# LATEX_INPUTS adds directories.  Prints one line, how many XeLaTeX runs it
# took; -v shows latexmk's own output.  On an error it prints only the error
# lines of the log (and where they are), not the log.
set -euo pipefail

builddir=$1
job=$2
verbose=${3:-}
top=$(cd "$(dirname "$0")/.." && pwd)
inputs=${LATEX_INPUTS:+$(realpath "$LATEX_INPUTS")}
cd "$builddir"
# tex/ as a relative path: nothing latexmk records names where the tree is.
tex=$(realpath --relative-to=. "$top/tex")
extra=${inputs:+$(realpath --relative-to=. "$inputs"):}
export TEXINPUTS=".:$extra$tex//:" BIBINPUTS=".:$tex:" INDEXSTYLE=".:$tex:"

# A run that was killed (make stopped on another error, Ctrl-C) may have cut
# its .aux, .out or .toc short, which the next run could not read: start
# those afresh.
if [ -e "$job.running" ]; then
    rm -f "$job.aux" "$job.out" "$job.toc" "$job.fdb_latexmk"
fi
touch "$job.running"
status=0
latexmk -r "$tex/latexmkrc" "$job.tex" > "$job.latexmk.out" 2>&1 || status=$?
rm -f "$job.running"
[ -z "$verbose" ] || cat "$job.latexmk.out"
if [ $status -ne 0 ] && grep -q -E "Maximum runs of xelatex reached|'xelatex' needed too many passes" \
        "$job.latexmk.out" &&
        [ -f "$job.xdv" ] && ! grep -q -a -E '^! ' "$job.log"; then
    # The .aux still changed after $max_repeat passes (a page break that
    # moves with a reference to it): keep the last pass, as LaTeX would.
    echo "$job: the .aux still changes after latexmk's last pass; the PDF has the last one" >&2
    xdvipdfmx -q -o "$job.pdf" "$job.xdv"
    rm -f "$job.fdb_latexmk"
    status=0
fi
if [ $status -ne 0 ]; then
    # hyperref's bookmarks, cut short where XeLaTeX stopped: the next run
    # would choke on them.  And latexmk's record of the failed run, or it
    # would refuse to run again until a source changes.
    rm -f "$job.out" "$job.fdb_latexmk"
    echo "latexmk failed on $job (full log: $builddir/$job.log; latexmk's: $builddir/$job.latexmk.out):" >&2
    if grep -q -a -E '^(\./|/)?[^ ]*:[0-9]+: |^! ' "$job.log" 2>/dev/null; then
        # file:line:error lines, the TeX context after them, and the l.NN line.
        grep -a -A 3 -E '^(\./|/)?[^ ]*:[0-9]+: |^! ' "$job.log" | head -n 30 >&2
    elif [ -f "$job.blg" ] && grep -q -E 'ERROR' "$job.blg"; then
        grep -E 'ERROR|WARN' "$job.blg" | head -n 20 >&2
    else
        tail -n 20 "$job.latexmk.out" >&2
    fi
    exit 1
fi
runs=$(grep -c "^Run number [0-9]* of rule '\(xe\)\?latex" "$job.latexmk.out" || true)
touch "$job.pdf"            # up to date for make, even when no run was needed
printf '  %-8s %s\n' LATEXMK "$job ($runs XeLaTeX run$([ "$runs" = 1 ] || echo s))"
