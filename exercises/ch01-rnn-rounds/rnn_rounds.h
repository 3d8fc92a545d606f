/* Exercise 1.3: rounds of the parallel (Jacobi) schedule of a recurrent layer.
   Do not edit: the grader uses its own copy of this header. */
#ifndef EX_RNN_ROUNDS_H
#define EX_RNN_ROUNDS_H

/* The recurrent layer h_t = tanh(h_{t-1} W + x_t U + b), h_0 = 0, with the
   arguments of rnn_forward: x is n x d_in, w is d x d, u is d_in x d, b has
   d entries.  The parallel schedule starts from all states zero; each round
   computes every h_t at once from the previous round's h_{t-1}.  Returns the
   least m >= 1 such that after round m no state differs from the
   step-by-step result by more than tol in absolute value.  work:
   caller-owned, 3*n*d doubles.  No allocation. */
int rnn_rounds_to_tolerance(const double *x, const double *w, const double *u,
                            const double *b, int n, int d_in, int d,
                            double tol, double *work);

#endif
