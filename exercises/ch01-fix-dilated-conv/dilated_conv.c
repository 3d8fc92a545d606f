/* Exercise 1.5 · 练习 1.5: find and fix the bug.  找出并修正错误。
 *
 * This causal convolution gives the chapter's results with contiguous taps
 * (dilation 1), but a stack of dilated layers built from it does not
 * connect position 1 to position n in the number of layers the chapter
 * counts.  Find the faulty line, say why it is wrong, and fix it; change as
 * little as you can.  (dilated_conv.h says what the function must do.)
 * 这个因果卷积在连续抽头（膨胀率 1）时与本章的结果一致，但用它堆成的膨胀卷积层
 * 在本章算出的层数内连不通位置 1 与位置 n。找出出错的那一行，说明错在哪里，
 * 并改正；改动越少越好。
 * Grade it with:  make grade EX=ch01-fix-dilated-conv
 */
#include "dilated_conv.h"
#include <stddef.h>

void dilated_conv(double *y, const double *x, const double *w, const double *b,
                  int n, int d_in, int d_out, int k, int dilation)
{
    for (int t = 0; t < n; t++) {
        double *y_t = y + (size_t)t * d_out;
        for (int j = 0; j < d_out; j++)
            y_t[j] = b ? b[j] : 0.0;
        for (int o = 0; o < k && t - (long)o * dilation >= 0; o++) {
            /* BEGIN FIX */
            const double *x_tap = x + (size_t)(t - (long)o * dilation) * d_in;
            /* BROKEN */
            //~ const double *x_tap = x + (size_t)(t - o) * d_in;
            /* END FIX */
            for (int i = 0; i < d_in; i++)  /* y_t += x_tap W_o */
                for (int j = 0; j < d_out; j++)
                    y_t[j] += x_tap[i] * w[((size_t)o * d_in + i) * d_out + j];
        }
    }
}
