// How far a state is from the singular sets of a system: the generic one
// (rank loss of dC/dqdot, where the multipliers of the second kind are
// undefined; 001 Thm 8.1) and the system's own (e.g. the bipendulum's
// states of 000 eq. 72, where the hidden point P0 is undefined). Used to
// report singular input by name and to stop a motion before it reaches a
// singular set.
#pragma once

#include "nhs/system.hpp"

#include <vector>

namespace nhs {

/// The margins of (q, qdot) to the singular sets, in this order:
/// "sigma_min_dC_dqdot", the smallest singular value of dC/dqdot (r x n;
/// absolute, in the units of C per unit velocity; condition "rank loss of
/// dC/dqdot"), omitted when r = 0; then the system's own
/// (System::singular_margins). q, qd: size n.
template <class S>
std::vector<Margin<S>> regularity_margins(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd);

/// Throws SingularState(m.condition) for the first margin m of
/// regularity_margins with m.value <= threshold (threshold >= 0), naming the
/// margin, its value, the threshold and the state (singular_margin_message,
/// nhs/redundant_constraints.hpp: for rank loss of dC/dqdot, that
/// udwadia-kalaba takes dependent constraints). Non-finite margins count
/// as singular. For a given formulation: require_formulation_margins.
template <class S>
void require_margins(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd, const S& threshold);

#define NHS_SINGULAR_SET_INSTANTIATE(EXTERN, S)                                         \
  EXTERN template std::vector<Margin<S>> regularity_margins<S>(                         \
      const System<S>&, const Vec<S>&, const Vec<S>&);                                  \
  EXTERN template void require_margins<S>(const System<S>&, const Vec<S>&, const Vec<S>&, \
                                          const S&);
#define NHS_EXTERN_SINGULAR_SET_(S, NAME) NHS_SINGULAR_SET_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_SINGULAR_SET_)
#undef NHS_EXTERN_SINGULAR_SET_

}  // namespace nhs
