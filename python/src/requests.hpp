// The typed requests of the library (nhs/session: ProblemSpec, RunSpec,
// SteadySpec) made from the Python arguments of System.accel, .field,
// .run, .linearize and .stability: each number converted once, from the
// Python object to S (convert.hpp), in the precision of the call. A type
// error names the Python argument ("q: expected a list ..."); a value's
// error names the tool's option ("--q: malformed number '1.2.3'"), so
// that the message is the tool's (docs/python.md, "Errors").
#pragma once

#include "convert.hpp"

#include "nhs/field_backend.hpp"
#include "nhs/session/problem.hpp"
#include "nhs/session/run_plan.hpp"
#include "nhs/session/steady_linearization.hpp"
#include "nhs/stepper.hpp"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nhs::python {

/// The names in the messages of make_problem: the tool's options (t_option:
/// "--t" for accel, "--t0" for run).
InputNames tool_input_names(const std::string& t_option);

/// The names in the messages of plan_run: the tool's options.
RunNames tool_run_names();

/// The names in the messages of the steady linearization: the tool's options.
SteadyNames tool_steady_names();

/// The arguments of a problem as Python gave them (System.accel, .field,
/// .run): the names checked (their types) when constructed, the numbers
/// converted by problem_request<S> in the call's precision.
struct ProblemInput {
  ProblemInput(std::string system, const py::object& formulation, std::string precision, py::object params,
               std::array<py::object, 3> state, std::array<std::string, 3> state_names, const py::object& field,
               py::object manifold_tol, py::object t = py::none(), std::string t_name = "t");

  std::string system, formulation, precision;
  std::optional<FieldBackend> field;
  py::object params;                      ///< None or a dict {name: number}
  std::array<py::object, 3> state;        ///< q, qdot, z (None: not given)
  std::array<std::string, 3> state_names; ///< their Python names (q0 ... in a run)
  py::object manifold_tol, t;
  std::string t_name;                     ///< "t" (accel) or "t0" (run)
};

/// {name: value} of the argument `what` (params, at) as (name, S) pairs,
/// in order; None is empty. A parameter's name is checked against
/// `study` first when given (parameter_index: UsageError listing the
/// known); its value's errors name `option_prefix` + name ("parameter m",
/// "--at V"). UsageError naming `what` unless a dict with str keys.
template <class S>
std::vector<std::pair<std::string, S>> named_values(const py::object& d, const std::string& what,
                                                    const std::string& option_prefix, const Study<S>* study) {
  std::vector<std::pair<std::string, S>> out;
  if (d.is_none()) return out;
  if (!PyDict_Check(d.ptr())) throw UsageError(what + ": expected a dict {name: value}, got " + type_name(d));
  for (auto [k, v] : py::reinterpret_borrow<py::dict>(d)) {
    if (!PyUnicode_Check(k.ptr())) throw UsageError(what + ": a parameter's name is a str, got " + shown(k));
    const std::string name = k.template cast<std::string>();
    if (study) parameter_index(study->info, name);
    out.emplace_back(name, to_scalar<S>(v, {what + "[" + name + "]", option_prefix + name}));
  }
  return out;
}

/// The typed problem of `in` in S (nhs/session/problem.hpp).
template <class S>
ProblemSpec<S> problem_request(const ProblemInput& in) {
  ProblemSpec<S> spec{.system = in.system,
                      .formulation = in.formulation,
                      .field = in.field,
                      .precision = in.precision,
                      .parameters = named_values<S>(in.params, "params", "parameter ", &find_study<S>(in.system)),
                      .names = tool_input_names(in.t_name == "t0" ? "--t0" : "--t")};
  const std::string* option[3] = {&spec.names.q, &spec.names.qdot, &spec.names.z};
  std::optional<Vec<S>>* state[3] = {&spec.q, &spec.qdot, &spec.z};
  for (std::size_t k = 0; k < 3; ++k)
    if (!in.state[k].is_none()) *state[k] = to_vector<S>(in.state[k], {in.state_names[k], *option[k]});
  if (!in.manifold_tol.is_none())
    spec.manifold_tol = to_scalar<S>(in.manifold_tol, {"manifold_tol", spec.names.manifold_tol});
  if (!in.t.is_none()) spec.t = to_scalar<S>(in.t, {in.t_name, spec.names.t});
  return spec;
}

/// The arguments of System.run as Python gave them (other than the
/// problem's): the flags and counts checked when constructed, the numbers
/// converted by run_request<S>.
struct RunInput {
  ProblemInput problem;
  py::object t_end, dt_out, rtol, atol, step, singular_margin;
  std::string motion;
  Stepper stepper = Stepper::automatic;
  bool project = false;
  std::optional<std::uint64_t> max_rhs_calls;
  std::optional<double> max_wall_time;
};

/// The margin to a singular set `v` (None: empty) in S, as the input
/// --singular-margin.
template <class S>
std::optional<S> singular_margin_of(const py::object& v) {
  if (v.is_none()) return std::nullopt;
  return to_scalar<S>(v, {"singular_margin", "--singular-margin"});
}

/// The typed run of `in` in S (nhs/session/run_plan.hpp): its options
/// checked (require_run_options) before the problem's, as the tool's.
template <class S>
RunSpec<S> run_request(const RunInput& in) {
  RunSpec<S> spec;
  spec.names = tool_run_names();
  if (!in.t_end.is_none()) spec.t_end = to_scalar<S>(in.t_end, {"t_end", spec.names.t_end});
  spec.dt_out = to_scalar<S>(in.dt_out, {"dt_out", spec.names.dt_out});
  if (!in.rtol.is_none()) spec.rtol = to_scalar<S>(in.rtol, {"rtol", spec.names.rtol});
  if (!in.atol.is_none()) spec.atol = to_scalar<S>(in.atol, {"atol", spec.names.atol});
  spec.singular_margin = singular_margin_of<S>(in.singular_margin);
  spec.max_rhs_calls = in.max_rhs_calls;
  spec.max_wall_time = in.max_wall_time;
  spec.stepper = in.stepper;
  if (!in.step.is_none()) spec.step = to_scalar<S>(in.step, {"step", spec.names.step});
  spec.project = in.project;
  spec.motion = in.motion;
  require_run_options(spec);
  spec.problem = problem_request<S>(in.problem);
  return spec;
}

/// The typed request of System.linearize and System.stability
/// (nhs/session/steady_linearization.hpp): `at` under the tool's option
/// (--at <name>), the parameter overrides as the problem's.
template <class S>
SteadySpec<S> steady_request(const std::string& system, const py::object& steady, const py::object& at,
                             const py::object& formulation, const py::object& params) {
  std::string family = str_arg(steady, "steady"), name = str_arg(formulation, "formulation");
  auto values = named_values<S>(at, "at", "--at ", nullptr);
  return SteadySpec<S>{.system = system,
                       .steady = std::move(family),
                       .formulation = std::move(name),
                       .parameters = named_values<S>(params, "params", "parameter ", &find_study<S>(system)),
                       .at = std::move(values),
                       .names = tool_steady_names()};
}

}  // namespace nhs::python
