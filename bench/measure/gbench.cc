// gbench.cc - the C API of gbench.h, over Google Benchmark 1.7.1 to 1.9
// (Debian 12, Ubuntu 24.04, Debian 13).
//
// What to notice: a display reporter that forwards each repetition to C
// instead of printing; the JSON file reporter is Google Benchmark's own,
// enabled by --benchmark_out (the C side passes a temporary name and renames
// it when the run is complete).
#include "gbench.h"

#include "atomic_file.h"

#include <benchmark/benchmark.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>


struct gb_state {
    benchmark::State *st;
};

namespace {

// The --benchmark_out file, checked before each run.
std::string out_path;

// A run's error message, or nullptr when it timed. Google Benchmark 1.8
// renamed Run's error_occurred and error_message to skipped (not skipped,
// skipped with a message, with an error) and skip_message; the overload
// that compiles for the installed version is chosen (the int one first).
template <class Run>
auto run_error(const Run &run, int)
    -> decltype((void)run.skipped, (void)run.skip_message, static_cast<const char *>(nullptr))
{
    return static_cast<int>(run.skipped) != 0 ? run.skip_message.c_str() : nullptr;
}
template <class Run>
auto run_error(const Run &run, long)
    -> decltype((void)run.error_occurred, (void)run.error_message, static_cast<const char *>(nullptr))
{
    return run.error_occurred ? run.error_message.c_str() : nullptr;
}

// Forwards iteration runs to a C callback; prints nothing itself.
class ForwardingReporter : public benchmark::BenchmarkReporter {
  public:
    ForwardingReporter(gb_on_result *cb, void *ctx) : cb_(cb), ctx_(ctx) {}
    bool ReportContext(const Context &) override { return true; }
    void ReportRuns(const std::vector<Run> &runs) override
    {
        for (const Run &run : runs) {
            if (run.run_type != Run::RT_Iteration)
                continue;
            // The registered name, without the /repeats:N/real_time decorations.
            const std::string &name = run.run_name.function_name;
            gb_result r;
            r.name = name.c_str();
            r.repetition = run.repetition_index < 0 ? 0 : run.repetition_index;
            r.iterations = static_cast<int64_t>(run.iterations);
            r.seconds_per_call = run.iterations > 0
                ? run.real_accumulated_time / static_cast<double>(run.iterations)
                : 0.0;
            const char *error = run_error(run, 0);
            r.error = error != nullptr;
            r.error_message = error != nullptr ? error : "";
            cb_(&r, ctx_);
        }
    }

  private:
    gb_on_result *cb_;
    void *ctx_;
};

// The Google Benchmark flags the kit honours. The others would be
// accepted by the library and then ignored (the kit sets repetitions,
// times and warm-up per benchmark), or would publish a run with nothing
// timed (--benchmark_list_tests, --benchmark_report_aggregates_only): they
// are refused, with the kit's own option where there is one.
int check_flag(const char *arg, char *why, size_t whylen)
{
    static const struct { const char *flag, *instead; } refused[] = {
        {"--benchmark_repetitions", "use --reps N"},
        {"--benchmark_min_time", "use --min-time S"},
        {"--benchmark_min_warmup_time", "the warm-up lasts --min-time S"},
        {"--benchmark_list_tests", "--verbose lists every configuration"},
        {"--benchmark_report_aggregates_only", "every repetition is kept: the interval needs them"},
        {"--benchmark_display_aggregates_only", "every repetition is kept: the interval needs them"},
        {"--benchmark_format", "the table is the kit's own; the JSON goes into the run folder"},
    };
    auto value_of = [&](const char *flag) -> const char * {
        size_t n = std::strlen(flag);
        if (std::strncmp(arg, flag, n) == 0 && arg[n] == '=')
            return arg + n + 1;
        return nullptr;
    };
    if (value_of("--benchmark_filter") || value_of("--benchmark_context") ||
        value_of("--benchmark_out"))
        return 0;
    if (const char *v = value_of("--benchmark_out_format")) {
        if (std::strcmp(v, "json") == 0)
            return 0;
        std::snprintf(why, whylen, "--benchmark_out_format: '%s': the run folder's file is JSON", v);
        return -1;
    }
    if (const char *v = value_of("--benchmark_enable_random_interleaving")) {
        if (std::strcmp(v, "true") == 0 || std::strcmp(v, "false") == 0)
            return 0;
        std::snprintf(why, whylen, "--benchmark_enable_random_interleaving: '%s' is not true or "
                      "false", v);
        return -1;
    }
    size_t name = std::strcspn(arg, "=");
    for (const auto &r : refused)
        if (std::strlen(r.flag) == name && std::strncmp(arg, r.flag, name) == 0) {
            std::snprintf(why, whylen, "%.*s is not honoured here: %s", (int)name, arg, r.instead);
            return -1;
        }
    std::snprintf(why, whylen, "%.*s is not one the kit can honour (it takes --benchmark_filter, "
                  "--benchmark_context and --benchmark_enable_random_interleaving)",
                  (int)name, arg);
    return -1;
}

// Google Benchmark does not check its writes: a file cut short (a full
// disk, ulimit -f) would pass for its JSON. A complete one ends with '}'.
// Returns false with errno set (sl_write_failure_reason: ENOSPC, EFBIG or
// EIO).
bool json_complete(const char *path)
{
    std::FILE *f = std::fopen(path, "rb");
    long size = -1;
    int last = EOF;
    if (f != nullptr && std::fseek(f, 0, SEEK_END) == 0 && (size = std::ftell(f)) > 0) {
        long at = size;
        do {
            std::fseek(f, --at, SEEK_SET);
            last = std::fgetc(f);
        } while (at > 0 && (last == '\n' || last == ' '));
    }
    if (f != nullptr)
        std::fclose(f);
    if (last == '}')
        return true;
    errno = sl_write_failure_reason(path);
    return false;
}

}  // namespace

