/* Checks of Exercise 6.1: each wavelength 2 pi / omega_i computed here
   from omega_i = 10000^(-2i/512), in long double; an answer to four
   significant digits is within half a unit of its fourth digit (the
   tolerance of each check, in exercise.json). */
#include "grade.h"
#include "wavelength_answers.h"
#include <math.h>

static long double wavelength(int i)
{
    const long double two_pi = 6.283185307179586476925286766559L;
    return two_pi / powl(10000.0L, -2.0L * i / 512);
}

CHECK(shortest_wavelength)
{
    expect_near("(a) wavelength of pair i = 0|zh:（a）第 i = 0 对的波长", answer_shortest_wavelength(),
                (double)wavelength(0));
}

CHECK(longest_wavelength)
{
    expect_near("(b) wavelength of pair i = 255|zh:（b）第 i = 255 对的波长", answer_longest_wavelength(),
                (double)wavelength(255));
}

CHECK(factor_below_the_bound)
{
    long double bound = 10000.0L * 6.283185307179586476925286766559L;
    expect_near("(c) 10000 * 2 pi / (b)", answer_bound_factor(),
                (double)(bound / wavelength(255)));
}
