/* A known wrong solution (mutant) of ch06-count-params, kept for the grader's tests
   and its feedback: a final LayerNorm after each stack: two of them (encoder and decoder), each with gamma and beta. */
/* Exercise 6.2 · 练习 6.2: count_params with and without sharing and final
 * layer normalisations.
 * 在共享与否、有无末尾层归一化的各种组合下数参数。
 *
 * Grade it with:  make grade EX=ch06-count-params
 */
#include "count_params_with.h"

long long count_params_with(const ModelConfig *c, int shared, int final_norms)
{
    ParamCount p = count_params(c);
    long long total = p.total;
    if (!shared)
        total += 2 * p.embedding;       /* two more vocab x d_model matrices */
    if (final_norms)
        total += p.norm;
    return total;
}
