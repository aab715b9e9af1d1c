// Sweep specifications (docs/sweeps.md): a TOML file that names the run
// options shared by every case of `nhs sweep`, the axes that vary
// (parameters, initial-state components, run options) as lists, ranges or
// seeded random samples, how the axes combine (grid, or varying together
// in a group), and the metrics written per case. load_sweep_spec() parses
// and checks it against the system it sweeps; every value stays decimal
// text, read in each case's precision when the case runs, so that a case
// is the same computation on any engine and in any order.
#pragma once

#include "nhs/studies/system_file.hpp"  // FileError

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nhs {

/// What a spec may name, from the system it sweeps and the tool: checked
/// by load_sweep_spec (unknown names are FileErrors listing these).
struct SweepTargets {
  std::vector<std::string> parameters;        ///< SystemInfo::parameters' names
  std::vector<std::string> coordinates;       ///< q^i names, size n
  std::vector<std::string> quasi_velocities;  ///< z^alpha names, size m (empty: no psi)
  std::vector<std::string> motions;           ///< special or [[exact]] motions, by name
  std::vector<std::string> formulations, steppers, precisions;
  std::vector<std::string> invariants;        ///< the study's invariant names (metric columns)
};

/// One axis of a sweep: the quantity it sets (`target`, as written: a
/// parameter name, "q.<coordinate>", "qdot.<coordinate>", "z.<quasi-velocity>"
/// or a run option: formulation, precision, stepper, motion, rtol, atol,
/// tol (rtol = atol), t_end, dt_out, step, max_rhs_calls, max_wall_time; project, library,
/// compiled) and its values, as decimal text (numbers), names, or "true"
/// and "false".
struct SweepAxis {
  std::string target;
  std::vector<std::string> values;
  /// Axes with the same group vary together (their k-th values form one
  /// point; equal counts); each axis without a group is a group of its own.
  std::string group;
  std::string where;  ///< "path:line:column" of the axis in the spec
};

/// A parsed sweep specification. Cases are the grid of its groups in file
/// order (the first group varies slowest), numbered from 0.
struct SweepSpec {
  std::string path;
  std::string text;  ///< the file's text (for the sweep's fingerprint)
  /// [run]: options of every case, as text ("formulation", "precision",
  /// "stepper", "motion", "rtol", "atol", "t_end", "dt_out", "step",
  /// "max_rhs_calls", "singular_margin", "manifold_tol", "max_wall_time"; "project",
  /// "library", "compiled" as "true"/"false"); absent keys: nhs run's defaults.
  std::map<std::string, std::string> run;
  std::vector<std::pair<std::string, std::string>> parameters;  ///< [run.parameters]: name, decimal
  /// [run] q, qdot, z: the base initial state (every component), as decimal
  /// text; empty: the system's default state.
  std::vector<std::string> q, qdot, z;
  /// [sweep] metrics: which of kSweepMetrics are columns (default: all).
  std::vector<std::string> metrics;
  /// [sweep] stop_after_budget: an axis (alone in its group) along which
  /// the cases run in order in one worker, and the cases after one that
  /// exceeds max_rhs_calls are recorded as skipped (a tolerance sweep whose
  /// tighter tolerances cannot be reached). Empty: every case on its own.
  std::string stop_after_budget;
  /// [sweep] series = true: every case also writes its samples (t, max_a
  /// |C^a|, |E - E0| and each conserved invariant's |I - I0|) to
  /// series/<case>.csv in the output directory.
  bool series = false;
  std::vector<SweepAxis> axes;

  /// The number of cases (the product of the groups' counts).
  std::uint64_t case_count() const;
  /// The groups in file order, each as indices into `axes`.
  std::vector<std::vector<std::size_t>> groups() const;
  /// The value of every axis at case `index` (< case_count()), in the order of `axes`.
  std::vector<std::string> case_values(std::uint64_t index) const;
};

/// The metrics a sweep can write, in column order: "status" (always),
/// "t_reached", "steps", "rhs_calls", "max_C", "energy_drift",
/// "balance_drift" (the work-energy balance max |E - E0 - W| where energy
/// is not a first integral, nhs/work_energy.hpp), "invariants" (one drift column per invariant), "error" (against the
/// motion's closed form, with [run] motion), "margin" (the smallest margin
/// to a singular set and its name), "singular" (the singular set that
/// stopped the case, and when), "final_state" (q and qdot at the last
/// sample), "wall_time".
const std::vector<std::string>& sweep_metrics();

/// Parses and checks the spec at `path` against `targets`. Throws FileError
/// ("path:line:column: reason", a usage error, exit 2) for a file that
/// cannot be read or is not TOML, an unknown key, table, target, name or
/// metric, a malformed or non-finite number, an empty list, a range whose
/// count is < 1 (or < 2 with from != to), a random sample without count or
/// seed or with from > to, a log range or sample with a bound <= 0, groups
/// of unequal counts, a target set twice, parameter or state values given
/// with [run] motion (the motion sets them), a q, qdot or z of the wrong
/// length, z axes without a base z, values `nhs run` would refuse in every
/// case (t_end, dt_out, rtol, tol, step <= 0; atol, singular_margin,
/// manifold_tol < 0; max_rhs_calls not a positive integer), a non-zero
/// value that is 0 in double, more than 1e6 values on an axis, more than
/// 1e7 cases, and a spec that is not a regular file or exceeds 16 MiB.
SweepSpec load_sweep_spec(const std::string& path, const SweepTargets& targets);

}  // namespace nhs
