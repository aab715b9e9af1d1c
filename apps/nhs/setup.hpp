// The set-up shared by `accel` and `run`: their options parsed into the
// typed problem of the library (nhs/session/problem.hpp), which builds the
// system, the formulation and its field, and admits the state.
#pragma once

#include "names.hpp"
#include "options.hpp"
#include "text.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/errors.hpp"
#include "nhs/formulation.hpp"
#include "nhs/generated_formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/manifold.hpp"
#include "nhs/norms.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/system_file.hpp"
#include "nhs/session/problem.hpp"

#include <memory>
#include <string>

namespace nhs::cli {

/// The typed problem (nhs/session/problem.hpp) that the options `o` ask
/// for: the text of --q, --qdot, --z, --param and --manifold-tol parsed in
/// S. Checked in the order the user meets them: the system, the formulation,
/// the state's form, each vector (malformed, then its length), the
/// tolerance, the parameters (unknown, then malformed); before any system
/// is built (n-trailer-200 takes a minute to build in mp50). Throws
/// UsageError naming the option (MalformedNumber's message inside).
template <class S>
ProblemSpec<S> problem_spec(const StateOptions& o) {
  ProblemSpec<S> spec;
  spec.names = cli_input_names(o.t_option);
  spec.system = o.study;
  spec.formulation = o.formulation;
  spec.field = o.field;
  spec.precision = o.precision;
  const Study<S>& st = find_study<S>(o.study);
  find_formulation<S>(o.formulation.empty() ? default_formulation_name<S>(o.study) : o.formulation);
  const SystemInfo& info = st.info;
  require_state_form(!o.q.empty(), !o.qdot.empty(), !o.z.empty(), info, spec.names);
  const auto vector = [&](const std::string& option, const std::string& text,
                          const std::vector<std::string>& names, const char* dimension) -> std::optional<Vec<S>> {
    if (text.empty()) return std::nullopt;
    Vec<S> v = parse_vector<S>(option, text);
    require_input_size(v, option, info, names, dimension);
    return v;
  };
  spec.q = vector(spec.names.q, o.q, info.coordinates, "n");
  spec.qdot = vector(spec.names.qdot, o.qdot, info.coordinates, "n");
  spec.z = vector(spec.names.z, o.z, info.quasi_velocities, "m");
  if (!o.t.empty()) spec.t = parse_number<S>(spec.names.t, o.t);
  if (!o.manifold_tol.empty()) spec.manifold_tol = parse_number<S>(spec.names.manifold_tol, o.manifold_tol);
  spec.parameters = parameter_overrides<S>(st, parse_params(o.params));
  return spec;
}

/// The problem of the options `given` (problem_spec, make_problem). Throws
/// as they do.
template <class S>
Problem<S> make_setup(const StateOptions& given) {
  return make_problem<S>(problem_spec<S>(given));
}

/// The --singular-margin of o, or `fallback` when not given; UsageError
/// when malformed or negative.
template <class S>
S singular_margin_option(const StateOptions& o, const S& fallback) {
  if (o.singular_margin.empty()) return fallback;
  const std::string name = cli_input_names().singular_margin;
  const S margin = parse_number<S>(name, o.singular_margin);
  require_singular_margin(margin, name);
  return margin;
}

}  // namespace nhs::cli
