/* test_answer.c - an answer computed elsewhere (lesson 8's numba rows),
 * checked by common/answer.h as a C variant's is: a right pi is ok, a pi
 * off in the tenth digit at 10^6 steps is wrong, and malformed lines are
 * refused with their reason (fields, kernel, size, mode, answer file).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "answer.h"
#include "check.h"

extern const sl_kernel *const solutions_kernels[];

/* The midpoint rule's own sum at n steps, as a right answer would be. */
static double midpoint_pi(long n)
{
    double h = 1.0 / (double)n, sum = 0.0;
    for (long i = 0; i < n; i++) {
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    return sum * h;
}

static int check(const char *line, char *out, int *ok, char *why)
{
    out[0] = why[0] = '\0';
    return sl_answer_check(solutions_kernels, line, out, 512, ok, why, 512);
}

int main(void)
{
    char line[512], out[512], why[512];
    int ok = -1;
    double pi = midpoint_pi(1000000);
    snprintf(line, sizeof line, "a1\tpi\t1000000\t0\t0\t1\texact\t%.17g\t0\t-\n", pi);
    CHECK_EQ_LL(check(line, out, &ok, why), 0);
    CHECK_EQ_LL(ok, 1);
    CHECK(strncmp(out, "a1\tok\t", 6) == 0);
    snprintf(line, sizeof line, "a2\tpi\t1000000\t0\t0\t1\texact\t%.17g\t0\t-\n", pi + 1e-9);
    CHECK_EQ_LL(check(line, out, &ok, why), 0);
    CHECK_EQ_LL(ok, 0);
    CHECK(strncmp(out, "a2\twrong\t", 9) == 0);
    static const struct { const char *line, *says; } bad[] = {
        { "a3 pi 1000\n", "expected 10 tab-separated fields" },
        { "a4 nokernel 10 0 0 1 exact 3.14 0 -\n", "unknown kernel 'nokernel'" },
        { "a5 pi 0 0 0 1 exact 3.14 0 -\n", "size 0 is outside 1.." },
        { "a6 pi 1000 0 0 1 statistical 3.14 0 -\n", "mode 'statistical' is not one pi has" },
        { "a7 pi 1000 0 0 1 fuzzy 3.14 0 -\n", "mode 'fuzzy' is not one pi has" },
        { "a8 mandelbrot 67 0 100 1 exact 0 0 /nonexistent/counts\n", "image '/nonexistent/counts'" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ_LL(check(bad[i].line, out, &ok, why), -1);
        CHECK_CONTAINS(why, bad[i].says);
    }
    return CHECK_DONE();
}
