/* Checks of Exercise 3.1, each answer derived here from the equations of
   Chapter 3: W_Q, W_K, W_V, W_O are d x d with a bias of d each; the four
   projections of s_Q queries and s_K keys and values cost 2 (s_Q + s_K) d^2
   multiply-adds, and each of the h heads s_Q s_K d_K for the scores and as
   many for the weighted sum. */
#include "grade.h"
#include "mha_cost_answers.h"

CHECK(parameters)
{
    long long d = 1024;
    expect_int("(a) parameters of one multi-head attention layer|zh:（a）一层多头注意力的参数个数",
               answer_mha_params(), 4 * d * d + 4 * d);
}

CHECK(multiply_adds)
{
    long long d = 1024, h = 16, d_k = d / h, s_q = 1000, s_k = 1000;
    expect_int("(b) multiply-adds of self-attention over 1000 positions|zh:（b）1000 个位置上自注意力的乘加次数",
               answer_mha_multiply_adds(),
               2 * (s_q + s_k) * d * d + h * 2 * s_q * s_k * d_k);
}
