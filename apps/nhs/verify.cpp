// `nhs verify`, the main job: for every study x applicable formulation x
// precision,
//   (1) the largest relative disagreement of qddot with every other
//       applicable formulation at random regular states (half at the
//       default parameters, half at randomized ones);
//   (2) the largest error (max-norm over q and qdot at the output samples)
//       against each analytic special motion of the study, integrated to its
//       t_end;
//   (3) energy drift (where the motion conserves energy), max |C| and the
//       drift of the study's conserved invariants along those runs and
//       along the default-state run to t = 20.
// Writes <out-dir>/summary.md, the same data for programs in
// <out-dir>/summary.json (every check with its value and bound, every run
// with its CSV's columns) and the trajectories as CSV, prints the table, and
// returns 1 if any check fails. `nhs check` then runs scripts/check_report.py
// over the directory (report.md and figures; check_report.cpp).
#include "cli.hpp"
#include "clock.hpp"
#include "progress.hpp"

#include "nhs/parallel.hpp"
#include "nhs/precision_policy.hpp"
#include "nhs/studies/verification.hpp"
#include "nhs/studies/system_file.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <system_error>
#include <thread>
#include <atomic>
#include <mutex>

namespace nhs::cli {

namespace {


// The runs of one study are spread over worker threads (each run owns its
// system, recorder and CSV file; the model is immutable); the shared lists
// of the report are appended under this lock.
std::mutex report_mutex;

void add_line(std::vector<std::string>& lines, std::string line) {
  const std::lock_guard<std::mutex> lock(report_mutex);
  lines.push_back(std::move(line));
}

/// add_line, unless the line is there already (a note that every precision
/// would repeat).
void add_unique_line(std::vector<std::string>& lines, std::string line) {
  const std::lock_guard<std::mutex> lock(report_mutex);
  if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(std::move(line));
}

/// At most this many --jobs: thread creation failed beyond a few ten
/// thousand (std::terminate), and more threads than cores only contend.
constexpr unsigned kMaxJobs = 1024;

/// The thresholds and integration settings of `verify` and `check` for S,
/// from precision_policy<S>() (nhs/precision_policy.hpp, the one table,
/// which says where each figure comes from), and the default stepper
/// (`auto`, resolved per formulation by integrate: auto_stepper_text).
/// `nhs verify` takes the main job's budget (mp50: 1e-30 at rtol 1e-36, for
/// its time budget over every study). `nhs check` (one system) takes the
/// strict budget of the special-motion tests, which follows what the
/// precision reaches (mp50: 1e-40 at rtol 1e-46, where its runs reach
/// 1e-45 to 1e-48), so that a loss of 10 digits fails: under the main
/// budget a 16-digit loss passed. Its runs integrate the field of `nhs run`
/// (default_field, setup.hpp), which makes that affordable.
template <class S>
struct Settings {
  S cross, analytic, invariants;  // invariants: energy, C and the study's own
  S rtol, atol;
};

template <class S>
Settings<S> settings(bool check) {
  const PrecisionPolicy<S>& p = precision_policy<S>();
  const IntegrationBudget<S>& b = check ? p.strict : p.main;
  return Settings<S>{p.cross, b.analytic, b.drift, b.rtol, b.rtol};
}

/// The progress of one precision's runs on stderr (ProgressLine): the time
/// they have integrated against the sum of their end times, which is what
/// the estimate of the time left is made from. Thread-safe.
class RunProgress {
 public:
  RunProgress(const std::string& prefix, double total_time, int runs, bool quiet)
      : line_(prefix, quiet), total_(total_time), runs_(runs) {}
  /// A run has integrated dt more (after each step), or has ended (done).
  void advance(double dt, bool done = false) {
    double integrated = 0;
    int runs_done = 0;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      integrated_ += dt;
      if (done) ++runs_done_;
      integrated = integrated_;
      runs_done = runs_done_;
    }
    line_.tick([&] { return fmt::format("{}/{} runs, t = {:.4g} of {:.4g} integrated", runs_done, runs_, integrated,
                                        total_); },
               integrated, total_ - integrated);
  }
  /// A line of its own (a run's result), the progress line cleared first.
  void print(const std::string& text) { line_.print(text); }
  void clear() { line_.clear(); }

 private:
  ProgressLine line_;
  std::mutex mutex_;
  double total_, integrated_ = 0;
  int runs_, runs_done_ = 0;
};

/// One line of the table.
struct Row {
  std::string study, formulation, precision;
  std::string cross = "-", reaction = "-", analytic = "-", energy = "-", constraint = "-",
              invariants = "-";
  double seconds = 0;
  /// -log10 of the row's figures (NaN where there is none), for the
  /// digits table: cross-formulation disagreement, analytic error, and the
  /// largest of the energy, |C| and invariant drifts.
  double cross_digits = std::nan(""), analytic_digits = std::nan(""), drift_digits = std::nan("");
  bool pass = true;
  std::string control;  // a negative control's result ("negative control: disagrees"); empty otherwise
};

/// One check for summary.json: a figure against its bound.
struct Check {
  std::string study, formulation, precision;
  std::string run;        ///< the motion's name, "default state", or "random states"
  std::string kind;       ///< "qddot agreement", "reaction agreement", "error vs exact",
                          ///< "energy drift", "max |C|", "invariant drift", "run completed"
  std::string invariant;  ///< the invariant's name (kind "invariant drift")
  double value = std::nan(""), tolerance = std::nan("");  ///< NaN: none (null in JSON)
  bool pass = true;
  bool counts = true;  ///< false for the negative control's figures (never a failure)
  std::string detail;  ///< why a run did not complete
};

/// One integrated run for summary.json: where its CSV is and what its
/// columns are.
struct RunRecord {
  std::string study, formulation, precision, run;
  std::string csv;  ///< relative to the out-dir: trajectories/<file>.csv
  bool exact = false;           ///< the CSV has an "error" column (closed form)
  bool energy_checked = false;  ///< energy is a first integral and no force did work
  std::string failure;          ///< empty: the run reached its t_end
  std::uint64_t samples = 0;
  double t_end = 0, t_last = 0;
  std::vector<std::string> coordinates, constraint_columns, invariant_columns, margin_columns;
  std::vector<bool> invariant_conserved;
};

/// Everything verify collects, over all precisions.
struct Report {
  std::vector<Row> rows;
  std::vector<Check> checks;                 // for summary.json
  std::vector<RunRecord> runs;               // for summary.json
  std::vector<std::string> failures;       // one line each: what, value, bound
  std::vector<std::string> notes;          // not applicable, not conserved, ...
  std::vector<std::string> settings_lines; // per precision
  std::vector<std::pair<std::string, double>> precision_seconds;
  /// Per precision: the thresholds and settings, for summary.json.
  std::vector<nlohmann::ordered_json> settings_json;
  /// No progress lines on stderr (VerifyOptions::quiet).
  bool quiet = false;
  /// The progress of the current precision's runs (verify_scalar).
  std::unique_ptr<RunProgress> progress;
};

/// Prints one line of progress on stderr (a run's result), unless quiet.
void progress_line(Report& report, const std::string& text) {
  if (report.quiet) return;
  if (report.progress)
    report.progress->print(text);
  else
    fmt::print(stderr, "{}\n", text);
}

void add_check(Report& report, Check check) {
  const std::lock_guard<std::mutex> lock(report_mutex);
  report.checks.push_back(std::move(check));
}

std::string slug(const std::string& s) {
  std::string out;
  for (char c : s) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.';
    if (keep)
      out += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && (out.back() == '-' || out.back() == '.')) out.pop_back();
  return out;
}

