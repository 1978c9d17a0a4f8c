/* exitcodes.h - the exit codes every speedlab program returns.
 *
 * One definition, shared by the bench, the runner, the tests and the scripts
 * (scripts repeat the numbers; tests/CMakeLists.txt checks them end to end).
 */
#ifndef SPEEDLAB_EXITCODES_H
#define SPEEDLAB_EXITCODES_H

enum sl_exit {
    SL_EXIT_OK = 0,          /* everything ran and validated */
    SL_EXIT_RUNTIME = 1,     /* runtime or I/O failure */
    SL_EXIT_USAGE = 2,       /* bad arguments or environment: nothing measured */
    SL_EXIT_INVALID = 3,     /* a variant failed validation (flagged, not plotted) */
    SL_EXIT_MISSING = 4      /* a capability explicitly asked for is missing */
};

#endif
