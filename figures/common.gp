# Settings shared by every figure.  The build runs, from build/,
#   gnuplot -e "datafile='data/NAME.dat'; outfile='fig/NAME.tex'" ../figures/NAME.gp
# and the cairolatex terminal leaves the text to LaTeX, so labels are set in
# the book's fonts.  L(zh, en) gives a label in both languages; each edition's
# \zhen keeps its own, and so does the HTML edition's SVG of the same figure
# (tools/tikzfig.py svgs).
set encoding utf8
# terminal(w, h, pt): the cairolatex terminal, w x h cm, labels laid out for
# a pt-point font (LaTeX sets them).  A plot is 12 x 6.5 cm unless its script
# says `eval terminal(...)` after loading this file.  When tools/html/slides.py
# draws a plot again for a slide, it gives the room there, room_w x room_h
# cm: the plot takes no more than that of either, its labels at their size
# (a plot keeps its shape only where it says so, as a heat map's set size
# ratio does; a frame is wider and lower than a page).
fit_w(w) = exists("room_w") && room_w < w ? room_w : w
fit_h(h) = exists("room_h") && room_h < h ? room_h : h
terminal(w, h, pt) = sprintf('set terminal cairolatex pdf input colortext size %.4gcm,%.4gcm font ",%d"', \
    fit_w(w), fit_h(h), pt)
eval terminal(12, 6.5, 9)
L(zh, en) = sprintf('\zhen{%s}{%s}', zh, en)
set output outfile
set border 3 lw 0.8
set tics nomirror out scale 0.6
set grid lc rgb '#dddddd' lw 0.6
set key noautotitle
set style line 1 lc rgb '#1f5fa8' lw 2
set style line 2 lc rgb '#c8502a' lw 2
set style line 3 lc rgb '#3a8a3a' lw 2
set style line 4 lc rgb '#7a4aa0' lw 2

# A timing figure draws what `make record-timings` measured; the header of
# its data file (data/timings/NAME.dat) names the machine and the date, and
# timing_note says so in the figure ('' for data without that header).
timing_cpu = system('sed -n "/^# machine: /{s/^# machine: //;s/,.*//;p;}" '.datafile)
timing_cpus = system('sed -n "/^# machine: /{s/^[^,]*, //;s/ logical.*//;p;}" '.datafile)
timing_date = system('sed -n "s/^# date: //p" '.datafile)
timing_note = (timing_cpu eq '') ? '' : \
    L(sprintf('测于 %s，%s 个逻辑 CPU，%s', timing_cpu, timing_cpus, timing_date), \
      sprintf('measured on %s, %s logical CPUs, %s', timing_cpu, timing_cpus, timing_date))