/// Running maxima of one row's figures.
template <class S>
struct Figures {
  std::optional<S> cross, reaction, analytic, energy, constraint, invariants;
  bool pass = true;
  static void raise(std::optional<S>& slot, const S& v) {
    using std::max;
    slot = slot ? max(*slot, v) : v;
  }
};

/// Integrates one motion with f (check_motion, nhs/studies/verification.hpp;
/// the CsvRecorder writes the CSV as its record callback); folds its figures into
/// fig and reports failures, the checks and the run itself (for
/// summary.json). exact may be empty (no closed form). A run that fails
/// before its first sample has no figures: it adds only its failure, so
/// that its row shows "-", not 0, where it has nothing. energy_reason says
/// why T + V is not a first integral where st does not conserve energy
/// (a system file's energy_not_conserved_reason; "" for a built-in study:
/// non-conservative forces).
template <class S>
void check_run(const Check& id, const System<S>& sys, const Study<S>& st,
               const std::string& energy_reason, const Formulation<S>& f, const State<S>& x0,
               const S& t_end, const S& dt_out, const Settings<S>& set, const std::function<State<S>(const S&)>& exact,
               const std::filesystem::path& csv, Figures<S>& fig, Report& report) {
  const std::string what = id.study + " / " + id.formulation + " / " + id.precision + ": " + id.run;
  const auto t0 = Clock::now();
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(csv.c_str(), "w"), &std::fclose);
  if (!file) throw_io_error("cannot write", csv.string());
  const auto fail = [&](const std::string& msg) {
    fig.pass = false;
    add_line(report.failures, what + ": " + msg);
  };
  const MotionReference<S> ref = motion_reference(st, sys, exact);
  CsvRecorder<S> rec(sys, ref.invariants, file.get(), exact, "'" + csv.string() + "'");  // the figures are check_motion's
  IntegrationOptions<S> io;
  io.t_end = t_end;
  io.dt_out = dt_out;
  io.rtol = set.rtol;
  io.atol = set.atol;
  double integrated = 0;  // the time this run has reported to report.progress
  if (report.progress)
    io.on_step = [&](const S& t, const IntegrationStats&) {
      const double now = to_double(t);
      report.progress->advance(now - integrated);
      integrated = now;
    };
  RunRecord run{id.study, id.formulation, id.precision, id.run,
                "trajectories/" + csv.filename().string()};
  run.exact = bool(exact);
  run.t_end = to_double(t_end);
  run.coordinates = sys.info.coordinates;
  run.constraint_columns = rec.constraint_columns();
  run.invariant_columns = rec.invariant_columns();
  run.margin_columns = rec.margin_columns();
  for (const auto& inv : rec.invariants()) run.invariant_conserved.push_back(inv.conserved);
  const auto check = [&](const std::string& kind, const S& value, const S& bound, bool pass,
                         const std::string& invariant = "") {
    Check c = id;
    c.kind = kind;
    c.invariant = invariant;
    c.value = to_double(value);
    c.tolerance = to_double(bound);
    c.pass = pass;
    add_check(report, std::move(c));
  };
  // A row that cannot be written (a full disk) is an I/O error (exit 5),
  // not a failure of the motion: check_motion would report it as one.
  std::exception_ptr write_error;
  const MotionCheck<S> m = check_motion<S>(sys, f, x0, io, ref, [&](const Sample<S>& sample) {
    try {
      rec(sample);
    } catch (const IoError&) {
      write_error = std::current_exception();
      throw;
    }
  });
  if (report.progress) report.progress->advance(to_double(t_end) - integrated, true);  // ended, or failed
  if (write_error) std::rethrow_exception(write_error);
  if (std::fclose(file.release()) != 0) throw_io_error("cannot write", csv.string());
  run.failure = m.failure;
  if (!m.completed()) fail(run.failure);
  run.samples = m.samples;
  run.t_last = to_double(m.t_last);
  {
    Check c = id;
    c.kind = "run completed";
    c.pass = run.failure.empty();
    c.detail = run.failure;
    add_check(report, std::move(c));
  }
  const auto record_run = [&] {
    const std::lock_guard<std::mutex> lock(report_mutex);
    report.runs.push_back(run);
  };
  if (m.samples == 0) {  // nothing measured: no figure (the row shows "-")
    record_run();
    progress_line(report, fmt::format("  {} / {}: {:<44} failed before its first sample", id.study, id.formulation,
                                      id.run));
    return;
  }
  if (exact) {
    // Scaled like the integrators' own error control (atol + rtol |x|):
    // a motion that travels far (the n-trailer's straight train reaches
    // |x| = 520 at t = 20) is held to the same relative accuracy.
    Figures<S>::raise(fig.analytic, m.max_error);
    const S bound = m.error_bound(set.analytic);
    check("error vs exact", m.max_error, bound, m.max_error <= bound);
    if (!(m.max_error <= bound))
      fail("error vs analytic solution " + short_figure(m.max_error) + " > " +
           short_figure(bound) + " (" + short_figure(set.analytic) + " x (1 + max |exact (q, qdot)| = " +
           short_figure(m.exact_scale) + "))");
  }
  // Energy is checked where the study declares it a first integral and the
  // non-conservative forces (if any) did no work at any sample.
  const bool declared = m.energy_declared;
  if (declared && m.nonconservative_power != 0)
    add_line(report.notes, what + ": the study declares energy conserved, but the "
                           "non-conservative force does work (max |F . qdot| = " +
                           short_figure(m.nonconservative_power) + "); energy not checked");
  run.energy_checked = m.energy_checked();
  record_run();
  if (m.energy_checked()) {
    Figures<S>::raise(fig.energy, m.energy_drift);
    const S bound = m.energy_bound(set.invariants);
    check("energy drift", m.energy_drift, bound, m.energy_drift <= bound);
    if (!(m.energy_drift <= bound))
      fail("energy drift " + short_figure(m.energy_drift) + " > " + short_figure(bound));
  } else if (!declared && energy_reason.empty()) {
    add_line(report.notes, what + ": energy not conserved (non-conservative forces do work); "
                           "drift " + short_figure(m.energy_drift) + " not checked");
  } else if (!declared) {
    add_line(report.notes, what + ": energy not checked: " + energy_reason + " (drift " +
                               short_figure(m.energy_drift) + ")");
  }
  Figures<S>::raise(fig.constraint, m.max_C);
  const S c_bound = m.constraint_bound(set.invariants);
  check("max |C|", m.max_C, c_bound, m.max_C <= c_bound);
  if (!(m.max_C <= c_bound))
    fail("max |C| " + short_figure(m.max_C) + " > " + short_figure(c_bound));
  for (std::size_t k = 0; k < m.invariants.size(); ++k) {
    const InvariantDrift<S>& inv = m.invariants[k];
    if (!inv.conserved) continue;
    if (inv.undefined > 0)
      add_line(report.notes, what + ": invariant " + inv.name + " is not finite at " +
                                 std::to_string(inv.undefined) + " of " +
                                 std::to_string(m.samples) + " rows (its drift is over the others)");
    Figures<S>::raise(fig.invariants, inv.drift);
    const S bound = m.invariant_bound(k, set.invariants);
    check("invariant drift", inv.drift, bound, inv.drift <= bound, inv.name);
    if (!(inv.drift <= bound))
      fail("invariant " + inv.name + " drift " + short_figure(inv.drift) + " > " + short_figure(bound));
  }
  // One self-contained line per run: the runs of several formulations
  // finish in any order on the worker threads.
  progress_line(report, fmt::format("  {} / {}: {:<44} t = {:<4} {:>8} RHS calls {:>7.2f} s{}", id.study,
                                    id.formulation, id.run, short_figure(m.t_last), m.stats.rhs_calls,
                                    seconds_since(t0), exact ? "  error " + short_figure(m.max_error) : std::string()));
}

