/* Unit tests of the C core (Appendix A), with Criterion.  Expected values
 * are worked by hand or are published reference values, never the code's
 * own earlier output. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core.h"
#include "temp_file.h"

/* Read text as a matrix file; return mat_read's status and its message. */
static int read_text(const char *text, Matrix *m, char *err, size_t n)
{
    const char *path = temp_file(text);
    int rc = mat_read(path, m, err, n);
    unlink(path);
    return rc;
}

Test(matrix_format, reads_comments_blank_lines_and_numbers)
{
    Matrix m;
    char err[256];
    cr_assert_eq(read_text("# a comment\n\n2 3\n1 -2.5 3e2\n# between rows\n0x10 .5 -0\n",
                           &m, err, sizeof err), 0, "%s", err);
    cr_assert_eq(m.rows, 2);
    cr_assert_eq(m.cols, 3);
    double want[6] = { 1, -2.5, 300, 16, 0.5, 0 };
    for (int i = 0; i < 6; i++)
        cr_assert_float_eq(m.data[i], want[i], 0.0, "entry %d", i);
    mat_free(&m);
}

/* Each malformed file gives -1, an empty matrix and "path:line: ..." */
static void expect_error(const char *text, int line, const char *words)
{
    Matrix m;
    char err[256], where[32];
    cr_assert_eq(read_text(text, &m, err, sizeof err), -1, "accepted: %s", text);
    cr_assert_null(m.data);
    snprintf(where, sizeof where, ":%d: ", line);
    cr_assert(strstr(err, where), "message '%s' should name line %d", err, line);
    cr_assert(strstr(err, words), "message '%s' should say '%s'", err, words);
}

Test(matrix_format, rejects_malformed_files)
{
    expect_error("", 1, "empty file");
    expect_error("# only a comment\n", 2, "empty file");
    expect_error("2\n1 2\n", 1, "header");
    expect_error("2 x\n", 1, "header");
    expect_error("2 2 2\n1 2\n3 4\n", 1, "nothing else");
    expect_error("0 3\n", 1, "positive");
    expect_error("-1 3\n", 1, "positive");
    expect_error("99999999 99999999\n", 1, "too large");
    expect_error("2 2\n1 2\n3\n", 3, "expected 2 numbers, found 1");
    expect_error("2 2\n1 2 3\n3 4\n", 2, "expected 2 numbers, found 3");
    expect_error("1 2\n1 abc\n", 2, "'abc' is not a number");
    expect_error("1 2\n1 2x\n", 2, "is not a number");
    expect_error("1 2\n1 nan\n", 2, "NaN and infinity");
    expect_error("1 2\ninf 1\n", 2, "NaN and infinity");
    expect_error("1 2\n1e999 1\n", 2, "NaN and infinity");
    expect_error("2 2\n1 2\n", 3, "file ends after 1 of 2 rows");
    expect_error("1 2\n1 2\n3 4\n", 3, "more rows");
}

Test(matrix_format, missing_file_names_the_file)
{
    Matrix m;
    char err[256];
    cr_assert_eq(mat_read("/nonexistent/Q.txt", &m, err, sizeof err), -1);
    cr_assert(strstr(err, "/nonexistent/Q.txt: cannot open"), "%s", err);
}

Test(matrix_format, written_matrix_reads_back_to_nine_digits)
{
    Matrix a = mat_new(2, 2), b;
    double v[4] = { 1.0 / 3.0, -2e-7, 12345.678901234, 0.0 };
    memcpy(a.data, v, sizeof v);
    char path[] = "/tmp/attn-test-XXXXXX", err[256];
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    mat_write(f, &a);
    fclose(f);
    cr_assert_eq(mat_read(path, &b, err, sizeof err), 0, "%s", err);
    unlink(path);
    for (int i = 0; i < 4; i++)
        cr_assert(fabs(b.data[i] - v[i]) <= 1e-8 * fabs(v[i]), "entry %d", i);
    mat_free(&a);
    mat_free(&b);
}

Test(kernels, matmul_by_hand)
{
    /* [1 2 3; 4 5 6] [7 8; 9 10; 11 12] = [58 64; 139 154] */
    double a[6] = { 1, 2, 3, 4, 5, 6 }, b[6] = { 7, 8, 9, 10, 11, 12 }, c[4];
    double want[4] = { 58, 64, 139, 154 };
    matmul(c, a, b, 2, 3, 2);
    for (int i = 0; i < 4; i++)
        cr_assert_float_eq(c[i], want[i], 1e-12);
    /* the same with b given transposed: b^T = [7 9 11; 8 10 12] */
    double bt[6] = { 7, 9, 11, 8, 10, 12 };
    matmul_bt(c, a, bt, 2, 3, 2);
    for (int i = 0; i < 4; i++)
        cr_assert_float_eq(c[i], want[i], 1e-12);
}

