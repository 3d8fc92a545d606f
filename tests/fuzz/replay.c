/* tests/fuzz/replay.c: run a fuzz target over saved inputs without libFuzzer.
 *
 *   replay-TARGET FILE|DIR...
 *
 * Feeds every file (every file in each DIR) to LLVMFuzzerTestOneInput once,
 * as libFuzzer would.  Built with ASan and UBSan, so a regression input that
 * crashed the target crashes this program; it prints how many it ran. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static long ran;

static void run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f && errno == ENOENT)
        return;                             /* gone since the listing: make fuzz */
    if (!f) {
        perror(path);
        exit(2);
    }
    uint8_t *buf = NULL;
    size_t size = 0, cap = 0, n;
    do {
        if (size == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 4096)))
            abort();
        n = fread(buf + size, 1, cap - size, f);
        size += n;
    } while (n > 0);
    fclose(f);
    fprintf(stderr, "replay: %s\n", path);  /* names the input if it crashes */
    LLVMFuzzerTestOneInput(buf, size);
    free(buf);
    ran++;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
    char **paths = calloc((size_t)argc, sizeof *paths);
    for (int i = 1; i < argc; i++)          /* absolute: the target may chdir */
        paths[i] = realpath(argv[i], NULL);
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (!paths[i] || stat(paths[i], &st) != 0)
            continue;                       /* a target may have no inputs yet */
        if (!S_ISDIR(st.st_mode)) {
            run_file(paths[i]);
            continue;
        }
        struct dirent **names;
        int n = scandir(paths[i], &names, NULL, by_name);
        for (int k = 0; k < n; k++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", paths[i], names[k]->d_name);
            if (names[k]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode))
                run_file(path);
            free(names[k]);
        }
        free(names);
    }
    for (int i = 1; i < argc; i++)
        free(paths[i]);
    free(paths);
    printf("replayed %ld inputs\n", ran);
    return 0;
}
