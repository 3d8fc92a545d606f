#!/bin/bash
# make bench-build: the build's speed, against the budgets in the README.
#   clean build (all programs, figures, three PDFs)  <= 60 s on 2 cores
#   no-op build                                       <= 1 s, rebuilding nothing
#   touching one chapter rebuilds only what depends on it
#   each chapter program's demo                       <  1 s
# Prints the figures; exits 1 if a budget is exceeded.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
over=0
check() {  # name seconds budget
    local flag=ok
    if awk -v t="$2" -v b="$3" 'BEGIN { exit !(t > b) }'; then flag=OVER; over=1; fi
    printf '  %-44s %7.2f s  (budget %s s)  %s\n' "$1" "$2" "$3" "$flag"
}

echo "bench-build on $(nproc) cores, make -j$jobs:"
rm -rf build
t0=$(now); make -s -j"$jobs" all >/dev/null; t1=$(now)
check "clean build (programs, figures, 3 PDFs)" "$(secs "$t0" "$t1")" 60

t0=$(now); out=$(make -j"$jobs" all); t1=$(now)
check "no-op build" "$(secs "$t0" "$t1")" 1
case "$out" in *"Nothing to be done"*) ;; *) echo "  no-op build did work:"; echo "$out" | head; over=1 ;; esac

last=$(ls chapters/*.nw | grep -v appendix | tail -n 1)
touch "$last"
t0=$(now); out=$(make -j"$jobs" all); t1=$(now)
check "rebuild after touching $(basename "$last")" "$(secs "$t0" "$t1")" 60
echo "$out" | grep -E '^  (CC|LD|RUN|GNUPLOT) ' | sed 's/^/      rebuilt: /' || echo "      rebuilt: no C, no figure data (only the weave and the PDFs)"

for p in build/bin/*; do
    t0=$(now); "$p" >/dev/null; t1=$(now)
    check "demo: $(basename "$p")" "$(secs "$t0" "$t1")" 1
done
exit $over
