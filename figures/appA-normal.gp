# data: appA-matrix --histogram --samples 200000 --seed 1
# Appendix A: the histogram of rng_normal's draws against the N(0,1) density.
load 'common.gp'
set xlabel '$x$'
set ylabel L('密度', 'density')
set xrange [-3:3]
set yrange [0:*]
set key top right
set style fill solid 0.35 noborder
plot datafile using 1:2:(0.1) with boxes lc rgb '#1f5fa8' title L('抽样直方图', 'histogram of draws'), \
     '' using 1:3 with lines ls 2 title L('$N(0,1)$ 密度', '$N(0,1)$ density')
