#!/bin/bash
# make bench-edit: the author's loop, against its budgets (issue 19):
#   touch a chapter, make -j2                          nothing typeset again
#   one English sentence edited, make en               <= 15 s
#   one sentence edited in both languages, make -j2 pdf  <= 25 s (all three PDFs)
# It works in a copy of the built tree (the tracked files and build/, times
# kept), so neither the sources nor their build change.  Prints one line a
# figure, in the format of tools/bench.py, with the CPU time and the XeLaTeX
# runs each edition took, and the host's speed before and after
# (tools/bench.py host); exits 1 if a budget is missed.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
chapter=${BENCH_CHAPTER:-chapters/03-multi-head.nw}
jobs=$(nproc)
if [ "$jobs" -gt 2 ]; then jobs=2; fi

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-edit.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$top" && git ls-files -z | xargs -0 tar --ignore-failed-read -cf - -- 2>/dev/null) | tar -xf - -C "$work"
(cd "$top" && tar -cf - build) | tar -xf - -C "$work"
cd "$work"

over=0
check() {  # what seconds budget detail
    local flag=OK
    if awk -v t="$2" -v b="$3" 'BEGIN { exit !(t > b) }'; then flag=OVER; over=1; fi
    printf '  %-46s %8.2f s  <= %5g s  %s  %s\n' "$1" "$2" "$3" "$flag" "$4"
}
timed() {  # make arguments...: sets $secs, $cpu and $out
    local t
    t=$(mktemp)
    out=$( { /usr/bin/time -f '%e %U %S' -o "$t" make -j"$jobs" "$@" 2>&1; } ) || {
        echo "$out" | tail -n 20; exit 1; }
    read -r secs user sys < "$t"
    rm -f "$t"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
}
runs() {  # what latexmk did, from make's output: "book-en 1, book-bilingual 2"
    local r
    r=$(echo "$out" | sed -n 's/^  LATEXMK  \(book-[a-z]*\) (\([0-9]*\) XeLaTeX runs*)$/\1 \2/p' |
        sort | paste -sd, - | sed 's/,/, /g')
    echo "cpu ${cpu} s; XeLaTeX runs: ${r:-none}"
}
# edit FILE LANG TEXT: append TEXT to the first line of the first LANG block
edit() {
    awk -v lang="$2" -v text="$3" '
        done == 0 && inblock == 1 && $0 !~ /^\\/ { $0 = $0 text; done = 1 }
        $0 == "\\begin{" lang "}" { inblock = 1 }
        { print }' "$1" > "$1.tmp" && mv "$1.tmp" "$1"
}

echo "bench-edit: make -j$jobs on $(nproc) cores, in a copy of the built tree, editing $chapter:"
/usr/bin/python3 "$top/tools/bench.py" host
timed all
case "$out" in *"Nothing to be done"*) ;; *)
    echo "  (the copy was not up to date; make did:)"; echo "$out" | head -n 5 | sed 's/^/    /' ;; esac

touch "$chapter"
timed all
check "touch the chapter, make all" "$secs" 15 "$(runs)"

edit "$chapter" en ' An edited sentence.'
timed en
check "one English sentence edited, make en" "$secs" 15 "$(runs)"

edit "$chapter" zh '编辑过的一句话。'
edit "$chapter" en ' Another edited sentence.'
timed pdf
check "a sentence edited in both languages, make pdf" "$secs" 25 "$(runs)"
/usr/bin/python3 "$top/tools/bench.py" host
exit $over
