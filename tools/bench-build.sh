#!/bin/bash
# make bench-build: the build's speed, against the budgets in the README.
#   clean build (all programs, figures, three PDFs)  <= 90 s on 2 cores (make -j3)
#   no-op build                                       <= 1 s, rebuilding nothing
#   touching one chapter rebuilds only what depends on it
#   the training runs the book's figures and numbers need  <= 30 s
# (each demo's time: make bench-demos.)  Prints one line per figure in the
# format of tools/bench.py; exits 1 if a budget is exceeded.
set -euo pipefail
cd "$(dirname "$0")/.."
# As build.sh does, one job more than the cores: make -j3 on 2 cores.  On a
# machine with more cores, make runs on two of them (taskset), the budget's.
pin=()
if [ "$(nproc)" -gt 2 ]; then pin=(taskset -c 0,1); fi
jobs=3
make_bin=$(type -P make)
make() { "${pin[@]}" "$make_bin" "$@"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
over=0
check() {  # what seconds budget
    local flag=OK
    if awk -v t="$2" -v b="$3" 'BEGIN { exit !(t > b) }'; then flag=OVER; over=1; fi
    printf '  %-46s %8.2f s  <= %5g s  %s\n' "$1" "$2" "$3" "$flag"
}

echo "bench-build: make -j$jobs on $([ ${#pin[@]} -gt 0 ] && echo 2 || nproc) cores:"
rm -rf build
t0=$(now); make -s -j"$jobs" all >/dev/null; t1=$(now)
check "clean build (programs, figures, 3 PDFs)" "$(secs "$t0" "$t1")" 90

t0=$(now); out=$(make -j"$jobs" all); t1=$(now)
check "no-op build" "$(secs "$t0" "$t1")" 1
case "$out" in *"Nothing to be done"*) ;; *) echo "  no-op build did work:"; echo "$out" | head; over=1 ;; esac

last=$(ls chapters/*.nw | grep -v appendix | tail -n 1)
touch "$last"
t0=$(now); out=$(make -j"$jobs" all); t1=$(now)
check "rebuild after touching $(basename "$last")" "$(secs "$t0" "$t1")" 90
echo "$out" | grep -E '^  (CC|LD|RUN|GNUPLOT) ' | sed 's/^/      rebuilt: /' || echo "      rebuilt: no C, no figure data (only the weave and the PDFs)"

# The training runs whose results the book draws or quotes (Chapter 8's
# figures, Chapter 9's two models and their evaluations), run again alone.
trained=(build/data/ch08-curve.dat build/data/ch08-norm.dat build/data/ch08-scale.dat
         build/data/ch09-model.ckpt build/data/ch09-model-nols.ckpt
         build/run/ch09-translate_--evaluate_--model_build_data_ch09-model.ckpt.out
         build/run/ch09-translate_--evaluate_--model_build_data_ch09-model-nols.ckpt.out)
rm -f "${trained[@]}"
t0=$(now); make -s -j"$jobs" "${trained[@]}" >/dev/null; t1=$(now)
check "training runs the book needs (part of the clean build)" "$(secs "$t0" "$t1")" 30
make -s -j"$jobs" all >/dev/null
exit $over
