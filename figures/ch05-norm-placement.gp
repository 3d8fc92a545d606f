# data: ch05-feed-forward --depth 24
# Chapter 5: mean square of the residual stream through 24 random FFN
# sublayers, post-norm against pre-norm, with the prediction of eq. (prenorm-growth).
load 'common.gp'
set xlabel L('层数 $l$', 'layer $l$')
set ylabel L('残差流分量的均方', 'mean square of the residual stream')
set xrange [0:24]
set yrange [0:*]
set xtics 4
set key top left
plot datafile using 1:4 with lines ls 3 dt 2 title L('预测 $\overline{x_0^2} + l/2$', 'prediction $\overline{x_0^2} + l/2$'), \
     '' using 1:3 with linespoints ls 2 pt 7 ps 0.5 title L('前归一化', 'pre-norm'), \
     '' using 1:2 with linespoints ls 1 pt 5 ps 0.5 title L('后归一化（论文）', 'post-norm (the paper)')