/// -log10(v) as a double: the decimal digits of agreement a figure
/// represents; +inf for an exact 0, NaN when there is no figure.
template <class S>
double digits(const std::optional<S>& v) {
  if (!v) return std::nan("");
  if (*v <= 0) return std::numeric_limits<double>::infinity();
  using std::log10;
  return -static_cast<double>(log10(*v));
}

// What `auto` stands for at rtol: "auto: verner87 (dopri5 for voronec,
// naive-reduced)" where the formulations whose round-off grows with speed
// get another stepper (nhs/stepper.hpp).
template <class S>
std::string auto_stepper_text(const S& rtol) {
  const Stepper usual = default_stepper<S>(rtol), noisy = default_stepper<S>(rtol, true);
  std::string text = "auto: " + std::string(stepper_name(usual));
  if (noisy != usual) {
    std::string names;
    for (const auto& f : formulations<S>())
      if (f->round_off_grows_with_speed()) names += (names.empty() ? "" : ", ") + f->name();
    text += " (" + std::string(stepper_name(noisy)) + " for " + names + ")";
  }
  return text;
}

/// The settings line of summary.md and the settings of summary.json for S.
template <class S>
void add_settings(const VerifyOptions& opts, const Settings<S>& set, int n_states, Report& report) {
  const std::string precision(ScalarName<S>::value);
  report.settings_lines.push_back(fmt::format(
      "{}: qddot agreement <= {}; analytic error <= {} x (1 + max |exact|); energy, |C|, "
      "invariant drift <= {} x (1 + scale); stepper {}, rtol = atol = {}; {} random states per study{}",
      precision, short_figure(set.cross), short_figure(set.analytic), short_figure(set.invariants),
      auto_stepper_text(set.rtol), short_figure(set.rtol), n_states,
      opts.quick ? "; QUICK: runs cut at t = 2" : ""));
  report.settings_json.push_back(nlohmann::ordered_json{
      {"precision", precision},
      {"qddot_agreement", to_double(set.cross)},
      {"analytic_error", to_double(set.analytic)},
      {"drift", to_double(set.invariants)},
      {"stepper", auto_stepper_text(set.rtol)},
      {"rtol", to_double(set.rtol)},
      {"atol", to_double(set.atol)},
      {"random_states", n_states},
      {"quick", opts.quick}});
}

