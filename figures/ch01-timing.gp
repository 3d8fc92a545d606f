# data: ch01-why-attention --sweep short
# Chapter 1: seconds per call of one self-attention, recurrent and convolution
# layer against n (left), and the measured time ratios beside the ratios of
# multiply-adds (right).  Columns: n d t_attn t_rnn t_conv macs_attn macs_rnn
# macs_conv.  Everything the figure says is computed here from the data.
load 'common.gp'
eval terminal(15, 6.6, 9)
set output outfile

stats datafile using 2 nooutput
d = STATS_min
# log-log slopes fitted to the points with n >= d: the key shows each as the
# power of n the time grows with
stats datafile using ($1 >= d ? log($1) : 1/0):(log($3)) nooutput
s_attn = STATS_slope
stats datafile using ($1 >= d ? log($1) : 1/0):(log($4)) nooutput
s_rnn = STATS_slope
stats datafile using ($1 >= d ? log($1) : 1/0):(log($5)) nooutput
s_conv = STATS_slope
# the sweep's last n where attention is still faster than the RNN, and the
# first where it is slower (1e9 / 0 when there is none)
stats datafile using ($3 > $4 ? $1 : 1e9) nooutput
n_slower = STATS_min
stats datafile using ($3 <= $4 ? $1 : 0) nooutput
n_faster = STATS_max
power(s) = sprintf(' $\propto n^{%.2f}$', s)
max(a, b) = a > b ? a : b
min(a, b) = a < b ? a : b

# cairolatex leaves the text to LaTeX, so gnuplot cannot know how wide a label
# is (it counts both languages of \zhen): keys and labels are therefore placed
# by their left or right edge, and the n = d lines (the caption names them)
# stop below the keys.
set multiplot layout 1,2 title timing_note
set logscale xy 2
set format x '%g'
set xlabel L('序列长度 $n$', 'sequence length $n$')

set logscale y 10
set format y '$10^{%T}$'
# a decade above the slowest call, so that the lines pass under the key
stats datafile using 3 nooutput
t_lo = STATS_min; t_hi = STATS_max
stats datafile using 4 nooutput
t_lo = min(t_lo, STATS_min); t_hi = max(t_hi, STATS_max)
stats datafile using 5 nooutput
t_lo = min(t_lo, STATS_min); t_hi = max(t_hi, STATS_max)
set yrange [10**floor(log10(t_lo)) : 10**(ceil(log10(t_hi)) + 1)]
set ylabel L('每次调用的时间（秒）', 'seconds per call')
set key at graph 0.03, graph 0.98 left top Left reverse spacing 1.1 samplen 2
set arrow 1 from d, graph 0 to d, graph 0.72 nohead dt 2 lc rgb '#888888'
plot datafile using 1:3 with linespoints ls 1 pt 7 ps 0.5 \
       title L('自注意力', 'self-attention').power(s_attn), \
     '' using 1:4 with linespoints ls 2 pt 5 ps 0.5 \
       title L('循环层', 'recurrent').power(s_rnn), \
     '' using 1:5 with linespoints ls 3 pt 9 ps 0.6 \
       title L('卷积', 'convolution').power(s_conv)

set logscale y 2
set format y '%g'
set yrange [*:*]        # (stats skips points outside the left panel's range)
# the key's four lines span the panel's top third and most of its width:
# the range reaches far enough above the largest ratio that every line
# passes under them (in octaves: the data fill the lower 60%)
stats datafile using ($3/$4) nooutput
r_lo = STATS_min; r_hi = STATS_max
stats datafile using ($3/$5) nooutput
r_lo = min(r_lo, STATS_min); r_hi = max(r_hi, STATS_max)
stats datafile using ($6/$7) nooutput
r_lo = min(r_lo, STATS_min); r_hi = max(r_hi, STATS_max)
stats datafile using ($6/$8) nooutput
r_lo = min(r_lo, STATS_min); r_hi = max(r_hi, STATS_max)
o_lo = floor(log(r_lo) / log(2))
set yrange [2**o_lo : 2**ceil(o_lo + (log(r_hi) / log(2) - o_lo) / 0.6)]
# (a little low: in the bilingual edition it is as long as the panel is high,
# and its top would touch the title)
set ylabel L('自注意力÷另一层', 'self-attention ÷ other') offset 0, -0.6
set arrow 1 from d, graph 0 to d, graph 0.6 nohead dt 2 lc rgb '#888888'
set arrow 2 from graph 0, first 1 to graph 1, first 1 nohead lc rgb '#888888'
if (n_slower < 1e9) {
    set label 2 L('交点：', 'crossover:')."\n". \
        sprintf('$%d < n \le %d$', int(n_faster), int(n_slower)) \
        at graph 0.97, graph 0.14 right
}
plot datafile using 1:($3/$4) with linespoints ls 2 pt 5 ps 0.5 \
       title L('对循环层：时间', 'vs.\ recurrent: time'), \
     '' using 1:($6/$7) with lines ls 2 dt 2 \
       title L('对循环层：乘加数', 'vs.\ recurrent: multiply-adds'), \
     '' using 1:($3/$5) with linespoints ls 3 pt 9 ps 0.6 \
       title L('对卷积：时间', 'vs.\ convolution: time'), \
     '' using 1:($6/$8) with lines ls 3 dt 2 \
       title L('对卷积：乘加数', 'vs.\ convolution: multiply-adds')
unset multiplot
