#!/bin/bash
# Build the book twice from scratch and compare the results byte for byte:
#     tools/check-reproducible.sh [TARGETS...]
#
# Copies the tracked files (as they are in the working tree) into two fresh
# directories with different paths, then builds each with `make -j2 TARGETS`
# (default: all html slides student gradescope) at a different wall-clock
# time, with a different umask, time zone, locale and working directory, the
# same SOURCE_DATE_EPOCH (the last commit's date), and compares every PDF,
# the HTML edition, the slides, build/student.tar.gz and build/gradescope.zip
# with cmp.  Prints each difference; exits 1 if there is one.
# KEEP=1 keeps the two trees (their path is printed).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(all html slides student gradescope)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$top" log -1 --format=%ct 2>/dev/null || echo 1700000000)}

work=$(mktemp -d "${TMPDIR:-/tmp}/reproducible.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
a=$work/one/attention-book
b=$work/second-build/another/path
mkdir -p "$a" "$b"
for d in "$a" "$b"; do             # tracked files, as in the working tree
    (cd "$top" && git ls-files -z | xargs -0 tar --ignore-failed-read -cf - -- 2>/dev/null) |
        tar -xf - -C "$d"
done

build() {  # DIR UMASK TZ LANG
    printf '  %-8s %s\n' BUILD "$1 (umask $2, TZ=$3, LANG=$4, $(date -u +%H:%M:%S))"
    if ! (cd "$1" && umask "$2" && TZ=$3 LANG=$4 LC_ALL= make -j2 "${targets[@]}" \
            > "$1.log" 2>&1); then
        echo "check-reproducible: the build in $1 failed; the end of its log:" >&2
        tail -n 20 "$1.log" >&2
        exit 1
    fi
}
build "$a" 022 UTC C.UTF-8
sleep 2                     # a different second for anything that reads the clock
build "$b" 077 Asia/Shanghai C

differ=0 same=0
compare() {  # RELATIVE-PATH
    if [ ! -e "$a/$1" ] || [ ! -e "$b/$1" ]; then
        echo "  DIFFER   $1: only in one build"; differ=$((differ + 1))
    elif cmp -s "$a/$1" "$b/$1"; then
        same=$((same + 1))
    else
        echo "  DIFFER   $1: $(cmp "$a/$1" "$b/$1" 2>&1 | sed 's/^.*differ: //')"
        differ=$((differ + 1))
    fi
}
outputs=$( (cd "$a" && ls build/book-*.pdf build/slides/*.pdf build/student.tar.gz \
                           build/gradescope.zip 2>/dev/null;
            cd "$a" && find build/html -type f 2>/dev/null;
            cd "$b" && find build/html -type f 2>/dev/null) | sort -u)
for f in $outputs; do
    compare "$f"
done
printf '  %-8s %d files identical, %d differ (SOURCE_DATE_EPOCH=%s)\n' CHECK "$same" \
    "$differ" "$SOURCE_DATE_EPOCH"
[ "$differ" -eq 0 ]