/// (1) The agreement of the formulations fs (applicable at st's default
/// system sys0; the negative control among them) at n_states random
/// regular states of st, drawn from the seed 20261122 + si (si: st's index
/// in the selection): cross_check_random_states, folded into figs (one per
/// formulation), with the checks, failures and notes of the report.
/// fields (empty, or one per formulation, null where none): the fields
/// that `nhs verify` and `nhs check` integrate in place of the library's
/// formulations (default_field), cross-checked at the same states with all
/// of them: a check "generated field agreement" or "traced field agreement"
/// (field_backend_name) of the formulation's row, under the same bound.
template <class S>
void check_agreement(const VerifyOptions& opts, const Study<S>& st, std::size_t si, const System<S>& sys0,
                     const std::vector<const Formulation<S>*>& fs,
                     const std::vector<std::shared_ptr<const Formulation<S>>>& fields, const Settings<S>& set,
                     int n_states, std::vector<Figures<S>>& figs, Report& report) {
  const std::string precision(ScalarName<S>::value);
  const auto t0 = Clock::now();
  std::mt19937_64 rng(20261122 + si);
  // The formulations and, after them, the fields; row[k]: the row of entry k.
  std::vector<const Formulation<S>*> all = fs;
  std::vector<std::size_t> row(fs.size());
  for (std::size_t i = 0; i < fs.size(); ++i) row[i] = i;
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (fields[i]) {
      all.push_back(fields[i].get());
      row.push_back(i);
    }
  // A file's random state that some formulation finds singular, or at a
  // singular set of psi or C, is skipped (opts.system); else an error fails.
  const RandomStatesCheck<S> rc = cross_check_random_states(st, sys0, rng, n_states, all, !opts.system.empty());
  for (const RandomStateError& e : rc.errors) {
    figs[row[e.formulation]].pass = false;
    add_line(report.failures, fmt::format("{} / {} / {}: random state {}: {}", st.info.name,
                                          all[e.formulation]->name(), precision, e.state, e.message));
  }
  for (std::size_t k = fs.size(); k < all.size(); ++k) {  // the fields
    const RandomStateFigures<S>& r = rc.figures[k];
    const std::string& name = fs[row[k]]->name();
    if (!r.qddot) continue;  // every state skipped (said below)
    const std::string kind =
        std::string(field_backend_name(generated::field_backend_of(*all[k]))) + " field agreement";
    Check c{st.info.name, name, precision, "random states", kind};
    c.value = to_double(*r.qddot);
    c.tolerance = to_double(set.cross);
    c.pass = *r.qddot <= set.cross;
    add_check(report, std::move(c));
    add_line(report.notes, fmt::format("{} / {} / {}: {}: its runs integrate {}, the field of `nhs run` and "
                                       "`nhs accel`; its qddot agrees with every formulation's to {} at the "
                                       "random states",
                                       st.info.name, name, precision, kind, all[k]->name(), short_figure(*r.qddot)));
    if (!(*r.qddot <= set.cross)) {
      figs[row[k]].pass = false;
      add_line(report.failures,
               fmt::format("{} / {} / {}: qddot disagreement of {} {} > {} (largest with {} at random state {})",
                           st.info.name, name, precision, all[k]->name(), short_figure(*r.qddot),
                           short_figure(set.cross), r.worst_with, r.worst_state));
    }
  }
  std::vector<std::string> worst_cross(fs.size());  // the pair and state of each figs[i].cross
  for (std::size_t i = 0; i < fs.size(); ++i) {
    const RandomStateFigures<S>& r = rc.figures[i];
    figs[i].cross = r.qddot;
    figs[i].reaction = r.reaction;
    if (r.qddot)
      worst_cross[i] = r.worst_with + " at random state " + std::to_string(r.worst_state) + ", q = " +
                       to_string(r.worst_at.q) + ", qdot = " + to_string(r.worst_at.qdot);
  }
  if (fs.size() < 2)
    add_line(report.notes, st.info.name + " / " + precision +
                           ": fewer than two applicable formulations; no agreement check");
  if (rc.skipped > 0)
    add_line(report.notes, fmt::format("{} / {}: {} of {} random states skipped (singular for "
                                       "some formulation, near a singular set of the system, "
                                       "or outside psi's domain)",
                                       st.info.name, precision, rc.skipped, n_states));
  if (rc.skipped == n_states) {
    add_line(report.failures, fmt::format("{} / {}: every random state was singular; no "
                                          "agreement check", st.info.name, precision));
    for (auto& fg : figs) fg.pass = false;
  }
  for (std::size_t i = 0; i < fs.size(); ++i) {
    // For summary.json: the agreement figures against their bound (the
    // negative control's do not count).
    for (const auto& [kind, v] : {std::pair{"qddot agreement", &figs[i].cross},
                                  std::pair{"reaction agreement", &figs[i].reaction}}) {
      if (!*v || (fs.size() < 2 && std::string(kind) == "qddot agreement")) continue;
      Check c{st.info.name, fs[i]->name(), precision, "random states", kind};
      c.value = to_double(**v);
      c.tolerance = to_double(set.cross);
      c.pass = **v <= set.cross;
      c.counts = !fs[i]->is_negative_control();
      add_check(report, std::move(c));
    }
    if (!fs[i]->is_negative_control() && figs[i].reaction && !(*figs[i].reaction <= set.cross)) {
      figs[i].pass = false;
      add_line(report.failures, fmt::format("{} / {} / {}: reaction/multiplier disagreement {} > {}",
                                            st.info.name, fs[i]->name(), precision,
                                            short_figure(*figs[i].reaction), short_figure(set.cross)));
    }
    if (fs.size() >= 2 && !fs[i]->is_negative_control() && figs[i].cross && !(*figs[i].cross <= set.cross)) {
      figs[i].pass = false;
      add_line(report.failures, fmt::format("{} / {} / {}: qddot disagreement {} > {} (largest with {})",
                                            st.info.name, fs[i]->name(), precision,
                                            short_figure(*figs[i].cross), short_figure(set.cross),
                                            worst_cross[i]));
    }
  }
  if (!opts.quiet)
    fmt::print(stderr, "  {:<16} qddot agreement at {} random states ({} formulations): {:.2f} s\n",
             st.info.name, n_states, fs.size(), seconds_since(t0));
}

