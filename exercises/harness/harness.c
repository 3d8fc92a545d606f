/* exercises/harness/harness.c: main() of every exercise's check program.
 *
 *   checks --list                       the names of the checks, one a line
 *   checks NAME ATOL RTOL               run one check by hand: compare with the
 *                                       check's own expected values, say PASS/FAIL
 *   checks --emit FD NAME ATOL RTOL     the student's run: write every value the
 *                                       check hands to an expect_*() call to FD
 *   checks --reference FD NAME ATOL RTOL  the trusted run (the instructor's
 *                                       solution): write the values, and also
 *                                       compare them with the check's own
 *                                       expected values
 *
 * Why the verdict is not computed here: this program runs the student's code,
 * and anything in its address space (the harness included) is the student's
 * to rewrite.  So in the student's run the harness only WRITES what the
 * student's code produced; the grader (tools/grade.py, a separate process
 * that never loads student code) compares those values with the ones the same
 * checks produced with the instructor's solution, under the exercise's
 * tolerance.  Forging a pass means writing the solution's values, which the
 * student's code does not have for a hidden check.
 *
 * The stream on FD is a sequence of records, each a netstring
 * "LEN:PAYLOAD," whose PAYLOAD is itself a sequence of netstrings (the
 * fields): kind, label, then kind-specific fields (see emit_*).  Numbers are
 * C99 hexadecimal floats (%a): exact, and strictly parsed by the grader.  A
 * check that returns ends with an "end" record.
 */
#define _POSIX_C_SOURCE 200809L
#include "grade.h"
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the checks -------------------------------------------------------- */

#define MAX_CHECKS 256
static struct { const char *name; grade_check_fn fn; } checks[MAX_CHECKS];
static int nchecks;

void grade_register(const char *name, grade_check_fn fn)
{
    if (nchecks == MAX_CHECKS) {
        fprintf(stderr, "harness: more than %d checks\n", MAX_CHECKS);
        _exit(3);
    }
    checks[nchecks].name = name;
    checks[nchecks].fn = fn;
    nchecks++;
}

static double atol_ = 1e-9, rtol_ = 1e-9;
double grade_atol(void) { return atol_; }
double grade_rtol(void) { return rtol_; }

/* ---- buffers ----------------------------------------------------------- */

#define MAX_BUFFERS 1024
static void *buffers[MAX_BUFFERS];
static int nbuffers;

static void *track(void *p)
{
    if (!p || nbuffers == MAX_BUFFERS) {
        fprintf(stderr, "harness: cannot allocate a check's buffer\n");
        _exit(3);
    }
    return buffers[nbuffers++] = p;
}

double *grade_doubles(size_t n)
{
    double *x = track(malloc((n ? n : 1) * sizeof *x));
    for (size_t i = 0; i < n; i++)
        x[i] = NAN;
    return x;
}

double *grade_copy(const double *src, size_t n)
{
    double *x = track(malloc((n ? n : 1) * sizeof *x));
    if (n)
        memcpy(x, src, n * sizeof *x);
    return x;
}

int *grade_ints(size_t n, int fill)
{
    int *x = track(malloc((n ? n : 1) * sizeof *x));
    for (size_t i = 0; i < n; i++)
        x[i] = fill;
    return x;
}

unsigned char *grade_bytes(size_t n, int fill)
{
    unsigned char *x = track(malloc(n ? n : 1));
    memset(x, fill, n ? n : 1);
    return x;
}

void grade_random(double *x, size_t n, unsigned long seed, double lo, double hi)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);          /* SplitMix64 */
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        x[i] = lo + (hi - lo) * ((double)(z >> 11) / 9007199254740992.0);
    }
}

/* ---- the stream of values -------------------------------------------- */

enum { MODE_HAND, MODE_EMIT, MODE_REFERENCE };
static int mode = MODE_HAND;
static int out_fd = -1;
static const char *current;
static jmp_buf fail_jump;
static int failed;

/* A growable buffer for one record: fields are netstrings. */
static char *rec;
static size_t rec_len, rec_cap;

static void rec_put(const void *p, size_t n)
{
    if (rec_len + n > rec_cap) {
        size_t cap = rec_cap ? rec_cap : 4096;
        while (cap < rec_len + n)
            cap *= 2;
        char *r = realloc(rec, cap);
        if (!r) {
            fprintf(stderr, "harness: out of memory for a record\n");
            _exit(3);
        }
        rec = r;
        rec_cap = cap;
    }
    memcpy(rec + rec_len, p, n);
    rec_len += n;
}

static void field(const char *s, size_t n)
{
    char head[32];
    int h = snprintf(head, sizeof head, "%zu:", n);
    rec_put(head, (size_t)h);
    rec_put(s, n);
    rec_put(",", 1);
}

