// sweep.hpp, SweepCases: a sweep's columns, and one case run as `nhs run`
// runs a motion (simulate, nhs/session/simulate.hpp: the same plan, field,
// checks and run loop), folded into the figures of `nhs run`'s summary
// instead of a CSV.
#include "sweep.hpp"

#include "cli.hpp"
#include "clock.hpp"
#include "interrupt.hpp"
#include "names.hpp"

#include "nhs/session/simulate.hpp"
#include "nhs/fnv1a.hpp"

#include <fstream>
#include <sstream>

#include <mpfr.h>

namespace nhs::cli {

namespace {

bool is_state_target(const std::string& t) {
  return t.rfind("q.", 0) == 0 || t.rfind("qdot.", 0) == 0 || t.rfind("z.", 0) == 0;
}

// A figure as a cell: decimal text that round-trips S; empty when not
// finite (no NaN in a sweep's output).
template <class S>
std::string cell(const S& x) {
  using std::isfinite;
  using boost::multiprecision::isfinite;
  return isfinite(x) ? to_string<S>(x) : std::string();
}

// One line, no separators: a reason as a cell.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\x1f') c = ' ';
  return s;
}

/// A case as its spec gives it: decimal text from the sweep file, read once
/// in the case's precision into its typed RunSpec (case_run_spec).
struct CaseInput {
  std::string precision = "double";
  std::vector<std::pair<std::string, std::string>> options;  // [run] keys, then the axes': key, value
  std::vector<std::pair<std::string, std::string>> params;   // name, decimal
  std::vector<std::pair<std::string, std::string>> state;    // "q.x", decimal
};

}  // namespace

