#!/bin/bash
# Every chapter program under valgrind's memcheck:  tools/memcheck.sh BUILDDIR
#
# Runs each program's demo (the slow Chapter 7 demo with fewer samples) and
# its data modes on small matrices made by appA-matrix, each under
#   valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=all
# so an invalid read or write, a use of uninitialised memory, and any block
# not freed at exit (even one still reachable) is an error.  Prints one line
# per run and a summary; exits 1 if any run had an error or failed.
# ONLY=PROGRAM runs one program's runs.
set -euo pipefail

bin=$(cd "$1" && pwd)/bin
supp=$(cd "$(dirname "$0")" && pwd)/valgrind.supp   # libgomp's thread pool
work=$(mktemp -d "${TMPDIR:-/tmp}/memcheck.XXXXXX")
trap 'rm -rf "$work"' EXIT
log=$(cd "$1" && pwd)/memcheck
mkdir -p "$log"

# Small inputs: X is 5 x 4 (s = 5 positions, d = 4), Q 3 x 4, V 5 x 2.
m() { "$bin/appA-matrix" --random "$1" "$2" --seed "$3" > "$work/$4"; }
m 5 4 1 x; m 3 4 2 q; m 5 2 3 v; m 3 2 4 dq; m 5 4 5 dy; m 4 4 6 w
m 4 4 7 u; m 1 4 8 b; m 12 4 9 w3; m 4 6 10 w1; m 1 6 11 b1; m 6 4 12 w2
m 1 5 13 row
printf '1 5\n1 1 1 0 0\n' > "$work/pad"
printf '3 5\n1 0 0 0 0\n1 1 0 1 0\n1 1 1 1 1\n' > "$work/mask"

# PROGRAM | what | arguments (file names are in $work)
runs=$(cat <<'RUNS'
appA-matrix|demo|
appA-matrix|--random|--random 3 4 --seed 2 --std 0.5
appA-matrix|--check|--check x q mask
appA-matrix|--histogram|--histogram --samples 2000
ch01-why-attention|demo|
ch01-why-attention|--connect|--connect --n 64 --k 3
ch01-why-attention|--table|--table --n 64 --d 16 --k 3 --r 4
ch01-why-attention|--conv|--conv x w3 b --dilation 2
ch01-why-attention|--rnn|--rnn x w u b
ch01-why-attention|--linear-rnn|--linear-rnn x w u --unrolled
ch01-why-attention|--self-attention|--self-attention x
ch02-attention|demo|
ch02-attention|data|--q q --k x --v v
ch02-attention|--weights|--q q --k x --v v --weights --scale 0.5
ch02-attention|--figure heatmap|--figure heatmap
ch02-attention|--figure trace|--figure trace
ch03-multi-head|demo|
ch03-multi-head|data|--q x --k x --v x --wq w --wk u --wv w --wo u --heads 2
ch03-multi-head|--grad|--q x --k x --v x --wq w --wk u --wv w --wo u --heads 2 --mask causal --grad dy
ch04-masking|demo|
ch04-masking|--mask|--q q --k x --v v --mask mask --key-padding pad
ch04-masking|--grad|--q q --k x --v v --mask causal --grad dq
ch05-feed-forward|demo|
ch05-feed-forward|data|--x x --w1 w1 --b1 b1 --w2 w2 --b2 b --dy dy
ch05-feed-forward|--residual|--x x --w1 w1 --b1 b1 --w2 w2 --b2 b --residual pre
ch05-feed-forward|--layernorm|--layernorm --x x --dy dy
ch05-feed-forward|--depth|--depth 3
ch06-embeddings|demo|
ch06-embeddings|--posenc|--posenc 10 8
ch06-embeddings|--params|--params all
ch06-embeddings|--pe-dot|--pe-dot 16
ch07-saturation|demo (smaller)|--samples 100 --trials 20 --dk-max 64
ch07-saturation|--softmax|--softmax x
ch07-saturation|--jacobian|--jacobian row
ch08-training|demo|
ch09-translate|demo|
ch10-fast-attention|demo|
ch10-fast-attention|data|--q q --k x --v v --causal
RUNS
)

total=0 bad=0
while IFS='|' read -r prog what args; do
    [ -z "${ONLY:-}" ] || [ "$prog" = "$ONLY" ] || continue
    [ -x "$bin/$prog" ] || { echo "memcheck: $bin/$prog is missing: run make" >&2; exit 2; }
    total=$((total + 1))
    out=$log/$prog-$total.txt
    read -r -a argv <<< "$args"
    if (cd "$work" && valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=all \
            --suppressions="$supp" \
            --error-exitcode=99 --log-file="$out" "$bin/$prog" "${argv[@]}" \
            > /dev/null 2> "$out.stderr"); then
        status=0
    else
        status=$?
    fi
    errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$out" | tail -n 1)
    leaked=$(sed -n 's/.*\(definitely\|indirectly\|possibly\) lost: \([0-9,]*\) bytes.*/\2/p;
                    s/.*still reachable: \([0-9,]*\) bytes.*/\1/p' "$out" | tr -d , |
             awk '{ s += $1 } END { print s + 0 }')
    if [ "$status" -eq 0 ] && [ "${errors:-1}" -eq 0 ] && [ "$leaked" -eq 0 ]; then
        printf '  %-8s %-20s %-18s clean\n' MEMCHECK "$prog" "$what"
    else
        bad=$((bad + 1))
        printf '  %-8s %-20s %-18s FAILED: status %s, %s errors, %s bytes not freed (%s)\n' \
            MEMCHECK "$prog" "$what" "$status" "${errors:-?}" "$leaked" "$out"
        head -n 1 "$out.stderr" | sed 's/^/           /'
    fi
done <<< "$runs"
printf '  %-8s %d runs, %d clean, %d with errors (logs in %s/)\n' MEMCHECK "$total" \
    "$((total - bad))" "$bad" "$log"
[ "$bad" -eq 0 ]
