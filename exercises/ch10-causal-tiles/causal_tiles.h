/* Exercise 10.2: the tile loop with the causal skip.
   Do not edit: the grader uses its own copy of this header. */
#ifndef EX_CAUSAL_TILES_H
#define EX_CAUSAL_TILES_H

/* Causal attention, out[s_q x d_v] = Softmax(kappa Q K^T + M) V with
   Chapter 4's mask aligned at the bottom right (query i sees the keys
   j <= i + s_k - s_q; a query that sees no key gets a zero output), computed
   tile by tile as in Chapter 10: for each block of br queries, walk the key
   tiles of bc keys from the left with the online softmax, and skip every
   tile in which no query of the block sees any key.  Return the number of
   (query block, key tile) pairs computed.  q is s_q x d_k, k is s_k x d_k,
   v is s_k x d_v, row-major; scratch holds br * (bc + d_v + 2) doubles.
   No allocation. */
long causal_tiles(double *out, const double *q, const double *k,
                  const double *v, int s_q, int s_k, int d_k, int d_v,
                  double kappa, int br, int bc, double *scratch);

#endif
