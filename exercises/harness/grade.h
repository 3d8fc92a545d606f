/* exercises/harness/grade.h: what an exercise's checks.c uses.
 *
 * A check is a function declared with CHECK(name) { ... }.  It calls the
 * student's function on inputs it prepared, then hands what came out to
 * expect_*().  Every check runs in its own sandboxed process.  In the
 * student's run (`checks --emit FD ...`) expect_*() decide nothing: they
 * write the actual values to the grader, which compares them with the
 * values the same check gives with the instructor's solution (run as
 * `checks --reference FD ...`, where expect_*() also compare with the
 * expected values written here, and the first that fails ends the check).
 * By hand (`checks NAME ATOL RTOL`) they compare and the program says PASS
 * or FAIL.  So: give expect_*() the values the student's function computed;
 * the expected arguments guard the solution.  The student's code may crash,
 * loop or exit: the grader notices that.
 *
 * Buffers handed to the student's function should come from grade_doubles()
 * (outputs: exactly n doubles, filled with NaN, so an entry the student never
 * writes fails and a write one past the end is an AddressSanitizer report)
 * and grade_copy() (inputs: an exact-size copy on the heap).
 *
 * Expected values are worked out by hand in the check or computed by a
 * short, independent formula in the check itself; never from the reference
 * solution.
 *
 * The student's program never holds them.  The grader compiles checks.c
 * twice: as it is, for the reference run, and with GRADE_EMIT defined, for
 * the student's program.  With GRADE_EMIT the expect_*() below drop their
 * expected argument unevaluated, and GRADE_REFERENCE(...) drops the statement
 * it holds; so an expected value the student's function could otherwise read
 * (from a register, from the check's stack frame) is never computed.  Write
 * expected values inside the expect_*() call, or compute them in
 * GRADE_REFERENCE(...) (after calling the student's function, where that is
 * as easy), never into variables handed to the student's function.
 */
#ifndef GRADE_H
#define GRADE_H
#include <stddef.h>

typedef void (*grade_check_fn)(void);
void grade_register(const char *name, grade_check_fn fn);

#define CHECK(name)                                                        \
    static void check_##name(void);                                        \
    __attribute__((constructor)) static void register_##name(void)        \
    {                                                                      \
        grade_register(#name, check_##name);                               \
    }                                                                      \
    static void check_##name(void)

/* The tolerance of this run (from exercise.json, through the command line):
   |actual - expected| <= atol + rtol * |expected|. */
double grade_atol(void);
double grade_rtol(void);

/* Heap buffers of exactly n entries, freed by the harness after the check. */
double *grade_doubles(size_t n);                 /* filled with NaN */
double *grade_copy(const double *x, size_t n);   /* a copy of x[0..n) */
int *grade_ints(size_t n, int fill);
unsigned char *grade_bytes(size_t n, int fill);

/* Expectations: the first that fails ends the check with a message giving
   WHAT, the expected and the actual value.  WHAT may give its Chinese after
   "|zh:" ("the returned lse|zh:返回的 lse"). */
void expect_near(const char *what, double actual, double expected);
void expect_near_tol(const char *what, double actual, double expected,
                     double atol, double rtol);
void expect_doubles(const char *what, const double *actual,
                    const double *expected, size_t n);  /* reports what[i] */
void expect_matrix(const char *what, const double *actual,
                   const double *expected, int rows, int cols); /* what[i][j] */
void expect_same(const char *what, const double *actual,
                 const double *original, size_t n);     /* bit-for-bit unchanged */
void expect_int(const char *what, long long actual, long long expected);
/* A condition, with the message to show in English and in Chinese. */
void expect_true(int ok, const char *en, const char *zh);
/* Fail now with formatted messages (printf-style, the same arguments for both). */
void grade_fail(const char *fmt_en, const char *fmt_zh, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 3), format(printf, 2, 3)))
#endif
    ;

/* Random inputs for larger checks: a fixed seed gives the same data everywhere. */
void grade_random(double *x, size_t n, unsigned long seed, double lo, double hi);

/* The student's program (the grader defines GRADE_EMIT when it builds
   checks.c for it): the expected values are not computed at all, and the
   program refuses to run except as the student's run (--emit). */
void grade_emit_only(void);
#ifdef GRADE_EMIT
#define expect_near(w, a, e) (expect_near)((w), (a), 0.0)
#define expect_near_tol(w, a, e, at, rt) (expect_near_tol)((w), (a), 0.0, (at), (rt))
#define expect_doubles(w, a, e, n) (expect_doubles)((w), (a), NULL, (n))
#define expect_matrix(w, a, e, r, c) (expect_matrix)((w), (a), NULL, (r), (c))
#define expect_int(w, a, e) (expect_int)((w), (a), 0)
#define GRADE_REFERENCE(...) ((void)0)
__attribute__((constructor)) static void grade_emit_build_(void)
{
    grade_emit_only();
}
#else
#define GRADE_REFERENCE(...) __VA_ARGS__
#endif

#endif
