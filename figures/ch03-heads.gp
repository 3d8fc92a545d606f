# data: ch03-multi-head --figure
# Chapter 3: the attention weights of the four hand-made heads on the example
# sentence, one heatmap per head.  The first line of the data names the tokens.
load 'common.gp'
# In the book the heads stand two by two; on a slide, whose room (room_w x
# room_h, figures/common.gp) is wide and low, in a row.
wide = exists("room_w") ? room_w > 2 * room_h : 0
if (wide) { eval terminal(room_w, room_h, 9) } else { eval terminal(14, 12.5, 9) }
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
if (wide) {
    set xlabel offset 0,-0.4
    set ylabel offset 0,0
    set multiplot layout 1,4 margins 0.08,0.92,0.25,0.86 spacing 0.06,0
    colorbox = 'origin 0.935,0.25 size 0.012,0.61'
} else {
    set multiplot layout 2,2 margins 0.08,0.92,0.08,0.95 spacing 0.12,0.16
    colorbox = 'origin 0.94,0.08 size 0.02,0.87'
}
set title L('头 1：相同的词', 'head 1: same word')
plot datafile index 0 matrix with image
if (wide) { unset ylabel; unset ytics }   # one row: the tokens once, on the left
set title L('头 2：前一个词', 'head 2: previous word')
plot datafile index 1 matrix with image
set title L('头 3：名词', 'head 3: nouns')
plot datafile index 2 matrix with image
set title L('头 4：平均', 'head 4: average')
eval 'set colorbox vertical user '.colorbox
plot datafile index 3 matrix with image
unset multiplot
