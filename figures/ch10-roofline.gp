# data: ch10-fast-attention --plot data/ch10-measured.dat
# Chapter 10: this machine's roofline (the measured 1-thread peak and triad
# bandwidth; index 0) and each attention at s = 4096, d = 64, no mask, 1 thread
# (index 1: intensity from the chapter's cost model, measured GFLOP/s, name).
load 'common.gp'
set logscale xy 2
set format x '%g'
set format y '%g'
set xrange [0.25:1024]
set xlabel L('算术强度（每字节的浮点运算）', 'arithmetic intensity (FLOP per byte)')
set ylabel L('GFLOP/s（有用运算，按 CPU 时间）', 'GFLOP/s (useful, by CPU time)')
set key at graph 0.03, graph 0.97 left top Left reverse samplen 2
# Where each name goes.  The cost model fixes the intensities (torch-mha and
# naive at 7.9, torch at 10.6, blas and stream at 15.8); only the speeds are
# measured.  torch-mha runs about as fast as blas an octave to its right, so
# its name goes to the left of its point; torch, a little slower than blas
# and between the two, has its name below the point; the others above right.
place(n) = n eq 'torch-mha' ? 'left' : n eq 'torch' ? 'below' : 'above'
name_at(n, where) = place(n) eq where ? n : ''
plot datafile index 0 using 1:2 with lines ls 1 \
       title L('屋顶：min(峰值, 带宽 × 强度)', 'roof: min(peak, bandwidth $\times$ intensity)'), \
     '' index 1 using 1:2 with points ls 2 pt 7 ps 0.7 \
       title L('各种注意力，$s = 4096$', 'attention variants, $s = 4096$'), \
     '' index 1 using 1:2:(name_at(strcol(3), 'above')) with labels \
       left offset 0.6,0.3 notitle, \
     '' index 1 using 1:2:(name_at(strcol(3), 'below')) with labels \
       left offset 0.6,-0.3 notitle, \
     '' index 1 using 1:2:(name_at(strcol(3), 'left')) with labels \
       right offset -0.6,0.3 notitle