/// The end times of the runs of check_motions with f (none for the
/// negative control), quick-cut as there.
template <class S>
std::vector<S> planned_run_ends(const VerifyOptions& opts, const Study<S>& st, const Formulation<S>& f) {
  std::vector<S> ends;
  if (f.is_negative_control()) return ends;
  using std::min;
  for (const SpecialMotion<S>& mo : st.special_motions())
    if (!mo.excluded.count(f.name())) ends.push_back(opts.quick ? min(mo.t_end, S(2)) : mo.t_end);
  if (!st.default_run_excluded.count(f.name())) ends.push_back(opts.quick ? S(2) : S(20));
  return ends;
}

/// (2), (3) The special motions of st and the default-state run (to t = 20,
/// or 2 with --quick) with formulation f (check_run), folded into fig;
/// returns the seconds taken. The negative control is not integrated.
/// field: what is integrated in place of f (default_field); null: f.
template <class S>
double check_motions(const VerifyOptions& opts, const Study<S>& st, const System<S>& sys0,
                     const Formulation<S>& f, const Formulation<S>* field, const Settings<S>& set,
                     const std::string& energy_reason, Figures<S>& fig, Report& report) {
  const Formulation<S>& integrated = field ? *field : f;
  const std::string precision(ScalarName<S>::value);
  const auto t0 = Clock::now();
  if (f.is_negative_control()) {  // wrong motions by design: not integrated
    add_line(report.notes, st.info.name + " / " + f.name() + " / " + precision +
                           ": negative control; its row gives its qddot disagreement with the "
                           "valid formulations (expected where it fails), never a failure");
    return 0;
  }
  const std::filesystem::path dir = std::filesystem::path(opts.out_dir) / "trajectories";
  const S quick_t = S(2);
  const std::string prefix = st.info.name + "." + f.name() + "." + precision + ".";
  const std::string who = st.info.name + " / " + f.name() + " / " + precision;
  for (const SpecialMotion<S>& mo : st.special_motions()) {
    if (const auto ex = mo.excluded.find(f.name()); ex != mo.excluded.end()) {
      add_line(report.notes, who + ": " + mo.name + ": not run (" + ex->second + ")");
      continue;
    }
    const System<S> sys = st.build(mo.parameters);
    using std::min;
    const S t_end = opts.quick ? min(mo.t_end, quick_t) : mo.t_end;
    check_run<S>(Check{st.info.name, f.name(), precision, mo.name}, sys, st, energy_reason, integrated, mo.initial, t_end,
                 S(1) / S(2), set, mo.exact, dir / (prefix + slug(mo.name) + ".csv"), fig, report);
  }
  if (const auto ex = st.default_run_excluded.find(f.name()); ex != st.default_run_excluded.end()) {
    add_line(report.notes, who + ": default state: not run (" + ex->second + ")");
    return seconds_since(t0);
  }
  const State<S> x0 = st.default_state(sys0);
  check_run<S>(Check{st.info.name, f.name(), precision, "default state"}, sys0, st, energy_reason, integrated, x0,
               opts.quick ? quick_t : S(20), S(1) / S(10), set, {}, dir / (prefix + "default-state.csv"), fig,
               report);
  return seconds_since(t0);
}

/// The table's row of formulation f of study st from its figures.
template <class S>
Row make_row(const Study<S>& st, const Formulation<S>& f, const Figures<S>& fig, double seconds,
             const Settings<S>& set) {
  Row row{st.info.name, f.name(), std::string(ScalarName<S>::value)};
  const auto figure = [](const std::optional<S>& v) { return v ? short_figure(*v) : std::string("-"); };
  row.cross = figure(fig.cross);
  row.reaction = figure(fig.reaction);
  row.analytic = figure(fig.analytic);
  row.energy = figure(fig.energy);
  row.constraint = figure(fig.constraint);
  row.invariants = figure(fig.invariants);
  row.seconds = seconds;
  row.pass = fig.pass;
  row.cross_digits = digits(fig.cross);
  row.analytic_digits = digits(fig.analytic);
  std::optional<S> drift;
  for (const auto* v : {&fig.energy, &fig.constraint, &fig.invariants})
    if (*v) Figures<S>::raise(drift, **v);
  row.drift_digits = digits(drift);
  if (f.is_negative_control())
    row.control = std::string("negative control: ") + (fig.cross && !(*fig.cross <= set.cross) ? "disagrees" : "agrees");
  return row;
}

/// Refuses, as `nhs run` does (InvalidState or SingularState, exit 3), a
/// default state (a file's [initial]) that admit_state would not admit:
/// off C beyond the default tolerance, or where dC/dqdot loses rank. The
/// runs from it could only fail, each under its own name.
template <class S>
void require_admissible_default_state(const Study<S>& st, const System<S>& sys0, bool from_file) {
  const State<S> x0 = st.default_state(sys0);
  const std::string what =
      (from_file ? "the file's [initial] state of '" : "the default state of '") + st.info.name + "': ";
  try {
    (void)admit_state(sys0, x0.q, x0.qdot, default_manifold_tolerance<S>());
  } catch (const SingularState& e) {
    throw SingularState(e.condition, what + e.what());
  } catch (const InvalidState& e) {
    throw InvalidState(what + e.what());
  } catch (const UsageError& e) {  // not finite
    throw InvalidState(what + e.what());
  }
}

