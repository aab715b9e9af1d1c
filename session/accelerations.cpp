// The accelerations of a problem (nhs/session/accelerations.hpp),
// instantiated for every scalar.
#include "nhs/session/accelerations.hpp"

#include "nhs/format.hpp"
#include "nhs/gauss.hpp"
#include "nhs/redundant_constraints.hpp"
#include "nhs/regularity.hpp"

namespace nhs {

template <class S>
AccelAnswer<S> accelerations_at(const Problem<S>& p, const S& singular_margin, bool jacobian) {
  require_formulation_margins(p.sys, *p.formulation, p.q, p.qdot, singular_margin);
  AccelAnswer<S> a{.study = p.sys.info.name,
                   .formulation = p.formulation_name,
                   .field = field_backend_name(p.field),
                   .parameters = {},
                   .q = p.q,
                   .qdot = p.qdot,
                   .acceleration = p.formulation->acceleration(p.sys, p.q, p.qdot),
                   .gauss_z = S(0)};
  for (std::size_t i = 0; i < p.sys.info.parameters.size(); ++i)
    a.parameters.emplace_back(p.sys.info.parameters[i].name, p.sys.parameters[i]);
  const Acceleration<S>& acc = a.acceleration;
  // No NaN or infinity is returned: an overflow is an error (exit 4).
  const Context context = [&] { return "from " + p.formulation->name() + " " + state_context(p.q, p.qdot); };
  require_finite(acc.qddot, "qddot", context);
  if (acc.multipliers) require_finite(*acc.multipliers, "the multipliers", context);
  if (acc.reaction) require_finite(*acc.reaction, "the reaction", context);
  // Gauss's Z at the formulation's qddot: the minimum over the accelerations
  // that satisfy the constraints (for every formulation but the negative
  // control), 0 when the constraints exert no force. NonFiniteValue (exit
  // 4) where Z overflows.
  a.gauss_z = gauss_z(p.sys, p.q, p.qdot, acc.qddot);
  if (jacobian) a.jacobian = field_jacobian_at<S>(p.system, p.formulation_name, p.sys, p.q, p.qdot, p.names.jacobian);
  return a;
}

#define NHS_SESSION_ACCELERATIONS_INSTANTIATE_(S, NAME) \
  template AccelAnswer<S> accelerations_at<S>(const Problem<S>&, const S&, bool);
NHS_FOR_EACH_SCALAR(NHS_SESSION_ACCELERATIONS_INSTANTIATE_)
#undef NHS_SESSION_ACCELERATIONS_INSTANTIATE_

}  // namespace nhs
