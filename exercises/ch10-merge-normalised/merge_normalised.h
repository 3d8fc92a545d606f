/* Exercise 10.1: merge two normalised partial results of attention.
   Do not edit: the grader uses its own copy of this header. */
#ifndef EX_MERGE_NORMALISED_H
#define EX_MERGE_NORMALISED_H

/* For one query and two disjoint sets of keys A and B: o_a[d_v] is the
   attention output over A alone (weights softmax over A only) and
   lse_a = log sum_{j in A} exp(s_j), the log of A's normaliser; likewise o_b
   and lse_b for B.  An empty set has lse = -INFINITY, and its o is to be
   ignored (it holds finite numbers).  Overwrite o_a with the output over
   A and B together and return the lse of A and B together; when both are
   empty, return -INFINITY and set o_a to zeros.  Stay finite for any finite
   lse, even 1e300 or -1e300.  No allocation. */
double merge_normalised(double *o_a, double lse_a, const double *o_b,
                        double lse_b, int d_v);

#endif
