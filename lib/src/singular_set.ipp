#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/redundant_constraints.hpp"
#include "nhs/regularity.hpp"
#include "nhs/singular_set.hpp"

namespace nhs {

template <class S>
std::vector<Margin<S>> regularity_margins(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  std::vector<Margin<S>> out;
  if (sys.r > 0) {
    const Vec<S> sv = singular_values<S>(constraint_jacobians(sys, q, qd).C_qdot);
    out.push_back({"sigma_min_dC_dqdot", sv[sv.size() - 1], "rank loss of dC/dqdot"});
  }
  if (sys.singular_margins)
    for (auto& m : sys.singular_margins(q, qd)) out.push_back(std::move(m));
  return out;
}

template <class S>
void require_margins(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd, const S& threshold) {
  for (const Margin<S>& m : regularity_margins(sys, q, qd))
    if (!(m.value > threshold))  // NaN counts as singular
      throw SingularState(m.condition, singular_margin_message(m, threshold, q, qd));
}

}  // namespace nhs
