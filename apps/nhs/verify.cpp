// `nhs verify` and `nhs check SYSTEM`: the checks of every built-in study or
// of one system (nhs/verification/check.hpp: the formulations against each
// other at random states, the special motions against their closed forms,
// energy, |C| and the invariants, in each precision), their progress on
// stderr, summary.md and summary.json (nhs/verification/summary.hpp), the
// table on stdout, and for `check` scripts/check_report.py over the
// directory (report.md and figures; check_report.cpp). Exit 1 when a check
// fails.
#include "cli.hpp"
#include "progress.hpp"
#include "progress_estimate.hpp"

#include "nhs/verification/check.hpp"
#include "nhs/verification/summary.hpp"

#include <filesystem>
#include <memory>
#include <mutex>
#include <vector>

namespace nhs::cli {

namespace {

/// The progress of the checks on stderr: each study's runs as a
/// ProgressLine (runs done, the time integrated against the sum of the
/// runs' end times, and the time left estimated by RunsEstimate from the
/// RHS calls per unit time and the seconds per call measured so far), and
/// the lines of the runs' results. Thread-safe.
class CheckProgressLine final : public CheckProgress {
 public:
  explicit CheckProgressLine(std::string command) : command_(std::move(command)) {}

  void line(const std::string& text) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (line_)
      line_->print(text);
    else
      fmt::print(stderr, "{}\n", text);
  }
  void runs_started(const std::string& precision, const std::string& study,
                    const std::vector<CheckPlannedTask>& tasks, unsigned jobs) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    line_ = std::make_unique<ProgressLine>(fmt::format("nhs {} {} {}", command_, precision, study));
    std::vector<RunsEstimate::Task> plan;
    integrated_.clear();
    total_ = 0;
    runs_ = 0;
    runs_done_ = 0;
    for (const CheckPlannedTask& t : tasks) {
      RunsEstimate::Task task{t.seconds_per_call, {}};
      for (const CheckPlannedRun& r : t.runs) {
        task.runs.push_back({r.motion, r.t_end});
        total_ += r.t_end;
        ++runs_;
      }
      integrated_.emplace_back(t.runs.size(), 0.0);
      plan.push_back(std::move(task));
    }
    estimate_ = std::make_unique<RunsEstimate>(std::move(plan), jobs);
  }
  void advance(std::size_t task, std::size_t run, double t, std::uint64_t rhs_calls, bool done) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!line_ || !estimate_ || task >= integrated_.size() || run >= integrated_[task].size()) return;
    estimate_->advance(task, run, t, rhs_calls);
    integrated_[task][run] = t;
    if (done) {
      estimate_->finish(task, run, rhs_calls);
      ++runs_done_;
    }
    line_->tick_estimate([&] {
      double integrated = 0;
      for (const auto& runs : integrated_)
        for (double x : runs) integrated += x;
      return fmt::format("{}/{} runs, t = {:.4g} of {:.4g} integrated", runs_done_, runs_, integrated, total_);
    }, [&] { return estimate_->seconds_left(); });
  }
  void runs_ended() override {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (line_) line_->clear();
    line_.reset();
    estimate_.reset();
  }

 private:
  std::string command_;  ///< "verify" or "check"
  std::mutex mutex_;
  std::unique_ptr<ProgressLine> line_;
  std::unique_ptr<RunsEstimate> estimate_;
  std::vector<std::vector<double>> integrated_;  ///< per task and run, the time integrated
  double total_ = 0;
  int runs_ = 0, runs_done_ = 0;
};

}  // namespace

int verify_command(const VerifyOptions& opts) {
  CheckSpec spec;
  spec.system = opts.system;
  spec.precisions = parse_precision_list(opts.precision);
  spec.states = opts.states;
  spec.quick = opts.quick;
  spec.jobs = opts.jobs;
  spec.out_dir = opts.out_dir;
  CheckProgressLine progress(opts.system.empty() ? "verify" : "check");
  const CheckReport report = run_checks(spec, opts.quiet ? nullptr : &progress);
  write_check_summaries(report, spec, check_command(spec, opts.precision));
  const bool pass = report.pass();
  if (opts.quiet) return pass ? 0 : 1;
  fmt::print("{}", check_table_text(report));
  fmt::print("\ndigits reached (cross / analytic / drift):\n{}", digits_table_text(report));
  for (const auto& f : report.failures) fmt::print("FAIL: {}\n", f);
  // `nhs check`: the report with figures. Its outcome never changes the
  // exit code (a failure is one warning line on stderr).
  std::string made = (std::filesystem::path(opts.out_dir) / "summary.md").string();
  if (!opts.system.empty() && !opts.no_report) {
    flush_stdout();
    if (run_check_report(opts.out_dir))
      made += ", " + (std::filesystem::path(opts.out_dir) / "report.md").string();
  }
  fmt::print("{}: {} rows, {} failures; {}; report in {}\n", pass ? "PASS" : "FAIL", report.rows.size(),
             report.failures.size(), check_timing(report), made);
  return pass ? 0 : 1;
}

}  // namespace nhs::cli
