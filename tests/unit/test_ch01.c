/* Chapter 1's layers on inputs small enough to work out by hand. */
#include <criterion/criterion.h>
#include <math.h>
#include "layers.h"

/* x = (1, 2, 3) as a column (n = 3, d_in = d_out = 1), taps W_0 = 1 and
   W_1 = 10, bias 0.5:  y_t = 0.5 + x_t + 10 x_{t - dilation}. */
Test(conv1d, contiguous_taps_by_hand)
{
    double x[3] = { 1, 2, 3 }, w[2] = { 1, 10 }, b[1] = { 0.5 }, y[3];
    conv1d_forward(y, x, w, b, 3, 1, 1, 2, 1);
    cr_expect_float_eq(y[0], 1.5, 1e-15);   /* the tap before position 0 reads zero */
    cr_expect_float_eq(y[1], 12.5, 1e-15);
    cr_expect_float_eq(y[2], 23.5, 1e-15);
}

Test(conv1d, dilated_taps_by_hand)
{
    double x[3] = { 1, 2, 3 }, w[2] = { 1, 10 }, y[3];
    conv1d_forward(y, x, w, NULL, 3, 1, 1, 2, 2);
    cr_expect_float_eq(y[0], 1.0, 1e-15);
    cr_expect_float_eq(y[1], 2.0, 1e-15);
    cr_expect_float_eq(y[2], 13.0, 1e-15);  /* 3 + 10 x_0 */
}

/* Two input channels, two output channels: W_0 = I, W_1 = [[0,1],[1,0]]. */
Test(conv1d, blocks_are_stacked_by_tap)
{
    double x[2 * 2] = { 1, 2, 3, 4 };
    double w[4 * 2] = { 1, 0, 0, 1, 0, 1, 1, 0 }, y[2 * 2];
    conv1d_forward(y, x, w, NULL, 2, 2, 2, 2, 1);
    double want[4] = { 1, 2, 3 + 2, 4 + 1 };   /* y_1 = x_1 + x_0 swapped */
    for (int i = 0; i < 4; i++)
        cr_expect_float_eq(y[i], want[i], 1e-15, "y[%d]", i);
}

Test(conv1d, multiply_add_counts_by_hand)
{
    cr_expect_eq(conv1d_macs(3, 1, 1, 2, 1), 5);       /* 3 + 2 taps inside */
    cr_expect_eq(conv1d_macs(3, 1, 1, 2, 2), 4);       /* 3 + 1 */
    cr_expect_eq(conv1d_macs(5, 2, 3, 4, 2), 54);      /* (5 + 3 + 1 + 0) * 6 */
    cr_expect_eq(conv1d_macs(2, 1, 1, 3, 5), 2);       /* only tap 0 lands */
}

Test(rnn, steps_by_hand)
{
    double x[2] = { 1, 0 }, w[1] = { 0.5 }, u[1] = { 1 }, b[1] = { 0 }, h[2];
    rnn_forward(h, x, w, u, b, 2, 1, 1);
    cr_expect_float_eq(h[0], tanh(1.0), 1e-15);
    cr_expect_float_eq(h[1], tanh(0.5 * tanh(1.0)), 1e-15);
    cr_expect_eq(rnn_macs(3, 2, 4), 2 * 16 + 3 * 8);
}

Test(rnn, step_without_a_previous_state)
{
    double x[1] = { 0.5 }, w[1] = { 100 }, u[1] = { 2 }, b[1] = { 0.25 }, h[1];
    rnn_step(h, NULL, x, w, u, b, 1, 1);       /* h_0 = 0: W plays no part */
    cr_expect_float_eq(h[0], tanh(1.25), 1e-15);
}

/* a = 0.5, B = 2, x = (1, 1, 1): h = 2, 3, 3.5; kernel K_m = 2 * 0.5^m. */
Test(linrnn, recurrent_and_unrolled_by_hand)
{
    double x[3] = { 1, 1, 1 }, a[1] = { 0.5 }, bm[1] = { 2 }, h[3], kern[3], hc[3];
    linrnn_forward(h, x, a, bm, 3, 1, 1);
    linrnn_kernel(kern, a, bm, 3, 1, 1);
    conv1d_forward(hc, x, kern, NULL, 3, 1, 1, 3, 1);
    double want_h[3] = { 2, 3, 3.5 }, want_k[3] = { 2, 1, 0.5 };
    for (int t = 0; t < 3; t++) {
        cr_expect_float_eq(h[t], want_h[t], 1e-15, "h[%d]", t);
        cr_expect_float_eq(kern[t], want_k[t], 1e-15, "K[%d]", t);
        cr_expect_float_eq(hc[t], want_h[t], 1e-15, "unrolled h[%d]", t);
    }
}
