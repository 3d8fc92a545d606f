# data: ch02-attention --figure heatmap
# Chapter 2: the attention weights of "the cat sat on the mat" as a heatmap,
# the words as tick labels and each weight written in its cell.
load 'common.gp'
eval terminal(9, 7.2, 9)
set output outfile
unset grid
set border 0
set tics scale 0
set xtics offset 0,0.3
set xlabel L('键 $k_j$', 'key $k_j$')
set ylabel L('查询 $q_i$', 'query $q_i$')
set xrange [-0.5:5.5]
set yrange [5.5:-0.5]
set cbrange [0:*]
set cblabel L('权重 $a_{ij}$', 'weight $a_{ij}$')
set palette defined (0 '#ffffff', 1 '#7fa8d8', 2 '#1f5fa8')
plot datafile using 1:2:3 with image, \
     '' using 1:2:(sprintf('%.2f', $3)):xtic(4):ytic(5) with labels
