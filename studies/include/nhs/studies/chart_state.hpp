// A state on C from the chart's coordinates: how the studies write their
// default states and the starts of their special motions.
#pragma once

#include "nhs/errors.hpp"
#include "nhs/system.hpp"

#include <initializer_list>
#include <string>
#include <utility>

namespace nhs {

/// The state (q, psi(q, z)) on the constraint manifold C: qdot from the
/// system's parametric representation psi of C (seed 000), q of size n, z the m
/// quasi-velocities z^alpha in the order of SystemInfo::quasi_velocities.
/// Throws UsageError when the system has no psi or a size differs.
template <class S>
State<S> state_from_chart(const System<S>& sys, Vec<S> q, std::initializer_list<S> z) {
  if (!sys.has_parametrization() || q.size() != sys.n || static_cast<int>(z.size()) != sys.m)
    throw UsageError("state_from_chart: '" + sys.info.name + "' needs psi, q of size " +
                     std::to_string(sys.n) + " and z of size " + std::to_string(sys.m));
  Vec<S> zv(sys.m), qd(sys.n);
  Eigen::Index i = 0;
  for (const S& v : z) zv[i++] = v;
  sys.parametrization(q, zv, qd);
  return {std::move(q), std::move(qd)};
}

}  // namespace nhs
