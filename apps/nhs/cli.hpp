// The `nhs` command-line tool: one function per command (one file each),
// and the headers they share: options.hpp (options and their parsing),
// setup.hpp (options into the session's problem), csv.hpp (the trajectory
// CSV), text.hpp. The typed requests beneath them are the session's
// (nhs/session/: problem, run plan, precision dispatch, budgets).
//
// Exit codes (README, "Exit codes"; errors.hpp): 0 success, 1 verify found
// a failure, 2 usage error, 3 invalid state (off C, singular), 4 integration
// failure or non-finite value, 5 I/O error, 130 interrupted (SIGINT).
#pragma once

#include "io.hpp"
#include "options.hpp"
#include "setup.hpp"
#include "text.hpp"

#include "nhs/linearization.hpp"
#include "nhs/regularity.hpp"
#include "nhs/session/accelerations.hpp"
#include "nhs/session/csv_recorder.hpp"
#include "nhs/session/field_jacobian.hpp"
#include "nhs/session/linearization_report.hpp"
#include "nhs/session/output_budget.hpp"
#include "nhs/session/precision.hpp"
#include "nhs/session/run_plan.hpp"
#include "nhs/session/wall_budget.hpp"
#include "nhs/studies/verification.hpp"

#include <exception>
#include <functional>
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
  /// The budget of symbolic::derivation_size; 0: kDefaultDerivationBudget.
  double max_derivation_size = 0;
};
/// The equations of motion of opts.system in opts.format
/// (nhs/symbolic/print.hpp), with the classification first when
/// opts.classify; opts.out is not used. A formulation named in
/// opts.formulations that does not apply throws NotApplicable; with none
/// named, those that do not apply are skipped and, with their reasons,
/// appended to `not_written` (when given). UsageError for an unknown
/// formulation or format, or for a system whose estimated derivation
/// size exceeds opts.max_derivation_size (symbolic::require_derivation_budget);
/// what find_traced_study and symbolic::symbolic_system throw. A progress
/// line on stderr names the formulation being derived (every 10 s, or in
/// place on a terminal).
std::string equations_text(const EquationsOptions& opts, const std::string& command,
                           std::vector<std::string>* not_written);
/// The budget of symbolic::derivation_size that --max-derivation-size
/// gives: `option`, or symbolic::kDefaultDerivationBudget when 0.
double derivation_budget(double option);
class ProgressLine;
/// The progress callback of symbolic::printable_formulations for `line`:
/// "deriving <formulation> (k of count)".
std::function<void(const std::string&, int, int)> derivation_progress(ProgressLine& line);
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
  /// three.js r111 (Debian's libjs-three), for the animation of the
  /// default motion written to out/animation when the system has bodies.
  std::string three = "/usr/share/javascript/three";
  bool no_animation = false;  ///< --no-animation: no out/animation, no link
  /// The budget of symbolic::derivation_size; 0: kDefaultDerivationBudget.
  double max_derivation_size = 0;
};
/// Writes opts.out/index.html, opts.out/worksheet.md and opts.out/mathjax/
/// (symbolic/worksheet.hpp: the system's data, its classification, the
/// equations of every formulation, or of opts.formulations, and the proof
/// table of `nhs equations --prove`) and, for a system with bodies
/// (system_has_bodies) unless opts.no_animation, opts.out/animation/: the
/// default motion as `nhs animate SYSTEM` draws it (double, 30 samples per
/// unit of time), linked from the page's "Motion" section. A run that
/// stops is drawn to where it stopped and the page says why (exit 0: the
/// worksheet is written). The equations are derived and the motion run
/// before the page is written. UsageError when three.js is missing under
/// opts.three, or opts.out/animation is a folder of other files; when
/// MathJax is missing under opts.mathjax (naming the file and the Debian
/// package), when opts.out is a file, or for an
/// unknown formulation; NotApplicable for a named formulation that does not
/// apply; IoError (exit 5) naming the path when a write or copy fails.
int worksheet_command(const WorksheetOptions& opts, const std::string& command);

/// The steady family that the options of `nhs linearize` and `nhs
/// stability` name, typed (nhs/session/steady_linearization.hpp): --param
/// and --at read in S (UsageError naming the option and the item).
template <class S>
SteadySpec<S> steady_spec(const LinearizeOptions& opts);

