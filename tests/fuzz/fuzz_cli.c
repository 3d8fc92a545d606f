/* tests/fuzz/fuzz_cli.c: fuzz one chapter program's command line.
 *
 * Generic over the programs: the Makefile compiles the program's source with
 * -Dmain=program_main and links it with this file, PROGRAM_NAME naming it.
 * The input is the argument list, one argument per line (at most MAX_ARGS).
 * The run happens in tests/fuzz/fixtures/ ($FUZZ_FIXTURES if set), whose small matrix files (x, y, r,
 * m, p, w, t, ...) the arguments can name; "-" reads a small matrix on stdin.
 * An empty argument list (the demo) is skipped: memcheck runs the demos.
 *
 * Found bugs: a sanitizer report, an exit status other than 0 and 2, or a
 * status 2 with output on stdout or not exactly one line on stderr.
 */
#include "sandbox.h"
#include <getopt.h>
#include <fcntl.h>
#include <unistd.h>

#ifndef PROGRAM_NAME
#error "compile with -DPROGRAM_NAME=\"ch02-attention\" (the Makefile does)"
#endif
#ifndef FIXTURE_DIR
#error "compile with -DFIXTURE_DIR=\"/path/to/tests/fuzz/fixtures\""
#endif

enum { MAX_ARGS = 32 };

int program_main(int argc, char **argv);

typedef struct {
    int argc;
    char **argv;
} Args;

static int call_main(void *p)
{
    Args *a = p;
    optind = 0;                 /* glibc: 0 restarts getopt from scratch */
    opterr = 1;
    return program_main(a->argc, a->argv);
}

/* Run in the fixtures, then come back (libFuzzer's paths are relative). */
static void enter_fixtures(int enter)
{
    static int home = -1;
    const char *dir = getenv("FUZZ_FIXTURES");     /* tools/fuzz.sh: a copy */
    if (!dir)
        dir = FIXTURE_DIR;
    if (home < 0 && (home = open(".", O_RDONLY | O_DIRECTORY)) < 0)
        abort();
    if (enter ? chdir(dir) : fchdir(home)) {
        perror(dir);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    memcpy(text, data, size);
    text[size] = '\0';
    argv[argc++] = (char *)PROGRAM_NAME;
    for (char *s = text, *nl; argc <= MAX_ARGS && s < text + size; s = nl + 1) {
        nl = memchr(s, '\n', (size_t)(text + size - s));
        if (!nl)
            nl = text + size;
        *nl = '\0';
        argv[argc++] = s;
    }
    argv[argc] = NULL;
    if (argc > 1) {
        /* argv as main gets it: the program may permute (getopt does) */
        char *copy[MAX_ARGS + 2];
        memcpy(copy, argv, sizeof copy);
        Args a = { argc, copy };
        enter_fixtures(1);
        SandboxResult r = sandbox_run(call_main, &a, "2 3\n1 2 3\n4 5 6\n");
        enter_fixtures(0);
        sandbox_check(&r, PROGRAM_NAME);
    }
    free(text);
    return 0;
}