/// Every check of every selected study in precision S, into the report.
template <class S>
void verify_scalar(const VerifyOptions& opts, Report& report) {
  const std::string precision(ScalarName<S>::value);
  const Settings<S> set = settings<S>(!opts.system.empty());
  const int n_states = opts.quick ? std::min(opts.states, 10) : opts.states;
  const auto start = Clock::now();
  add_settings(opts, set, n_states, report);
  if (!opts.quiet) fmt::print(stderr, "{} {}:\n", opts.system.empty() ? "verify" : "check", precision);
  std::vector<const Study<S>*> selected;
  if (opts.system.empty()) {
    for (const Study<S>& st : studies<S>()) selected.push_back(&st);
  } else {
    selected.push_back(&find_study<S>(opts.system));
  }
  // Why a system file's energy is not a first integral (its notes say it).
  const std::string energy_reason = !opts.system.empty() && is_system_file_name(opts.system)
                                        ? energy_not_conserved_reason(*cached_system_file(opts.system))
                                        : std::string();
  for (std::size_t si = 0; si < selected.size(); ++si) {
    const Study<S>& st = *selected[si];
    const System<S> sys0 = st.build(st.default_parameters());
    require_admissible_default_state(st, sys0, is_system_file_name(opts.system));
    std::vector<const Formulation<S>*> fs;
    for (const auto& f : formulations<S>()) {
      const std::string why = f->not_applicable_reason(sys0);
      if (why.empty())
        fs.push_back(f.get());
      else
        add_unique_line(report.notes, st.info.name + " / " + f->name() + ": not applicable: " + why);
    }
    std::vector<Figures<S>> figs(fs.size());
    std::vector<double> secs(fs.size(), 0);
    // The runs integrate the field of `nhs run` and `nhs accel`
    // (default_field: a built-in study's generated code, a file's traced
    // field), which check_agreement cross-checks with every formulation.
    const std::string& system = opts.system.empty() ? st.info.name : opts.system;
    std::vector<std::shared_ptr<const Formulation<S>>> fields(fs.size());
    for (std::size_t i = 0; i < fs.size(); ++i)
      if (!fs[i]->is_negative_control()) fields[i] = default_field<S>(system, *fs[i]);
    check_agreement(opts, st, si, sys0, fs, fields, set, n_states, figs, report);
    double total_time = 0;
    int runs = 0;
    for (const auto* f : fs)
      for (const S& t : planned_run_ends(opts, st, *f)) {
        total_time += to_double(t);
        ++runs;
      }
    report.progress = std::make_unique<RunProgress>(
        fmt::format("nhs {} {} {}", opts.system.empty() ? "verify" : "check", precision, st.info.name), total_time, runs,
        opts.quiet);
    // One formulation per task (each with its own field: not thread-safe).
    nhs::parallel_for(fs.size(), opts.jobs, [&](std::size_t i) {
      secs[i] = check_motions(opts, st, sys0, *fs[i], fields[i].get(), set, energy_reason, figs[i], report);
    });
    report.progress->clear();
    report.progress.reset();
    for (std::size_t i = 0; i < fs.size(); ++i) report.rows.push_back(make_row(st, *fs[i], figs[i], secs[i], set));
  }
  report.precision_seconds.emplace_back(precision, seconds_since(start));
}

