# data: ch07-saturation --table temperature
# Chapter 7: p = softmax(x / T) for six fixed logits, T from 1/64 to 64.
# T = 1: the logits as they are; T = 1/8: the same logits multiplied by 8,
# as unscaled scores are at d_K = 64.
load 'common.gp'
set logscale x 2
set xrange [1.0/64:64]
set yrange [0:1.02]
set ytics 0.2
set xtics ('$1/64$' 1.0/64, '$1/16$' 1.0/16, '$1/4$' 0.25, \
           '1' 1, '4' 4, '16' 16, '64' 64)
set xlabel L('温度 $T$', 'temperature $T$')
set ylabel L('权重 $p_j$', 'weight $p_j$')
set arrow from 1, graph 0 to 1, graph 1 nohead lc rgb '#888888' dt 2
set arrow from 0.125, graph 0 to 0.125, graph 1 nohead lc rgb '#888888' dt 2
set label '$\kappa=1/\sqrt{d_K}$' at 0.92, graph 0.8 right
set label '$\kappa=1,\ d_K=64$' at 0.115, graph 0.5 right
set key at graph 0.98, graph 0.78 right spacing 1.2
plot for [j=1:6] datafile using 1:(column(j+1)) with lines lw 2 \
       title sprintf('$p_%d$', j)