Test(kernels, matmul_backward_matches_finite_differences)
{
    enum { N = 3, K = 4, M = 2 };
    double a[N * K], b[K * M], dc[N * M], da[N * K] = { 0 }, db[K * M] = { 0 }, c[N * M];
    Rng r;
    rng_seed(&r, 7);
    rng_fill_normal(&r, a, N * K, 0, 1);
    rng_fill_normal(&r, b, K * M, 0, 1);
    rng_fill_normal(&r, dc, N * M, 0, 1);
    matmul_backward(da, db, dc, a, b, N, K, M);
    /* L = <dc, a b> is linear in each argument, so central differences are exact
       up to rounding. */
    const double h = 1e-6;
    for (int t = 0; t < N * K + K * M; t++) {
        double *x = t < N * K ? &a[t] : &b[t - N * K];
        double saved = *x, lp = 0, lm = 0;
        *x = saved + h; matmul(c, a, b, N, K, M);
        for (int i = 0; i < N * M; i++) lp += dc[i] * c[i];
        *x = saved - h; matmul(c, a, b, N, K, M);
        for (int i = 0; i < N * M; i++) lm += dc[i] * c[i];
        *x = saved;
        double numeric = (lp - lm) / (2 * h);
        double analytic = t < N * K ? da[t] : db[t - N * K];
        cr_assert(fabs(numeric - analytic) < 1e-6, "entry %d: %g vs %g", t, numeric, analytic);
    }
}

Test(kernels, mean_square_by_hand)
{
    /* (1 + 4 + 9 + 16) / 4 = 7.5; one entry: 0.5^2 = 0.25 */
    const double x[4] = { 1, -2, 3, -4 };
    cr_assert_float_eq(mean_square(x, 4), 7.5, 1e-15);
    cr_assert_float_eq(mean_square(x + 2, 1), 9.0, 1e-15);
    const double half = 0.5;
    cr_assert_float_eq(mean_square(&half, 1), 0.25, 1e-15);
}

Test(rng, splitmix64_reference_values)
{
    /* The published first outputs of SplitMix64 seeded with 0. */
    Rng r;
    rng_seed(&r, 0);
    cr_assert_eq(rng_next(&r), 0xE220A8397B1DCDAFull);
    cr_assert_eq(rng_next(&r), 0x6E789E6AA1B965F4ull);
    cr_assert_eq(rng_next(&r), 0x06C45D188009454Full);
}

Test(rng, same_seed_same_numbers_and_uniform_range)
{
    Rng a, b;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    for (int i = 0; i < 1000; i++) {
        double u = rng_uniform(&a);
        cr_assert_eq(u, rng_uniform(&b));
        cr_assert(u >= 0.0 && u < 1.0);
    }
}

Test(rng, normal_mean_and_variance_within_their_confidence_intervals)
{
    /* For n draws of N(0,1): the mean has standard error 1/sqrt(n) and the
       variance estimate sqrt(2/n).  Allow 5 standard errors. */
    enum { N = 200000 };
    Rng r;
    rng_seed(&r, 3);
    double s = 0, s2 = 0;
    for (int i = 0; i < N; i++) {
        double x = rng_normal(&r);
        s += x;
        s2 += x * x;
    }
    double mean = s / N, var = s2 / N - mean * mean;
    cr_assert(fabs(mean) < 5 / sqrt(N), "mean %g", mean);
    cr_assert(fabs(var - 1) < 5 * sqrt(2.0 / N), "variance %g", var);
}

Test(cli, strict_number_parsing_exits_2)
{
    cr_assert_eq(cli_long("--n", "42", 1, 100), 42);
    cr_assert_float_eq(cli_double("--x", "0.25", 0, 1), 0.25, 0);
}

Test(cli, non_numeric_argument_exits_2, .exit_code = 2)
{
    cli_long("--n", "4x", 1, 100);
}

Test(cli, out_of_range_argument_exits_2, .exit_code = 2)
{
    cli_double("--x", "nan", 0, 1);
}

Test(cli, strerror_speaks_the_messages_language)
{
    cr_assert_str_eq(cli_strerror(ENOENT), strerror(ENOENT));
    cli_set_lang(1);
    cr_assert_str_eq(cli_strerror(ENOENT), "没有那个文件或目录");
    cr_assert_str_eq(cli_strerror(EACCES), "权限不够");
    cr_assert_str_eq(cli_strerror(EISDIR), "是一个目录");
    cr_assert_str_eq(cli_strerror(ENOTDIR), "不是目录");
    /* an error outside the table keeps strerror's text */
    cr_assert_str_eq(cli_strerror(EXDEV), strerror(EXDEV));
    cli_set_lang(0);
    cr_assert_str_eq(cli_strerror(ENOENT), strerror(ENOENT));
}

Test(memory, xcalloc_gives_zeroed_memory)
{
    double *p = xcalloc(1000, sizeof *p);
    for (int i = 0; i < 1000; i++)
        cr_assert_eq(p[i], 0.0);
    free(p);
}

Test(memory, xcalloc_exits_1_when_the_request_cannot_be_met, .exit_code = 1)
{
    /* count * size overflows size_t: calloc must refuse, xcalloc exits */
    xcalloc(SIZE_MAX / 2, 4);
}