/// cells (row 0 the head, every row as long) as a table: Markdown (cells
/// between '|', the separator row after the head; with escape_bars, a '|'
/// in a cell written \|) or plain text (columns padded to their widest
/// cell plus 2); trailing blanks dropped, one line a row.
std::string render_table(const std::vector<std::vector<std::string>>& cells, bool markdown,
                         bool escape_bars) {
  const std::size_t columns = cells.front().size();
  std::vector<std::size_t> width(columns, 0);
  for (const auto& line : cells)
    for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
  std::string out;
  for (std::size_t l = 0; l < cells.size(); ++l) {
    std::string line = markdown ? "|" : "";
    for (std::size_t c = 0; c < columns; ++c) {
      const std::string& cell = cells[l][c];
      if (markdown && escape_bars) {
        std::string esc;
        for (char ch : cell) esc += ch == '|' ? std::string("\\|") : std::string(1, ch);
        line += " " + esc + " |";
      } else if (markdown) {
        line += " " + cell + " |";
      } else {
        line += fmt::format("{:<{}}", cell, width[c] + 2);
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    if (l == 0 && markdown) {
      out += "|";
      for (std::size_t c = 0; c < columns; ++c) out += "---|";
      out += "\n";
    }
  }
  return out;
}

std::string table(const std::vector<Row>& rows, bool markdown) {
  const std::vector<std::string> head = {"study", "formulation", "precision", "max qddot disagreement",
                                         "max R, lambda disagreement",
                                         "error vs analytic", "energy drift", "max |C|",
                                         "invariant drift", "time [s]", "result"};
  std::vector<std::vector<std::string>> cells = {head};
  for (const Row& r : rows)
    cells.push_back({r.study, r.formulation, r.precision, r.cross, r.reaction, r.analytic, r.energy, r.constraint,
                     r.invariants, fmt::format("{:.1f}", r.seconds),
                     !r.control.empty() ? r.control : r.pass ? "pass" : "FAIL"});
  return render_table(cells, markdown, true);
}

/// The digits reached, study x precision: each cell "cross / analytic /
/// drift", the smallest -log10 over the study's valid formulations (the
/// negative control left out) of the largest qddot disagreement, error
/// against the analytic special motions, and drift of energy, |C| and the
/// invariants; "-" where there is no figure, "exact" for 0.
/// The digits of one cell of digits_table: the smallest cross, analytic and
/// drift digits over the valid rows of `study` in `precision` (NaN where no
/// row has a figure).
std::array<double, 3> digits_cell(const std::vector<Row>& rows, const std::string& study,
                                  const std::string& precision) {
  std::array<double, 3> out{std::nan(""), std::nan(""), std::nan("")};
  const auto low = [](double& acc, double v) {
    if (!std::isnan(v)) acc = std::isnan(acc) ? v : std::min(acc, v);
  };
  for (const Row& r : rows)
    if (r.study == study && r.precision == precision && r.control.empty()) {
      low(out[0], r.cross_digits);
      low(out[1], r.analytic_digits);
      low(out[2], r.drift_digits);
    }
  return out;
}

std::string digits_table(const std::vector<Row>& rows, const std::vector<std::string>& precisions,
                         bool markdown) {
  std::vector<std::string> studies_seen;
  for (const Row& r : rows)
    if (std::find(studies_seen.begin(), studies_seen.end(), r.study) == studies_seen.end())
      studies_seen.push_back(r.study);
  std::vector<std::string> used;
  for (const auto& p : precisions)
    for (const Row& r : rows)
      if (r.precision == p) {
        used.push_back(p);
        break;
      }
  const auto cell = [](double v) {
    if (std::isnan(v)) return std::string("-");
    if (std::isinf(v)) return std::string("exact");
    return fmt::format("{:.1f}", v);
  };
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> head = {"study"};
  for (const auto& p : used) head.push_back(p);
  cells.push_back(head);
  for (const auto& st : studies_seen) {
    std::vector<std::string> line = {st};
    for (const auto& p : used) {
      const auto [c, a, d] = digits_cell(rows, st, p);
      line.push_back(cell(c) + " / " + cell(a) + " / " + cell(d));
    }
    cells.push_back(line);
  }
  return render_table(cells, markdown, false);
}

/// A digits figure for JSON: null where there is none, "exact" for an
/// exact 0 (+inf digits).
nlohmann::ordered_json digits_json(double v) {
  if (std::isnan(v)) return nullptr;
  if (std::isinf(v)) return "exact";
  return v;
}

/// summary.json: the data of summary.md for programs (scripts/check_report.py).
/// Numbers are doubles (null where there is none); "checks" holds every
/// figure against its bound, "runs" every integrated run with its CSV
/// (relative to the out-dir) and the names of the CSV's columns; checks and
/// runs in the order of the rows (the worker threads' order is not kept).
nlohmann::ordered_json summary_json(const Report& report, const VerifyOptions& opts,
                                    const std::string& command, const std::string& date,
                                    bool pass, const std::vector<std::string>& precisions) {
  using json = nlohmann::ordered_json;
  // Where (study, formulation, precision) stands in the table.
  const auto row_index = [&](const std::string& st, const std::string& f, const std::string& p) {
    for (std::size_t i = 0; i < report.rows.size(); ++i)
      if (report.rows[i].study == st && report.rows[i].formulation == f && report.rows[i].precision == p)
        return i;
    return report.rows.size();
  };
  const auto num = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  // A record of a row, check or run: its key (study, formulation,
  // precision), then the entries of `rest` in their order.
  const auto keyed = [](const auto& r, const json& rest) {
    json e = {{"study", r.study}, {"formulation", r.formulation}, {"precision", r.precision}};
    for (const auto& [k, v] : rest.items()) e[k] = v;
    return e;
  };
  json j;
  j["tool"] = "nhs";
  j["command"] = command;
  j["system"] = opts.system;
  j["generated"] = date;
  j["pass"] = pass;
  j["quick"] = opts.quick;
  j["settings"] = report.settings_json;
  json rows = json::array();
  for (const Row& r : report.rows)
    rows.push_back(keyed(r, {{"qddot_disagreement", r.cross},
                             {"reaction_disagreement", r.reaction},
                             {"error_vs_exact", r.analytic},
                             {"energy_drift", r.energy},
                             {"max_C", r.constraint},
                             {"invariant_drift", r.invariants},
                             {"seconds", r.seconds},
                             {"negative_control", !r.control.empty()},
                             {"result", !r.control.empty() ? r.control : r.pass ? "pass" : "FAIL"},
                             {"pass", r.pass}}));
  j["rows"] = rows;
  // A copy of v (checks or runs) in the order of their rows, stably.
  const auto in_row_order = [&](auto v) {
    std::stable_sort(v.begin(), v.end(), [&](const auto& a, const auto& b) {
      return row_index(a.study, a.formulation, a.precision) < row_index(b.study, b.formulation, b.precision);
    });
    return v;
  };
  const std::vector<Check> sorted_checks = in_row_order(report.checks);
  const std::vector<RunRecord> sorted_runs = in_row_order(report.runs);
  json checks = json::array();
  for (const Check& c : sorted_checks) {
    json e = keyed(c, {{"run", c.run},
                       {"kind", c.kind},
                       {"value", num(c.value)},
                       {"tolerance", num(c.tolerance)},
                       {"pass", c.pass},
                       {"counts", c.counts}});
    if (!c.invariant.empty()) e["invariant"] = c.invariant;
    if (!c.detail.empty()) e["detail"] = c.detail;
    checks.push_back(e);
  }
  j["checks"] = checks;
  json runs = json::array();
  for (const RunRecord& r : sorted_runs)
    runs.push_back(keyed(r, {{"run", r.run},
                             {"csv", r.csv},
                             {"exact", r.exact},
                             {"energy_checked", r.energy_checked},
                             {"completed", r.failure.empty()},
                             {"failure", r.failure},
                             {"samples", r.samples},
                             {"t_end", num(r.t_end)},
                             {"t_last", num(r.t_last)},
                             {"columns",
                              {{"coordinates", r.coordinates},
                               {"constraints", r.constraint_columns},
                               {"invariants", r.invariant_columns},
                               {"invariants_conserved", r.invariant_conserved},
                               {"margins", r.margin_columns}}}}));
  j["runs"] = runs;
  json digits = json::array();
  std::vector<std::string> studies;
  for (const Row& r : report.rows)
    if (std::find(studies.begin(), studies.end(), r.study) == studies.end()) studies.push_back(r.study);
  for (const auto& st : studies)
    for (const auto& p : precisions) {
      if (std::none_of(report.rows.begin(), report.rows.end(),
                       [&](const Row& r) { return r.study == st && r.precision == p; }))
        continue;
      const auto [c, a, d] = digits_cell(report.rows, st, p);
      digits.push_back({{"study", st}, {"precision", p}, {"cross", digits_json(c)},
                        {"analytic", digits_json(a)}, {"drift", digits_json(d)}});
    }
  j["digits"] = digits;
  j["failures"] = report.failures;
  j["notes"] = report.notes;
  return j;
}

}  // namespace

int verify_command(const VerifyOptions& opts) {
  VerifyOptions o = opts;
  if (o.jobs == 0) o.jobs = std::max(1u, std::thread::hardware_concurrency());
  if (o.jobs > kMaxJobs)
    throw UsageError("--jobs " + std::to_string(o.jobs) + ": at most " + std::to_string(kMaxJobs) +
                     " worker threads (one per core is the most that helps)");
  if (opts.states < 1) throw UsageError("--states must be at least 1");
  std::vector<std::string> names = precision_names();
  // "all", one name, or a comma-separated list of names.
  std::vector<std::string> selected;
  // "all" in a list stands for every precision; repeated names count once.
  std::size_t item_start = 0;
  while (true) {
    const std::size_t comma = opts.precision.find(',', item_start);
    const std::string item = opts.precision.substr(
        item_start, comma == std::string::npos ? comma : comma - item_start);
    if (item == "all") {
      selected.insert(selected.end(), names.begin(), names.end());
    } else if (std::find(names.begin(), names.end(), item) == names.end()) {
      throw UsageError("unknown precision '" + item + "' (known: all, " + join(names) + ")");
    } else {
      selected.push_back(item);
    }
    if (comma == std::string::npos) break;
    item_start = comma + 1;
  }
  const auto wanted = [&](const char* name) {
    return std::find(selected.begin(), selected.end(), name) != selected.end();
  };
  // `nhs check FILE`: nothing it writes (or removes: an older report.md)
  // may be the system file.
  if (is_system_file_name(opts.system))
    for (const char* name : {"summary.md", "summary.json", "report.md", "report.log"})
      refuse_overwriting(opts.system, (std::filesystem::path(opts.out_dir) / name).string(), "--out-dir");
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(opts.out_dir) / "trajectories", ec);
  if (ec) throw IoError("--out-dir: cannot create '" + opts.out_dir + "/trajectories': " + ec.message());

  const auto start = Clock::now();
  Report report;
  report.quiet = opts.quiet;
#define NHS_CLI_VERIFY_(T, NAME) \
  if (wanted(NAME)) verify_scalar<T>(o, report);
  NHS_FOR_EACH_SCALAR(NHS_CLI_VERIFY_)
#undef NHS_CLI_VERIFY_
  const double total = seconds_since(start);

  bool pass = !report.rows.empty();
  for (const Row& r : report.rows) pass = pass && r.pass;

  std::string timing = fmt::format("total {:.1f} s", total);
  for (const auto& [p, s] : report.precision_seconds) timing += fmt::format("; {} {:.1f} s", p, s);

  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  const std::string command = "nhs " + (opts.system.empty() ? "verify" : "check " + opts.system) +
                              " --precision " + opts.precision + " --states " +
                              std::to_string(opts.states) + (opts.quick ? " --quick" : "");
  std::ostringstream md;
  md << "# nhs " << (opts.system.empty() ? "verify" : "check " + opts.system) << ": " << (pass ? "all checks pass" : "FAILURES") << "\n\n"
     << "Generated " << date << " by `" << command << "`; wall time: " << timing << ".\n\n"
     << "Each row: one study, formulation and precision. *max qddot disagreement*: largest "
        "relative difference (max-norm) of qddot against every other applicable formulation at "
        "random regular states (half at default parameters, half at parameters randomized: "
        "defaults x U(0.5, 1.5), zero defaults U(0.5, 2)). *max R, lambda disagreement*: at the "
        "same states, the reactions R_i and the multipliers (as forces C_qdot^T lambda) against "
        "every other formulation that defines them, relative to the size of the Lagrange "
        "equation's terms (same threshold as qddot). *error vs analytic*: largest max-norm "
        "error over (q, qdot) at the output samples (every 0.5) of each special motion, "
        "integrated to its t_end; its bound is scaled by (1 + the largest max-norm of the exact "
        "(q, qdot) along the motion), as the integrators scale theirs (atol + rtol |x|). *energy drift* = max |E - E0| over the runs that conserve "
        "energy; *max |C|* and *invariant drift* (the study's conserved invariants) over the "
        "special motions and the default-state run to t = 20. Trajectories: `trajectories/*.csv`.\n\n"
     << "Thresholds and settings:\n\n";
  for (const auto& s : report.settings_lines) md << "- " << s << "\n";
  md << "\n" << table(report.rows, true) << "\n";
  md << "## Digits reached\n\n"
     << "Per study and precision: -log10 of the largest qddot disagreement between "
        "formulations / of the largest error against the analytic special motions / of the "
        "largest drift of energy, |C| and the conserved invariants (absolute), the worst "
        "valid formulation of the study (the negative control left out).\n\n"
     << digits_table(report.rows, names, true) << "\n";
  if (!report.failures.empty()) {
    md << "## Failures\n\n";
    for (const auto& f : report.failures) md << "- " << f << "\n";
    md << "\n";
  }
  if (!report.notes.empty()) {
    md << "## Notes\n\n";
    for (const auto& n : report.notes) md << "- " << n << "\n";
  }
  const std::filesystem::path summary = std::filesystem::path(opts.out_dir) / "summary.md";
  if (!opts.system.empty()) {  // an older run's report would describe another check
    std::error_code rm_ec;
    std::filesystem::remove(std::filesystem::path(opts.out_dir) / "report.md", rm_ec);
  }
  write_text_file(summary.string(), md.str());
  const std::filesystem::path summary_js = std::filesystem::path(opts.out_dir) / "summary.json";
  {
    nlohmann::ordered_json j = summary_json(report, opts, command, date, pass, names);
    j["wall_seconds"] = total;
    write_text_file(summary_js.string(), j.dump(1) + "\n");
  }

  if (opts.quiet) return pass ? 0 : 1;
  fmt::print("{}", table(report.rows, false));
  fmt::print("\ndigits reached (cross / analytic / drift):\n{}", digits_table(report.rows, names, false));
  for (const auto& f : report.failures) fmt::print("FAIL: {}\n", f);
  // `nhs check`: the report with figures. Its outcome never changes the
  // exit code (a failure is one warning line on stderr).
  std::string made = summary.string();
  if (!opts.system.empty() && !opts.no_report) {
    flush_stdout();
    if (run_check_report(opts.out_dir))
      made += ", " + (std::filesystem::path(opts.out_dir) / "report.md").string();
  }
  fmt::print("{}: {} rows, {} failures; {}; report in {}\n", pass ? "PASS" : "FAIL",
             report.rows.size(), report.failures.size(), timing, made);
  return pass ? 0 : 1;
}

}  // namespace nhs::cli
