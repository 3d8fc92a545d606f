# data: ch09-translate --attention 312005 --model build/data/ch09-model.ckpt
# Chapter 9: the three attentions of the trained number translator's last
# layer (mean over heads) for 312005, English -> Chinese.  Blocks: 0 encoder
# self-attention, 1 decoder self-attention, 2 encoder-decoder attention; each
# line: column, row, weight, column token, row token.
load 'common.gp'
eval terminal(12, 12.5, 8)
set output outfile
unset grid
unset key
set border 0
set tics scale 0
set xtics rotate by 90 right offset 0,0.2
set cbrange [0:1]
set yrange [*:*] reverse
set ylabel offset -1.5,0
unset colorbox
# the labels' layer sets the tick labels and draws nothing (a fully
# transparent colour: the points would show as dots on the darker cells)
hidden = "lc rgb '#ff000000'"
set palette defined (0 '#ffffff', 1 '#7fa8d8', 2 '#1f5fa8')
set multiplot
set size 0.5, 0.5
set origin 0.0, 0.5
set title L('编码器自注意力', 'encoder self-attention')
set xlabel L('键（源序列）', 'key (source)')
set ylabel L('查询（源序列）', 'query (source)')
plot datafile index 0 using 1:2:3 with image, \
     '' index 0 using 1:2:(0):xtic(4):ytic(5) with dots @hidden
set origin 0.5, 0.5
set title L('解码器自注意力', 'decoder self-attention')
set xlabel L('键（解码器输入）', 'key (decoder input)')
set ylabel L('要写出的词元', 'token being written')
set xtics norotate center offset 0,0
plot datafile index 1 using 1:2:3 with image, \
     '' index 1 using 1:2:(0):xtic(4):ytic(5) with dots @hidden
set xtics rotate by 90 right offset 0,0.2
set size 0.62, 0.5
set origin 0.19, 0.0
set colorbox vertical user origin 0.84, 0.12 size 0.018, 0.3
set cbtics 0.5 scale 0.5
set title L('编码器--解码器注意力', 'encoder--decoder attention')
set xlabel L('键（源序列）', 'key (source)')
set ylabel L('要写出的词元', 'token being written')
plot datafile index 2 using 1:2:3 with image, \
     '' index 2 using 1:2:(0):xtic(4):ytic(5) with dots @hidden
unset multiplot
