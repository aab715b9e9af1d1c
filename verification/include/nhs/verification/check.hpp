// The checks of `nhs verify` (every built-in study) and `nhs check SYSTEM`
// (one system), typed: for every study x applicable formulation x
// precision,
//   (1) the largest relative disagreement of qddot (and of the reactions
//       and multipliers) with every other applicable formulation at random
//       regular states (half at the default parameters, half at randomized
//       ones), and of the field that `nhs run` integrates by default
//       (default_field: generated, traced) with all of them;
//   (2) the largest error (max-norm over q and qdot at the output samples)
//       against each analytic special motion of the study, integrated to
//       its t_end;
//   (3) energy drift (where the motion conserves energy), max |C| and the
//       drift of the study's conserved invariants along those runs and
//       along the default-state run to t = 20.
// run_checks writes each run's trajectory as CSV under out_dir/trajectories
// (unless told not to) and returns the figures (CheckReport); summary.hpp
// writes them as summary.md and summary.json. The tool (apps/nhs/verify.cpp) and the
// Python module's System.check call these.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nhs {

/// What to check.
struct CheckSpec {
  /// A system file, a bundled system's name or a study id (`nhs check`);
  /// empty: every built-in study (`nhs verify`). For one system, random
  /// states at which a formulation finds the state singular are skipped
  /// and counted, not failures (a file's random states are not designed
  /// regular), and the strict budget of the special-motion tests applies.
  std::string system;
  /// The precisions' names (precision_names), each once, in any order;
  /// parse_precision_list reads the tool's "all" or comma-separated list.
  std::vector<std::string> precisions;
  int states = 50;        ///< random states per study (>= 1)
  bool quick = false;     ///< runs cut at t = 2, at most 10 random states
  unsigned jobs = 0;      ///< worker threads for the runs (<= 1024); 0: one per core
  std::string out_dir = "reports/latest";  ///< trajectories/ and the summaries go there
  /// false: no run's CSV is written and out_dir is neither created nor
  /// read (the Python module's System.check without out_dir); the runs'
  /// figures are the same, and CheckRun::csv is empty.
  bool write_trajectories = true;
};

/// The precisions named by `text`: "all", one name, or a comma-separated
/// list of names ("all" among them stands for every precision; a repeated
/// name counts once). UsageError "unknown precision 'x' (known: all, ...)".
std::vector<std::string> parse_precision_list(const std::string& text);

/// One line of the table: one study, formulation and precision.
struct CheckRow {
  std::string study, formulation, precision;
  std::string cross = "-", reaction = "-", analytic = "-", energy = "-", constraint = "-", invariants = "-";
  /// energy is the work-energy balance max |E - E0 - W| (T + V not a first
  /// integral: the forces or moving constraints do work), not the drift
  /// max |E - E0|; the table marks it "(balance)".
  bool energy_is_balance = false;
  double seconds = 0;
  /// -log10 of the row's figures (NaN where there is none), for the
  /// digits table: cross-formulation disagreement, analytic error, and the
  /// largest of the energy, |C| and invariant drifts.
  double cross_digits = std::nan(""), analytic_digits = std::nan(""), drift_digits = std::nan("");
  bool pass = true;
  std::string control;  ///< a negative control's result ("negative control: disagrees"); empty otherwise
};

/// One check: a figure against its bound.
struct CheckFigure {
  std::string study, formulation, precision;
  std::string run;        ///< the motion's name, "default state", or "random states"
  std::string kind;       ///< "qddot agreement", "reaction agreement", "<backend> field agreement",
                          ///< "error vs exact", "energy drift", "work-energy balance", "max |C|",
                          ///< "invariant drift", "run completed"
  std::string invariant;  ///< the invariant's name (kind "invariant drift")
  double value = std::nan(""), tolerance = std::nan("");  ///< NaN: none
  bool pass = true;
  bool counts = true;  ///< false for the negative control's figures (never a failure)
  std::string detail;  ///< why a run did not complete
};

