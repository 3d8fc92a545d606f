# data: ch07-saturation --table saturation --keys 16
# Chapter 7: the largest weight and the entropy of the weights (over ln s_K)
# against d_K, unscaled and scaled.  lnsk below must match --keys above.
load 'common.gp'
lnsk = log(16)
set logscale x 2
set format x '%g'
set xrange [0.8:1300]
set yrange [0:1.05]
set ytics 0.2
set xlabel L('维数 $d_K$', 'dimension $d_K$')
set ylabel L('平均值', 'mean over queries')
set key at graph 0.42, graph 0.63 top left Left reverse spacing 1.2
plot datafile using 1:2 with linespoints ls 1 pt 7 ps 0.45 \
       title L('最大权重，$\kappa=1$', 'largest weight, $\kappa=1$'), \
     '' using 1:($3/lnsk) with linespoints ls 2 pt 5 ps 0.45 \
       title L('熵 $H(p)/\ln s_K$，$\kappa=1$', 'entropy $H(p)/\ln s_K$, $\kappa=1$'), \
     '' using 1:10 with linespoints ls 1 dt 2 pt 6 ps 0.45 \
       title L('最大权重，$\kappa=1/\sqrt{d_K}$', 'largest weight, $\kappa=1/\sqrt{d_K}$'), \
     '' using 1:($11/lnsk) with linespoints ls 2 dt 2 pt 4 ps 0.45 \
       title L('熵，$\kappa=1/\sqrt{d_K}$', 'entropy, $\kappa=1/\sqrt{d_K}$')
