/* Exercise 1.4: the linear RNN by a parallel prefix scan.  Do not edit: the
   grader uses its own copy of this header. */
#ifndef EX_LINRNN_SCAN_H
#define EX_LINRNN_SCAN_H

/* Equation (L), h_t = h_{t-1} A + x_t B with h_0 = 0, computed by doubling:
   start from c_t = x_t B; round r (s = 2^r, r = 0, 1, ...) sets, for all
   t >= s at once, c_t <- c_{t-s} A^s + c_t (reading only the previous
   round's values), then squares A^s into A^{2s}.  Writes h (n x d) and
   returns the number of rounds, ceil(log2 n).  x: n x d_in; a: d x d;
   bm: d_in x d.  work: caller-owned, n*d + 2*d*d doubles.  No allocation. */
int linrnn_scan(double *h, const double *x, const double *a, const double *bm,
                int n, int d_in, int d, double *work);

#endif
