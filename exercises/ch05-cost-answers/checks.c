/* Checks of Exercise 5.1, each answer derived here from the counts of
   Section "Parameters and cost": the network has W1 (d x d_ff), b1, W2
   (d_ff x d), b2; the attention layer four d x d matrices and four biases;
   per position the network costs 2 d d_ff multiply-adds and attention
   4 d^2 + 2 s d over s keys. */
#include "grade.h"
#include "ffn_cost_answers.h"

enum { D = 1024, DFF = 4096 };

CHECK(ffn_parameters)
{
    long long d = D, dff = DFF;
    expect_int("(a) parameters of one feed-forward network|zh:（a）一个前馈网络的参数个数", answer_ffn_params(),
               d * dff + dff + dff * d + d);
}

CHECK(attention_parameters)
{
    long long d = D;
    expect_int("(b) parameters of one multi-head attention layer|zh:（b）一层多头注意力的参数个数",
               answer_attention_params(), 4 * (d * d + d));
}

CHECK(crossover_length)
{
    /* the s with 4 d^2 + 2 s d = 2 d d_ff, found by walking up s */
    long long d = D, dff = DFF, s = 0;
    while (4 * d * d + 2 * s * d < 2 * d * dff)
        s++;
    expect_true(4 * d * d + 2 * s * d == 2 * d * dff, "grader: no exact crossover",
                "评分程序：没有恰好相等的长度");
    expect_int("(c) s at which attention costs as much per position as the network|zh:（c）注意力每个位置的开销与前馈网络相等时的 s",
               answer_crossover_length(), s);
}
