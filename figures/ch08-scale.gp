# data: ch08-training --compare scale --task copy --batch 16 --max-len 6 --symbols 8 --steps 200 --curve 20 --eval 100 --warmup 100
# Chapter 8: training with d_k = 8 and d_k = 32, each with and without the
# 1/sqrt(d_k) scaling: held-out token accuracy against the step; the legend
# gives each run's final exact match (from the comment lines "# exact-match").
load 'common.gp'
all = system(sprintf("grep exact-match %s", datafile))
em(i) = word(all, 6 * (i - 1) + 3)
set xlabel L('训练步数', 'training step')
set ylabel L('留出词元准确率', 'held-out token accuracy')
set yrange [0:1.05]
set key top left Left reverse spacing 1.2
plot datafile index 0 using 1:5 with lines ls 1 title L(sprintf('$d_k = 8$，缩放（%s\%%）', em(1)), sprintf('$d_k = 8$, scaled (%s\%%)', em(1))), \
     '' index 1 using 1:5 with lines ls 1 dt 2 title L(sprintf('$d_k = 8$，不缩放（%s\%%）', em(2)), sprintf('$d_k = 8$, unscaled (%s\%%)', em(2))), \
     '' index 2 using 1:5 with lines ls 2 title L(sprintf('$d_k = 32$，缩放（%s\%%）', em(3)), sprintf('$d_k = 32$, scaled (%s\%%)', em(3))), \
     '' index 3 using 1:5 with lines ls 2 dt 2 title L(sprintf('$d_k = 32$，不缩放（%s\%%）', em(4)), sprintf('$d_k = 32$, unscaled (%s\%%)', em(4)))
