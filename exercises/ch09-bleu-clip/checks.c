/* Checks of Exercise 9.1.  Expected counts by hand, or from a reference
   that counts every n-gram in a table of all possible n-grams over a small
   alphabet (a different method from the usual pairwise comparison). */
#include "bleu_clip.h"
#include "grade.h"

static void run(const int *hyp, int hl, const int *ref, int rl, int n,
                long want_match, long want_total)
{
    int *h = grade_ints((size_t)hl + 1, 0), *r = grade_ints((size_t)rl + 1, 0);
    for (int i = 0; i < hl; i++)
        h[i] = hyp[i];
    for (int i = 0; i < rl; i++)
        r[i] = ref[i];
    long match = -7, total = -7;
    bleu_clipped_counts(h, hl, r, rl, n, &match, &total);
    expect_int("*match", match, want_match);
    expect_int("*total", total, want_total);
}

CHECK(unigrams_by_hand)
{
    /* "the the the the" against "the cat": the is clipped to 1 */
    int hyp[4] = { 0, 0, 0, 0 }, ref[2] = { 0, 1 };
    run(hyp, 4, ref, 2, 1, 1, 4);
}

CHECK(bigrams_by_hand)
{
    /* a b c d e against a b c d f: bigrams ab bc cd de, three in the reference */
    int hyp[5] = { 0, 1, 2, 3, 4 }, ref[5] = { 0, 1, 2, 3, 5 };
    run(hyp, 5, ref, 5, 2, 3, 4);
    /* a b a b a against a b: ab twice, ba twice; ab once in the reference */
    int h2[5] = { 0, 1, 0, 1, 0 }, r2[2] = { 0, 1 };
    run(h2, 5, r2, 2, 2, 1, 4);
    /* c a b against a b: only the last bigram, ab, is in the reference */
    int h3[3] = { 2, 0, 1 }, r3[2] = { 0, 1 };
    run(h3, 3, r3, 2, 2, 1, 2);
}

CHECK(shorter_than_n)
{
    int hyp[2] = { 3, 2 }, ref[6] = { 3, 2, 1, 0, 1, 2 };
    run(hyp, 2, ref, 6, 3, 0, 0);
    run(hyp, 0, ref, 6, 1, 0, 0);
}

CHECK(inputs_unchanged)
{
    int hyp[6] = { 2, 1, 2, 1, 0, 3 }, ref[5] = { 1, 2, 1, 3, 0 };
    int *h = grade_ints(6, 0), *r = grade_ints(5, 0);
    for (int i = 0; i < 6; i++)
        h[i] = hyp[i];
    for (int i = 0; i < 5; i++)
        r[i] = ref[i];
    long match, total;
    bleu_clipped_counts(h, 6, r, 5, 2, &match, &total);
    /* bigrams 21 12 21 10 03 against 12 21 13 30: 21 once, 12 once */
    expect_int("*match", match, 2);
    expect_int("*total", total, 5);
    int same = 1;
    for (int i = 0; i < 6; i++)
        same &= h[i] == hyp[i];
    for (int i = 0; i < 5; i++)
        same &= r[i] == ref[i];
    expect_true(same, "hyp and ref must not be changed",
                "不能修改 hyp 和 ref");
}

/* BEGIN HIDDEN */
enum { ALPHABET = 4 };

/* the n-gram starting at s as a number in base ALPHABET */
static long code(const int *s, int n)
{
    long c = 0;
    for (int i = 0; i < n; i++)
        c = c * ALPHABET + s[i];
    return c;
}

static void reference(const int *hyp, int hl, const int *ref, int rl, int n,
                      long *match, long *total)
{
    static int in_hyp[ALPHABET * ALPHABET * ALPHABET * ALPHABET];
    static int in_ref[ALPHABET * ALPHABET * ALPHABET * ALPHABET];
    long size = 1;
    for (int i = 0; i < n; i++)
        size *= ALPHABET;
    for (long g = 0; g < size; g++)
        in_hyp[g] = in_ref[g] = 0;
    *total = 0;
    for (int i = 0; i + n <= hl; i++, (*total)++)
        in_hyp[code(hyp + i, n)]++;
    for (int i = 0; i + n <= rl; i++)
        in_ref[code(ref + i, n)]++;
    *match = 0;
    for (long g = 0; g < size; g++)
        *match += in_hyp[g] < in_ref[g] ? in_hyp[g] : in_ref[g];
}

static unsigned long next_random(unsigned long *s)
{
    *s = *s * 6364136223846793005UL + 1442695040888963407UL;
    return *s >> 33;
}

CHECK(random_sentences)
{
    unsigned long s = 91;
    for (int trial = 0; trial < 200; trial++) {
        int hyp[20], ref[20], hl = 1 + (int)(next_random(&s) % 20),
            rl = 1 + (int)(next_random(&s) % 20), n = 1 + (int)(next_random(&s) % 4);
        for (int i = 0; i < hl; i++)
            hyp[i] = (int)(next_random(&s) % ALPHABET);
        for (int i = 0; i < rl; i++)
            ref[i] = (int)(next_random(&s) % ALPHABET);
        long m = 0, t = 0;
        GRADE_REFERENCE(reference(hyp, hl, ref, rl, n, &m, &t));
        run(hyp, hl, ref, rl, n, m, t);
    }
}

CHECK(orders_one_to_four)
{
    int hyp[7] = { 1, 2, 3, 1, 2, 3, 1 }, ref[3] = { 1, 2, 3 };
    long m = 0, t = 0;
    for (int n = 1; n <= 4; n++) {
        GRADE_REFERENCE(reference(hyp, 7, ref, 3, n, &m, &t));
        run(hyp, 7, ref, 3, n, m, t);
    }
}
/* END HIDDEN */
