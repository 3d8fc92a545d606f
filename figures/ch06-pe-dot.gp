# data: ch06-embeddings --pe-dot 512
# Chapter 6: PE(pos).PE(pos+k) against k from two starting positions.
load 'common.gp'
set xlabel L('距离 $k$', 'distance $k$')
set ylabel '$\mathrm{PE}(pos)\cdot\mathrm{PE}(pos+k)$'
set xrange [-100:200]
set xtics 50
set key top right
plot datafile using 1:2 with lines ls 1 title L('$pos = 100$', '$pos = 100$'), \
     '' using 1:3 every 3 with points ls 2 pt 7 ps 0.35 title L('$pos = 300$', '$pos = 300$')
