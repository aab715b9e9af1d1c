// The `nhs` command-line tool: one function per command (one file each),
// and the headers they share: options.hpp (options and their parsing),
// precision.hpp (the dispatch on --precision), setup.hpp (system,
// formulation and initial state), csv.hpp (the trajectory CSV), text.hpp.
//
// Exit codes (README, "Exit codes"; errors.hpp): 0 success, 1 verify found
// a failure, 2 usage error, 3 invalid state (off C, singular), 4 integration
// failure or non-finite value, 5 I/O error, 130 interrupted (SIGINT).
#pragma once

#include "csv.hpp"
#include "io.hpp"
#include "options.hpp"
#include "output_budget.hpp"
#include "precision.hpp"
#include "setup.hpp"
#include "text.hpp"
#include "wall_budget.hpp"

#include "nhs/linearization.hpp"
#include "nhs/regularity.hpp"
#include "nhs/session/accelerations.hpp"
#include "nhs/session/field_jacobian.hpp"
#include "nhs/studies/verification.hpp"

#include <exception>
#include <optional>
#include <string>

namespace nhs::cli {


int list_command();
/// `nhs list SYSTEM`: one system in detail.
int list_system_command(const std::string& system);
/// The constraint classification of `nhs list SYSTEM` (nhs/constraint_classification.hpp,
/// in mp100 at the default parameters near the default state), as its
/// indented lines; "not decided" with the reason where the rank test
/// cannot decide. Throws what find_study throws.
std::string classification_text(const std::string& system);

/// `nhs equations`: the options (docs/cli.md, "equations").
struct EquationsOptions {
  std::string system;
  std::vector<std::string> formulations;  ///< empty: every one that applies
  std::string format = "text";            ///< text, latex, sympy, markdown
  bool classify = false;                  ///< the classification first, as comments
  bool prove = false;                     ///< the symbolic cross-checks instead (symbolic/proof.hpp)
  std::string out;                        ///< empty: stdout
};
/// The equations of motion of opts.system in opts.format
/// (nhs/symbolic/print.hpp), with the classification first when
/// opts.classify; opts.out is not used. A formulation named in
/// opts.formulations that does not apply throws NotApplicable; with none
/// named, those that do not apply are skipped and, with their reasons,
/// appended to `not_written` (when given). UsageError for an unknown
/// formulation or format; what find_traced_study and
/// symbolic::symbolic_system throw.
std::string equations_text(const EquationsOptions& opts, const std::string& command,
                           std::vector<std::string>* not_written);
/// Writes the equations of motion (equations_text) to stdout or opts.out. A formulation
/// named in --formulation that does not apply is an error (NotApplicable);
/// with none named, those that do not apply are listed on stderr.
/// `command` is the command line quoted in the output's header.
int equations_command(const EquationsOptions& opts, const std::string& command);

/// `nhs worksheet`: the options (docs/cli.md, "worksheet").
struct WorksheetOptions {
  std::string system;
  std::string out;                        ///< the directory written (created when missing)
  std::vector<std::string> formulations;  ///< empty: every one that applies
  std::string mathjax = "/usr/share/javascript/mathjax";  ///< MathJax 2 (Debian's libjs-mathjax)
};
/// Writes opts.out/index.html, opts.out/worksheet.md and opts.out/mathjax/
/// (symbolic/worksheet.hpp: the system's data, its classification, the
/// equations of every formulation, or of opts.formulations, and the proof
/// table of `nhs equations --prove`). Everything is derived before anything
/// is written. UsageError when MathJax is missing under opts.mathjax (naming
/// the file and the Debian package), when opts.out is a file, or for an
/// unknown formulation; NotApplicable for a named formulation that does not
/// apply; IoError (exit 5) naming the path when a write or copy fails.
int worksheet_command(const WorksheetOptions& opts, const std::string& command);

/// A steady motion of a study's family linearized (linearize_steady): the
/// state x = (q, z) with its names, and the Linearization
/// (nhs/linearization.hpp).
template <class S>
struct SteadyLinearization {
  std::string system, formulation, family, source;
  std::vector<std::string> family_parameters;         ///< mu names (p)
  Vec<S> mu;                                          ///< p
  std::vector<std::pair<std::string, S>> parameters;  ///< the system's
  std::vector<std::string> state;                     ///< names of x (N)
  Vec<S> x;                                           ///< N
  Linearization<S> lin;
};

/// Linearizes `opts.formulation`'s field (first-kind or gibbs-appell: the
/// state (q, z) of C, 001 Thm 7.1) at the family `opts.steady` at mu
/// (values in the order of the family's parameters): the state from the
/// family's formulas (qdot given: z = chart(q, qdot), dz/dmu from psi_z dz
/// = dqdot - psi_q dq), the Jacobian by forward differentiation of the
/// traced field (field_jacobian_at_state), then linearize(). Throws
/// UsageError for an unknown family (listing the known), a formulation
/// other than first-kind and gibbs-appell (second-kind's state has
/// directions off C, whose eigenvalues are not the motion's), a size
/// mismatch; InvalidState when qdot is off C (with max |C|) or the state
/// is not steady; SingularState, NonFiniteValue as field_jacobian_at.
template <class S>
SteadyLinearization<S> linearize_steady(const LinearizeOptions& opts, const Vec<S>& mu);

/// The family's parameter values from "mu=value" items: every parameter
/// exactly once (UsageError naming the missing, unknown or repeated one;
/// `optional` may stay unset and is returned as 0).
template <class S>
Vec<S> family_values(const LinearizeOptions& opts, const std::string& option, const std::string& optional = "");

/// `nhs linearize`: linearize_steady at --at, as JSON on stdout
/// (linearize_json: the text, docs/cli.md). 0 on success; throws as
/// linearize_steady.
template <class S>
int linearize_command(const LinearizeOptions& opts);
template <class S>
std::string linearize_json(const LinearizeOptions& opts);

/// `nhs stability`: linearize_steady on an even grid of --points values of
/// --vary in [--from, --to]; the eigenvalues as CSV (--csv), and the
/// crossings (find_crossings) with the grid's verdicts as JSON on stdout.
/// Throws UsageError for a bad range or count, IoError (exit 5) when the
/// CSV cannot be written, and what linearize_steady throws at a grid point
/// (the message names the point).
template <class S>
int stability_command(const StabilityOptions& opts);
/// stability_command's JSON text.
template <class S>
std::string stability_json(const StabilityOptions& opts);

/// The accelerations at the state of `opts` (make_setup, then
/// accelerations_at with --singular-margin, default 100 epsilon, and
/// --jacobian). Throws as they do.
template <class S>
AccelAnswer<S> accel_answer(const AccelOptions& opts);
/// `nhs accel`: accel_answer as one JSON object, numbers as decimal strings.
template <class S>
int accel_command(const AccelOptions& opts);

/// What `nhs run` integrates: the set-up (a built-in study's generated field
/// by default where it has one, make_setup) and the integration options
/// parsed from `opts`, checked (positive t_end, dt_out, rtol; atol >= 0;
/// the stepper's tolerance floor and the output grid, validated_stepper),
/// the initial state refused within the singular margin (default 1e-6).
/// Throws UsageError naming the option, or as make_setup does.
template <class S>
struct RunPlan {
  Problem<S> setup;
  IntegrationOptions<S> options;
  /// --motion: the special motion run (its exact solution gives the CSV's
  /// "error" column); empty otherwise.
  std::optional<SpecialMotion<S>> motion;
  /// --max-wall-time (none by default): whoever integrates the plan checks
  /// it after every step and sample (WallBudget::check).
  WallBudget wall;
};

/// The special motion of `study` named `name`, or numbered `name` (1-based,
/// in the order `nhs list SYSTEM` prints them); UsageError listing them
/// otherwise.
template <class S>
SpecialMotion<S> find_motion(const Study<S>& study, const std::string& name);
template <class S>
RunPlan<S> plan_run(const RunOptions& opts);

/// What a run of `plan` is measured against (MotionFigures, CsvRecorder):
/// the study's invariants and energy declaration, and the motion's exact
/// solution with --motion.
template <class S>
MotionReference<S> plan_reference(const RunPlan<S>& plan) {
  return motion_reference(*plan.setup.study, plan.setup.sys,
                          plan.motion ? plan.motion->exact : std::function<State<S>(const S&)>());
}

/// How a run with `stepper` computes its motion, for its summary: the
/// formulation's name, or for the fixed-step steppers (which discretize
/// the principle itself, no formulation's field) "the discrete
/// Lagrange-d'Alembert principle".
inline std::string integrated_by(Stepper stepper, const std::string& formulation) {
  return is_discrete_stepper(stepper) ? std::string("the discrete Lagrange-d'Alembert principle") : formulation;
}
/// `nhs run`: plan_run, then the motion as CSV (CsvRecorder) with a summary
/// on stderr.
template <class S>
int run_command(const RunOptions& opts);
int verify_command(const VerifyOptions& opts);
int findings_command(const FindingsOptions& opts);

/// `nhs check`'s report: runs check_report.py over `dir` (which holds
/// summary.md, summary.json and trajectories/) to write dir/report.md and
/// dir/figures/*.png, with the script's stdout and stderr in
/// dir/report.log. The interpreter is $NHS_PYTHON when set, else
/// /usr/bin/python3 (Debian's, where python3-matplotlib installs) when it
/// exists, else python3 from PATH; the script is <bindir>/../share/nhs/
/// check_report.py next to an installed nhs, else the source tree's
/// scripts/check_report.py (NHS_SOURCE_DIR, known at configure time).
/// Returns true when the script exited 0. Otherwise prints one line
/// "nhs: warning: ..." on stderr (script or interpreter missing, exit
/// code or signal, the log's last line) and returns false, so that the
/// check's own exit code does not depend on the plotting. Throws IoError
/// (exit 5) only when dir/report.log cannot be written (the check's own
/// output, as summary.md).
bool run_check_report(const std::string& dir);

/// Flushes stdout; IoError (exit 5) when anything written to it was lost
/// (a full disk, a closed descriptor).
void flush_stdout();

/// The exit code of a command's exception, after printing it as one line
/// "nhs: error: ..." on stderr (stdout flushed first; the message through
/// echo_text: escaped, bounded). The code is the error table's
/// (classify_error, nhs/error_table.hpp): usage 2, an invalid or singular
/// state 3, an integration failure or a non-finite value 4, a failed write
/// 5, an interrupt 130, anything else 1. Never throws.
int report_error(const std::exception_ptr& e) noexcept;

}  // namespace nhs::cli
