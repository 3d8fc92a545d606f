# data: ch08-training --schedule
# Chapter 8: the learning rate of eq. (3) against the step, for the base and
# big models with warmup 4000 and the base model with warmup 8000.
load 'common.gp'
set xlabel L('训练步数', 'training step')
set ylabel L('学习率（$\times 10^{-4}$）', 'learning rate ($\times 10^{-4}$)')
set format y '%g'
set xrange [0:30000]
set key top right
plot datafile using 1:($2*1e4) with lines ls 1 title L('$d_{\mathrm{model}} = 512$，预热 4000 步', '$d_{\mathrm{model}} = 512$, warm-up 4000'), \
     '' using 1:($3*1e4) with lines ls 2 title L('$d_{\mathrm{model}} = 1024$，预热 4000 步', '$d_{\mathrm{model}} = 1024$, warm-up 4000'), \
     '' using 1:($4*1e4) with lines ls 3 dt 2 title L('$d_{\mathrm{model}} = 512$，预热 8000 步', '$d_{\mathrm{model}} = 512$, warm-up 8000')
