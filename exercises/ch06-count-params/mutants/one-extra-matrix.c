/* A known wrong solution (mutant) of ch06-count-params, kept for the grader's tests
   and its feedback: without sharing there are three vocab x d_model matrices (encoder input, decoder input, output): two more than the shared one. */
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
        total += p.embedding;
    if (final_norms)
        total += 2 * p.norm;            /* gamma and beta, after each stack */
    return total;
}
