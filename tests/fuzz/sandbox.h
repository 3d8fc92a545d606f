/* tests/fuzz/sandbox.h: run a piece of a chapter program inside a fuzz target.
 *
 * The programs report bad input the way the book promises: one line on
 * stderr, exit status 2, nothing on stdout.  A fuzz target calls them many
 * times in one process, so this header
 *   - turns exit() into a longjmp back to the target (the target is linked
 *     with -Wl,--wrap=exit; exit() outside sandbox_run behaves as usual);
 *   - points stdout and stderr at counting streams for the run, keeping the
 *     first bytes of stderr, so the target can check that contract;
 *   - gives the run a small fixed stdin ("-" names it in a matrix option).
 * Memory the program still held when it called exit() is not freed (a real
 * exit frees it), so the targets that exit run with -detect_leaks=0; the
 * memcheck target checks the programs' leaks on the paths that return.
 */
#ifndef FUZZ_SANDBOX_H
#define FUZZ_SANDBOX_H
#define _GNU_SOURCE
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef struct {
    int status;             /* exit status, or main's return value */
    int exited;             /* 1: through exit(), 0: returned */
    size_t out_bytes;       /* bytes written to stdout */
    size_t err_bytes, err_lines;
    char err[1024];         /* the first bytes written to stderr, NUL-ended */
    char err_last;          /* the last byte written to stderr */
} SandboxResult;

/* No leak check, not even at the end (see above). */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

static jmp_buf sandbox_escape;
static int sandbox_active;
static SandboxResult sandbox_result;

void __real_exit(int status) __attribute__((noreturn));
void __wrap_exit(int status) __attribute__((noreturn));
void __wrap_exit(int status)
{
    if (!sandbox_active)
        __real_exit(status);
    sandbox_active = 0;
    sandbox_result.status = status;
    sandbox_result.exited = 1;
    longjmp(sandbox_escape, 1);
}

static ssize_t sandbox_count_out(void *cookie, const char *buf, size_t n)
{
    (void)cookie, (void)buf;
    sandbox_result.out_bytes += n;
    return (ssize_t)n;
}

static ssize_t sandbox_count_err(void *cookie, const char *buf, size_t n)
{
    (void)cookie;
    SandboxResult *r = &sandbox_result;
    for (size_t i = 0; i < n; i++) {
        if (r->err_bytes + i + 1 < sizeof r->err)
            r->err[r->err_bytes + i] = buf[i];
        r->err_lines += buf[i] == '\n';
    }
    r->err_bytes += n;
    if (n)
        r->err_last = buf[n - 1];
    return (ssize_t)n;
}

/* Run fn(arg) as if it were a process: returns what exit() or fn returned. */
static SandboxResult sandbox_run(int (*fn)(void *), void *arg, const char *stdin_text)
{
    static FILE *out, *err;
    if (!out) {
        out = fopencookie(NULL, "w", (cookie_io_functions_t){ .write = sandbox_count_out });
        err = fopencookie(NULL, "w", (cookie_io_functions_t){ .write = sandbox_count_err });
        if (!out || !err)
            abort();
        setvbuf(err, NULL, _IONBF, 0);
    }
    FILE *in = fmemopen((void *)stdin_text, strlen(stdin_text), "r");
    if (!in)
        abort();
    FILE *saved[3] = { stdin, stdout, stderr };
    memset(&sandbox_result, 0, sizeof sandbox_result);
    stdin = in, stdout = out, stderr = err;
    if (setjmp(sandbox_escape) == 0) {
        sandbox_active = 1;
        sandbox_result.status = fn(arg);
        sandbox_active = 0;
    }
    fflush(out);
    fflush(err);
    stdin = saved[0], stdout = saved[1], stderr = saved[2];
    fclose(in);
    return sandbox_result;
}

/* The contract for bad input: status 2, one line on stderr, nothing on
   stdout.  Any status but 0 (success) and 2 (bad input) is a bug.  A run
   that succeeds may still warn on stderr, so only status 2 is held to the
   one-line rule. */
static void sandbox_check(const SandboxResult *r, const char *what)
{
    const char *problem = NULL;
    if (r->status != 0 && r->status != 2)
        problem = "exit status is neither 0 nor 2";
    else if (r->status == 2 && r->out_bytes != 0)
        problem = "bad input (status 2) but output on stdout";
    else if (r->status == 2 && (r->err_lines != 1 || r->err_last != '\n'))
        problem = "bad input (status 2) but not exactly one line on stderr";
    if (problem) {
        fprintf(stderr, "\n*** %s: %s (status %d, %zu bytes on stdout, %zu lines on "
                "stderr)\n*** stderr began: %.300s\n", what, problem, r->status,
                r->out_bytes, r->err_lines, r->err);
        abort();
    }
}
#endif
