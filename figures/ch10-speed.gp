# data: ch10-fast-attention --plot data/ch10-measured.dat
# Chapter 10: GFLOP/s of useful operations against s (d = 64, no mask,
# 1 thread; left) and peak resident memory against s (right).  Indices 2 to 6
# hold naive, blas, torch, torch-mha, stream: s GFLOP/s RSS/MiB.
load 'common.gp'
eval terminal(15, 6.5, 9)
set output outfile
set multiplot layout 1,2
set logscale x 2
set format x '%g'
set xrange [200:20000]
set xlabel L('序列长度 $s$', 'sequence length $s$')
set ylabel L('GFLOP/s（有用运算，按 CPU 时间）', 'GFLOP/s (useful, by CPU time)')
set key at graph 0.03, graph 0.97 left top Left reverse samplen 2 spacing 1.1
# the key's five lines take the top third: the range goes far enough above
# the fastest point that no line runs through them
stats datafile index 2:6 using 2 nooutput
set yrange [0:STATS_max / 0.6]
plot datafile index 2 using 1:2 with linespoints ls 4 pt 5 ps 0.5 title L('第 2 章（double）', 'Chapter 2 (double)'), \
     '' index 3 using 1:2 with linespoints ls 3 pt 9 ps 0.6 title 'OpenBLAS', \
     '' index 4 using 1:2 with linespoints ls 2 pt 7 ps 0.5 title 'PyTorch', \
     '' index 5 using 1:2 with linespoints ls 2 dt 2 pt 6 ps 0.5 title 'PyTorch MHA', \
     '' index 6 using 1:2 with linespoints ls 1 pt 7 ps 0.5 title L('流式计算核', 'streaming kernel')
set logscale y 2
set format y '%g'
set autoscale y
set ylabel L('峰值常驻内存（MiB）', 'peak resident memory (MiB)')
set key at graph 0.03, graph 0.97 left top Left reverse samplen 2 spacing 1.1
plot 8.0 * x * x / 1048576 with lines lc rgb '#888888' dt 2 title L('$s^2$ 个 double', '$s^2$ doubles'), \
     datafile index 2 using 1:3 with linespoints ls 4 pt 5 ps 0.5 title L('第 2 章', 'Chapter 2'), \
     '' index 3 using 1:3 with linespoints ls 3 pt 9 ps 0.6 title 'OpenBLAS', \
     '' index 6 using 1:3 with linespoints ls 1 pt 7 ps 0.5 title L('流式计算核', 'streaming kernel')
unset multiplot
