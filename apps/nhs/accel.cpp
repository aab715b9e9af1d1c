// `nhs accel`: the accelerations at a state, with the multipliers and the
// reaction where the formulation defines them, and Gauss's Z at the answer
// (nhs/gauss.hpp), as one JSON object whose numbers are decimal strings in
// the full precision of the scalar type.
#include "cli.hpp"

#include "nhs/session/json_values.hpp"
#include "nhs/session/result_keys.hpp"

#include "nhs/regularity.hpp"

#include <nlohmann/json.hpp>

namespace nhs::cli {


template <class S>
AccelAnswer<S> accel_answer(const AccelOptions& opts) {
  const S margin = singular_margin_option<S>(opts, regularity_tolerance<S>());  // before the build
  return accelerations_at<S>(make_setup<S>(opts), margin, opts.jacobian);
}

template <class S>
int accel_command(const AccelOptions& opts) {
  const AccelAnswer<S> a = accel_answer<S>(opts);
  const Acceleration<S>& acc = a.acceleration;
  namespace k = result_keys;
  nlohmann::ordered_json out;
  out[k::kStudy] = a.study;
  out[k::kFormulation] = a.formulation;
  out[k::kField] = a.field;
  out[k::kPrecision] = opts.precision;
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [name, value] : a.parameters) params[name] = to_string<S>(value);
  out[k::kParameters] = params;
  out[k::kQ] = json_strings<S>(a.q);
  out[k::kQdot] = json_strings<S>(a.qdot);
  out[k::kQddot] = json_strings<S>(acc.qddot);
  if (acc.multipliers) out[k::kMultipliers] = json_strings<S>(*acc.multipliers);
  if (acc.reaction) out[k::kReaction] = json_strings<S>(*acc.reaction);
  out[k::kGaussZ] = to_string<S>(a.gauss_z);
  if (a.jacobian) {
    nlohmann::ordered_json j;
    j[k::kFormulation] = a.jacobian->formulation;
    j[k::kState] = a.jacobian->state;
    j[k::kField] = json_strings<S>(a.jacobian->f);
    j[k::kRows] = json_rows<S>(a.jacobian->J);
    j[k::kEigenvalues] = json_complex<S>(a.jacobian->eigenvalues);
    out[k::kJacobian] = j;
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