/// `nhs linearize`: linearize_steady at --at, as JSON on stdout
/// (linearization_json, docs/cli.md); with --animate DIR, animate_mode
/// writes the mode's folder before the JSON is printed (its folder options
/// checked before the system is built). 0 on success; throws as
/// linearize_steady and animate_mode; UsageError for --mode or --epsilon
/// without --animate.
template <class S>
int linearize_command(const LinearizeOptions& opts, const std::string& command = "");

/// `nhs linearize --animate DIR`'s refusals before the linearization: the
/// folder (as `nhs animate --out`), --fps, three.js; the frames per unit of time.
template <class S>
double check_mode_animation(const LinearizeOptions& opts);

/// `nhs linearize --animate DIR` (docs/animation.md, "Eigenmodes"): the
/// steady motion s at x drawn as x(t) = x + t f + eps Re(v e^(lambda t))
/// with v the eigenvector of --mode (steady_eigenmode; default_eigenmode),
/// over one period 2 pi / |Im lambda| (one e-folding time 1 / |Re lambda|
/// for a real eigenvalue), eps from --epsilon or the largest excursion of
/// the coordinates (0.2 rad for an angle, 10% of the scene's largest length
/// for a length), written as `nhs animate` writes its folder, with the mode
/// in data.js's "mode". UsageError (exit 2): --mode out of range (naming K
/// and the count), a zero eigenvalue, a motion that is not uniform (J f !=
/// 0), a system without bodies, the size bound, the folder's refusals;
/// IoError (exit 5) when the folder cannot be written. `command` is quoted
/// in data.js; a line on stderr says what was written.
template <class S>
void animate_mode(const LinearizeOptions& opts, const SteadySpec<S>& spec, const SteadyLinearization<S>& s,
                  const std::string& command);

/// `nhs stability`: scan_stability on an even grid of --points values of
/// --vary in [--from, --to]; the eigenvalues as CSV (--csv,
/// stability_csv), and the crossings with the grid's verdicts as JSON on
/// stdout (stability_json). Throws UsageError for a bad range or count,
/// IoError (exit 5) when the CSV cannot be written, and what
/// scan_stability throws.
template <class S>
int stability_command(const StabilityOptions& opts);

/// The accelerations at the state of `opts` (make_setup, then
/// accelerations_at with --singular-margin, default 100 epsilon, and
/// --jacobian). Throws as they do.
template <class S>
AccelAnswer<S> accel_answer(const AccelOptions& opts);
/// `nhs accel`: accel_answer as one JSON object, numbers as decimal strings.
template <class S>
int accel_command(const AccelOptions& opts);

/// The run that the options `opts` ask for (nhs/session/run_plan.hpp):
/// their numbers parsed in S, then the problem (problem_spec). Parsed in the
/// order the user meets them: --t-end, --dt-out, --rtol, --atol,
/// --singular-margin, --max-rhs-calls, --max-wall-time, --max-rows,
/// --stepper, --step, then the problem's options; checked (require_run_options)
/// before the problem's, so that a usage error comes before a system is
/// built. Throws UsageError naming the option.
template <class S>
RunSpec<S> run_spec(const RunOptions& opts);

/// `nhs run`: plan_run(run_spec), then the motion as CSV (CsvRecorder) with a summary
/// on stderr.
template <class S>
int run_command(const RunOptions& opts);
/// `nhs animate`: the run of `opts` (run_spec, its --dt-out 1 / --fps;
/// simulate) drawn as opts.out/index.html, data.js, three.min.js and
/// OrbitControls.js (Scene: the bodies' poses; docs/animation.md), written
/// under a temporary sibling name and renamed into place. UsageError (exit
/// 2) for --out that is a file, a bad --fps, three.js missing, a system
/// without bodies, or more than kMaxAnimationItems body-samples (before
/// the run); IoError (exit 5) when the folder cannot be written. A run that
/// stops (a singular set: exit 3) writes what it integrated, with the
/// reason on the page, then throws its error. `command` is quoted in data.js.
template <class S>
int animate_command(const AnimateOptions& opts, const std::string& command);

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
