# data: ch03-multi-head --figure
# Chapter 3: the attention weights of the four hand-made heads on the example
# sentence, one heatmap per head.  The first line of the data names the tokens.
load 'common.gp'
eval terminal(14, 12.5, 9)
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
set ylabel L('查询', 'query') offset 1,0
set multiplot layout 2,2 margins 0.08,0.92,0.08,0.95 spacing 0.12,0.16
set title L('头 1：相同的词', 'head 1: same word')
plot datafile index 0 matrix with image
set title L('头 2：前一个词', 'head 2: previous word')
plot datafile index 1 matrix with image
set title L('头 3：名词', 'head 3: nouns')
plot datafile index 2 matrix with image
set title L('头 4：平均', 'head 4: average')
set colorbox vertical user origin 0.94,0.08 size 0.02,0.87
plot datafile index 3 matrix with image
unset multiplot