/// One integrated run: where its CSV is and what its columns are.
struct CheckRun {
  std::string study, formulation, precision, run;
  std::string csv;              ///< relative to out_dir: trajectories/<file>.csv (empty: not written)
  bool exact = false;           ///< the CSV has an "error" column (closed form)
  bool energy_checked = false;  ///< energy is a first integral and no force did work
  std::string failure;          ///< empty: the run reached its t_end
  std::uint64_t samples = 0;
  std::string field;            ///< what integrated it: "generated", "traced", "compiled" or "library"
  std::uint64_t steps = 0, rhs_calls = 0;  ///< accepted steps and field calls
  double seconds = 0;           ///< wall time of the run (with its CSV and figures)
  double t_end = 0, t_last = 0;
  std::vector<std::string> coordinates, constraint_columns, invariant_columns, margin_columns;
  std::vector<bool> invariant_conserved;
};

/// The thresholds and settings of one precision.
struct CheckSettings {
  std::string precision;
  double qddot_agreement = 0, analytic_error = 0, drift = 0, rtol = 0, atol = 0;
  std::string stepper;  ///< what `auto` stands for, e.g. "auto: verner87 (dopri5 for voronec, ...)"
  int random_states = 0;
  bool quick = false;
  std::string line;     ///< the settings as one line of summary.md
};

/// Everything the checks found, over all precisions.
struct CheckReport {
  std::vector<CheckRow> rows;          ///< in the order of precisions, studies, formulations
  std::vector<CheckFigure> checks;     ///< in the order of their rows
  std::vector<CheckRun> runs;          ///< in the order of their rows
  std::vector<std::string> failures;   ///< one line each: what, value, bound
  std::vector<std::string> notes;      ///< not applicable, not conserved, ...
  std::vector<CheckSettings> settings; ///< per precision
  std::vector<std::pair<std::string, double>> precision_seconds;
  double seconds = 0;                  ///< wall time of run_checks
  /// Every row passes (and there is one).
  bool pass() const;
};

/// One planned run of a study's checks, for the progress estimate: the
/// motion's name (the same in every formulation) and its end time.
struct CheckPlannedRun {
  std::string motion;
  double t_end = 0;
};

/// One task of a study's runs: a formulation's runs, integrated one after
/// another on one worker thread (the tasks are taken in order by the first
/// free worker). seconds_per_call: the cost of one call of the field it
/// integrates, measured on a few calls at the initial state before the
/// runs (0: not measured).
struct CheckPlannedTask {
  std::string formulation;
  double seconds_per_call = 0;
  std::vector<CheckPlannedRun> runs;
};

/// How run_checks reports its progress; every method may be called from
/// the worker threads at once and must be thread-safe. The defaults do
/// nothing (quiet).
struct CheckProgress {
  virtual ~CheckProgress() = default;
  /// One line of its own: a precision's start, a study's agreement timing,
  /// a run's result.
  virtual void line(const std::string&) {}
  /// The runs of `study` in `precision` start: `tasks` in the order the
  /// `jobs` worker threads take them (on several, the longest first);
  /// advance's task is an index into this list.
  virtual void runs_started(const std::string& /*precision*/, const std::string& /*study*/,
                            const std::vector<CheckPlannedTask>& /*tasks*/, unsigned /*jobs*/) {}
  /// Run `run` of task `task` has reached simulated time t after
  /// `rhs_calls` calls of its field (t = 0, no call: it starts; then after
  /// each step), or has ended (done: at its end, or failed).
  virtual void advance(std::size_t /*task*/, std::size_t /*run*/, double /*t*/, std::uint64_t /*rhs_calls*/,
                       bool /*done*/) {}
  /// The runs of the study have ended.
  virtual void runs_ended() {}
};

/// Runs every check of `spec` (the header's (1) to (3)), writing each
/// run's CSV into spec.out_dir/trajectories (created; nothing is written
/// without spec.write_trajectories), and returns the
/// figures. Thresholds: nhs/precision_policy.hpp (`verify`: the main
/// budget; `check`: the strict one). Throws UsageError for states < 1, more
/// than 1024 jobs, an unknown precision or system, an out_dir where a
/// summary would overwrite the system file; IoError (exit 5) when a
/// directory or CSV cannot be written, naming it; InvalidState or
/// SingularState when a study's default state (a file's [initial]) is not
/// admissible. A failed check is not an error: it is in the report.
CheckReport run_checks(const CheckSpec& spec, CheckProgress* progress = nullptr);

}  // namespace nhs
