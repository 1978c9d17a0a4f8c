/* test_table.c - the one CSV reader (bench/run/table.c): what the kit
 * writes reads back exactly, and what is broken is refused with the file,
 * the line, the column and the value. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "table.h"

static char path[64], why[512];

/* Write text to a fresh temporary file (path) and read it. */
static int read_text(sl_table *t, const char *text)
{
    snprintf(path, sizeof path, "/tmp/speedlab-table.XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f == NULL)
        return -2;
    fputs(text, f);
    fclose(f);
    why[0] = '\0';
    int rc = sl_table_read(t, path, why, sizeof why);
    unlink(path);
    return rc;
}

static void test_reads_back(void)
{
    sl_table t;
    /* Comments (a fragment's context), CRLF, a blank line, quotes. */
    CHECK(read_text(&t, "# mpi_library: Open MPI\r\n#rank 0: vm\n"
                        "tree,kernel,note\r\n"
                        "solutions,pi,\"a, b \"\"c\"\"\"\r\n\r\n"
                        "numba,mandelbrot,\n") == 0);
    CHECK_EQ_LL(t.ncols, 3);
    CHECK_EQ_LL(t.nrows, 2);
    CHECK_EQ_LL(t.header_line, 3);
    CHECK_EQ_LL(t.line[1], 6);
    CHECK(strcmp(sl_table_text(&t, 0, 2), "a, b \"c\"") == 0);
    CHECK(strcmp(sl_table_text(&t, 1, 1), "mandelbrot") == 0);
    CHECK(strcmp(sl_table_text(&t, 1, 2), "") == 0);
    CHECK(strcmp(t.comments, "mpi_library: Open MPI\nrank 0: vm\n") == 0);
    CHECK_EQ_LL(sl_table_col(&t, "kernel"), 1);
    CHECK_EQ_LL(sl_table_col(&t, "ranks"), -1);
    CHECK(strcmp(sl_table_text(&t, 0, -1), "") == 0);
    sl_table_free(&t);
    /* No newline at the end of the file. */
    CHECK(read_text(&t, "a,b\n1,2") == 0);
    CHECK_EQ_LL(t.nrows, 1);
    CHECK(strcmp(sl_table_text(&t, 0, 1), "2") == 0);
    sl_table_free(&t);
}

static void test_numbers(void)
{
    sl_table t;
    CHECK(read_text(&t, "median_s,reps,others\n0.25,6,\n1e400,x6,-0.5\n,+3,nan\n") == 0);
    double d = 0;
    long long n = 0;
    CHECK(sl_table_real(&t, 0, 0, 0, 0, &d, why, sizeof why) == 0 && d == 0.25);
    CHECK(sl_table_int(&t, 0, 1, 0, 0, &n, why, sizeof why) == 0 && n == 6);
    CHECK(sl_table_real(&t, 0, 2, 1, -1.0, &d, why, sizeof why) == 0 && d == -1.0);
    CHECK(sl_table_real(&t, 0, 2, 0, 0, &d, why, sizeof why) == -1);
    CHECK_CONTAINS(why, "line 2: others '' is not a number");
    CHECK(sl_table_real(&t, 1, 0, 0, 0, &d, why, sizeof why) == -1);
    CHECK_CONTAINS(why, "line 3: median_s '1e400' is not a finite number");
    CHECK(sl_table_int(&t, 1, 1, 0, 0, &n, why, sizeof why) == -1);
    CHECK_CONTAINS(why, "reps 'x6' is not a whole number");
    CHECK(sl_table_real(&t, 1, 2, 0, 0, &d, why, sizeof why) == 0 && d == -0.5);
    CHECK(sl_table_int(&t, 2, 1, 0, 0, &n, why, sizeof why) == -1);
    CHECK(sl_table_real(&t, 2, 2, 0, 0, &d, why, sizeof why) == -1);
    CHECK_CONTAINS(why, "line 4: others 'nan' is not a finite number");
    sl_table_free(&t);
}

static void test_refuses(void)
{
    sl_table t;
    CHECK(read_text(&t, "a,b\n1,\"open\n2,3\n") == -1);
    CHECK_CONTAINS(why, "line 2: a quote is not closed");
    CHECK(read_text(&t, "a,b\n1,2,3\n") == -1);
    CHECK_CONTAINS(why, "line 2: 3 fields, but the header has 2");
    CHECK(read_text(&t, "a,b\n1\n") == -1);
    CHECK_CONTAINS(why, "line 2: 1 fields, but the header has 2");
    CHECK(read_text(&t, "# only a comment\n\n") == -1);
    CHECK_CONTAINS(why, "is empty: no header line");
    CHECK(sl_table_read(&t, "/nonexistent/results.csv", why, sizeof why) == -1);
    CHECK_CONTAINS(why, "cannot read '/nonexistent/results.csv'");
    CHECK(read_text(&t, "tree,kernel\nx,y\n") == 0);
    static const char *const need[] = { "kernel", "seconds" };
    int col[2];
    CHECK(sl_table_need(&t, "a samples.csv", need, 2, col, why, sizeof why) == -1);
    CHECK_CONTAINS(why, "line 1: no column 'seconds': not a samples.csv");
    sl_table_free(&t);
}

int main(void)
{
    test_reads_back();
    test_numbers();
    test_refuses();
    return CHECK_DONE();
}
