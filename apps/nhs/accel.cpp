// `nhs accel`: the accelerations at a state, with the multipliers and the
// reaction where the formulation defines them, and Gauss's Z at the answer
// (nhs/gauss.hpp), as one JSON object whose numbers are decimal strings in
// the full precision of the scalar type.
#include "cli.hpp"

#include "json_values.hpp"

#include "nhs/gauss.hpp"
#include "nhs/regularity.hpp"

#include <nlohmann/json.hpp>

namespace nhs::cli {


template <class S>
AccelAnswer<S> accel_answer(const AccelOptions& opts) {
  const S margin = singular_margin_option<S>(opts, regularity_tolerance<S>());  // before the build
  const Setup<S> s = make_setup<S>(opts);
  require_margins(s.sys, s.q, s.qdot, margin);
  AccelAnswer<S> a{.study = s.sys.info.name,
                   .formulation = s.formulation->name(),
                   .field = field_backend_name(s.field),
                   .parameters = {},
                   .q = s.q,
                   .qdot = s.qdot,
                   .acceleration = s.formulation->acceleration(s.sys, s.q, s.qdot),
                   .gauss_z = S(0)};
  for (std::size_t i = 0; i < s.sys.info.parameters.size(); ++i)
    a.parameters.emplace_back(s.sys.info.parameters[i].name, s.sys.parameters[i]);
  const Acceleration<S>& acc = a.acceleration;
  // No NaN or infinity is returned: an overflow is an error (exit 4).
  const Context context = [&] {
    return "from " + s.formulation->name() + " " + state_context(s.q, s.qdot);
  };
  require_finite(acc.qddot, "qddot", context);
  if (acc.multipliers) require_finite(*acc.multipliers, "the multipliers", context);
  if (acc.reaction) require_finite(*acc.reaction, "the reaction", context);
  // Gauss's Z at the formulation's qddot: the minimum over the accelerations
  // that satisfy the constraints (for every formulation but the negative
  // control), 0 when the constraints exert no force.
  // NonFiniteValue (exit 4) where Z overflows.
  a.gauss_z = gauss_z(s.sys, s.q, s.qdot, acc.qddot);
  if (opts.jacobian)
    a.jacobian = field_jacobian_at<S>(opts.study, with_default_formulation<S>(opts).formulation, s.sys, s.q, s.qdot);
  return a;
}

template <class S>
int accel_command(const AccelOptions& opts) {
  const AccelAnswer<S> a = accel_answer<S>(opts);
  const Acceleration<S>& acc = a.acceleration;
  nlohmann::ordered_json out;
  out["study"] = a.study;
  out["formulation"] = a.formulation;
  out["field"] = a.field;
  out["precision"] = opts.precision;
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [name, value] : a.parameters) params[name] = to_string<S>(value);
  out["parameters"] = params;
  out["q"] = json_strings<S>(a.q);
  out["qdot"] = json_strings<S>(a.qdot);
  out["qddot"] = json_strings<S>(acc.qddot);
  if (acc.multipliers) out["multipliers"] = json_strings<S>(*acc.multipliers);
  if (acc.reaction) out["reaction"] = json_strings<S>(*acc.reaction);
  out["gauss_z"] = to_string<S>(a.gauss_z);
  if (a.jacobian) {
    nlohmann::ordered_json j;
    j["formulation"] = a.jacobian->formulation;
    j["state"] = a.jacobian->state;
    j["field"] = json_strings<S>(a.jacobian->f);
    j["rows"] = json_rows<S>(a.jacobian->J);
    j["eigenvalues"] = json_complex<S>(a.jacobian->eigenvalues);
    out["jacobian"] = j;
  }
  fmt::print("{}\n", out.dump(2));
  return 0;
}

#define NHS_CLI_ACCEL_(S, NAME)                                   \
  template AccelAnswer<S> accel_answer<S>(const AccelOptions&); \
  template int accel_command<S>(const AccelOptions&);
NHS_FOR_EACH_SCALAR(NHS_CLI_ACCEL_)
#undef NHS_CLI_ACCEL_

}  // namespace nhs::cli
