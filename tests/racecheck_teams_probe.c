/* racecheck_teams_probe.c - a race-free host teams region, built only in
 * the race checker's ThreadSanitizer tree and run under Archer by
 * scripts/racecheck.sh. Archer does not follow the fork of a host teams
 * region: LLVM 14's crashes in it, LLVM 18's reports the main thread's
 * writes of b and the teams' reads of them as a race. Where this program
 * is reported (or crashes), the gpu variants' host fallback cannot be
 * checked, and racecheck says so instead of reporting races that are
 * not there. */
int main(void)
{
    enum { N = 4096 };
    static double a[N], b[N];
    for (int rep = 0; rep < 3; rep++) {
        for (int i = 0; i < N; i++)
            b[i] = rep;
#pragma omp target teams distribute parallel for num_teams(N / 64) thread_limit(64) \
    map(tofrom: a) map(to: b)
        for (int i = 0; i < N; i++)
            a[i] = b[i] + 1.0;
    }
    return a[N - 1] == 3.0 ? 0 : 1;
}
