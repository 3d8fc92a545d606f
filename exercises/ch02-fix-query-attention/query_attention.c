/* Exercise 2.6 · 练习 2.6: find and fix the bug.  找出并修正错误。
 *
 * This is equation (2) for one query, with the stable softmax of this chapter,
 * and it compiles and passes the small examples.  On some inputs it gives
 * NaN.  Find the faulty line, say why it is wrong, and fix it; change as
 * little as you can.  (query_attention.h says what the function must do.)
 * 这是用本章的数值稳定 Softmax 实现的单查询公式 (2)，能编译，也能通过小例子，
 * 但在某些输入上会得到 NaN。找出出错的那一行，说明错在哪里，并改正；改动越少越好。
 * Grade it with:  make grade EX=ch02-fix-query-attention
 */
#include "query_attention.h"
#include <math.h>
#include <stddef.h>

void query_attention(double *out_i, double *w_i, const double *q_i,
                     const double *k, const double *v, int s_k, int d_k,
                     int d_v, double kappa)
{
    for (int j = 0; j < s_k; j++) {         /* s_ij = kappa <q_i, k_j> */
        double dot = 0.0;
        for (int c = 0; c < d_k; c++)
            dot += q_i[c] * k[(size_t)j * d_k + c];
        w_i[j] = kappa * dot;
    }
    /* BEGIN FIX */
    double max = w_i[0], z = 0.0;           /* the largest score, and the sum */
    /* BROKEN */
    //~ double max = 0.0, z = 0.0;              /* the largest score, and the sum */
    /* END FIX */
    for (int j = 0; j < s_k; j++)
        max = fmax(max, w_i[j]);
    for (int j = 0; j < s_k; j++) {
        w_i[j] = exp(w_i[j] - max);         /* at most 1: cannot overflow */
        z += w_i[j];
    }
    for (int j = 0; j < s_k; j++)
        w_i[j] /= z;
    for (int c = 0; c < d_v; c++) {         /* out_i = sum_j w_ij v_j */
        double o = 0.0;
        for (int j = 0; j < s_k; j++)
            o += w_i[j] * v[(size_t)j * d_v + c];
        out_i[c] = o;
    }
}