static void field_str(const char *s)
{
    field(s, strlen(s));
}

/* A field of n numbers, each "%a" (hexadecimal, exact), separated by spaces:
   built in place in the record buffer. */
static void field_doubles(const double *x, size_t n, size_t stride)
{
    size_t len = 0;
    char num[64];
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(num, sizeof num, "%a", x[i * stride]) + (i > 0);
    char head[32];
    int h = snprintf(head, sizeof head, "%zu:", len);
    rec_put(head, (size_t)h);
    for (size_t i = 0; i < n; i++) {
        int k = snprintf(num, sizeof num, i ? " %a" : "%a", x[i * stride]);
        rec_put(num, (size_t)k);
    }
    rec_put(",", 1);
}

static void record_begin(const char *kind, const char *what)
{
    rec_len = 0;
    field_str(kind);
    field_str(what ? what : "");
}

static void write_all(const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(out_fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(3);                 /* the grader stopped listening */
        p += w;
        n -= (size_t)w;
    }
}

static void record_end(void)
{
    if (out_fd < 0)
        return;
    char head[32];
    int h = snprintf(head, sizeof head, "%zu:", rec_len);
    write_all(head, (size_t)h);
    write_all(rec, rec_len);
    write_all(",", 1);
}

/* ---- by hand, and in the reference run: compare here too ---------------- */

static char verdict[4096];
static size_t vlen;

static void put(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (vlen < sizeof verdict) {
        int n = vsnprintf(verdict + vlen, sizeof verdict - vlen, fmt, ap);
        if (n > 0)
            vlen += (size_t)n;
    }
    va_end(ap);
    if (vlen >= sizeof verdict)
        vlen = sizeof verdict - 1;
}

static int near(double actual, double expected, double atol, double rtol)
{
    if (isnan(expected))
        return isnan(actual);
    if (isinf(expected))
        return actual == expected;
    return isfinite(actual) && fabs(actual - expected) <= atol + rtol * fabs(expected);
}

/* In the student's run nothing is decided here: only recorded. */
static int comparing(void)
{
    return mode != MODE_EMIT;
}

static _Noreturn void fail_now(void)
{
    failed = 1;
    longjmp(fail_jump, 1);
}

/* The check's own expected value is not met (by hand or by the reference
   solution): say which, and end the check. */
static void self_failure(const char *what, double actual, double expected)
{
    vlen = 0;
    put("%s: expected %.17g, got %.17g", what, expected, actual);
    if (mode == MODE_REFERENCE) {
        record_begin("reference-fails", what);
        field(verdict, vlen);
        record_end();
    }
    fail_now();
}

/* ---- expectations ------------------------------------------------------ */

static void emit_near(const char *what, const double *actual, size_t n, size_t stride,
                      int rows, int cols, double atol, double rtol)
{
    char shape[64], tol[128];
    record_begin("near", what);
    if (rows >= 0)
        snprintf(shape, sizeof shape, "%d %d", rows, cols);
    else
        snprintf(shape, sizeof shape, "%zu", n);
    field_str(shape);
    snprintf(tol, sizeof tol, "%a %a", atol, rtol);
    field_str(tol);
    field_doubles(actual, n, stride);
    record_end();
}

void expect_near_tol(const char *what, double actual, double expected,
                     double atol, double rtol)
{
    emit_near(what, &actual, 1, 1, -1, 0, atol, rtol);
    if (comparing() && !near(actual, expected, atol, rtol))
        self_failure(what, actual, expected);
}

void expect_near(const char *what, double actual, double expected)
{
    expect_near_tol(what, actual, expected, atol_, rtol_);
}

void expect_doubles(const char *what, const double *actual,
                    const double *expected, size_t n)
{
    emit_near(what, actual, n, 1, -1, 0, atol_, rtol_);
    if (!comparing())
        return;
    char label[160];
    for (size_t i = 0; i < n; i++)
        if (!near(actual[i], expected[i], atol_, rtol_)) {
            snprintf(label, sizeof label, "%s[%zu]", what, i);
            self_failure(label, actual[i], expected[i]);
        }
}

void expect_matrix(const char *what, const double *actual,
                   const double *expected, int rows, int cols)
{
    size_t n = rows > 0 && cols > 0 ? (size_t)rows * (size_t)cols : 0;
    emit_near(what, actual, n, 1, rows, cols, atol_, rtol_);
    if (!comparing())
        return;
    char label[160];
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            size_t ij = (size_t)i * (size_t)cols + (size_t)j;
            if (!near(actual[ij], expected[ij], atol_, rtol_)) {
                snprintf(label, sizeof label, "%s[%d][%d]", what, i, j);
                self_failure(label, actual[ij], expected[ij]);
            }
        }
}

