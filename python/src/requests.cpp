// The typed requests made from Python arguments (requests.hpp).
#include "requests.hpp"

// The tool's option names, header only: Python's messages quote them, so
// that each equals the tool's for the same request (docs/python.md).
#include "../../apps/nhs/names.hpp"

namespace nhs::python {

InputNames tool_input_names(const std::string& t_option) { return cli::cli_input_names(t_option); }

RunNames tool_run_names() { return cli::cli_run_names(); }

SteadyNames tool_steady_names() { return cli::cli_steady_names(); }

ProblemInput::ProblemInput(std::string system_name, const py::object& formulation_arg, std::string precision_name,
                           py::object params_arg, std::array<py::object, 3> state_args,
                           std::array<std::string, 3> names, const py::object& field_arg, py::object tolerance,
                           py::object time, std::string time_name)
    : system(std::move(system_name)),
      precision(std::move(precision_name)),
      params(std::move(params_arg)),
      state(std::move(state_args)),
      state_names(std::move(names)),
      manifold_tol(std::move(tolerance)),
      t(std::move(time)),
      t_name(std::move(time_name)) {
  if (!formulation_arg.is_none()) formulation = str_arg(formulation_arg, "formulation");
  if (!params.is_none() && !PyDict_Check(params.ptr()))
    throw UsageError("params: expected a dict {name: value}, got " + type_name(params));
  if (!field_arg.is_none()) {
    const std::string f = str_arg(field_arg, "field");
    if (f != "default") field = parse_field_backend(f, "field");
  }
}

}  // namespace nhs::python
