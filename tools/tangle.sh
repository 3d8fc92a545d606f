#!/bin/bash
# Tangle every root chunk <<code/...>> of the chapters into OUTDIR.
#
#   tools/tangle.sh [-L] [--record FILE] [--force] OUTDIR CHAPTER.nw ...
#
# All chapters go to notangle together, so a chapter may use chunks defined in
# an earlier one.  Each output file starts with a line that says where it comes
# from.  Files are written through cpif, so an unchanged file keeps its
# timestamp and make does not recompile it.  With -L the C carries #line
# directives that point into the .nw files (for the debug build).
#
# code/ is committed, so the build must not quietly overwrite a file there
# that the chapters did not produce.  With --record FILE, tangle.sh remembers
# the checksum of every file it writes; it refuses to replace a file whose
# content is neither what the chapters tangle to now nor what it wrote last
# time (a hand edit, or a stale or corrupted commit).  --force overwrites.
#
# Fails, naming file:line, when a chunk is defined but never used (a root that
# is not a code/ file: usually a misspelled name) or used but never defined.
#
# noweb joins chunks with nothing between them, so a function that ends one
# chunk would touch the next chunk's first line.  The files get a blank line
# after each top-level definition that ends there (a line that starts with `}`
# and ends with `}` or `;`) when code follows at once.  The -L tangle (the
# debug build) is left as notangle writes it, so its #line numbers stay exact.
set -euo pipefail

line_opt=()
record=
force=0
while [ $# -gt 0 ]; do
    case "$1" in
        -L) line_opt=(-L'#line %L "%F"%N'); shift ;;
        --record) record=$2; shift 2 ;;
        --force) force=1; shift ;;
        *) break ;;
    esac
done
outdir=$1
shift
chapters=("$@")
NOWEB_LIB=${NOWEB_LIB:-/usr/lib/noweb}

