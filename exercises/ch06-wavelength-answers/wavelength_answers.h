/* Exercise 6.1: numeric answers.  Do not edit: the grader uses its own copy
   of this header. */
#ifndef EX_WAVELENGTH_ANSWERS_H
#define EX_WAVELENGTH_ANSWERS_H

/* d_model = 512 in the positional encoding, equation (15): pair i has the
   angular frequency omega_i = 10000^(-2i/d_model) and the wavelength
   2 pi / omega_i, measured in positions.  Each answer to four significant digits (e.g. 1.234, or
   1.234e5 for 123400):
   (a) the shortest wavelength (i = 0);
   (b) the longest wavelength (i = 255);
   (c) the factor by which (b) is shorter than the paper's bound
   10000 * 2 pi, i.e. 10000 * 2 pi / (b). */
double answer_shortest_wavelength(void);
double answer_longest_wavelength(void);
double answer_bound_factor(void);

#endif
