// nhs.System's C++ half (system.hpp).
#include "system.hpp"

#include "run.hpp"

#include "nhs/regularity.hpp"
#include "nhs/session/clock.hpp"
#include "nhs/session/files.hpp"
#include "nhs/session/linearization_report.hpp"
#include "nhs/session/precision.hpp"
#include "nhs/verification/check.hpp"
#include "nhs/verification/summary.hpp"

#include <algorithm>

namespace nhs::python {

SystemHandle::SystemHandle(std::string name) : name_(std::move(name)) {
  info_ = find_study<double>(name_).info;  // loads a file; FileError
}

py::dict SystemHandle::parameters() const {
  py::dict d;
  for (const auto& p : info_.parameters) d[py::str(p.name)] = p.default_value;
  return d;
}

std::vector<std::string> SystemHandle::formulations() const {
  const Study<double>& st = find_study<double>(name_);
  const System<double> sys = st.build(st.default_parameters());
  std::vector<std::string> out;
  for (const auto& f : nhs::formulations<double>()) {
    try {
      f->require_applicable(sys);
      out.push_back(f->name());
    } catch (const NotApplicable&) {
    }
  }
  return out;
}

FieldHandle SystemHandle::field(const py::object& formulation, const py::object& precision, const py::object& params,
                                const py::object& field) const {
  const ProblemInput in(name_, formulation, str_arg(precision, "precision"), params,
                        {py::none(), py::none(), py::none()}, {"q", "qdot", "z"}, field, py::none());
  // Before the field is made: a file changed meanwhile makes jac refuse.
  return make_field(in, is_file() ? cached_system_file(name_) : nullptr);
}

namespace {

/// A model of System.accel (make_problem_model) with what it was made of:
/// reused while a call asks for the same formulation, field and parameters
/// of the same loaded file (in the same precision: one per precision).
template <class S>
struct AccelModel {
  std::string formulation;
  std::optional<FieldBackend> field;
  std::vector<std::pair<std::string, S>> parameters;
  /// The file as loaded (cached_system_file) before the model was made
  /// from it; null for a built-in study.
  std::shared_ptr<const SystemFile> file;
  Problem<S> problem;

