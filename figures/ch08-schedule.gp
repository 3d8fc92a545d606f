# data: ch08-training --schedule
# Chapter 8: the learning rate of eq. (3) against the step, for the base and
# big models with warmup 4000 and the base model with warmup 8000.
load 'common.gp'
set xlabel L('训练步数', 'training step')
set ylabel L('学习率', 'learning rate')
set format y '%.1t$\times 10^{%T}$'
set xrange [0:30000]
set key top right
plot datafile using 1:2 with lines ls 1 title L('$d_{\mathrm{model}} = 512$，warmup 4000', '$d_{\mathrm{model}} = 512$, warmup 4000'), \
     '' using 1:3 with lines ls 2 title L('$d_{\mathrm{model}} = 1024$，warmup 4000', '$d_{\mathrm{model}} = 1024$, warmup 4000'), \
     '' using 1:4 with lines ls 3 dt 2 title L('$d_{\mathrm{model}} = 512$，warmup 8000', '$d_{\mathrm{model}} = 512$, warmup 8000')
