/* Checks of Exercise 1.1, each answer derived here from its formula:
   contiguous taps reach k - 1 positions further per layer; layer l of the
   dilated stack reaches (k - 1) k^l further; Table 1 gives n^2 d for
   self-attention and k n d^2 for convolution. */
#include "grade.h"
#include "connect_answers.h"

CHECK(contiguous_layers)
{
    long n = 1000, k = 5;
    expect_int("(a) layers of contiguous convolution|zh:（a）连续卷积的层数", answer_contiguous_layers(),
               (n - 1 + k - 2) / (k - 1));
}

CHECK(dilated_layers)
{
    long n = 1000, k = 5, reach = 0, layers = 0;
    for (long dil = 1; reach < n - 1; dil *= k, layers++)
        reach += (k - 1) * dil;
    expect_int("(b) layers of dilated convolution|zh:（b）空洞卷积的层数", answer_dilated_layers(), layers);
}

CHECK(equal_cost_length)
{
    long k = 5, d = 512;
    expect_int("(c) n with n^2 d = k n d^2|zh:（c）满足 n^2 d = k n d^2 的 n", answer_equal_cost_n(), k * d);
}
