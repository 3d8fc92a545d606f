# data: ch08-training --task copy --max-len 6 --symbols 8 --steps 1300 --curve 50
# Chapter 8: the smoke test.  Held-out loss (left) and token accuracy (right)
# against the step; the label gives the final exact match of greedy decoding,
# read from the run's last comment line.
load 'common.gp'
em = system(sprintf("grep exact-match %s", datafile))
set xlabel L('训练步数', 'training step')
set ylabel L('留出损失（每个词元，nat）', 'held-out loss (nats per token)')
set y2label L('留出词元准确率', 'held-out token accuracy')
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:1]
set key at graph 0.95, graph 0.85 right top
set label 1 L(sprintf('%s 步后完全匹配率 %s\%%', word(em, 4), word(em, 3)), \
              sprintf('exact match %s\%% after %s steps', word(em, 3), word(em, 4))) \
    at graph 0.95, graph 0.6 right
set label 2 L(sprintf('训练中未出现的 %s 条：%s\%%', word(em, 5), word(em, 6)), \
              sprintf('the %s never seen in training: %s\%%', word(em, 5), word(em, 6))) \
    at graph 0.95, graph 0.5 right
plot datafile using 1:4 with lines ls 1 title L('留出损失', 'held-out loss'), \
     '' using 1:5 axes x1y2 with lines ls 2 title L('词元准确率', 'token accuracy')
