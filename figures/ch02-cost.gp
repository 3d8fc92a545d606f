# data: ch02-attention --figure cost
# Chapter 2: time to compute the scores of dot-product and of additive
# attention, as `make record-timings` measured them (data/timings/); the
# ratio at the largest length, and the machine that measured.
load 'common.gp'
set logscale xy
set xlabel L('序列长度 $s_Q = s_K$', 'sequence length $s_Q = s_K$')
set ylabel L('时间（毫秒）', 'time (ms)')
set xrange [13:320]
set xtics (16, 32, 64, 128, 256)
set format x '$%g$'
set format y '$10^{%L}$'
set key top left Left reverse   # samples first: the names start at the left edge, above the lines
# the slowest time of each kind is the one at the largest length
stats datafile using 2 nooutput
t_dot = STATS_max
stats datafile using 3 nooutput
ratio = STATS_max / t_dot
set label 1 L(sprintf('$s = 256$ 时加性得分慢 %.0f 倍', ratio), \
              sprintf('additive is %.0f times slower at $s = 256$', ratio)) \
    at graph 0.97, graph 0.08 right
set title timing_note
plot datafile using 1:($3*1e3) with linespoints ls 2 pt 5 ps 0.5 \
       title L('加性得分', 'additive scores'), \
     '' using 1:($2*1e3) with linespoints ls 1 pt 7 ps 0.5 \
       title L('点积得分', 'dot-product scores')
