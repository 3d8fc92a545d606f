/* A known wrong solution (mutant) of ch06-encoder-stack, kept for the grader's tests
   and its feedback: the final LayerNorm (when given) is applied to the last layer's output. */
/* Exercise 6.4 · 练习 6.4: a stack of encoder layers.
 * 编码器层的栈。
 *
 * encoder_layer_forward and layernorm_forward are yours to use; work gives
 * them their scratch and you two n x d buffers for the stream between the
 * layers.  Grade it with:  make grade EX=ch06-encoder-stack
 */
#include "encoder_stack.h"
#include <stddef.h>

void encoder_stack_forward(const EncoderLayer *layers, int n_layers,
                           const LayerNorm *final, double *y,
                           const double *x, int n,
                           const unsigned char *mask, NormPlacement where,
                           double *work)
{
    const EncoderLayer *l0 = &layers[0];
    size_t nd = (size_t)n * l0->d_model;
    double *stream[2];
    stream[0] = work + layer_work_size(n, n, l0->d_model, l0->heads, l0->d_ff);
    stream[1] = stream[0] + nd;
    const double *in = x;
    for (int l = 0; l < n_layers; l++) {        /* the last layer writes y */
        double *out = l == n_layers - 1 ? y : stream[l % 2];
        encoder_layer_forward(&layers[l], out, in, n, mask, where, work);
        in = out;
    }
    (void)final;
}
