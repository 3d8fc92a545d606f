#!/bin/bash
# Measure the book's timing figures again:  tools/record-timings.sh BUILDDIR NAME...
#
# For each figure NAME, runs the command on line 1 of figures/NAME.gp
# ("# data: PROGRAM ARGS", PROGRAM from BUILDDIR/bin) and writes its output
# to data/timings/NAME.dat under a header that says what measured it: the
# command, the machine (CPU model, logical CPUs, kernel, compiler), the
# date and how busy the machine was.  The build draws the figure from that file (and prints the machine in
# the figure), so two builds give the same book; commit the file.
set -euo pipefail

builddir=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$top/data/timings"

# Letters, digits and plain punctuation only: the text goes into LaTeX.
clean() { LC_ALL=C tr -c 'A-Za-z0-9 .,:;()+/_\n-' ' ' | sed 's/_/-/g; s/  */ /g; s/^ //; s/ $//'; }
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1 | clean)
cpus=$(nproc)
kernel=$(uname -sr | clean)
compiler=$(${CC:-cc} --version | head -n 1 | clean)
when=$(date -u +%Y-%m-%d)

for name in "$@"; do
    cmd=$(sed -n '1s/^# data: //p' "$top/figures/$name.gp")
    printf '  %-8s %s\n' TIME "$cmd > data/timings/$name.dat"
    read -r -a words <<< "$cmd"
    out=$top/data/timings/$name.dat
    {
        echo "# Recorded by make record-timings; the build draws figures/$name.gp from this file."
        echo "# command: $cmd"
        echo "# machine: ${cpu:-unknown CPU}, $cpus logical CPUs, $kernel, $compiler -O2"
        echo "# date: $when"
        echo "# load: $(cut -d ' ' -f 1 /proc/loadavg) (1-minute load average when this run started)"
        "$builddir/bin/${words[0]}" "${words[@]:1}"
    } > "$out.tmp"
    mv "$out.tmp" "$out"
done
