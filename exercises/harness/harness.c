/* exercises/harness/harness.c: main() of every exercise's check program.
 *
 *   checks --list                 the names of the checks, one a line
 *   checks NAME ATOL RTOL         run one check and report it to the grader
 *
 * How a result reaches the grader, and why the student's code cannot fake it:
 * the grader starts this program with GRADE_FD (a pipe's write end) and
 * GRADE_TOKEN (a fresh random secret) in the environment.  Before anything
 * else runs (a .preinit_array entry, earlier than every constructor) the
 * harness copies both, overwrites the strings in place and removes them from
 * the environment, so neither getenv() nor /proc/self/environ shows them to
 * the code under test.  After the check returns, the harness writes one line
 * "TOKEN {json}" to GRADE_FD.  The grader accepts a result only with the right
 * token, for the check it asked for, from a process that then exited with
 * status 0.  Printing "PASS", calling exit(0) in the middle of a check, or
 * crashing leaves no valid result, and the check fails.
 *
 * This file is compiled without sanitizers; checks.c and the student's file
 * are compiled with them.
 */
#define _POSIX_C_SOURCE 200809L
#include "grade.h"
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the secret, taken before any other code runs ---------------------- */

static char secret[80];
static int result_fd = -1;

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void wipe(char *s)
{
    for (volatile char *p = s; *p; p++)
        *p = 'x';
}

static void take_secret(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)argv;
    size_t out = 0;
    for (size_t i = 0; envp && envp[i]; i++) {
        char *e = envp[i];
        if (starts(e, "GRADE_TOKEN=")) {
            size_t n = strlen(e + 12);
            if (n < sizeof secret) {
                memcpy(secret, e + 12, n);
                secret[n] = '\0';
            }
            wipe(e);
        } else if (starts(e, "GRADE_FD=")) {
            result_fd = atoi(e + 9);
            wipe(e);
        } else {
            envp[out++] = e;
        }
    }
    if (envp)
        envp[out] = NULL;
}

__attribute__((section(".preinit_array"), used))
static void (*const grade_preinit)(int, char **, char **) = take_secret;

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

/* ---- the verdict, as one JSON object ------------------------------------ */

static char verdict[4096];
static size_t vlen;
static jmp_buf fail_jump;
static int failed;

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

static void put_string(const char *key, const char *s)
{
    put(",\"%s\":\"", key);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            put("\\%c", *p);
        else if (*p < 0x20)
            put("\\u%04x", *p);
        else
            put("%c", *p);
    }
    put("\"");
}

static void put_number(const char *key, double x)
{
    if (isnan(x))
        put(",\"%s\":\"nan\"", key);
    else if (isinf(x))
        put(",\"%s\":\"%s\"", key, x > 0 ? "inf" : "-inf");
    else
        put(",\"%s\":%.17g", key, x);
}

static const char *current;

static _Noreturn void fail_now(void)
{
    failed = 1;
    longjmp(fail_jump, 1);
}

static void begin_failure(const char *kind)
{
    vlen = 0;
    put("{\"check\":\"%s\",\"status\":\"fail\",\"kind\":\"%s\"", current, kind);
}

static int near(double actual, double expected, double atol, double rtol)
{
    if (isnan(expected))
        return isnan(actual);
    if (isinf(expected))
        return actual == expected;
    return isfinite(actual) && fabs(actual - expected) <= atol + rtol * fabs(expected);
}

static void value_failure(const char *what, double actual, double expected,
                          double atol, double rtol)
{
    begin_failure("value");
    put_string("what", what);
    put_number("expected", expected);
    put_number("actual", actual);
    put_number("atol", atol);
    put_number("rtol", rtol);
    put("}");
    fail_now();
}

void expect_near_tol(const char *what, double actual, double expected,
                     double atol, double rtol)
{
    if (!near(actual, expected, atol, rtol))
        value_failure(what, actual, expected, atol, rtol);
}

void expect_near(const char *what, double actual, double expected)
{
    expect_near_tol(what, actual, expected, atol_, rtol_);
}

void expect_doubles(const char *what, const double *actual,
                    const double *expected, size_t n)
{
    char label[160];
    for (size_t i = 0; i < n; i++)
        if (!near(actual[i], expected[i], atol_, rtol_)) {
            snprintf(label, sizeof label, "%s[%zu]", what, i);
            value_failure(label, actual[i], expected[i], atol_, rtol_);
        }
}

void expect_matrix(const char *what, const double *actual,
                   const double *expected, int rows, int cols)
{
    char label[160];
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            size_t ij = (size_t)i * (size_t)cols + (size_t)j;
            if (!near(actual[ij], expected[ij], atol_, rtol_)) {
                snprintf(label, sizeof label, "%s[%d][%d]", what, i, j);
                value_failure(label, actual[ij], expected[ij], atol_, rtol_);
            }
        }
}

void expect_same(const char *what, const double *actual, const double *original,
                 size_t n)
{
    char label[160];
    for (size_t i = 0; i < n; i++)
        if (memcmp(&actual[i], &original[i], sizeof *actual) != 0) {
            snprintf(label, sizeof label, "%s[%zu]", what, i);
            begin_failure("changed");
            put_string("what", label);
            put_number("expected", original[i]);
            put_number("actual", actual[i]);
            put("}");
            fail_now();
        }
}

void expect_int(const char *what, long actual, long expected)
{
    if (actual != expected) {
        begin_failure("int");
        put_string("what", what);
        put(",\"expected\":%ld,\"actual\":%ld}", expected, actual);
        fail_now();
    }
}

void expect_true(int ok, const char *en, const char *zh)
{
    if (!ok) {
        begin_failure("message");
        put_string("en", en);
        put_string("zh", zh);
        put("}");
        fail_now();
    }
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
    expect_true(0, en, zh);
}

/* ---- main -------------------------------------------------------------- */

static void report(void)
{
    if (!failed) {
        vlen = 0;
        put("{\"check\":\"%s\",\"status\":\"pass\"}", current);
    }
    if (result_fd < 0 || !secret[0])
        return;                       /* run by hand: nothing to report to */
    char line[sizeof verdict + sizeof secret + 4];
    int n = snprintf(line, sizeof line, "%s %.*s\n", secret, (int)vlen, verdict);
    for (int off = 0; n > 0 && off < n;) {
        ssize_t w = write(result_fd, line + off, (size_t)(n - off));
        if (w <= 0)
            break;
        off += (int)w;
    }
    close(result_fd);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < nchecks; i++)
            printf("%s\n", checks[i].name);
        return 0;
    }
    if (argc != 4) {
        fprintf(stderr, "usage: %s --list | NAME ATOL RTOL\n", argv[0]);
        return 2;
    }
    grade_check_fn fn = NULL;
    for (int i = 0; i < nchecks; i++)
        if (strcmp(checks[i].name, argv[1]) == 0) {
            fn = checks[i].fn;
            current = checks[i].name;
        }
    if (!fn) {
        fprintf(stderr, "%s: no check named '%s'\n", argv[0], argv[1]);
        return 2;
    }
    atol_ = strtod(argv[2], NULL);
    rtol_ = strtod(argv[3], NULL);
    if (setjmp(fail_jump) == 0)
        fn();
    fflush(stdout);                   /* the student's output comes first */
    report();
    if (result_fd < 0 || !secret[0])   /* run by hand: say it on stdout */
        printf("%s %.*s\n", failed ? "FAIL" : "PASS", (int)vlen, verdict);
    for (int i = 0; i < nbuffers; i++)
        free(buffers[i]);
    return 0;
}