extern "C" {

gb_bench *gb_register(const char *name, gb_body *body, void *ctx)
{
    auto *b = benchmark::RegisterBenchmark(
        name, [body, ctx](benchmark::State &st) {
            gb_state s{&st};
            body(&s, ctx);
        });
    return reinterpret_cast<gb_bench *>(b);
}

static benchmark::internal::Benchmark *bench(gb_bench *b)
{
    return reinterpret_cast<benchmark::internal::Benchmark *>(b);
}

void gb_use_real_time(gb_bench *b) { bench(b)->UseRealTime(); }
void gb_repetitions(gb_bench *b, int n) { bench(b)->Repetitions(n); }
void gb_fixed_iterations(gb_bench *b, int64_t n)
{
    bench(b)->Iterations(static_cast<benchmark::IterationCount>(n));
}
void gb_use_manual_time(gb_bench *b) { bench(b)->UseManualTime(); }

int gb_keep_running(gb_state *s) { return s->st->KeepRunning() ? 1 : 0; }
int64_t gb_iterations(const gb_state *s)
{
    return static_cast<int64_t>(s->st->iterations());
}
void gb_set_items_processed(gb_state *s, double items)
{
    s->st->counters["items_per_second"] =
        benchmark::Counter(items, benchmark::Counter::kIsRate);
}
void gb_set_iteration_time(gb_state *s, double seconds)
{
    s->st->SetIterationTime(seconds);
}
void gb_skip_with_error(gb_state *s, const char *message)
{
    s->st->SkipWithError(message);
}
void gb_do_not_optimize(double value) { benchmark::DoNotOptimize(value); }

void gb_add_context(const char *key, const char *value)
{
    benchmark::AddCustomContext(key, value);
}

int gb_initialize(int *argc, char **argv, int *in_a_row, char *why, size_t whylen)
{
    static const char out_prefix[] = "--benchmark_out=";
    static const char interleave_prefix[] = "--benchmark_enable_random_interleaving=";
    if (in_a_row != nullptr)
        *in_a_row = 0;
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        if (check_flag(argv[i], why, whylen) != 0)
            return -1;
        if (std::strncmp(argv[i], out_prefix, sizeof out_prefix - 1) == 0)
            out_path = argv[i] + sizeof out_prefix - 1;
        // The order is the kit's (one benchmark a repetition, in cycles):
        // the flag chooses it, and Google Benchmark's own shuffle stays off.
        if (std::strncmp(argv[i], interleave_prefix, sizeof interleave_prefix - 1) == 0) {
            if (in_a_row != nullptr)
                *in_a_row = std::strcmp(argv[i] + sizeof interleave_prefix - 1, "false") == 0;
            continue;
        }
        argv[kept++] = argv[i];
    }
    *argc = kept;
    std::vector<char *> args(argv, argv + *argc);
    int n = static_cast<int>(args.size());
    args.push_back(nullptr);
    benchmark::Initialize(&n, args.data());
    // What Google Benchmark did not take stays in argv for the caller.
    for (int i = 0; i < n; i++)
        argv[i] = args[i];
    *argc = n;
    return 0;
}

int gb_run(gb_on_result *on_result, void *ctx)
{
    // Google Benchmark exits the process (status 1, "invalid file name")
    // when it cannot open its output file; a folder that stopped taking
    // writes must instead reach the caller, which says which file failed.
    if (!out_path.empty()) {
        std::FILE *probe = std::fopen(out_path.c_str(), "w");
        if (probe == nullptr)
            return -1;
        std::fclose(probe);
    }
    ForwardingReporter display(on_result, ctx);
    int ran = static_cast<int>(benchmark::RunSpecifiedBenchmarks(&display));
    // Nothing matched (a --benchmark_filter): no JSON to check; the caller
    // says nothing was timed.
    if (ran > 0 && !out_path.empty() && !json_complete(out_path.c_str()))
        return -1;
    return ran;
}

void gb_clear(void) { benchmark::ClearRegisteredBenchmarks(); }
void gb_shutdown(void) { benchmark::Shutdown(); }

}  // extern "C"