# An edit to prose leaves every file as it was: with --record, the code
# chunks of all chapters (noweb's markup, without the prose and without the
# chunks' numbers) and this script make a key, kept beside the record; when
# the key is the one of the last tangle and OUTDIR still holds what that
# tangle wrote, there is nothing to do.  (The key is written only after a
# tangle that worked, so an error is reported again.)
key=
if [ -n "$record" ] && [ ${#line_opt[@]} -eq 0 ]; then
    key=$( { "$NOWEB_LIB/markup" "${chapters[@]}" |
             awk '/^@begin code /{ code = 1; print "@begin code"; next }
                  /^@end code /{ code = 0; print "@end code"; next }
                  code' || echo failed; cat "$0"; } | sha256sum)
    key=${key%% *}
    if [ $force -eq 0 ] && [ -f "$record" ] && [ "$(cat "$record.key" 2>/dev/null)" = "$key" ] &&
            (abs=$(realpath "$record") && cd "$outdir" && sha256sum --quiet --status -c "$abs") 2>/dev/null; then
        exit 0
    fi
fi

status=0
roots=()
while IFS= read -r root; do
    name=${root#<<}
    name=${name%>>}
    case "$name" in
        code/*) roots+=("$name") ;;
        *)
            where=$(grep -n -F -- "<<$name>>=" "${chapters[@]}" | head -n 1 | cut -d: -f1,2)
            echo "$where: chunk <<$name>> is defined but never used (misspelled name, or a missing <<$name>> line?)" >&2
            status=1
            ;;
    esac
done < <(noroots "${chapters[@]}")

# Where each root is defined: "chapter:line:<<name>>=" for every definition,
# found by one grep over all chapters (a grep for each root took seconds).
defs=$(printf '<<%s>>=\n' "${roots[@]}" | grep -n -F -x -f - "${chapters[@]}" || true)
declare -A src_of=()
while IFS= read -r d; do
    [ -n "$d" ] || continue
    file=${d%%:*} rest=${d#*:}
    name=${rest#*:<<}
    name=${name%>>=}
    [ -n "${src_of[$name]:-}" ] || src_of[$name]=$file
done <<< "$defs"

# A root continued in another chapter is almost surely two chapters choosing
# the same file name: noweb would silently concatenate them.
dups=$(awk -F: '{ name = substr($0, length($1) + length($2) + 3) }
                !(name in first) { first[name] = $1 ":" $2; file[name] = $1; next }
                file[name] != $1 && !(name in told) { told[name] = 1
                    print $1 ":" $2 ": root " substr(name, 1, length(name) - 1) \
                          " is already defined at " first[name] "; two chapters" \
                          " chose the same file name (rename one)" }' <<< "$defs")
if [ -n "$dups" ]; then echo "$dups" >&2; status=1; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# space_definitions DIR FILE...: DIR/raw/FILE, as nt wrote it, into
# DIR/files/FILE with those blank lines; one awk for all the files.
space_definitions() {
    local dir=$1
    shift
    if [ ${#line_opt[@]} -gt 0 ]; then
        cp -R "$dir/raw/." "$dir/files/"
        return
    fi
    (cd "$dir/raw" && awk -v dest="$dir/files" '
         FNR == 1 { if (out != "") close(out); out = dest "/" FILENAME; ended = 0 }
         ended && $0 != "" && $0 !~ /^([ \t}]|#(endif|else|elif))/ { print "" > out }
         { print > out; ended = /^}/ && /[};][ \t]*$/ }' "$@")
}

# Tangle everything into $tmp first; touch OUTDIR only if all of it worked.
# notangle is noweb's markup (which parses every chapter) piped into its nt
# (which writes one root): parse once, then run nt for each root, as notangle
# itself would with the same options (with -L: markup -t, nt -t -L...).
mark_opt=() nt_opt=()
if [ ${#line_opt[@]} -gt 0 ]; then mark_opt=(-t); nt_opt=(-t "${line_opt[@]}"); fi
"$NOWEB_LIB/markup" "${mark_opt[@]}" "${chapters[@]}" > "$tmp/markup"
rels=()
for name in "${roots[@]}"; do
    src=${src_of[$name]}
    case "$name" in
        *.c|*.h) header="/* $name: generated by notangle from $src. Do not edit; edit the chapter and run make. */" ;;
        *) header="# $name: generated by notangle from $src. Do not edit; edit the chapter and run make." ;;
    esac
    rel=${name#code/}
    rels+=("$rel")
    for d in "$tmp/raw/$rel" "$tmp/files/$rel"; do
        [ -d "${d%/*}" ] || mkdir -p "${d%/*}"
    done
    if ! { echo "$header"; "$NOWEB_LIB/nt" "${nt_opt[@]}" -R"$name" < "$tmp/markup" 2>"$tmp/err"; } \
            > "$tmp/raw/$rel" || [ -s "$tmp/err" ]; then
        while IFS= read -r msg; do
            case "$msg" in
                "undefined chunk name: "*)
                    used=${msg#undefined chunk name: }
                    where=$(grep -n -F -- "$used" "${chapters[@]}" | grep -v -F -- "$used=" | head -n 1 | cut -d: -f1,2)
                    echo "$where: chunk $used is used but never defined (misspelled name?)" >&2 ;;
                *) echo "notangle: $msg" >&2 ;;
            esac
        done < "$tmp/err"
        status=1
    fi
done
[ $status -eq 0 ] || exit $status
[ ${#rels[@]} -gt 0 ] || exit 0
space_definitions "$tmp" "${rels[@]}"

# The checksums, each list from one sha256sum: what the chapters tangle to
# now, what OUTDIR holds, and what the last tangle wrote (--record).
declare -A now=() old=() last=()
while read -r sum rel; do now[$rel]=$sum; done < <(cd "$tmp/files" && sha256sum -- "${rels[@]}")
present=()
for rel in "${rels[@]}"; do [ ! -f "$outdir/$rel" ] || present+=("$rel"); done
if [ ${#present[@]} -gt 0 ]; then
    while read -r sum rel; do old[$rel]=$sum; done < <(cd "$outdir" && sha256sum -- "${present[@]}")
fi
if [ -n "$record" ] && [ -f "$record" ]; then
    while read -r sum rel; do [ -n "${last[$rel]:-}" ] || last[$rel]=$sum; done < "$record"
fi

for rel in "${rels[@]}"; do
    target="$outdir/$rel"
    if [ -n "$record" ] && [ $force -eq 0 ] && [ -n "${old[$rel]:-}" ] && [ "${old[$rel]}" != "${now[$rel]}" ]; then
        if [ -z "${last[$rel]:-}" ]; then
            echo "$target: differs from what the chapters tangle to. code/ is generated:" \
                 "edit the chapter, not code/ (if code/ is merely stale, run 'make tangle FORCE=1')" >&2
            status=1
        elif [ "${last[$rel]}" != "${old[$rel]}" ]; then
            echo "$target: was edited by hand since the last tangle; edit the chapter instead" \
                 "(or run 'make tangle FORCE=1' to overwrite it from the chapters)" >&2
            status=1
        fi
    fi
done
[ $status -eq 0 ] || exit $status

for rel in "${rels[@]}"; do
    dir=$outdir/$rel
    dir=${dir%/*}
    [ -d "$dir" ] || mkdir -p "$dir"
    # as noweb's cpif: an unchanged file keeps its time, so make leaves it be
    [ "${old[$rel]:-}" = "${now[$rel]}" ] || cp "$tmp/files/$rel" "$outdir/$rel"
    [ -z "$record" ] || echo "${now[$rel]}  $rel" >> "$tmp/record"
done
[ -z "$record" ] || mv "$tmp/record" "$record"
[ -z "$key" ] || echo "$key" > "$record.key"
