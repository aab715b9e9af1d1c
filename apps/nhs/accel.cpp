// `nhs accel`: the accelerations at a state, with the multipliers and the
// reaction where the formulation defines them, and Gauss's Z at the answer
// (nhs/gauss.hpp), as one JSON object whose numbers are decimal strings in
// the full precision of the scalar type.
#include "cli.hpp"

#include "nhs/gauss.hpp"
#include "nhs/regularity.hpp"

#include <nlohmann/json.hpp>

namespace nhs::cli {

namespace {

template <class S>
nlohmann::ordered_json strings(const Vec<S>& v) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const auto& x : v) a.push_back(to_string<S>(x));
  return a;
}

}  // namespace

template <class S>
int accel_command(const AccelOptions& opts) {
  const Setup<S> s = make_setup<S>(opts);
  require_margins(s.sys, s.q, s.qdot, singular_margin_option<S>(opts, regularity_tolerance<S>()));
  const Acceleration<S> acc = s.formulation->acceleration(s.sys, s.q, s.qdot);
  // No NaN or infinity is printed: an overflow is an error (exit 4).
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
  const S z = gauss_z(s.sys, s.q, s.qdot, acc.qddot);

  nlohmann::ordered_json out;
  out["study"] = s.sys.info.name;
  out["formulation"] = s.formulation->name();
  out["precision"] = opts.precision;
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < s.sys.info.parameters.size(); ++i)
    params[s.sys.info.parameters[i].name] = to_string<S>(s.sys.parameters[i]);
  out["parameters"] = params;
  out["q"] = strings<S>(s.q);
  out["qdot"] = strings<S>(s.qdot);
  out["qddot"] = strings<S>(acc.qddot);
  if (acc.multipliers) out["multipliers"] = strings<S>(*acc.multipliers);
  if (acc.reaction) out["reaction"] = strings<S>(*acc.reaction);
  out["gauss_z"] = to_string<S>(z);
  fmt::print("{}\n", out.dump(2));
  return 0;
}

#define NHS_CLI_ACCEL_(S, NAME) template int accel_command<S>(const AccelOptions&);
NHS_FOR_EACH_SCALAR(NHS_CLI_ACCEL_)
#undef NHS_CLI_ACCEL_

}  // namespace nhs::cli
