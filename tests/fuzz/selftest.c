/* tests/fuzz/selftest.c: a program that breaks the command-line contract on
 * purpose, so tests/test_fuzz_regress.py can check that the cli harness
 * (fuzz_cli.c, sandbox.h) notices.  Not a chapter program. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (strcmp(what, "--stdout") == 0) {            /* output, then bad input */
        printf("half a result\n");
        fprintf(stderr, "selftest: bad input\n");
        exit(2);
    }
    if (strcmp(what, "--two-lines") == 0) {
        fprintf(stderr, "selftest: bad input\nand more\n");
        exit(2);
    }
    if (strcmp(what, "--status") == 0)
        exit(3);
    if (strcmp(what, "--bad") == 0) {               /* what the contract wants */
        fprintf(stderr, "selftest: --bad: bad input\n");
        exit(2);
    }
    printf("fine\n");
    return 0;
}
