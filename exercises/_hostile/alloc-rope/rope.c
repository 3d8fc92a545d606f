/* Hostile submission: a correct RoPE that allocates, where the contract
   says "no allocation". */
#include "rope.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void rope_forward(double *x, int n, int d, int offset)
{
    double *row = malloc((size_t)d * sizeof *row);
    for (int t = 0; t < n; t++) {
        memcpy(row, x + (size_t)t * d, (size_t)d * sizeof *row);
        for (int i = 0; i < d / 2; i++) {
            double th = (t + offset) * pow(10000.0, -2.0 * i / d);
            double a = row[2 * i], b = row[2 * i + 1];
            x[(size_t)t * d + 2 * i] = a * cos(th) + b * sin(th);
            x[(size_t)t * d + 2 * i + 1] = -a * sin(th) + b * cos(th);
        }
    }
    free(row);
}