SweepCases::SweepCases(std::string system, const std::string& spec_path) : system_(std::move(system)) {
  const Study<double>& st = find_study<double>(system_);
  SweepTargets t;
  for (const auto& p : st.info.parameters) t.parameters.push_back(p.name);
  t.coordinates = st.info.coordinates;
  t.quasi_velocities = st.info.quasi_velocities;
  if (st.special_motions)
    for (const auto& m : st.special_motions()) t.motions.push_back(m.name);
  for (const auto& f : formulations<double>()) t.formulations.push_back(f->name());
  t.steppers = stepper_names();
  t.steppers.insert(t.steppers.begin(), "auto");
  t.precisions = precision_names();
  const System<double> sys = st.build(parameters_with(st, {}));
  for (const auto& inv : motion_reference(st, sys).invariants)
    if (inv.conserved) t.invariants.push_back(inv.name);
  spec_ = load_sweep_spec(spec_path, t);
  invariants_ = t.invariants;
  coordinates_ = t.coordinates;
  count_ = spec_.case_count();

  columns_.push_back("case");
  for (const auto& a : spec_.axes) columns_.push_back(a.target);
  const auto wants = [&](const char* m) {
    return std::find(spec_.metrics.begin(), spec_.metrics.end(), m) != spec_.metrics.end();
  };
  columns_.insert(columns_.end(), {"status", "reason"});
  for (const char* m : {"t_reached", "steps", "rhs_calls", "max_C", "energy_drift", "balance_drift"})
    if (wants(m)) columns_.push_back(m);
  if (wants("invariants"))
    for (const auto& name : invariants_) columns_.push_back("drift_" + name);
  if (wants("error")) columns_.push_back("max_error");
  if (wants("margin")) columns_.insert(columns_.end(), {"min_margin", "margin_name"});
  if (wants("singular")) columns_.insert(columns_.end(), {"singular_set", "t_singular"});
  if (wants("final_state")) {
    for (const auto& c : coordinates_) columns_.push_back("final_" + c);
    for (const auto& c : coordinates_) columns_.push_back("final_" + c + "_dot");
  }
  if (wants("wall_time")) columns_.push_back("wall_s");

  Fnv1a h;
  h.add(spec_.text);
  h.add(system_);
  if (is_system_file_name(system_)) {
    std::ifstream in(system_file_path(system_), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    h.add(text.str());
  }
  fingerprint_ = fmt::format("{:016x}", h.h);
}

int SweepCases::column(const std::string& name) const {
  const auto it = std::find(columns_.begin(), columns_.end(), name);
  return it == columns_.end() ? -1 : static_cast<int>(it - columns_.begin());
}

std::vector<std::string> SweepCases::base_row(std::uint64_t index, const std::vector<std::string>& values) const {
  std::vector<std::string> row(columns_.size());
  row[0] = std::to_string(index);
  for (std::size_t a = 0; a < values.size(); ++a) row[1 + a] = values[a];
  return row;
}

std::vector<std::string> SweepCases::skipped(std::uint64_t index, const std::string& reason) const {
  std::vector<std::string> row = base_row(index, spec_.case_values(index));
  row[static_cast<std::size_t>(column("status"))] = "skipped";
  row[static_cast<std::size_t>(column("reason"))] = one_line(reason);
  return row;
}

namespace {

// The components `text` (decimal, the sweep file's) of the input `name`
// in S; empty when none are given.
template <class S>
std::optional<Vec<S>> case_vector(const std::string& name, const std::vector<std::string>& text) {
  if (text.empty()) return std::nullopt;
  Vec<S> v(static_cast<Eigen::Index>(text.size()));
  for (std::size_t i = 0; i < text.size(); ++i) v[static_cast<Eigen::Index>(i)] = parse_number<S>(name, text[i]);
  return v;
}

// The case's initial state into p (q with qdot, or q with z), typed: the
// spec's base state, else the system's default state at the case's
// parameters, with the axes' components in place; nothing for the default
// state.
template <class S>
void case_state(const SweepSpec& spec, const CaseInput& in, ProblemSpec<S>& p) {
  const bool z = !spec.z.empty() ||
                 std::any_of(in.state.begin(), in.state.end(), [](const auto& s) { return s.first.rfind("z.", 0) == 0; });
  if (in.state.empty() && spec.q.empty() && spec.qdot.empty() && spec.z.empty()) return;  // the default state
  const Study<S>& st = find_study<S>(p.system);
  const InputNames& names = p.names;
  std::optional<Vec<S>> q = case_vector<S>(names.q, spec.q), qdot = case_vector<S>(names.qdot, spec.qdot),
                        zv = case_vector<S>(names.z, spec.z);
  if (!q || (!z && !qdot)) {
    const System<S> sys = st.build(parameters_with(st, in.params));
    const State<S> d = st.default_state(sys);
    if (!d.q.allFinite() || !d.qdot.allFinite())
      throw SingularState("default state not finite", "the default state is not finite at these parameters: q = " +
                                                          to_string(d.q) + ", qdot = " + to_string(d.qdot));
    if (!q) q = d.q;
    if (!z && !qdot) qdot = d.qdot;
  }
  for (const auto& [target, value] : in.state) {
    const auto dot = target.find('.');
    const std::string kind = target.substr(0, dot), name = target.substr(dot + 1);
    const std::vector<std::string>& known = kind == "z" ? st.info.quasi_velocities : st.info.coordinates;
    const auto k = static_cast<Eigen::Index>(std::find(known.begin(), known.end(), name) - known.begin());
    const std::string& input = kind == "q" ? names.q : kind == "qdot" ? names.qdot : names.z;
    (kind == "q" ? *q : kind == "qdot" ? *qdot : *zv)[k] = parse_number<S>(input, value);
  }
  p.q = std::move(q);
  if (z)
    p.z = std::move(zv);
  else
    p.qdot = std::move(qdot);
}

// A run option of the sweep (a key of [run] or an axis: sweep_spec.hpp)
// into spec, its value read in S under the tool's option name.
template <class S>
void set_case_option(RunSpec<S>& spec, const std::string& key, const std::string& value) {
  ProblemSpec<S>& p = spec.problem;
  const RunNames& names = spec.names;
  const auto number = [&](const std::string& name) { return parse_number<S>(name, value); };
  if (key == "formulation") p.formulation = value;
  else if (key == "stepper") spec.stepper = parse_stepper(value);
  else if (key == "motion") spec.motion = value;
  else if (key == "rtol") spec.rtol = number(names.rtol);
  else if (key == "atol") spec.atol = number(names.atol);
  else if (key == "tol") {
    spec.rtol = number(names.rtol);
    spec.atol = number(names.atol);
  } else if (key == "t_end") spec.t_end = number(names.t_end);
  else if (key == "dt_out") spec.dt_out = number(names.dt_out);
  else if (key == "step") spec.step = number(names.step);
  else if (key == "max_rhs_calls") spec.max_rhs_calls = parse_count("--max-rhs-calls", value);
  else if (key == "max_wall_time") spec.max_wall_time = parse_seconds(names.max_wall_time, value);
  else if (key == "singular_margin") {
    spec.singular_margin = number(p.names.singular_margin);
    require_singular_margin(*spec.singular_margin, p.names.singular_margin);
  } else if (key == "manifold_tol") p.manifold_tol = number(p.names.manifold_tol);
  else if (key == "project") spec.project = value == "true";
  else if (key == "field") {
    // A FieldBackend by name (field_backend.hpp), or "default".
    if (value == "default") p.field.reset();
    else p.field = parse_field_backend(value, "field");
  } else if (key == "library" || key == "compiled") {
    // true asks for that backend (a second one: UsageError); false, the
    // default again (an axis over true and false).
    const FieldBackend b = key == "library" ? FieldBackend::library : FieldBackend::compiled;
    if (value == "true") request_field(p.field, b, key);
    else if (p.field == b) p.field.reset();
  }
}

// The typed request of a case: its options, its state (case_state) and its
// parameters, each number read once from the sweep file's text in S.
template <class S>
RunSpec<S> case_run_spec(const std::string& system, const SweepSpec& sweep, const CaseInput& in) {
  RunSpec<S> spec;
  spec.names = cli_run_names();
  spec.problem.names = cli_input_names();
  spec.problem.system = system;
  spec.problem.precision = in.precision;
  case_state<S>(sweep, in, spec.problem);
  for (const auto& [key, value] : in.options) set_case_option<S>(spec, key, value);
  if (!in.params.empty()) spec.problem.parameters = parameter_overrides<S>(find_study<S>(system), in.params);
  return spec;
}

// One line of a case's series (SweepCases::series_columns) at the sample
// s just folded into m: max_a |C^a|, |E - E0| and, for each invariant
// named in the header, |I - I0| (MotionFigures' figures at that sample);
// empty cells where a value is not finite, or where the invariant is not
// conserved in this case's system (its parameters).
template <class S>
std::string series_line(const Sample<S>& s, const MotionCheck<S>& m, const std::vector<std::string>& invariants) {
  std::string line = to_string<S>(s.t) + "," + cell(m.last_C) + "," + cell(m.last_energy_error);
  for (const std::string& name : invariants) {
    line += ",";
    for (const InvariantDrift<S>& d : m.invariants)
      if (d.name == name && d.conserved && d.last_change) line += cell(*d.last_change);
  }
  return line + "\n";
}

// A series keeps every sample in memory until its case ends (then it goes
// to the master, or to disk): at most this many samples a case.
constexpr double kMaxSeriesSamples = 1e6;

/// The figures of a case's motion into its row (through put(column,
/// text)): max_C, the energy drift where energy is a first integral, the
/// work-energy balance where the run carried the work W, the
/// conserved invariants' drifts, the error against a closed form, the
/// smallest singular margin, and the last sample's state (`last`, null
/// when none) as final_<coordinate> and final_<coordinate>_dot.
template <class S, class Put>
void put_figures(const Put& put, const MotionCheck<S>& m, const Sample<S>* last,
                 const std::vector<std::string>& coordinates) {
  if (m.samples > 0) {
    put("max_C", cell(m.max_C));
    if (m.energy_checked()) put("energy_drift", cell(m.energy_drift));
    if (m.balance_checked()) put("balance_drift", cell(m.balance_drift));
    for (const InvariantDrift<S>& inv : m.invariants)
      if (inv.conserved) put(("drift_" + inv.name).c_str(), cell(inv.drift));
    if (m.exact) put("max_error", cell(m.max_error));
    if (!m.min_margin_name.empty()) {
      put("min_margin", cell(m.min_margin));
      put("margin_name", one_line(m.min_margin_name));
    }
  }
  if (last) {
    for (std::size_t i = 0; i < coordinates.size(); ++i) {
      put(("final_" + coordinates[i]).c_str(), cell<S>(last->q[static_cast<Eigen::Index>(i)]));
      put(("final_" + coordinates[i] + "_dot").c_str(), cell<S>(last->qdot[static_cast<Eigen::Index>(i)]));
    }
  }
}

// A case's series: the invariants of its drift_<name> columns. UsageError
// when the plan has more samples than a series keeps (kMaxSeriesSamples).
template <class S>
std::vector<std::string> series_invariant_names(const SweepCases& cases, const RunPlan<S>& plan) {
  const double samples = to_double(plan.options.t_end / plan.options.dt_out) + 1;
  if (samples > kMaxSeriesSamples)
    throw UsageError(fmt::format("[sweep] series keeps each sample of a case in memory until it ends: at most "
                                 "1e6 samples a case, this one has {:.3g} (t_end / dt_out)", samples));
  std::vector<std::string> names;
  for (const std::string& c : cases.series_columns())
    if (c.rfind("drift_", 0) == 0) names.push_back(c.substr(6));
  return names;
}

/// The cells of a case that did not reach t_end (through put(column,
/// text)): its status and the singular set it met, from the error table's
/// row of `outcome` (nhs/session/error_table.hpp); returns t_reached when
/// the error says it (a singular set: when, or 0 for the initial state).
/// Rethrows `error` when it ends the whole sweep (no status: an interrupt,
/// memory exhausted).
template <class Put>
std::string put_failure(const Put& put, const ClassifiedError& outcome, const std::exception_ptr& error) {
  const char* status = error_class(outcome.category).sweep_status;
  if (!status) std::rethrow_exception(error);
  put("status", status);
  put("reason", one_line(outcome.message));
  if (outcome.category != ErrorCategory::singular_state) return std::string();
  put("singular_set", one_line(outcome.condition));
  // Without a time, the case's initial state was refused: t = 0.
  const std::string t = outcome.time.empty() ? std::string("0") : outcome.time;
  put("t_singular", t);
  return t;
}

template <class S>
void run_case(const SweepCases& cases, const CaseInput& in, std::vector<std::string>& row, std::string* series) {
  const auto put = [&](const char* name, std::string value) {
    if (const int c = cases.column(name); c >= 0) row[static_cast<std::size_t>(c)] = std::move(value);
  };
  const auto t0 = Clock::now();
  std::optional<Simulation<S>> run;
  bool planned = false;
  std::vector<std::string> series_invariants;  // the series' drift_<name> columns
  std::optional<Sample<S>> last;
  S t_step(0);
  std::exception_ptr error;
  ClassifiedError outcome;
  try {
    RunObservers<S> observers;
    observers.planned = [&](const RunPlan<S>& plan, const MotionReference<S>&) {
      planned = true;
      if (series) series_invariants = series_invariant_names(cases, plan);
    };
    observers.interrupt = [&](const S& t) {
      t_step = t;  // the time reached, before the checks that may stop the run there
      if (interrupt_requested()) throw Interrupted("interrupted (SIGINT)");
    };
    observers.motion.folded = [&](const Sample<S>& s, const MotionCheck<S>& m) {
      last = s;
      if (series) *series += series_line(s, m, series_invariants);
    };
    run.emplace(simulate<S>(case_run_spec<S>(cases.system(), cases.spec(), in), observers));
    error = run->error;
    if (error) outcome = run->outcome;
    else t_step = run->plan.options.t_end;
  } catch (...) {  // refused before the run
    error = std::current_exception();
    outcome = classify_error(error);
  }
  std::string t_reached;
  if (error) t_reached = put_failure(put, outcome, error);
  else put("status", "ok");
  if (planned || !t_reached.empty()) {
    const IntegrationStats stats = run ? run->figures.stats : IntegrationStats();
    put("t_reached", t_reached.empty() ? to_string<S>(t_step) : t_reached);
    put("steps", std::to_string(stats.steps));
    put("rhs_calls", std::to_string(stats.rhs_calls));
  }
  if (run) put_figures<S>(put, run->figures, last ? &*last : nullptr, run->plan.problem.sys.info.coordinates);
  put("wall_s", fmt::format("{:.6f}", seconds_since(t0)));
}

}  // namespace

std::vector<std::string> SweepCases::series_columns() const {
  std::vector<std::string> c = {"t", "max_C", "energy_error"};
  for (const auto& name : invariants_) c.push_back("drift_" + name);
  return c;
}

std::vector<std::string> SweepCases::run(std::uint64_t index, std::string* series) const {
  const std::vector<std::string> values = spec_.case_values(index);
  std::vector<std::string> row = base_row(index, values);
  CaseInput in;
  // The options in the order they apply: [run]'s, then the axes'; the
  // precision chosen first, as the type the case runs in.
  in.options.assign(spec_.run.begin(), spec_.run.end());
  in.params = spec_.parameters;
  const Study<double>& st = find_study<double>(system_);
  for (std::size_t a = 0; a < spec_.axes.size(); ++a) {
    const std::string& target = spec_.axes[a].target;
    if (is_state_target(target)) {
      in.state.emplace_back(target, values[a]);
    } else if (target.rfind("parameters.", 0) == 0) {
      in.params.emplace_back(target.substr(11), values[a]);
    } else if (std::any_of(st.info.parameters.begin(), st.info.parameters.end(),
                           [&](const Parameter& p) { return p.name == target; })) {
      in.params.emplace_back(target, values[a]);
    } else {
      in.options.emplace_back(target, values[a]);
    }
  }
  for (const auto& [key, value] : in.options)
    if (key == "precision") in.precision = value;
  with_scalar(in.precision, [&]<class S>() {
    if (series) series->clear();
    run_case<S>(*this, in, row, spec_.series ? series : nullptr);
    return 0;
  });
  // MPFR keeps constants (pi, log 2, ...) in a cache per thread, which is
  // not freed when the thread ends: freed here, after each case (a worker
  // thread of a sweep ends with its last case; recomputing them costs
  // microseconds).
  mpfr_free_cache();
  return row;
}

}  // namespace nhs::cli
