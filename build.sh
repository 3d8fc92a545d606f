#!/bin/bash
# ./build.sh: install what is missing from Debian's archive, then build the
# book: three PDFs, one program per chapter, the figures.  Safe to run again.
#
# Run as root it installs with apt-get; otherwise it prints the one
# `sudo apt-get install ...` line to run, and stops.  Nothing is downloaded
# from anywhere but Debian's package archive.  `./build.sh --packages-only`
# installs and stops (the development container, .devcontainer/, uses it).
set -euo pipefail
cd "$(dirname "$0")"

packages=(
    make gcc clang                      # the C (gcc builds; clang checks)
    noweb                               # notangle, noweave, noroots, cpif
    texlive-xetex texlive-lang-chinese  # XeLaTeX with ctex and xeCJK
    latexmk                             # runs XeLaTeX, biber and upmendex (the index; texlive-binaries) as often as needed
    texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended lmodern
    fonts-noto-cjk fonts-dejavu-core    # Noto Serif/Sans CJK SC, DejaVu Sans Mono
    gnuplot-nox                         # figures (cairolatex terminal)
    libcriterion-dev                    # C unit tests
    python3 python3-numpy python3-torch # independent reference numbers in tests
    poppler-utils                       # pdftotext, pdftoppm: the PDF tests; pdftocairo: TikZ diagrams as SVG
    pandoc                              # the HTML edition and slides
    chromium                            # tests/test_html.py opens every page headless
    python3-pytest python3-pytest-xdist # the test runner, on both cores
    python3-nltk                        # BLEU reference for Chapter 9's C BLEU
    libopenblas0-pthread libopenblas-dev # OpenBLAS: the system BLAS for NumPy and PyTorch
                                        # (honest baselines), and cblas for Chapter 10
    valgrind                            # make memcheck
    libclang-rt-14-dev                  # libFuzzer for make fuzz
    bubblewrap                          # the grader's sandbox
    stress-ng hyperfine                 # loaded test runs; make bench timings
    biber texlive-bibtex-extra          # the bibliography (biblatex, GB/T 7714 style)
    texlive-pictures                    # TikZ diagrams (standalone.cls, for their SVG: texlive-latex-extra)
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "build.sh: missing Debian packages; install them with:" >&2
        echo "sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
        exit 1
    fi
    echo "build.sh: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [ "${1:-}" = --packages-only ]; then
    exit 0
fi

# One job more than there are cores: the last step is the three editions'
# XeLaTeX runs, one process each, and with one job a core two of them would
# run one after the other while the other core sat idle (make -j2: 130 s for
# the three PDFs from nothing, 96 s with -j3, on this book's 2-core machine).
make -j"$(( $(nproc) + 1 ))"

echo
echo "The book:"
for e in zh en bilingual; do echo "  build/book-$e.pdf"; done
echo "The HTML edition and the chapter slides are built by: make html slides"
echo "  (about 30 s; then open build/html/zh/index.html or build/html/en/index.html"
echo "  in a browser, no server needed; the slides are build/slides/NN-topic-{zh,en}.pdf)"
echo "The chapter programs (run one with no arguments for its demo, or with --help):"
for p in build/bin/*; do echo "  $p"; done
echo "Next: make test (all tests), make help (all targets)."
