# data: ch04-masking --figure
# Chapter 4: the causal mask of the example sentence, the weights with -inf
# added before the softmax, and the weights zeroed after it.
load 'common.gp'
eval terminal(15, 6, 9)
set output outfile
tokens = system(sprintf("sed -n 's/^# tokens: //p' '%s'", datafile))
n = words(tokens)
set xtics () scale 0 rotate by 45 right
set ytics () scale 0
do for [t = 1:n] {
    set xtics add (word(tokens, t) t - 1)
    set ytics add (word(tokens, t) t - 1)
}
set xrange [-0.5:n - 0.5]
set yrange [n - 0.5:-0.5]
set size ratio -1
set border 15 lw 0.5
unset grid
set cbrange [0:1]
set palette defined (0 '#ffffff', 0.5 '#6f9fd8', 1 '#0b2f6b')
unset colorbox
set xlabel L('键', 'key') offset 0,0.5
set multiplot layout 1,3 margins 0.07,0.92,0.14,0.9 spacing 0.06,0
set title L('因果掩码', 'causal mask')
set ylabel L('查询', 'query') offset 1,0
plot datafile index 0 matrix with image
unset ylabel
set title L('Softmax 之前加 $-\infty$', '$-\infty$ before the softmax')
plot datafile index 1 matrix with image
set title L('Softmax 之后清零', 'zeroed after the softmax')
set colorbox vertical user origin 0.94,0.2 size 0.015,0.62
plot datafile index 2 matrix with image
unset multiplot
