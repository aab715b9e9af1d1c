// `nhs run`: integrates a motion from the given (or default) state and
// writes it as CSV, row by row (a failed or interrupted run keeps the rows
// it wrote), with a one-paragraph summary on stderr, on success and on
// failure, and a progress line: rewritten in place on a terminal, otherwise
// one line every 10 s for long runs. The run itself is simulate's
// (nhs/session/simulate.hpp); this file keeps its observers.
#include "cli.hpp"
#include "clock.hpp"
#include "interrupt.hpp"
#include "scene.hpp"

#include "nhs/session/simulate.hpp"
#include "nhs/studies/verification.hpp"
#include "nhs/voronec.hpp"

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>

#include <unistd.h>

namespace nhs::cli {

namespace {


struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};

/// The summary of a run on stderr: `how` ("integrated", or "stopped" for
/// a run that ended early, whose rows are kept), the figures over the rows
/// (rec), the error against the plan's motion, the invariants not finite
/// at some rows, and the wall time `seconds`.
template <class S>
void print_run_summary(const char* how, const MotionCheck<S>& rec, const RunPlan<S>& plan,
                       const std::string& precision, double seconds) {
  const Problem<S>& s = plan.problem;
  std::string energy = fmt::format("energy drift max |E - E0| = {} (E0 = {})", short_figure(rec.energy_drift),
                                   short_figure(rec.E0));
  if (!rec.energy_checked())
    energy += rec.nonconservative_power != 0 ? " (not a first integral here: non-conservative forces do work)"
                                             : " (not a first integral of this system)";
  if (rec.balance_checked())
    energy += fmt::format("; work-energy balance max |E - E0 - W| = {} (max |W| = {})",
                          short_figure(rec.balance_drift), short_figure(rec.work_scale));
  const std::string margin =
      rec.samples == 0 ? std::string("no sample, so no singular margin")
      : rec.min_margin_name.empty()
          ? std::string("no singular margin (none defined)")
          : fmt::format("smallest singular margin {} = {}", rec.min_margin_name, short_figure(rec.min_margin));
  const IntegrationStats& st = rec.stats;
  fmt::print(stderr,
             "nhs run: {} {} with {} in {}, stepper {}: {} rows{} to t = {}, {} steps, {} RHS "
             "calls{}; over the rows: max |C| = {}; {}; {}; wall time {:.3f} s.\n",
             how, s.sys.info.name, integrated_by(st.stepper, s.formulation->name()), precision,
             stepper_name(st.stepper), rec.samples, how[0] == 'i' ? "" : " (kept)", short_figure(rec.t_last),
             st.steps, st.rhs_calls,
             plan.options.project ? fmt::format(", projected onto C ({} projections)", st.projections)
                                  : std::string(),
             short_figure(rec.max_C), energy, margin, seconds);
  if (plan.motion)
    fmt::print(stderr, "nhs run: max error against the motion '{}' over the rows: {}\n", plan.motion->name,
               short_figure(rec.max_error));
  for (const InvariantDrift<S>& inv : rec.invariants)
    if (inv.undefined > 0)
      fmt::print(stderr, "nhs run: invariant {} is not finite at {} of {} rows (empty cells in the CSV)\n",
                 inv.name, inv.undefined, rec.samples);
}

/// Rethrows the exception being handled, that of a run that stopped; a
/// system file's run stopped on the singular set of its formulation's
/// velocity split (Voronec's: split, the condition of split_margin; "" for
/// a system without one) says how the file declares that the formulation
/// cannot follow the motion ([initial] excluded).
[[noreturn]] void rethrow_stopped(const std::string& study, const std::string& formulation, const std::string& split) {
  try {
    throw;
  } catch (const SingularState& e) {
    if (split.empty() || e.condition != split || !is_system_file_name(study)) throw;
    throw SingularState(e.condition,
                        std::string(e.what()) + "; the motion meets the singular set of the formulation's velocity "
                        "split: another formulation follows it, and the file declares it for `nhs check` by "
                        "[initial] excluded = { " + formulation + " = \"why\" } (docs/system-files.md)",
                        e.time);
  }
}

/// The progress line of `nhs run` on stderr: on a terminal, one line
/// rewritten in place (not into CSV on the same terminal); otherwise, for
/// long runs, a line every 10 s.
class RunProgress {
 public:
  /// Starts the clock of a run to `t_end` that writes its CSV to `out`.
  RunProgress(std::FILE* out, double t_end)
      : tty_(isatty(STDERR_FILENO) != 0), in_place_(tty_ && !(out == stdout && isatty(STDOUT_FILENO))),
        every_(in_place_ ? 0.25 : 10.0), t_end_(t_end), t0_(Clock::now()) {}

  /// At motion time t, with the integrator's counts so far.
  void operator()(double t, const IntegrationStats& stats) {
    if (!in_place_ && tty_) return;
    const double el = seconds_since(t0_);
    if (el < (in_place_ ? 1.0 : 10.0) || el - last_ < every_) return;
    last_ = el;
    if (in_place_) {
      shown_ = true;
      fmt::print(stderr, "\rnhs run: t = {:.4g} / {:.4g} ({:.0f}%), {} RHS calls, {:.1f} s   ", t, t_end_,
                 100 * t / t_end_, stats.rhs_calls, el);
    } else {
      fmt::print(stderr, "nhs run: progress: t = {:.4g} / {:.4g} ({:.0f}%), {} RHS calls, {:.1f} s\n", t, t_end_,
                 100 * t / t_end_, stats.rhs_calls, el);
    }
    std::fflush(stderr);
  }
  /// Clears a line shown in place (before the summary).
  void clear() const {
    if (shown_) fmt::print(stderr, "\r\033[K");
  }
  double seconds() const { return seconds_since(t0_); }

