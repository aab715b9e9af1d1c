// The bodies' kinematics at (q, qdot) (001 §3, eqs. 3.1-3.5): positions,
// their first and (along qdot) second derivatives in q, the angular
// velocities with their Jacobians, and the inertia tensors; what the
// Appellian (gibbs_appell.hpp) needs. The derivation is written once as a
// template over the second-order AD type (dynamic AD2, InlineAD2,
// FixedAD2), like those of ad_derivations.hpp, so that describe()
// (system.hpp) can bind a description's bodies to the fastest type its
// sizes allow.
#pragma once

#include "nhs/autodiff.hpp"
#include "nhs/bodies.hpp"
#include "nhs/errors.hpp"

#include <functional>
#include <string>
#include <vector>

namespace nhs {

/// A point (or a centre of mass) at (q, qdot): mass, position and the
/// derivatives the acceleration needs.
template <class S>
struct PointKinematics {
  S mass;       ///< m_nu (or M)
  Vec<S> r;     ///< r(q), size d = 2 or 3
  Mat<S> r_q;   ///< d r / d q^i, d x n (the velocity is r_q qdot)
  Vec<S> r_qq;  ///< d^2 r / dq^i dq^j qdot^i qdot^j, size d
};

/// A rigid body at (q, qdot): its centre, omega with its Jacobians, J.
template <class S>
struct RigidKinematics {
  PointKinematics<S> centre;  ///< M, r_G and its derivatives
  Vector3<S> omega;           ///< omega(q, qdot), space frame
  Mat<S> omega_q;             ///< d omega / d q^i, 3 x n
  Mat<S> omega_qd;            ///< d omega / d qdot^i, 3 x n
  Matrix3<S> inertia;         ///< J about G, space frame
};

/// All bodies of a system at (q, qdot).
template <class S>
struct BodyKinematics {
  std::vector<PointKinematics<S>> points;
  std::vector<RigidKinematics<S>> rigid_bodies;
};

namespace ad {

/// The bodies' kinematics at (q, qdot) (both size n) from one evaluation of
/// the bodies in the second-order type A2: outer variables (q, qdot) (2n
/// slots, or A2's fixed size >= 2n), inner the single direction (qdot, 0)
/// (1 slot). That gives d r/dq, d^2 r/dq dq (qdot, qdot), d omega/dq and
/// d omega/dqdot. bodies: (Vec<A2> q, Vec<A2> qdot, Bodies<A2>&) -> void,
/// with parameters sized (2n, 1). Throws UsageError, naming the system and
/// the body, when a position has a size other than 2 or 3 or depends on
/// qdot.
template <class S, class A2, class BodiesFn>
BodyKinematics<S> body_kinematics(const BodiesFn& bodies, const Vec<S>& q, const Vec<S>& qd,
                                  const std::string& system_name) {
  using A1 = typename A2::Real;
  using OuterVec = typename A2::DerType;
  using InnerVec = typename A1::DerType;
  const Eigen::Index n = q.size();
  const Eigen::Index outer = slots<A2>(2 * n), inner = slots<A1>(1);
  const InnerVec inner_zero = InnerVec::Zero(inner);
  const OuterVec outer_zero = OuterVec::Constant(outer, A1(S(0), inner_zero));
  Vec<A2> Q(n), QD(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    InnerVec along = inner_zero;  // d q^i / ds = qdot^i
    along[0] = qd[i];
    Q[i].value() = A1(q[i], along);
    Q[i].derivatives() = outer_zero;
    Q[i].derivatives()[i].value() = S(1);
    QD[i].value() = A1(qd[i], inner_zero);
    QD[i].derivatives() = outer_zero;
    QD[i].derivatives()[n + i].value() = S(1);
  }
  Bodies<A2> b;
  bodies(Q, QD, b);

  // value, d/dx_j (x = (q, qdot)) and d/ds d/dq^j of one entry.
  const auto value = [](const A2& x) -> S { return x.value().value(); };
  const auto first = [](const A2& x, Eigen::Index j) -> S {
    return x.derivatives().size() == 0 ? S(0) : S(x.derivatives()[j].value());
  };
  const auto mixed = [](const A2& x, Eigen::Index j) -> S {
    return entry_or_zero2(x.derivatives(), j, 0);
  };
  const auto point = [&](const A2& mass, const Vec<A2>& r, const std::string& what) {
    const Eigen::Index d = r.size();
    if (d != 2 && d != 3)
      throw UsageError("system '" + system_name + "': " + what + " has " + std::to_string(d) +
                       " coordinates (2 or 3 expected)");
    PointKinematics<S> out;
    out.mass = value(mass);
    out.r.resize(d);
    out.r_q.resize(d, n);
    out.r_qq.setZero(d);
    for (Eigen::Index k = 0; k < d; ++k) {
      out.r[k] = value(r[k]);
      for (Eigen::Index j = 0; j < n; ++j) {
        out.r_q(k, j) = first(r[k], j);
        out.r_qq[k] += mixed(r[k], j) * qd[j];
        if (first(r[k], n + j) != 0)
          throw UsageError("system '" + system_name + "': " + what +
                           " depends on qdot (positions must depend on q only)");
      }
    }
    return out;
  };

  BodyKinematics<S> out;
  for (std::size_t k = 0; k < b.points.size(); ++k)
    out.points.push_back(
        point(b.points[k].mass, b.points[k].position, "point mass " + std::to_string(k)));
  for (std::size_t k = 0; k < b.rigid_bodies.size(); ++k) {
    const RigidBody<A2>& body = b.rigid_bodies[k];
    RigidKinematics<S> rk;
    rk.centre = point(body.mass, body.centre, "the centre of rigid body " + std::to_string(k));
    rk.omega_q.resize(3, n);
    rk.omega_qd.resize(3, n);
    for (int c = 0; c < 3; ++c) {
      rk.omega[c] = value(body.omega[c]);
      for (Eigen::Index j = 0; j < n; ++j) {
        rk.omega_q(c, j) = first(body.omega[c], j);
        rk.omega_qd(c, j) = first(body.omega[c], n + j);
      }
      for (int d = 0; d < 3; ++d) rk.inertia(c, d) = value(body.inertia(c, d));
    }
    out.rigid_bodies.push_back(std::move(rk));
  }
  return out;
}

}  // namespace ad
}  // namespace nhs
