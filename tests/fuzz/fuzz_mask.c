/* tests/fuzz/fuzz_mask.c: fuzz Chapter 4's mask reader, mask_from_options
 * (and through it mask_load), as the options --mask and --key-padding use it.
 *
 * Input: byte 0 chooses what each option names (bits 0-1 for --mask, 2-3 for
 * --key-padding: not given, "causal", file A, file B); bytes 1 and 2 give
 * s_Q and s_K (1 to 8); the rest is file A, then after the first NUL byte
 * file B.  The target computes the mask it expects independently (from the
 * rules in mask.h, reading the files with mat_read) and checks that
 * mask_from_options returns exactly that, or fails with status 2 and one
 * line exactly when the expectation says the options are bad.
 */
#include "sandbox.h"
#include "core.h"
#include "mask.h"
#include <unistd.h>

typedef struct {
    const char *mask_arg, *kp_arg;
    int s_q, s_k;
    unsigned char *mask;
} Call;

static int call(void *p)
{
    Call *c = p;
    c->mask = mask_from_options(c->mask_arg, c->kp_arg, c->s_q, c->s_k);
    return 0;
}

static char path[2][64];

static void write_file(const char *name, const uint8_t *data, size_t size)
{
    FILE *f = fopen(name, "w");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
}

/* The mask ARG names for an s_q x s_k mask, into want; 0 when ARG is bad. */
static int expect(unsigned char *want, const char *arg, int s_q, int s_k, int padding)
{
    if (strcmp(arg, "causal") == 0) {
        if (padding || s_q > s_k)
            return 0;
        for (int i = 0; i < s_q; i++)
            for (int j = 0; j < s_k; j++)
                want[i * s_k + j] = j <= i + s_k - s_q;
        return 1;
    }
    Matrix m;
    char err[256];
    int rows = padding ? 1 : s_q;
    if (mat_read(arg, &m, err, sizeof err) != 0)
        return 0;
    int ok = m.rows == rows && m.cols == s_k;
    for (int ij = 0; ok && ij < rows * s_k; ij++)
        ok = m.data[ij] == 0.0 || m.data[ij] == 1.0;
    for (int i = 0; ok && i < s_q; i++)
        for (int j = 0; j < s_k; j++)
            want[i * s_k + j] = m.data[(padding ? 0 : i) * s_k + j] == 1.0;
    mat_free(&m);
    return ok;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(path[0], sizeof path[0], "/tmp/fuzz-mask-%ld-A", (long)getpid());
    snprintf(path[1], sizeof path[1], "/tmp/fuzz-mask-%ld-B", (long)getpid());
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    if (!path[0][0])
        LLVMFuzzerInitialize(NULL, NULL);
    const uint8_t *a = data + 3, *end = data + size;
    const uint8_t *nul = memchr(a, '\0', (size_t)(end - a));
    write_file(path[0], a, (size_t)((nul ? nul : end) - a));
    write_file(path[1], nul ? nul + 1 : end, nul ? (size_t)(end - nul - 1) : 0);
    const char *names[4] = { NULL, "causal", path[0], path[1] };
    Call c = { names[data[0] & 3], names[(data[0] >> 2) & 3], 1 + data[1] % 8,
               1 + data[2] % 8, NULL };

    unsigned char want[64], pad[64];
    int ok = 1, any = c.mask_arg || c.kp_arg;
    if (c.mask_arg)
        ok = expect(want, c.mask_arg, c.s_q, c.s_k, 0);
    if (ok && c.kp_arg) {
        ok = expect(pad, c.kp_arg, c.s_q, c.s_k, 1);
        for (int ij = 0; ok && ij < c.s_q * c.s_k; ij++)
            want[ij] = c.mask_arg ? want[ij] && pad[ij] : pad[ij];
    }

    SandboxResult r = sandbox_run(call, &c, "");
    sandbox_check(&r, "mask_from_options");
    if (ok != (r.status == 0)) {
        fprintf(stderr, "\n*** mask_from_options(%s, %s, %d, %d): expected %s, got "
                "status %d: %s\n", c.mask_arg ? c.mask_arg : "NULL",
                c.kp_arg ? c.kp_arg : "NULL", c.s_q, c.s_k, ok ? "a mask" : "an error",
                r.status, r.err);
        abort();
    }
    if (ok) {
        if (!any != !c.mask)
            abort();
        for (int ij = 0; any && ij < c.s_q * c.s_k; ij++)
            if (c.mask[ij] != want[ij]) {
                fprintf(stderr, "\n*** mask_from_options: entry %d is %d, expected %d\n",
                        ij, c.mask[ij], want[ij]);
                abort();
            }
        free(c.mask);
    }
    return 0;
}
