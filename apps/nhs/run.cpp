// `nhs run`: integrates a motion from the given (or default) state and
// writes it as CSV, row by row (a failed run keeps the rows it wrote), with
// a one-paragraph summary and, on a terminal, a progress line on stderr.
#include "cli.hpp"

#include <chrono>
#include <cerrno>
#include <cstring>
#include <memory>

#include <unistd.h>

namespace nhs::cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};

}  // namespace

template <class S>
int run_command(const RunOptions& opts) {
  const Setup<S> s = make_setup<S>(opts);

  IntegrationOptions<S> io;
  io.t_end = parse_number<S>("--t-end", opts.t_end);
  io.dt_out = parse_number<S>("--dt-out", opts.dt_out);
  if (!opts.rtol.empty()) io.rtol = parse_number<S>("--rtol", opts.rtol);
  io.atol = opts.atol.empty() ? io.rtol : parse_number<S>("--atol", opts.atol);
  io.stepper = opts.stepper;
  io.singular_margin = singular_margin_option<S>(opts, S(1) / S(1000000));
  require_margins(s.sys, s.q, s.qdot, io.singular_margin);
  io.project = opts.project;
  if (!opts.max_rhs_calls.empty()) io.max_rhs_calls = parse_count("--max-rhs-calls", opts.max_rhs_calls);
  if (!(io.t_end > 0)) throw UsageError("--t-end must be positive, got '" + opts.t_end + "'");
  if (!(io.dt_out > 0)) throw UsageError("--dt-out must be positive, got '" + opts.dt_out + "'");
  if (!(io.rtol > 0)) throw UsageError("--rtol must be positive, got '" + opts.rtol + "'");
  if (!(io.atol >= 0)) throw UsageError("--atol must be non-negative, got '" + opts.atol + "'");
  if (io.stepper != "auto") {
    bool known = false;
    for (const auto& n : stepper_names()) known = known || n == io.stepper;
    if (!known)
      throw UsageError("unknown stepper '" + io.stepper + "' (known: auto, " +
                       join(stepper_names()) + ")");
  }

  std::unique_ptr<std::FILE, FileCloser> file;
  std::FILE* out = stdout;
  if (!opts.out.empty()) {
    file.reset(std::fopen(opts.out.c_str(), "w"));
    if (!file) throw UsageError("--out: cannot open '" + opts.out + "': " + std::strerror(errno));
    out = file.get();
  }

  Recorder<S> rec(s.sys, s.study->invariants(s.sys), out);
  // Progress only where someone watches, and not into CSV on the same terminal.
  const bool progress = isatty(STDERR_FILENO) && !(out == stdout && isatty(STDOUT_FILENO));
  const auto t0 = Clock::now();
  double last_progress = 0;
  bool progress_shown = false;
  IntegrationStats stats;
  const double t_end = to_double(io.t_end);
  auto observe = [&](const Sample<S>& sample) {
    rec(sample);
    if (!progress) return;
    const double el = seconds_since(t0);
    if (el > 1.0 && el - last_progress > 0.25) {
      last_progress = el;
      progress_shown = true;
      const double t = to_double(sample.t);
      fmt::print(stderr, "\rnhs run: t = {:.4g} / {:.4g} ({:.0f}%), {} RHS calls, {:.1f} s   ",
                 t, t_end, 100 * t / t_end, stats.rhs_calls, el);
      std::fflush(stderr);
    }
  };

  const auto summary = [&](const char* how) {
    if (progress_shown) fmt::print(stderr, "\r\033[K");
    std::string energy = fmt::format("energy drift max |E - E0| = {} (E0 = {})",
                                     short_figure(rec.energy_drift), short_figure(rec.E0));
    if (!s.study->energy_is_conserved(s.sys) || rec.nonconservative_power != 0)
      energy += " (not a first integral here: non-conservative forces do work)";
    fmt::print(stderr,
               "nhs run: {} {} with {} in {}, stepper {}: {} rows{} to t = {}, {} steps, {} RHS "
               "calls{}; max |C| = {}; {}; smallest singular margin {} = {}; wall time {:.3f} "
               "s.\n",
               how, s.sys.info.name, s.formulation->name(), opts.precision, stats.stepper,
               rec.samples, how[0] == 'i' ? "" : " (kept)", short_figure(rec.t_last), stats.steps,
               stats.rhs_calls,
               io.project ? fmt::format(", projected onto C ({} projections)", stats.projections)
                          : std::string(),
               short_figure(rec.max_C), energy, rec.min_margin_name, short_figure(rec.min_margin),
               seconds_since(t0));
  };
  try {
    integrate<S>(s.sys, *s.formulation, s.q, s.qdot, io, observe, &stats);
  } catch (...) {
    summary("stopped");
    throw;
  }
  summary("integrated");
  return 0;
}

#define NHS_CLI_RUN_(S, NAME) template int run_command<S>(const RunOptions&);
NHS_FOR_EACH_SCALAR(NHS_CLI_RUN_)
#undef NHS_CLI_RUN_

}  // namespace nhs::cli
