// `nhs sweep SYSTEM SPEC.toml` (docs/sweeps.md): every case of a sweep
// specification (nhs/studies/sweep_spec.hpp) run as `nhs run` runs a
// motion, with one row of metrics per case, on threads or, started by
// mpirun, on MPI ranks (sweep_mpi.h). Three parts:
//   sweep_case.cpp    the columns and one case's row (SweepCases);
//   sweep_output.cpp  the output directory, appended and flushed per case,
//                     and what an interrupted sweep already did (SweepOutput);
//   sweep.cpp         the work units, the engines, progress, the command.
#pragma once

#include "nhs/studies/sweep_spec.hpp"

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace nhs::cli {

struct SweepOptions {
  std::string system;  ///< a built-in study or a system file
  std::string spec;    ///< the sweep specification (TOML)
  std::string out;     ///< the output directory (created)
  unsigned jobs = 0;   ///< threads; 0: one per core (ignored under mpirun: one case per rank)
  bool restart = false;  ///< discard what `out` holds instead of resuming
  /// Check the spec and print its cases (case number and axis values, CSV)
  /// on stdout, then its count on stderr; run nothing, write no output.
  bool dry_run = false;
};

/// The status of a case in its row: "ok" (reached t_end), or why not:
/// "refused" (a usage error of the case: a formulation that does not
/// apply, a tolerance below the stepper's floor), "invalid-state" (off C),
/// "singular" (a singular set reached or the initial state on one),
/// "budget" (more than max_rhs_calls), "integration-failure" (step size
/// underflow), "non-finite" (an overflow or NaN), "skipped" (after a case
/// over the budget along [sweep] stop_after_budget).
inline bool is_failure_status(const std::string& status) { return status != "ok" && status != "skipped"; }

/// The cases of one spec on one system: the columns and the row of any case.
/// Rows depend on nothing but the spec, the system and the case index (no
/// engine, thread or order), so every engine writes the same rows; only
/// the column wall_s differs from run to run.
class SweepCases {
 public:
  /// Loads the spec against `system`'s names (load_sweep_spec): FileError
  /// (exit 2) for a bad spec, UsageError for an unknown system.
  SweepCases(std::string system, const std::string& spec_path);

  const SweepSpec& spec() const { return spec_; }
  const std::string& system() const { return system_; }
  /// The header: case, one column per axis (its name as written), then
  /// the metrics' columns (sweep_metrics: status, reason, t_reached, steps,
  /// rhs_calls, max_C, energy_drift, balance_drift, drift_<invariant>..., max_error,
  /// min_margin, margin_name, singular_set, t_singular,
  /// final_<coordinate>..., final_<coordinate>_dot..., wall_s).
  const std::vector<std::string>& columns() const { return columns_; }
  std::uint64_t count() const { return count_; }
  /// Index of column `name` in columns(); -1 when absent.
  int column(const std::string& name) const;

  /// Runs case `index` (< count()) and returns its row (size columns()):
  /// numbers as decimal text that round-trips the case's precision, empty
  /// cells for what the case did not reach. A case that fails is a row
  /// with its status and reason; throws only Interrupted (SIGINT: the case
  /// is not done) and what cannot be a case's fault (std::bad_alloc).
  /// With [sweep] series, *series receives the case's samples as CSV
  /// (series_columns()), up to the failure for a case that fails.
  std::vector<std::string> run(std::uint64_t index, std::string* series = nullptr) const;
  /// The header of a case's series: t, max_C, energy_error, then
  /// drift_<invariant> for each conserved invariant.
  std::vector<std::string> series_columns() const;
  /// The row of a case not run: status "skipped" with `reason`.
  std::vector<std::string> skipped(std::uint64_t index, const std::string& reason) const;
  /// A fingerprint of the spec's text and the system (a file's text too):
  /// an output directory is resumed only by the same sweep.
  const std::string& fingerprint() const { return fingerprint_; }

 private:
  std::string system_;
  SweepSpec spec_;
  std::vector<std::string> columns_, invariants_, coordinates_;
  std::uint64_t count_ = 0;
  std::string fingerprint_;
  /// A row with the case number and its axis values, every metric empty.
  std::vector<std::string> base_row(std::uint64_t index, const std::vector<std::string>& values) const;
};

/// CSV (RFC 4180) of cells: quoted where a cell holds a comma, a quote or
/// starts with a space; line ends and separators never occur in cells.
std::string csv_line(const std::vector<std::string>& cells);
/// Inverse of csv_line for one line without its '\n'; false when malformed.
bool parse_csv_line(const std::string& line, std::vector<std::string>& cells);

/// The output directory of a sweep: cases.csv and cases.jsonl (one row a
/// case, appended and flushed as cases end), sweep.json (what ran: system,
/// spec, fingerprint, columns, counts; rewritten at the start and the end).
/// On opening, rows already in cases.csv (complete lines of the same sweep)
/// are the cases done; a partial last line (a killed sweep) is dropped.
/// When every case is done, both files are rewritten in case order, so
/// that a sweep's final files do not depend on its engine.
class SweepOutput {
 public:
  /// Opens or creates `dir` for `cases`. With restart, discards its rows.
  /// Throws UsageError when dir holds another sweep (another fingerprint)
  /// and restart is not given, or when another process is writing to it
  /// (DIR/.lock, flock); IoError when it cannot be written.
  SweepOutput(const std::string& dir, const SweepCases& cases, bool restart, const std::string& command);
  ~SweepOutput();
  SweepOutput(const SweepOutput&) = delete;
  SweepOutput& operator=(const SweepOutput&) = delete;

  /// The row of each case done (from the file, then as written), by case.
  const std::map<std::uint64_t, std::vector<std::string>>& done() const { return rows_; }
  std::uint64_t resumed() const { return resumed_; }
  /// Appends one row (cells as SweepCases::run) to both files and flushes;
  /// a non-empty `series` (SweepCases::run's) goes first to
  /// series/<case>.csv, so that a row on disk has its series. IoError when
  /// the disk refuses it.
  void write(const std::vector<std::string>& row, const std::string& series = std::string());
  /// When every case is done: the files in case order, sweep.json with the
  /// totals (and, from the MPI engine, master_busy_s: the master's time in
  /// handing out units and writing rows). Returns whether every case is done.
  bool finish(const std::string& engine, double wall_s, double master_busy_s = -1);
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  const SweepCases& cases_;
  std::string command_;
  std::FILE* csv_ = nullptr;
  std::FILE* jsonl_ = nullptr;
  int lock_fd_ = -1;  ///< DIR/.lock, held (flock) while the sweep writes
  std::map<std::uint64_t, std::vector<std::string>> rows_;
  std::uint64_t resumed_ = 0;
  void lock();                                 ///< takes DIR/.lock, or UsageError when another sweep holds it
  void read_done_rows();                       ///< the rows of cases.csv of the same sweep (fingerprint), to resume
  void remove_stale_series(bool restart);      ///< series/<case>.csv of the cases not done
  void write_meta(const std::string& engine, double wall_s, bool complete, double master_busy_s = -1) const;
  std::string json_line(const std::vector<std::string>& row) const;
};

/// `nhs sweep`: loads the spec, resumes or starts the output, runs every
/// case not done on threads (or on MPI ranks when started by mpirun with
/// more than one), with progress on stderr. Returns 0 when every case has
/// its row (failed cases included); Interrupted (exit 130) on SIGINT.
int sweep_command(const SweepOptions& opts, const std::string& command);

}  // namespace nhs::cli