  bool made_of(const ProblemSpec<S>& spec, const std::shared_ptr<const SystemFile>& now) const {
    return formulation == spec.formulation && field == spec.field && parameters == spec.parameters && file == now;
  }
};

}  // namespace

template <class S>
AccelAnswer<S> SystemHandle::accel_answer(const ProblemSpec<S>& request, const S& margin, bool jacobian) const {
  const ProblemSpec<S> spec = checked_problem_request<S>(request);
  // The file as it is now, taken before a model is made from it: a model
  // made from an older file (cached_system_file loads a changed file
  // again) is not reused.
  std::shared_ptr<const SystemFile> file = is_file() ? cached_system_file(name_) : nullptr;
  // One model per precision, formulation and field asked for (a loop
  // that alternates them keeps each); the parameters and the file are
  // checked (made_of).
  const std::string key = spec.precision + "|" + spec.formulation + "|" +
                          (spec.field ? field_backend_name(*spec.field) : std::string("default"));
  std::shared_ptr<AccelModel<S>> model;
  {
    // Taken out of the slot while in use: a traced field's interpreter
    // serves one thread at a time (a concurrent call makes its own).
    const std::lock_guard<std::mutex> lock(accel_models_->mutex);
    std::shared_ptr<void>& slot = accel_models_->kept[key];
    if (auto kept = std::static_pointer_cast<AccelModel<S>>(slot); kept && kept->made_of(spec, file)) {
      model = std::move(kept);
      slot.reset();
    }
  }
  if (!model) {
    model = std::make_shared<AccelModel<S>>(
        AccelModel<S>{spec.formulation, spec.field, spec.parameters, std::move(file), make_problem_model<S>(spec)});
    share_state_derivations(model->problem);
  }
  // Put back for the next call, also when this state is refused (the
  // model stays valid: admit_problem_state).
  const std::shared_ptr<AccelModels> models = accel_models_;
  const auto put_back = [&] {
    const std::lock_guard<std::mutex> lock(models->mutex);
    models->kept[key] = model;
  };
  try {
    admit_problem_state<S>(model->problem, spec);
    AccelAnswer<S> answer = accelerations_at<S>(model->problem, margin, jacobian);
    put_back();
    return answer;
  } catch (...) {
    put_back();
    throw;
  }
}

AccelResult SystemHandle::accel(const py::object& q, const py::object& qdot, const py::object& z,
                                const py::object& formulation, const py::object& precision, const py::object& params,
                                const py::object& field, const py::object& manifold_tol,
                                const py::object& singular_margin, const py::object& jacobian,
                                const py::object& t) const {
  const ProblemInput in(name_, formulation, str_arg(precision, "precision"), params, {q, qdot, z},
                        {"q", "qdot", "z"}, field, manifold_tol, t, "t");
  const bool with_jacobian = bool_arg(jacobian, "jacobian");
  std::optional<AccelResult> result;
  with_precision(in.precision, [&]<class S>() {
    const ProblemSpec<S> spec = problem_request<S>(in);
    // The margin to a singular set: 100 epsilon by default, as nhs accel's.
    const S margin = singular_margin_of<S>(singular_margin).value_or(regularity_tolerance<S>());
    require_singular_margin(margin, spec.names.singular_margin);
    std::optional<AccelAnswer<S>> answer;
    if constexpr (std::is_same_v<S, double>) {
      answer.emplace(accel_answer<S>(spec, margin, with_jacobian));
    } else {
      py::gil_scoped_release release;
      answer.emplace(accel_answer<S>(spec, margin, with_jacobian));
    }
    result.emplace(accel_result<S>(std::move(*answer), in.precision));
    return py::object();
  });
  return std::move(*result);
}

double SystemHandle::bench_accel(int repeats, const py::object& q, const py::object& qdot,
                                 const py::object& formulation) const {
  const ProblemInput in(name_, formulation, "double", py::none(), {q, qdot, py::none()}, {"q", "qdot", "z"},
                        py::none(), py::none());
  const ProblemSpec<double> spec = problem_request<double>(in);
  const auto t0 = Clock::now();
  double sink = 0;
  for (int k = 0; k < repeats; ++k)
    sink += accel_answer<double>(spec, regularity_tolerance<double>(), false).acceleration.qddot[0];
  const double s = seconds_since(t0);
  return sink == sink ? s / repeats : s / repeats;
}

py::dict SystemHandle::run(const py::object& t_end, const py::object& dt_out, const py::object& formulation,
                           const py::object& precision, const py::object& stepper, const py::object& rtol,
                           const py::object& atol, const py::object& project, const py::object& q0,
                           const py::object& qdot0, const py::object& z0, const py::object& params,
                           const py::object& field, const py::object& max_rhs_calls,
                           const py::object& singular_margin, const py::object& manifold_tol, const py::object& step,
                           const py::object& motion, const py::object& max_rows, const py::object& max_wall_time,
                           const py::object& t0, const std::array<std::string, 3>& state_names,
                           const py::object& animate) const {
  RunInput in{.problem = ProblemInput(name_, formulation, str_arg(precision, "precision"), params, {q0, qdot0, z0},
                                      state_names, field, manifold_tol, t0, "t0"),
              .t_end = t_end, .dt_out = dt_out, .rtol = rtol, .atol = atol, .step = step,
              .singular_margin = singular_margin};
  if (!motion.is_none()) {
    if (!PyUnicode_Check(motion.ptr()) && (PyBool_Check(motion.ptr()) || !PyLong_Check(motion.ptr())))
      throw UsageError("motion: expected a str (a motion's name) or an int (its number), got " + type_name(motion));
    in.motion = py::str(motion).cast<std::string>();
  }
  in.stepper = parse_stepper(str_arg(stepper, "stepper"));
  in.project = bool_arg(project, "project");
  if (!max_rhs_calls.is_none())
    in.max_rhs_calls = static_cast<std::uint64_t>(int_arg(max_rhs_calls, "max_rhs_calls", 1));
  if (!max_wall_time.is_none()) {
    const double s = to_scalar<double>(max_wall_time, {"max_wall_time", "max_wall_time"});
    if (!(s > 0) || !std::isfinite(s))
      throw UsageError(fmt::format("max_wall_time: expected a positive number of seconds, got '{}'", s));
    in.max_wall_time = s;
  }
  if (!animate.is_none()) return animate_system(in, name_, animate.cast<py::dict>());
  const std::uint64_t rows_allowed =
      max_rows.is_none() ? kMaxRunRows : static_cast<std::uint64_t>(int_arg(max_rows, "max_rows", 1));
  return run_system(in, rows_allowed);
}

CheckResult SystemHandle::check(const py::object& precision, const py::object& states, const py::object& quick,
                                const py::object& jobs, const py::object& out_dir) const {
  const std::string precision_text = str_arg(precision, "precision");
  CheckSpec spec;
  spec.system = name_;
  spec.precisions = parse_precision_list(precision_text);
  spec.states = static_cast<int>(std::min<long long>(int_arg(states, "states", 1), 1000000000));
  spec.quick = bool_arg(quick, "quick");
  spec.jobs = static_cast<unsigned>(std::min<long long>(int_arg(jobs, "jobs", 0), 65536));
  spec.write_trajectories = !out_dir.is_none();
  if (spec.write_trajectories) spec.out_dir = str_arg(out_dir, "out_dir");
  const std::string command = check_command(spec, precision_text), date = check_date();
  std::optional<CheckReport> report;
  {
    py::gil_scoped_release release;
    report.emplace(run_checks(spec));  // quiet
    if (spec.write_trajectories) write_check_summaries(*report, spec, command, date);
  }
  return check_result(*report, spec, command, date);
}

LinearizationResult SystemHandle::linearize(const py::object& steady, const py::object& at,
                                            const py::object& formulation, const py::object& precision_arg,
                                            const py::object& params) const {
  const std::string precision = str_arg(precision_arg, "precision");
  std::optional<LinearizationResult> result;
  with_precision(precision, [&]<class S>() {
    const SteadySpec<S> spec = steady_request<S>(name_, steady, at, formulation, params);
    std::optional<SteadyLinearization<S>> lin;
    {
      py::gil_scoped_release release;
      lin.emplace(linearize_steady<S>(spec, family_values<S>(spec)));
    }
    result.emplace(linearization_result<S>(*lin, precision));
    return py::object();
  });
  return std::move(*result);
}

StabilityResult SystemHandle::stability(const py::object& steady, const py::object& vary_arg, const py::object& start,
                                        const py::object& stop, const py::object& points, const py::object& at,
                                        const py::object& formulation, const py::object& precision_arg,
                                        const py::object& params, const py::object& csv_arg) const {
  const std::string vary = str_arg(vary_arg, "vary"), precision = str_arg(precision_arg, "precision");
  const std::string csv = str_arg(csv_arg, "csv");
  const auto count = static_cast<std::uint64_t>(int_arg(points, "points", 1));
  std::optional<StabilityResult> result;
  with_precision(precision, [&]<class S>() {
    const SteadySpec<S> spec = steady_request<S>(name_, steady, at, formulation, params);
    const S lo = to_scalar<S>(start, {"start", "--from"}), hi = to_scalar<S>(stop, {"stop", "--to"});
    std::optional<StabilityScan<S>> scan;
    {
      py::gil_scoped_release release;
      if (!csv.empty()) refuse_overwriting(name_, csv, "--csv");
      scan.emplace(scan_stability<S>(spec, vary, lo, hi, count));
      if (!csv.empty()) write_text_file(csv, stability_csv<S>(*scan));
    }
    result.emplace(stability_result<S>(*scan, precision, csv));
    return py::object();
  });
  return std::move(*result);
}

}  // namespace nhs::python
