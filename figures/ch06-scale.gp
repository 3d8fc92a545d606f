# data: ch06-embeddings --scale
# Chapter 6: mean squares of embeddings (before and after the factor
# sqrt(d_model)) and of the positional encoding, against d_model.
load 'common.gp'
set logscale xy 2
set xlabel '$d_{\mathrm{model}}$'
set ylabel L('分量的均方', 'mean square of the entries')
set xrange [48:1400]
set yrange [0.0005:4]
set format y '$2^{%L}$'
set key at graph 0.97, graph 0.63 right top   # below the top two lines, on a page and on a slide
plot datafile using 1:3 with linespoints ls 1 pt 7 title L('$\sqrt{d_{\mathrm{model}}}\,E$', '$\sqrt{d_{\mathrm{model}}}\,E$'), \
     '' using 1:4 with linespoints ls 2 pt 5 title L('$\mathrm{PE}$', '$\mathrm{PE}$'), \
     '' using 1:2 with linespoints ls 3 pt 9 title L('$E$（缩放前）', '$E$ (unscaled)'), \
     '' using 1:(1.0/$1) with lines ls 3 dt 2 title '$1/d_{\mathrm{model}}$'
