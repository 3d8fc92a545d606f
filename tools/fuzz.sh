#!/bin/bash
# Fuzz one target for a while:  tools/fuzz.sh FUZZDIR TARGET SECONDS
#
# Runs FUZZDIR/fuzz-TARGET (libFuzzer, fork mode so one crash does not end
# the session) on the committed corpus tests/fuzz/corpus/TARGET/ and the
# regression inputs tests/fuzz/regress/TARGET/, then
#   - minimises the corpus with -merge=1 into tests/fuzz/corpus/TARGET/
#     (commit it: it is what make test replays and the next run starts from);
#   - copies every crash and leak into tests/fuzz/regress/TARGET/, where make
#     test replays it until the bug is fixed, and exits 1;
#   - lists inputs that ran out of time or memory (build/fuzz/slow/TARGET/):
#     the programs do what they are asked, so a huge --samples is slow by
#     design; look at them, they are not replayed.
#   - moves corpus inputs that take more than 0.5 s of CPU to replay to
#     build/fuzz/slow/TARGET/ too, so make test stays quick.
# Prints one line; the whole log is FUZZDIR/log/TARGET.txt.
set -euo pipefail

fz=$(cd "$1" && pwd)        # absolute: the cli targets run in tests/fuzz/fixtures/
target=$2
seconds=$3
top=$(cd "$(dirname "$0")/.." && pwd)
corpus=$top/tests/fuzz/corpus/$target
regress=$top/tests/fuzz/regress/$target
work=$fz/work/$target
art=$fz/artifacts/$target
slow=$fz/slow/$target
log=$fz/log/$target.txt

case $target in
    mat_read) opts=(-max_len=4096 "-dict=$top/tests/fuzz/mat_read.dict") ;;
    mask)     opts=(-max_len=1024) ;;
    cli-*)    opts=(-max_len=512 "-dict=$fz/$target.dict") ;;
    *)        echo "fuzz.sh: unknown target '$target'" >&2; exit 2 ;;
esac
opts+=(-timeout=10 -rss_limit_mb=1024)

rm -rf "$work" "$art" "$fz/merged/$target"
mkdir -p "$corpus" "$regress" "$work" "$art/" "$slow" "$fz/log" "$fz/merged/$target"
# The cli targets run in a copy of the fixtures: libFuzzer in fork mode
# writes a timeout's input to the directory the program was running in.
rm -rf "$fz/fixtures/$target"
mkdir -p "$fz/fixtures"
cp -r "$top/tests/fuzz/fixtures" "$fz/fixtures/$target"
export FUZZ_FIXTURES=$fz/fixtures/$target
printf '  %-8s %s\n' FUZZ "$target (${seconds} s)"
"$fz/fuzz-$target" "${opts[@]}" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 \
    -ignore_ooms=1 -max_total_time="$seconds" -artifact_prefix="$art/" \
    "$work" "$corpus" "$regress" > "$log" 2>&1 || true
stats=$(grep -a -E '^#[0-9]+: cov:' "$log" | tail -n 1 || true)

# Minimise: keep the inputs of corpus + new ones that cover something new.
before=$(find "$corpus" -type f | wc -l)
"$fz/fuzz-$target" "${opts[@]}" -merge=1 "$fz/merged/$target" "$corpus" "$work" \
    >> "$log" 2>&1
find "$corpus" -type f -delete
cp "$fz/merged/$target"/* "$corpus"/ 2>/dev/null || true
for f in "$corpus"/*; do
    [ -e "$f" ] || continue
    /usr/bin/time -f '%U %S' -o "$fz/log/$target.time" \
        timeout 5 "$fz/replay-$target" "$f" > /dev/null 2>&1 || true
    if ! awk 'END { exit !($1 + $2 <= 0.5) }' "$fz/log/$target.time" 2> /dev/null; then
        mv "$f" "$slow/"
    fi
done
after=$(find "$corpus" -type f | wc -l)

for f in "$FUZZ_FIXTURES"/crash-* "$FUZZ_FIXTURES"/leak-* "$FUZZ_FIXTURES"/timeout-* \
         "$FUZZ_FIXTURES"/oom-*; do
    [ -e "$f" ] && mv "$f" "$art/"
done
found=0
for f in "$art"/crash-* "$art"/leak-* "$art"/timeout-* "$art"/oom-*; do
    [ -e "$f" ] || continue
    case $(basename "$f") in
        crash-*|leak-*) cp "$f" "$regress/"; found=$((found + 1)) ;;
        *)              cp "$f" "$slow/" ;;
    esac
done
slow_n=$(find "$slow" -type f | wc -l)
printf '  %-8s %s: %s; corpus %d -> %d inputs; %d crashes; %d slow\n' FUZZ "$target" \
    "$(sed -E 's/^#([0-9]+): cov: ([0-9]+) ft: ([0-9]+).*/\1 runs, coverage \2, features \3/' \
      <<< "${stats:-#0: cov: 0 ft: 0}")" "$before" "$after" "$found" "$slow_n"
if [ "$found" -gt 0 ]; then
    echo "fuzz.sh: $target: $found new crash(es) in tests/fuzz/regress/$target/ (log: $log)" >&2
    exit 1
fi
