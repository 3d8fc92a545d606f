/* tests/fuzz/fuzz_mat_read.c: fuzz the matrix-file reader, mat_read (core.c).
 *
 * The input is the file.  mat_read never exits on bad input: it returns -1
 * and an error message, so this target also runs with leak detection.
 * Besides sanitizer reports, it checks mat_read's contract:
 *   success: a positive shape within MAT_MAX_ENTRIES, finite entries, and
 *            the numbers of the file's data lines, in order;
 *   failure: *m zeroed, and one line of message naming the file and a line
 *            number that the file has (or one past its end).
 */
#define _GNU_SOURCE
#include "core.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...) (fprintf(stderr, "\n*** mat_read: " __VA_ARGS__), fputc('\n', stderr), abort())

/* An independent reading of the numbers: every token outside comments, as
   strtod sees it.  Returns how many there are (at most cap are stored). */
static size_t all_numbers(const char *text, double *x, size_t cap)
{
    size_t n = 0;
    int comment = 0;
    for (const char *p = text; *p;) {
        if (*p == '\n') {
            comment = 0, p++;
            continue;
        }
        if (comment || strchr(" \t\r", *p)) {
            p++;
            continue;
        }
        if (*p == '#') {
            comment = 1, p++;
            continue;
        }
        char *end;
        double v = strtod(p, &end);
        if (end == p)
            return (size_t)-1;
        if (n < cap)
            x[n] = v;
        n++;
        p = end;
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), err[256];
    memcpy(text, data, size);
    text[size] = '\0';
    FILE *saved = stdin;
    stdin = size ? fmemopen(text, size, "r") : fopen("/dev/null", "r");
    if (!stdin)
        abort();
    Matrix m;
    err[0] = '\0';
    int rc = mat_read("-", &m, err, sizeof err);
    fclose(stdin);
    stdin = saved;

    long lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    if (rc == 0) {
        if (m.rows <= 0 || m.cols <= 0 || !m.data ||
            (long)m.rows * m.cols > MAT_MAX_ENTRIES)
            FAIL("success with a %d x %d matrix", m.rows, m.cols);
        /* a file with a NUL byte reads as its text up to it per line; the
           independent check below reads C strings, so it skips those */
        if (!memchr(data, '\0', size)) {
            size_t n = (size_t)m.rows * m.cols;
            double *x = malloc((n + 2) * sizeof *x);
            size_t got = all_numbers(text, x, n + 2);
            if (got != n + 2 || x[0] != m.rows || x[1] != m.cols)
                FAIL("success with %d x %d, but the file holds %zu numbers",
                     m.rows, m.cols, got);
            for (size_t ij = 0; ij < n; ij++)
                if (!isfinite(m.data[ij]) || m.data[ij] != x[ij + 2])
                    FAIL("entry %zu is %g, the file says %g", ij, m.data[ij], x[ij + 2]);
            free(x);
        }
        mat_free(&m);
    } else {
        long at;
        if (m.rows || m.cols || m.data)
            FAIL("failure left a %d x %d matrix behind", m.rows, m.cols);
        if (strncmp(err, "<stdin>:", 8) != 0 || sscanf(err + 8, "%ld:", &at) != 1 ||
            at < 1 || at > lines + 1 || strchr(err, '\n'))
            FAIL("bad message for a %ld-line file: '%s'", lines, err);
    }
    free(text);
    return 0;
}
