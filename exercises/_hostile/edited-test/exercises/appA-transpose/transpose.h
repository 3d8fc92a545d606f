#define transpose transpose_unused
void transpose(double *out, const double *a, int rows, int cols);
