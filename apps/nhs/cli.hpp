// The `nhs` command-line tool: options of each command, the dispatch on the
// precision (a template over the scalar S, driven by NHS_FOR_EACH_SCALAR so
// that the list of scalar types stays in scalar.hpp), the parsing of numbers
// and lists in S, and the trajectory recorder shared by `run` and `verify`.
//
// Exit codes (README, "Exit codes"; errors.hpp): 0 success, 1 verify found
// a failure, 2 usage error, 3 invalid state (off C, singular), 4 integration
// failure or non-finite value, 5 I/O error, 130 interrupted (SIGINT).
#pragma once

#include "nhs/derivatives.hpp"
#include "nhs/errors.hpp"
#include "nhs/format.hpp"
#include "nhs/formulation.hpp"
#include "nhs/generated_formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/manifold.hpp"
#include "nhs/norms.hpp"
#include "nhs/scalar.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/system_file.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace nhs::cli {

/// "1 value", "3 values": a count with its noun, for messages.
inline std::string count_of(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// --- options ----------------------------------------------------------------

/// What `accel` and `run` share: the system, the formulation, the state.
struct StateOptions {
  std::string study;
  std::string formulation = "second-kind";
  std::string precision = "double";
  std::vector<std::string> params;  ///< "name=value", repeated
  std::string q, qdot;              ///< comma-separated; empty: the study's default state
  std::string z;                    ///< with --q instead of --qdot: qdot = psi(q, z)
  std::string manifold_tol;         ///< empty: default_manifold_tolerance<S>()
  /// States whose margin to a singular set (singular_set.hpp) is <= this are
  /// refused (exit 3); a run stops before reaching one. Empty: the command's
  /// default (accel: 100 epsilon; run: 1e-6).
  std::string singular_margin;
  /// Evaluate the formulation's field by the study's generated code
  /// (nhs/generated_formulation.hpp); second-kind, first-kind, gibbs-appell.
  bool generated = false;
  /// A system file's field by the library's formulation, not by its traced
  /// field (the default for files: nhs/studies/system_file.hpp).
  bool library = false;
  /// A system file's traced field compiled at run time by the system's C++
  /// compiler instead of interpreted (nhs/codegen/compile.hpp); double and
  /// long double only.
  bool compiled = false;
};

struct AccelOptions : StateOptions {};

struct RunOptions : StateOptions {
  std::string t_end = "10";
  std::string dt_out = "0.1";
  std::string rtol, atol;  ///< empty: IntegrationOptions<S> defaults
  std::string stepper = "auto";
  std::string max_rhs_calls;  ///< empty: IntegrationOptions<S> default
  std::string out;            ///< CSV file; empty: stdout
  bool out_given = false;     ///< --out was given (an empty name is refused)
  bool project = false;       ///< IntegrationOptions::project (--project)
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
};

/// `nhs findings`: where the CSV files go (<out_dir>/studies/), quick mode.
struct FindingsOptions {
  std::string out_dir = "reports/latest";
  bool quick = false;
};

// --- commands (one file each) ----------------------------------------------

int list_command();
/// `nhs list SYSTEM`: one system in detail.
int list_system_command(const std::string& system);
template <class S>
int accel_command(const AccelOptions& opts);
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
/// code or signal, the log's last line) and returns false; never throws,
/// so that the check's own exit code does not depend on the plotting.
bool run_check_report(const std::string& dir);

// --- precisions ------------------------------------------------------------

/// The CLI names of the scalar types, in the order of NHS_FOR_EACH_SCALAR.
std::vector<std::string> precision_names();

/// Flushes stdout; IoError (exit 5) when anything written to it was lost
/// (a full disk, a closed descriptor).
void flush_stdout();

/// "a, b, c".
std::string join(const std::vector<std::string>& items, const std::string& sep = ", ");

/// Calls f.template operator()<S>() for the scalar type S named `precision`
/// (e.g. with a lambda `[&]<class S>() { ... }`); UsageError for an unknown
/// name, listing the known ones.
template <class F>
int with_scalar(const std::string& precision, F&& f) {
#define NHS_CLI_DISPATCH_(T, NAME) \
  if (precision == NAME) return f.template operator()<T>();
  NHS_FOR_EACH_SCALAR(NHS_CLI_DISPATCH_)
#undef NHS_CLI_DISPATCH_
  throw UsageError("unknown precision '" + precision + "' (known: " + join(precision_names()) +
                   ")");
}

// --- parsing ----------------------------------------------------------------

/// A number of option `option` in S, exactly rounded (from_string<S>);
/// UsageError naming the option and the value when malformed.
template <class S>
S parse_number(const std::string& option, const std::string& text) {
  try {
    return from_string<S>(text);
  } catch (const MalformedNumber& e) {
    throw UsageError(option + ": " + e.what());
  }
}

/// "v1,v2,..." in S; UsageError naming the option and the bad item.
template <class S>
Vec<S> parse_vector(const std::string& option, const std::string& text) {
  std::vector<S> values;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
    if (item.find_first_not_of(" \t") == std::string::npos)
      throw UsageError(option + ": empty value in list '" + text + "'");
    values.push_back(parse_number<S>(option, item));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  Vec<S> v(static_cast<Eigen::Index>(values.size()));
  for (std::size_t i = 0; i < values.size(); ++i) v[static_cast<Eigen::Index>(i)] = values[i];
  return v;
}

/// "name=value" items into pairs; UsageError for an item without '='.
std::vector<std::pair<std::string, std::string>> parse_params(const std::vector<std::string>& items);

/// A positive count (e.g. --max-rhs-calls); UsageError otherwise.
std::uint64_t parse_count(const std::string& option, const std::string& text);

/// The study, its system, the formulation (checked applicable) and the
/// admitted initial state (given or default; qdot projected onto C).
template <class S>
struct Setup {
  const Study<S>* study = nullptr;
  System<S> sys;
  const Formulation<S>* formulation = nullptr;
  Vec<S> q, qdot;
  /// The generated formulation behind `formulation` (--generated), else empty.
  std::shared_ptr<const Formulation<S>> owned_formulation;
};

template <class S>
Setup<S> make_setup(const StateOptions& o) {
  Setup<S> s;
  s.study = &find_study<S>(o.study);
  s.formulation = &find_formulation<S>(o.formulation);
  if (o.generated && o.library) throw UsageError("--generated and --library exclude each other");
  if (o.compiled && (o.generated || o.library))
    throw UsageError(std::string("--compiled and ") + (o.generated ? "--generated" : "--library") +
                     " exclude each other");
  // A file's formulation traced (trace_file_formulation) and evaluated by
  // make(traced) in place of the library's, which stays behind it (its
  // guards); NotApplicable leaves the library's to say why
  // (require_applicable below); TracingError propagates.
  const auto traceable = [&o] {
    const auto& t = codegen::traceable_formulations();
    return std::find(t.begin(), t.end(), o.formulation) != t.end();
  };
  const auto use_trace = [&](const auto& make) {
    try {
      const auto traced = trace_file_formulation(cached_system_file(o.study), o.formulation);
      s.owned_formulation = std::make_shared<generated::GeneratedFormulation<S>>(make(traced));
      s.formulation = s.owned_formulation.get();
    } catch (const NotApplicable&) {
    }
  };
  if (o.compiled) {
    // A file's traced field compiled at run time, where asked for: every
    // reason it cannot be is an error, not a silent fallback.
    if (!is_system_file_name(o.study))
      throw UsageError("--compiled compiles a system file's traced field; the built-in study '" + o.study +
                       "' has its field compiled with nhs: use --generated");
    if constexpr (!codegen::has_compiled_field<S>) {
      throw UsageError("--compiled exists for the precisions double and long-double only, not '" +
                       o.precision + "' (without --compiled, the traced field runs in every precision)");
    } else {
      if (!traceable())
        throw UsageError("--compiled: formulation '" + o.formulation + "' has no traced field (traced: " +
                         join(codegen::traceable_formulations()) + ")");
      try {
        use_trace([&](const codegen::TracedFormulation& t) {
          return generated::make_compiled_formulation<S>(t, *s.formulation);
        });
      } catch (const codegen::TracingError& e) {
        throw UsageError("--compiled: the " + o.formulation + " field of '" + o.study +
                         "' cannot be traced (" + e.what() + "); run without --compiled (the library's formulation)");
      }
    }
  } else if (o.generated) {
    if (is_system_file_name(o.study))
      throw UsageError("--generated: a system file has no build-time generated code; its traced field "
                       "(second-kind, first-kind, gibbs-appell) is already the default, and --compiled "
                       "compiles it (double, long-double)");
    s.owned_formulation = std::make_shared<generated::GeneratedFormulation<S>>(
        generated::make_generated_formulation<S>(o.study, *s.formulation));
    s.formulation = s.owned_formulation.get();
  } else if (!o.library && is_system_file_name(o.study)) {
    // A file's second-kind, first-kind and Gibbs-Appell fields run traced
    // by default; the library's formulation stays behind them (guards) and
    // where a field cannot be traced.
    if (traceable()) {
      try {
        use_trace([&](const codegen::TracedFormulation& t) {
          return generated::make_traced_formulation<S>(t, *s.formulation);
        });
      } catch (const codegen::TracingError&) {
        // branches on the state (abs): the library's formulation runs
      }
    }
  }
  s.sys = s.study->build(parameters_with(*s.study, parse_params(o.params)));
  s.formulation->require_applicable(s.sys);
  if (!o.z.empty()) {
    if (o.q.empty() || !o.qdot.empty())
      throw UsageError("--z needs --q and replaces --qdot (qdot = psi(q, z))");
    if (!s.sys.has_parametrization())
      throw UsageError("study '" + s.sys.info.name +
                       "' has no parametric representation psi(q, z): give --qdot");
  } else if (o.q.empty() != o.qdot.empty()) {
    throw UsageError("give --q with --qdot or --z, or neither (for the study's default state)");
  }
  // SingularState naming the first of the system's own singular sets
  // (System::singular_margins) that (s.q, qd) is on: a margin of 0 or NaN
  // (require_margins at threshold 0, without sigma_min(dC/dqdot), which is
  // the admission's to judge).
  const auto refuse_on_own_singular_set = [&s](const Vec<S>& qd, const std::string& velocity) {
    if (!s.sys.singular_margins) return;
    for (const Margin<S>& mg : s.sys.singular_margins(s.q, qd))
      if (!(mg.value > 0))
        throw SingularState(mg.condition, "the state is on a singular set: " + mg.condition + " (" + mg.name +
                                              " = " + to_string(mg.value) + " at q = " + to_string(s.q) +
                                              velocity + ")");
  };
  if (o.q.empty()) {
    const State<S> st = s.study->default_state(s.sys);
    s.q = st.q;
    s.qdot = st.qdot;
  } else {
    s.q = parse_vector<S>("--q", o.q);
    if (s.q.size() != s.sys.n)
      throw UsageError("--q has " + count_of(s.q.size(), "value") + ", study '" +
                       s.sys.info.name + "' has n = " + std::to_string(s.sys.n) + " (" +
                       join(s.sys.info.coordinates) + ")");
    if (o.z.empty()) {
      s.qdot = parse_vector<S>("--qdot", o.qdot);
    } else {
      const Vec<S> z = parse_vector<S>("--z", o.z);
      if (z.size() != s.sys.m)
        throw UsageError("--z has " + count_of(z.size(), "value") + ", study '" +
                         s.sys.info.name + "' has m = " + std::to_string(s.sys.m) + " (" +
                         join(s.sys.info.quasi_velocities) + ")");
      s.qdot.resize(s.sys.n);
      s.sys.parametrization(s.q, z, s.qdot);
      if (!s.qdot.allFinite()) {
        // psi is singular at q: on one of the system's own singular sets
        // (named; their margins taken at zero velocity, psi having none),
        // or elsewhere; either way a singular state (exit 3).
        refuse_on_own_singular_set(Vec<S>::Zero(s.sys.n), "; psi(q, z) = " + to_string(s.qdot));
        throw SingularState("parametrization psi singular", "psi(q, z) is not finite: " + to_string(s.qdot) +
                                                                " at q = " + to_string(s.q) + ", z = " + to_string(z));
      }
    }
  }
  // On one of the system's own singular sets (a margin of exactly 0): said
  // by name here, before the admission's projection meets the singularity
  // under another name (e.g. a singular metric g).
  if (s.qdot.allFinite()) refuse_on_own_singular_set(s.qdot, ", qdot = " + to_string(s.qdot));
  const S tol = o.manifold_tol.empty() ? default_manifold_tolerance<S>()
                                       : parse_number<S>("--manifold-tol", o.manifold_tol);
  if (!(tol >= 0)) throw UsageError("--manifold-tol must be non-negative");
  s.qdot = admit_state(s.sys, s.q, s.qdot, tol);
  return s;
}

/// The --singular-margin of o, or `fallback` when not given; UsageError
/// when malformed or negative.
template <class S>
S singular_margin_option(const StateOptions& o, const S& fallback) {
  if (o.singular_margin.empty()) return fallback;
  const S margin = parse_number<S>("--singular-margin", o.singular_margin);
  if (!(margin >= 0)) throw UsageError("--singular-margin must be non-negative");
  return margin;
}

// --- output ------------------------------------------------------------------

/// S as a double, for short human-readable figures (summaries, tables).
template <class S>
double to_double(const S& x) {
  return static_cast<double>(x);
}

/// "1.2e-15" style figure for summaries.
template <class S>
std::string short_figure(const S& x) {
  return fmt::format("{:.3g}", to_double(x));
}

/// The column names of a trajectory CSV (Recorder), in order, and the
/// constraint and invariant ones among them.
struct CsvColumns {
  std::vector<std::string> all;          ///< the header, column by column
  std::vector<std::string> constraints;  ///< size r
  std::vector<std::string> invariants;   ///< one per invariant name given
};

/// The columns of a trajectory CSV for a system with `info` and r
/// constraints: t, the coordinates, their velocities (<name>_dot), energy,
/// one column per constraint, one per invariant, the margins, and "error"
/// when `with_error`. A constraint column takes the constraint's name
/// (info.constraint_names[a]) with every character other than a letter,
/// digit, '_', '-' or '.' replaced by '_' (a file's quoted TOML key may hold
/// a comma); "C<a+1>" when info has no (or an empty) name for it. A
/// constraint or invariant name that repeats a column already named, or a
/// margin or "error", is prefixed: "constraint_<name>", "invariant_<name>"
/// (then "..._2", "..._3" until unique). Never throws for any input.
inline CsvColumns csv_column_names(const SystemInfo& info, int r,
                                   const std::vector<std::string>& invariant_names,
                                   const std::vector<std::string>& margin_names,
                                   bool with_error) {
  CsvColumns out;
  std::vector<std::string> taken = margin_names;  // the fixed names after the free ones
  taken.push_back("error");
  const auto is_taken = [&](const std::string& name) {
    return std::find(taken.begin(), taken.end(), name) != taken.end() ||
           std::find(out.all.begin(), out.all.end(), name) != out.all.end();
  };
  const auto unique = [&](std::string name, const std::string& prefix) {
    if (!is_taken(name)) return name;
    name = prefix + name;
    std::string candidate = name;
    for (int k = 2; is_taken(candidate); ++k) candidate = name + "_" + std::to_string(k);
    return candidate;
  };
  out.all.push_back("t");
  for (const auto& c : info.coordinates) out.all.push_back(c);
  for (const auto& c : info.coordinates) out.all.push_back(c + "_dot");
  out.all.push_back("energy");
  for (int a = 0; a < r; ++a) {
    std::string name = static_cast<std::size_t>(a) < info.constraint_names.size()
                           ? info.constraint_names[static_cast<std::size_t>(a)]
                           : std::string();
    for (char& ch : name) {
      const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                        (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.';
      if (!keep) ch = '_';
    }
    if (name.empty()) name = "C" + std::to_string(a + 1);
    name = unique(name, "constraint_");
    out.all.push_back(name);
    out.constraints.push_back(name);
  }
  for (const auto& inv : invariant_names) {
    const std::string name = unique(inv, "invariant_");
    out.all.push_back(name);
    out.invariants.push_back(name);
  }
  for (const auto& m : margin_names) out.all.push_back(m);
  if (with_error) out.all.push_back("error");
  return out;
}

/// Records a motion sample by sample: writes a CSV row per sample (when a
/// file is given, flushed at once so that a failed run keeps its rows; the
/// header with the first row) and
/// keeps the running figures of the invariants.
///
/// Columns: t, q^i (coordinate names), qdot^i (names suffixed _dot), energy,
/// the constraint residuals C^a (named as the system names its constraints,
/// SystemInfo::constraint_names: C1..Cr for the built-in studies, a file's
/// own names), the study's invariants, the margins to the singular sets
/// (sigma_min_dC_dqdot and the study's own, singular_set.hpp), and "error" (max-norm distance of (q,
/// qdot) to the closed form) when an exact solution is given. A constraint
/// or invariant name that repeats another column, or is empty, is made
/// unique (csv_column_names).
template <class S>
class Recorder {
 public:
  Recorder(const System<S>& sys, std::vector<Invariant<S>> invariants, std::FILE* out,
           std::function<State<S>(const S&)> exact = {})
      : sys_(sys), invariants_(std::move(invariants)), out_(out), exact_(std::move(exact)) {
    invariant_drift.assign(invariants_.size(), S(0));
    invariant_scale.assign(invariants_.size(), S(0));
    invariant0_.assign(invariants_.size(), std::nullopt);
    invariant_undefined.assign(invariants_.size(), 0);
    for (const auto& m : regularity_margins(sys_, Vec<S>(Vec<S>::Zero(sys_.n)),
                                            Vec<S>(Vec<S>::Ones(sys_.n))))
      margin_columns_.push_back(m.name);
    std::vector<std::string> invariant_names;
    for (const auto& inv : invariants_) invariant_names.push_back(inv.name);
    const CsvColumns cols =
        csv_column_names(sys_.info, sys_.r, invariant_names, margin_columns_, bool(exact_));
    constraint_columns_ = cols.constraints;
    invariant_columns_ = cols.invariants;
    if (!out_) return;
    header_ = join(cols.all, ",");
  }

  /// The CSV names of the constraint residual columns, size r.
  const std::vector<std::string>& constraint_columns() const { return constraint_columns_; }
  /// The CSV names of the invariant columns, in the order of invariants().
  const std::vector<std::string>& invariant_columns() const { return invariant_columns_; }
  /// The CSV names of the margins to the singular sets.
  const std::vector<std::string>& margin_columns() const { return margin_columns_; }

  void operator()(const Sample<S>& s) {
    using std::abs;
    using std::max;
    const S T = sys_.kinetic_energy(s.q, s.qdot);
    const S V = sys_.potential(s.q);
    const S E = T + V;
    const Vec<S> C = constraint_residuals(sys_, s.q, s.qdot);
    std::vector<S> inv(invariants_.size());
    for (std::size_t k = 0; k < invariants_.size(); ++k) inv[k] = invariants_[k].value(s.q, s.qdot);
    const std::vector<Margin<S>> margins = regularity_margins(sys_, s.q, s.qdot);
    for (const auto& m : margins)
      if (min_margin_name.empty() || !(m.value >= min_margin)) {
        min_margin = m.value;
        min_margin_name = m.name;
      }
    // No NaN or infinity reaches an output: an overflow is an error (exit 4).
    const auto require_finite = [&](const std::string& what, const S& v) {
      using boost::multiprecision::isfinite;
      using std::isfinite;
      if (!isfinite(v))
        throw NonFiniteValue("non-finite value: " + what + " = " + to_string<S>(v) + " at t = " +
                             to_string<S>(s.t) + " " + state_context(s.q, s.qdot));
    };
    require_finite("energy", E);
    for (Eigen::Index a = 0; a < C.size(); ++a)
      require_finite("constraint " + constraint_columns_[static_cast<std::size_t>(a)], C[a]);
    // An invariant may be defined on part of the state space only (a log,
    // a division by a velocity): where it is not finite its cell is empty
    // and the row counted (invariant_undefined), not an error.
    std::vector<bool> defined(inv.size());
    for (std::size_t k = 0; k < inv.size(); ++k) {
      using boost::multiprecision::isfinite;
      using std::isfinite;
      defined[k] = isfinite(inv[k]);
      if (!defined[k]) ++invariant_undefined[k];
    }
    for (const auto& m : margins) require_finite(m.name, m.value);
    S err(0);
    if (exact_) {
      const State<S> x = exact_(s.t);
      err = max((s.q - x.q).cwiseAbs().maxCoeff(), (s.qdot - x.qdot).cwiseAbs().maxCoeff());
      exact_scale = max(exact_scale, max(x.q.cwiseAbs().maxCoeff(), x.qdot.cwiseAbs().maxCoeff()));
    }
    if (samples == 0) E0 = E;
    ++samples;
    t_last = s.t;
    energy_drift = max(energy_drift, abs(E - E0));
    energy_scale = max(energy_scale, abs(T) + abs(V));
    if (C.size()) max_C = max(max_C, C.cwiseAbs().maxCoeff());
    max_qdot2 = max(max_qdot2, s.qdot.squaredNorm());
    for (std::size_t k = 0; k < inv.size(); ++k) {
      if (!defined[k]) continue;
      if (!invariant0_[k]) invariant0_[k] = inv[k];  // its first finite value
      invariant_drift[k] = max(invariant_drift[k], abs(inv[k] - *invariant0_[k]));
      invariant_scale[k] = max(invariant_scale[k], abs(inv[k]));
    }
    max_error = max(max_error, err);
    if (sys_.nonconservative_force) {
      Vec<S> F = Vec<S>::Zero(sys_.n);
      sys_.nonconservative_force(s.q, s.qdot, F);
      nonconservative_power = max(nonconservative_power, abs(F.dot(s.qdot)));
    }
    if (!out_) return;
    if (!header_.empty()) {  // written with the first row: a run refused before it writes nothing
      write_line(header_);
      header_.clear();
    }
    std::string row = to_string<S>(s.t);
    for (const auto& v : s.q) row += "," + to_string<S>(v);
    for (const auto& v : s.qdot) row += "," + to_string<S>(v);
    row += "," + to_string<S>(E);
    for (const auto& v : C) row += "," + to_string<S>(v);
    for (std::size_t k = 0; k < inv.size(); ++k) row += "," + (defined[k] ? to_string<S>(inv[k]) : std::string());
    for (const auto& m : margins) row += "," + to_string<S>(m.value);
    if (exact_) row += "," + to_string<S>(err);
    write_line(row);
  }

  const std::vector<Invariant<S>>& invariants() const { return invariants_; }

  std::uint64_t samples = 0;
  S t_last{0};
  S E0{0};
  S energy_drift{0};  ///< max |E - E0|
  S energy_scale{0};  ///< max |T| + |V|
  S max_C{0};         ///< max_a,t |C^a|
  S max_qdot2{0};     ///< max |qdot|^2
  S max_error{0};     ///< max-norm error against the closed form
  S exact_scale{0};   ///< max-norm of the closed form's (q, qdot) over the samples
  S nonconservative_power{0};  ///< max |F . qdot| of the non-conservative forces
  S min_margin{0};              ///< smallest margin to a singular set seen (singular_set.hpp)
  std::string min_margin_name;  ///< which margin it was (empty: the system has none)
  /// Per invariant: max |I - I0| (I0 its first finite value) and max |I|
  /// over the rows where it is finite; the rows where it is not (empty CSV
  /// cells).
  std::vector<S> invariant_drift, invariant_scale;
  std::vector<std::uint64_t> invariant_undefined;

 private:
  void write_line(const std::string& line) {
    errno = 0;
    if (std::fputs(line.c_str(), out_) < 0 || std::fputc('\n', out_) < 0 || std::fflush(out_) != 0)
      throw IoError(std::string("cannot write the CSV output: ") +
                    (errno ? std::strerror(errno) : "write error"));
  }

  const System<S>& sys_;
  std::vector<Invariant<S>> invariants_;
  std::FILE* out_;
  std::string header_;  ///< not yet written
  std::vector<std::string> constraint_columns_, invariant_columns_, margin_columns_;
  std::function<State<S>(const S&)> exact_;
  std::vector<std::optional<S>> invariant0_;
};

}  // namespace nhs::cli
