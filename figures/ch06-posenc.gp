# data: ch06-embeddings --posenc 100 128
# Chapter 6: the sinusoidal positional encoding as a heatmap, positions down,
# dimensions across.  The data is the program's matrix format: its first
# line is the header "ROWS COLS", skipped here.
load 'common.gp'
eval terminal(12, 7.5, 9)
set output outfile
set xlabel L('维 $j$', 'dimension $j$')
set ylabel L('位置 $pos$', 'position $pos$')
set xrange [-0.5:127.5]
set yrange [99.5:-0.5]
set xtics 16
set ytics 10
set cbrange [-1:1]
set cbtics 0.5
set palette defined (-1 '#1f5fa8', 0 '#f7f7f7', 1 '#c8502a')
unset grid
set border 15
set tics out nomirror
plot datafile skip 1 matrix with image
