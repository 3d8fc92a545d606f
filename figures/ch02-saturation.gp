# data: ch02-attention --figure saturation
# Chapter 2: the softmax saturates without the scaling factor; with
# kappa = 1/sqrt(d_K) the norm of its Jacobian does not depend on d_K.
load 'common.gp'
set logscale x 2
set xlabel '$d_K$'
set ylabel L('$\|J\|_F$ 的平均值', 'mean $\|J\|_F$')
set xrange [1:1024]
set yrange [0:*]
set format x '$%g$'
set key bottom left
plot datafile using 1:3 with linespoints ls 1 pt 7 ps 0.5 \
       title L('$\kappa = 1/\sqrt{d_K}$', '$\kappa = 1/\sqrt{d_K}$'), \
     '' using 1:2 with linespoints ls 2 pt 5 ps 0.5 \
       title L('$\kappa = 1$（不缩放）', '$\kappa = 1$ (unscaled)')
