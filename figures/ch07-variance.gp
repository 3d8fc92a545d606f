# data: ch07-saturation --table variance
# Chapter 7: the variance of q.k grows like d_K; divided by sqrt(d_K) it stays
# at 1; an additive score stays bounded.  Error bars: 95% confidence intervals.
load 'common.gp'
set logscale xy 2
set format x '%g'
set format y '%g'
set xrange [0.7:1500]
set yrange [0.18:2400]
set ytics 4
set xlabel L('维数 $d_K$', 'dimension $d_K$')
set ylabel L('得分的方差', 'variance of the score')
set key top left Left reverse spacing 1.3
plot datafile using 1:1 with lines lc rgb '#999999' dt 2 lw 1.5 \
       title L('$d_K$（脚注 4 的预言）', '$d_K$ (footnote 4)'), \
     '' using 1:3:5:6 with yerrorlines ls 1 pt 7 ps 0.45 \
       title L('$\mathrm{Var}(q\cdot k)$', '$\mathrm{Var}(q\cdot k)$'), \
     '' using 1:7:8:9 with yerrorlines ls 2 pt 5 ps 0.45 \
       title L('$\mathrm{Var}(q\cdot k/\sqrt{d_K})$', '$\mathrm{Var}(q\cdot k/\sqrt{d_K})$'), \
     '' using 1:10:($10-1.96*$11):($10+1.96*$11) with yerrorlines ls 3 pt 9 ps 0.55 \
       title L('加性得分 $e(q,k)$，$d_A = d_K$', 'additive score $e(q,k)$, $d_A = d_K$')
