// The options of each `nhs` command as the user typed them (text, parsed in
// the scalar type of the run), and the parsing of numbers, lists,
// parameters and counts, with a UsageError (exit 2) naming the option.
#pragma once

#include "nhs/errors.hpp"
#include "nhs/field_backend.hpp"
#include "nhs/scalar.hpp"
#include "nhs/session/parse.hpp"  // parse_number, parse_vector, parse_count, parse_seconds

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nhs::cli {


/// What `accel` and `run` share: the system, the formulation, the state.
struct StateOptions {
  std::string study;
  /// Empty: the second kind, or udwadia-kalaba where the system's metric
  /// is only semidefinite (default_formulation in setup.hpp).
  std::string formulation;
  std::string precision = "double";
  std::vector<std::string> params;  ///< "name=value", repeated
  std::string q, qdot;              ///< comma-separated; empty: the study's default state
  std::string z;                    ///< with --q instead of --qdot: qdot = psi(q, z)
  std::string manifold_tol;         ///< empty: default_manifold_tolerance<S>()
  /// The state's time t (ProblemSpec::t; a rheonomic system only): --t of
  /// accel, --t0 of run (t_option). Empty: q's clock entry, or 0.
  std::string t;
  std::string t_option = "--t";
  /// States whose margin to a singular set (singular_set.hpp) is <= this are
  /// refused (exit 3); a run stops before reaching one. Empty: the command's
  /// default (accel: 100 epsilon; run: 1e-6).
  std::string singular_margin;
  /// The field backend asked for (--library, --generated, --compiled;
  /// Python's field=; a sweep's field, library or compiled keys); empty:
  /// the default, the same for accel and run (default_field, nhs/session/problem.hpp): a
  /// built-in study's generated code, a system file's traced field, else
  /// the library's formulation.
  std::optional<FieldBackend> field;
};

/// Sets field to b, asked for by `option` (e.g. "--generated", a sweep's
/// key "compiled"); UsageError "--generated and --library exclude each
/// other" when another backend was asked for already.
void request_field(std::optional<FieldBackend>& field, FieldBackend b, const std::string& option);

struct AccelOptions : StateOptions {
  /// --jacobian: also the Jacobian of the first-order field at the state,
  /// by forward-mode differentiation of the traced field
  /// (nhs/codegen/differentiate.hpp; field_jacobian_at in cli.hpp).
  bool jacobian = false;
};

struct RunOptions : StateOptions {
  /// Empty: 10, or the motion's t_end with --motion.
  std::string t_end;
  /// A special motion of the study (or an [[exact]] motion of a file), by
  /// name or 1-based index: its parameters and initial state, its t_end
  /// unless --t-end is given, and the error against it as a CSV column.
  std::string motion;
  std::string dt_out = "0.1";
  std::string rtol, atol;  ///< empty: IntegrationOptions<S> defaults
  std::string stepper = "auto";
  std::string step;           ///< dla, nh-rattle: empty: IntegrationOptions<S> default
  std::string max_rhs_calls;  ///< empty: IntegrationOptions<S> default
  /// Seconds of wall time after which the run stops with exit 4, its rows
  /// kept (WallBudget, wall_budget.hpp); empty: no limit.
  std::string max_wall_time;
  /// --max-rows: at most this many output rows (require_output_rows,
  /// output_budget.hpp), checked before the system is built; the tool's
  /// default is kMaxOutputRows. Empty: no budget but the library's
  /// IntegrationOptions::max_samples (a sweep's cases, which keep no rows).
  std::string max_rows;
  std::string out;            ///< CSV file; empty: stdout
  bool out_given = false;     ///< --out was given (an empty name is refused)
  bool project = false;       ///< IntegrationOptions::project (--project)
  /// --poses: the bodies' poses and the contact points as more CSV columns
  /// (Scene, scene.hpp; docs/animation.md).
  bool poses = false;
};

/// `nhs animate`: a run's options (its --dt-out replaced by 1 / --fps),
/// the folder written and where three.js is copied from (docs/animation.md).
struct AnimateOptions : RunOptions {
  std::string fps = "30";  ///< samples per unit of simulated time, > 0
  std::string three = "/usr/share/javascript/three";  ///< three.js r111 (Debian's libjs-three)
};

struct VerifyOptions {
  /// "all", a name or a comma-separated list. Default: the main job's
  /// four precisions up to 50 digits (mp100 to t = 20 takes hours: its
  /// skate run on the incline to t = 1.2 alone needs 567k RHS calls).
  std::string precision = "double,long-double,float128,mp50";
  std::string out_dir = "reports/latest";
  int states = 50;
  bool quick = false;
  unsigned jobs = 0;  ///< worker threads for the runs; 0: the number of cores
  /// `nhs check FILE`: the one system to verify (a system file or a study
  /// id); empty: every built-in study (`nhs verify`). Random states at which
  /// a formulation finds the state singular are then skipped and counted,
  /// not failures (a file's random states are not designed regular).
  std::string system;
  /// `nhs check --no-report`: do not run scripts/check_report.py after
  /// summary.md (run_check_report).
  bool no_report = false;
  /// Nothing on stdout or stderr (the Python module's System.check, which
  /// reads summary.json): summary.md and summary.json are still written.
  bool quiet = false;
};

/// `nhs linearize`: a steady motion of a family (Study::steady_families)
/// and the formulation whose field is linearized.
struct LinearizeOptions {
  std::string system;                ///< study id or system file
  std::string steady;                ///< the family's name
  std::vector<std::string> at;       ///< "mu=value" for each family parameter
  std::string formulation = "first-kind";  ///< first-kind or gibbs-appell: the state (q, z) on C
  std::string precision = "double";
  std::vector<std::string> params;   ///< "name=value" parameter overrides
  /// `nhs linearize --animate DIR`: the steady motion with an eigenvector
  /// superposed, drawn as `nhs animate` draws a run (docs/animation.md,
  /// "Eigenmodes"); empty: no animation. Not options of `nhs stability`.
  std::string animate;
  std::string mode;                  ///< --mode K: the eigenvalue, 1-based as printed; empty: the default
  std::string fps = "30";            ///< --fps: samples per unit of time
  std::string epsilon;               ///< --epsilon: the mode's amplitude; empty: from the excursions
  std::string three = "/usr/share/javascript/three";  ///< --three: three.js r111
};

/// `nhs stability`: the eigenvalues along one family parameter.
struct StabilityOptions : LinearizeOptions {
  std::string vary;           ///< the varied family parameter; empty: the family's only one
  std::string from, to;       ///< its range, from < to
  std::string points = "101"; ///< grid points, 2 .. kMaxStabilityPoints, evenly spaced
  std::string csv;            ///< the eigenvalue table's file; empty: none
  std::string max_wall_time;  ///< seconds; empty: no limit (exit 4 past it, rows kept)
};

/// `nhs findings`: where the CSV files go (<out_dir>/studies/), quick mode.
struct FindingsOptions {
  std::string out_dir = "reports/latest";
  bool quick = false;
};


/// "name=value" items into pairs; UsageError for an item without '='.
std::vector<std::pair<std::string, std::string>> parse_params(const std::vector<std::string>& items);

}  // namespace nhs::cli
