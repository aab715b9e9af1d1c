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

#include "nhs/verification/check.hpp"
#include "nhs/verification/summary.hpp"

#include <filesystem>
#include <memory>
#include <mutex>

namespace nhs::cli {

namespace {

/// The progress of the checks on stderr: each study's runs as a
/// ProgressLine (the time they have integrated against the sum of their
/// end times, from which the time left is estimated), and the lines of
/// the runs' results. Thread-safe.
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
  void runs_started(const std::string& precision, const std::string& study, double total_time, int runs) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    line_ = std::make_unique<ProgressLine>(fmt::format("nhs {} {} {}", command_, precision, study));
    total_ = total_time;
    runs_ = runs;
    integrated_ = 0;
    runs_done_ = 0;
  }
  void advance(double dt, bool done) override {
    double integrated = 0;
    int runs_done = 0;
    ProgressLine* line = nullptr;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      integrated_ += dt;
      if (done) ++runs_done_;
      integrated = integrated_;
      runs_done = runs_done_;
      line = line_.get();
    }
    if (line)
      line->tick([&] { return fmt::format("{}/{} runs, t = {:.4g} of {:.4g} integrated", runs_done, runs_,
                                          integrated, total_); },
                 integrated, total_ - integrated);
  }
  void runs_ended() override {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (line_) line_->clear();
    line_.reset();
  }

 private:
  std::string command_;  ///< "verify" or "check"
  std::mutex mutex_;
  std::unique_ptr<ProgressLine> line_;
  double total_ = 0, integrated_ = 0;
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