void expect_same(const char *what, const double *actual, const double *original,
                 size_t n)
{
    char shape[32];
    record_begin("same", what);
    snprintf(shape, sizeof shape, "%zu", n);
    field_str(shape);
    field_doubles(actual, n, 1);
    record_end();
    if (!comparing())
        return;
    char label[160];
    for (size_t i = 0; i < n; i++)
        if (memcmp(&actual[i], &original[i], sizeof *actual) != 0) {
            snprintf(label, sizeof label, "%s[%zu] (must stay unchanged)", what, i);
            self_failure(label, actual[i], original[i]);
        }
}

void expect_int(const char *what, long long actual, long long expected)
{
    char num[32];
    record_begin("int", what);
    snprintf(num, sizeof num, "%lld", actual);
    field_str(num);
    record_end();
    if (comparing() && actual != expected)
        self_failure(what, (double)actual, (double)expected);
}

/* End the check on a failure it decided itself, with EN as the verdict; the
   reference run also tells the grader that the solution failed. */
static _Noreturn void stop_check(const char *en)
{
    vlen = 0;
    put("%s", en);
    if (mode == MODE_REFERENCE) {
        record_begin("reference-fails", "");
        field(verdict, vlen);
        record_end();
    }
    fail_now();
}

void expect_true(int ok, const char *en, const char *zh)
{
    record_begin("true", "");
    field_str(ok ? "1" : "0");
    field_str(en);
    field_str(zh);
    record_end();
    if (!ok && comparing())
        stop_check(en);
}

void grade_fail(const char *fmt_en, const char *fmt_zh, ...)
{
    char en[1024], zh[1024];
    va_list ap, ap2;
    va_start(ap, fmt_zh);
    va_copy(ap2, ap);
    vsnprintf(en, sizeof en, fmt_en, ap);
    vsnprintf(zh, sizeof zh, fmt_zh, ap2);
    va_end(ap2);
    va_end(ap);
    /* a failure the check itself decided: in the student's run it ends the
       check too (what follows may rely on what failed) */
    record_begin("fail", "");
    field_str(en);
    field_str(zh);
    record_end();
    stop_check(en);
}

/* ---- main -------------------------------------------------------------- */

static int parse_fd(const char *s)
{
    char *end;
    long fd = strtol(s, &end, 10);
    return (*s && !*end && fd >= 0 && fd < 1024) ? (int)fd : -1;
}

/* Set by the checks' object when it was built for the student's program
   (GRADE_EMIT in grade.h): it has no expected values to compare with. */
static int emit_only;

void grade_emit_only(void)
{
    emit_only = 1;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < nchecks; i++)
            printf("%s\n", checks[i].name);
        return 0;
    }
    int a = 1;
    if (argc == 6 && (strcmp(argv[1], "--emit") == 0 || strcmp(argv[1], "--reference") == 0)) {
        mode = argv[1][2] == 'e' ? MODE_EMIT : MODE_REFERENCE;
        out_fd = parse_fd(argv[2]);
        a = 3;
        if (out_fd < 0) {
            fprintf(stderr, "%s: bad file descriptor '%s'\n", argv[0], argv[2]);
            return 2;
        }
    } else if (argc != 4) {
        fprintf(stderr, "usage: %s --list | [--emit FD | --reference FD] NAME ATOL RTOL\n",
                argv[0]);
        return 2;
    }
    if (emit_only && mode != MODE_EMIT) {
        fprintf(stderr, "%s: built for the student's run only (no expected values): "
                "use --emit FD\n", argv[0]);
        return 2;
    }
    grade_check_fn fn = NULL;
    for (int i = 0; i < nchecks; i++)
        if (strcmp(checks[i].name, argv[a]) == 0) {
            fn = checks[i].fn;
            current = checks[i].name;
        }
    if (!fn) {
        fprintf(stderr, "%s: no check named '%s'\n", argv[0], argv[a]);
        return 2;
    }
    atol_ = strtod(argv[a + 1], NULL);
    rtol_ = strtod(argv[a + 2], NULL);
    if (setjmp(fail_jump) == 0)
        fn();
    fflush(stdout);                   /* the student's output comes first */
    fflush(stderr);
    if (mode != MODE_REFERENCE || !failed) {
        record_begin("end", current);
        record_end();
    }
    if (mode == MODE_HAND)
        printf("%s %s%s%.*s\n", failed ? "FAIL" : "PASS", current, failed ? ": " : "",
               (int)vlen, verdict);
    for (int i = 0; i < nbuffers; i++)
        free(buffers[i]);
    return 0;
}