 private:
  bool tty_, in_place_;
  double every_, t_end_;
  Clock::time_point t0_;
  double last_ = 0;
  bool shown_ = false;
};

}  // namespace

template <class S>
RunSpec<S> run_spec(const RunOptions& opts) {
  RunSpec<S> spec;
  spec.names = cli_run_names();
  spec.problem.names = cli_input_names(opts.t_option);
  if (!opts.t_end.empty()) spec.t_end = parse_number<S>(spec.names.t_end, opts.t_end);
  spec.dt_out = parse_number<S>(spec.names.dt_out, opts.dt_out);
  if (!opts.rtol.empty()) spec.rtol = parse_number<S>(spec.names.rtol, opts.rtol);
  if (!opts.atol.empty()) spec.atol = parse_number<S>(spec.names.atol, opts.atol);
  if (!opts.singular_margin.empty()) spec.singular_margin = singular_margin_option<S>(opts, S(0));
  if (!opts.max_rhs_calls.empty()) spec.max_rhs_calls = parse_count("--max-rhs-calls", opts.max_rhs_calls);
  if (!opts.max_wall_time.empty()) spec.max_wall_time = parse_seconds(spec.names.max_wall_time, opts.max_wall_time);
  if (!opts.max_rows.empty()) spec.max_rows = parse_count(spec.names.max_rows, opts.max_rows);
  spec.stepper = parse_stepper(opts.stepper);
  if (!opts.step.empty()) spec.step = parse_number<S>(spec.names.step, opts.step);
  spec.project = opts.project;
  spec.motion = opts.motion;
  // The options that need no system, checked before the problem's (a large
  // system takes a minute to build in mp50): a usage error comes at once.
  require_run_options(spec);
  refuse_state_with_motion(opts.motion, !opts.q.empty() || !opts.qdot.empty() || !opts.z.empty() ||
                                            !opts.t.empty() || !opts.params.empty(), spec.names, spec.problem.names);
  spec.problem = problem_spec<S>(opts);
  return spec;
}

template <class S>
int run_command(const RunOptions& opts) {
  if (opts.out_given && opts.out.empty()) throw UsageError("--out: empty file name");
  if (!opts.out.empty() && is_system_file_name(opts.study)) refuse_overwriting(opts.study, opts.out, "--out");
  std::unique_ptr<std::FILE, FileCloser> file;
  std::optional<CsvRecorder<S>> csv;
  std::optional<Scene<S>> scene;  // --poses
  std::optional<RunProgress> progress;
  std::optional<InterruptGuard> sigint;  // SIGINT stops the run at the next step
  // The figures so far, for the progress line and an interruption's
  // message: the last sample's time, the integrator's counts.
  S t_last(0);
  IntegrationStats stats;
  RunObservers<S> observers;
  observers.planned = [&](const RunPlan<S>& plan, const MotionReference<S>& reference) {
    std::FILE* out = stdout;
    if (!opts.out.empty()) {
      file.reset(std::fopen(opts.out.c_str(), "w"));
      if (!file) throw_io_error("--out: cannot open", opts.out);
      out = file.get();
    }
    csv.emplace(plan.problem.sys, reference, out,
                opts.out.empty() ? std::string("standard output") : "'" + opts.out + "'");
    if (opts.poses) {
      scene.emplace(plan.problem);
      csv->append_columns(scene->columns(csv->columns()),
                          [&](const Sample<S>& sample) { return scene->values(sample.q, sample.qdot); });
    }
    progress.emplace(out, to_double(plan.options.t_end));
    sigint.emplace();
  };
  observers.step = [&](const S&, const IntegrationStats& now) { stats = now; };
  observers.interrupt = [&](const S& t_now) {
    if (interrupt_requested())
      throw Interrupted("interrupted (SIGINT) at t = " + to_string<S>(t_now) + "; rows up to t = " +
                        to_string<S>(t_last) + " kept");
  };
  // The row first: a sample whose row could not be written (a full disk)
  // is not counted, so that the summary's rows are the rows written.
  observers.motion.record = [&](const Sample<S>& sample) { (*csv)(sample); };
  observers.motion.folded = [&](const Sample<S>& sample, const MotionCheck<S>&) { t_last = sample.t; };
  observers.motion.watch = [&](const S& t_now) { (*progress)(to_double(t_now), stats); };
  const Simulation<S> run = simulate<S>(run_spec<S>(opts), observers);
  const Problem<S>& s = run.plan.problem;
  const auto summary = [&](const char* how) {
    progress->clear();
    print_run_summary<S>(how, run.figures, run.plan, opts.precision, progress->seconds());
  };
  try {
    if (run.error) std::rethrow_exception(run.error);
    if (file && std::fclose(file.release()) != 0) throw_io_error("--out: cannot write", opts.out);
  } catch (const UsageError&) {  // refused before any step (grid, tolerance): one line
    throw;
  } catch (...) {
    summary("stopped");
    rethrow_stopped(opts.study, s.formulation->name(),
                    dependent_velocity_reason(s.sys.info).empty() ? split_margin<S>(s.sys, s.q).condition : "");
  }
  summary("integrated");
  return 0;
}

#define NHS_CLI_RUN_(S, NAME)                                            \
  template RunSpec<S> run_spec<S>(const RunOptions&);                   \
  template int run_command<S>(const RunOptions&);
NHS_FOR_EACH_SCALAR(NHS_CLI_RUN_)
#undef NHS_CLI_RUN_

}  // namespace nhs::cli
