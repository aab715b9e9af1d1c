// `nhs linearize` and `nhs stability`: their options read into the
// session's typed request (nhs/session/steady_linearization.hpp), the
// documents written (nhs/session/linearization_report.hpp;
// docs/linearization.md).
#include "cli.hpp"
#include "interrupt.hpp"
#include "names.hpp"
#include "progress.hpp"

#include "nhs/session/wall_budget.hpp"

#include <cstdio>
#include <memory>

namespace nhs::cli {

template <class S>
SteadySpec<S> steady_spec(const LinearizeOptions& opts) {
  SteadySpec<S> spec;
  spec.names = cli_steady_names();
  spec.system = opts.system;
  spec.steady = opts.steady;
  spec.formulation = opts.formulation;
  const Study<S>& study = find_study<S>(opts.system);
  for (const auto& [name, text] : parse_params(opts.at)) spec.at.emplace_back(name, parse_number<S>(spec.names.at + " " + name, text));
  spec.parameters = parameter_overrides<S>(study, parse_params(opts.params));
  return spec;
}

template <class S>
int linearize_command(const LinearizeOptions& opts, const std::string& command) {
  if (!opts.animate.empty()) (void)check_mode_animation<S>(opts);  // before the system is built
  else if (!opts.mode.empty() || !opts.epsilon.empty())
    throw UsageError(std::string(opts.mode.empty() ? "--epsilon" : "--mode") + " is an option of --animate DIR");
  const SteadySpec<S> spec = steady_spec<S>(opts);
  const SteadyLinearization<S> s = linearize_steady<S>(spec, family_values<S>(spec));
  if (!opts.animate.empty()) animate_mode<S>(opts, spec, s, command);
  fmt::print("{}\n", linearization_json<S>(s, opts.precision));
  return 0;
}

namespace {

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};

/// stability_command's table, written row by row as the scan computes them
/// (flushed, so that an interruption keeps them).
template <class S>
class StabilityCsv {
 public:
  explicit StabilityCsv(std::string path) : path_(std::move(path)) {}
  /// Opens the file at the first row (a scan refused before any leaves none).
  void row(const std::string& vary, const S& value, const Linearization<S>& lin) {
    if (path_.empty()) return;
    if (!file_) file_.reset(std::fopen(path_.c_str(), "w"));
    if (!file_) throw_io_error("--csv: cannot open", path_);
    const std::string text =
        (rows_++ == 0 ? stability_csv_header(vary, lin.eigenvalues.size()) : std::string()) +
        stability_csv_row<S>(value, lin);
    if (std::fputs(text.c_str(), file_.get()) < 0 || std::fflush(file_.get()) != 0)
      throw_io_error("--csv: cannot write", path_);
  }
  void close() {
    if (file_ && std::fclose(file_.release()) != 0) throw_io_error("--csv: cannot write", path_);
  }
  std::size_t rows() const { return rows_; }

 private:
  std::string path_;
  std::unique_ptr<std::FILE, FileCloser> file_;
  std::size_t rows_ = 0;
};

}  // namespace

template <class S>
int stability_command(const StabilityOptions& opts) {
  const std::uint64_t points = parse_count("--points", opts.points);
  if (points > kMaxStabilityPoints)  // before the system is built
    throw UsageError("--points " + opts.points + ": need 2 .. " + std::to_string(kMaxStabilityPoints) +
                     " (a larger grid takes hours: scan a narrower range)");
  const double wall = opts.max_wall_time.empty() ? 0 : parse_seconds("--max-wall-time", opts.max_wall_time);
  const SteadySpec<S> spec = steady_spec<S>(opts);
  const S from = parse_number<S>("--from", opts.from), to = parse_number<S>("--to", opts.to);
  if (!opts.csv.empty()) refuse_overwriting(opts.system, opts.csv, "--csv");
  StabilityCsv<S> csv(opts.csv);
  ProgressLine progress("nhs stability");
  ScanObservers<S> observers;
  observers.motion = [&](const S& v, const SteadyLinearization<S>& m) {
    csv.row(opts.vary.empty() ? m.family_parameters.at(0) : opts.vary, v, m.lin);
  };
  observers.watch = [&](const S& v, std::size_t done) {
    const std::string kept = opts.csv.empty() ? std::string()
                                              : "; " + std::to_string(csv.rows()) + " rows of '" + opts.csv + "' kept";
    if (interrupt_requested())
      throw Interrupted("nhs stability: interrupted (SIGINT) before the linearization at " + to_string<S>(v) + kept);
    if (wall > 0 && progress.elapsed() > wall)
      throw WallTimeExceeded(fmt::format("nhs stability: wall-time budget of {} s (--max-wall-time) exceeded after "
                                         "{:.1f} s, before the linearization at {}{}",
                                         wall, progress.elapsed(), to_string<S>(v), kept));
    progress.tick([&] { return fmt::format("{} linearizations ({} grid points), at {}", done, points,
                                           to_string<S>(v)); },
                  static_cast<double>(done), static_cast<double>(points > done ? points - done : 0));
  };
  const InterruptGuard sigint;  // SIGINT stops the scan before the next linearization
  StabilityScan<S> scan = scan_stability<S>(spec, opts.vary, from, to, points, observers);
  progress.clear();
  csv.close();
  scan.from_text = opts.from;
  scan.to_text = opts.to;
  fmt::print("{}\n", stability_json<S>(scan, opts.precision, opts.csv));
  return 0;
}

#define NHS_CLI_LINEARIZE_(S, NAME)                                 \
  template SteadySpec<S> steady_spec<S>(const LinearizeOptions&); \
  template int linearize_command<S>(const LinearizeOptions&, const std::string&);      \
  template int stability_command<S>(const StabilityOptions&);
NHS_FOR_EACH_SCALAR(NHS_CLI_LINEARIZE_)
#undef NHS_CLI_LINEARIZE_

}  // namespace nhs::cli
