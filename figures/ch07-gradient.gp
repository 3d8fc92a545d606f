# data: ch07-saturation --table saturation --keys 16
# Chapter 7: the size of the softmax Jacobian and of the gradient it passes to
# the scores, against d_K.  Error bars: 95% intervals (the mean's from its
# standard error, the median's from the order statistics).
load 'common.gp'
set logscale xy
set format x '%g'
set format y '$10^{%T}$'
set xrange [0.8:1300]
set yrange [1e-6:1]
set xtics (1, 4, 16, 64, 256, 1024)
set xlabel L('维数 $d_K$', 'dimension $d_K$')
set ylabel L('范数', 'norm')
set key bottom left Left reverse spacing 1.3
plot datafile using 1:4:($4-1.96*$5):($4+1.96*$5) with yerrorlines ls 1 pt 7 ps 0.45 \
       title L('$\|J\|_F$ 的平均值，不缩放', 'mean $\|J\|_F$, unscaled'), \
     '' using 1:6:7:8 with yerrorlines ls 1 dt 2 pt 6 ps 0.45 \
       title L('$\|J\|_F$ 的中位数，不缩放', 'median $\|J\|_F$, unscaled'), \
     '' using 1:9 with linespoints ls 4 pt 9 ps 0.5 \
       title L('$\|Jg\|$ 的平均值，不缩放', 'mean $\|Jg\|$, unscaled'), \
     '' using 1:12 with linespoints ls 2 pt 5 ps 0.45 \
       title L('$\|J\|_F$ 的平均值，除以 $\sqrt{d_K}$', 'mean $\|J\|_F$, divided by $\sqrt{d_K}$'), \
     '' using 1:14 with linespoints ls 2 dt 2 pt 4 ps 0.45 \
       title L('$\|J\|_F$ 的中位数，除以 $\sqrt{d_K}$', 'median $\|J\|_F$, divided by $\sqrt{d_K}$')
