/* Exercise 6.5 · 练习 6.5: find and fix the bug.  找出并修正错误。
 *
 * This table of sinusoids starts out right: its row 0 and its column 0 are
 * those of positional_encoding.  But the section on relative positions
 * fails with it: PE(pos + k) is not a rotation of PE(pos).  Find the faulty
 * line, say why it is wrong, and fix it; change as little as you can.
 * (sinusoids.h says what the function must do.)
 * 这张正弦表开头是对的：第 0 行和第 0 列都与 positional_encoding 相同。
 * 但“相对位置”一节的结论在它上面不成立：PE(pos + k) 不是 PE(pos) 的旋转。
 * 找出出错的那一行，说明错在哪里，并改正；改动越少越好。
 * Grade it with:  make grade EX=ch06-fix-positional-encoding
 */
#include "sinusoids.h"
#include <math.h>
#include <stddef.h>

void sinusoids(double *pe, int rows, int d_model)
{
    for (int pos = 0; pos < rows; pos++)
        for (int j = 0; j < d_model; j++) {     /* column j: pair i = j / 2 */
            /* BEGIN FIX */
            double angle = pos / pow(10000.0, (double)(j - j % 2) / d_model);
            /* BROKEN */
            //~ double angle = pos / pow(10000.0, (double)j / d_model);
            /* END FIX */
            pe[(size_t)pos * d_model + j] = j % 2 == 0 ? sin(angle) : cos(angle);
        }
}
