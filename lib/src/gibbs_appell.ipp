// Implementation of gibbs_appell.hpp; included once per scalar type by the
// generated instantiation units (lib/src/instantiate.cpp.in).
#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/gibbs_appell.hpp"
#include "nhs/regularity.hpp"

#include <Eigen/Geometry>  // omega x J omega: MatrixBase::cross

namespace nhs {
namespace gibbs_appell_detail {

template <class S>
void require_bodies(const System<S>& sys) {
  if (!sys.has_bodies())
    throw NotApplicable("system '" + sys.info.name +
                        "' has no body model (point masses, rigid bodies): the Appellian is "
                        "defined from the bodies' accelerations");
}

// sum_k x_k y_k of two AD2 vectors of the same size (at least 1).
template <class T>
T inner(const Vec<T>& x, const Vec<T>& y) {
  T s = x[0] * y[0];
  for (Eigen::Index k = 1; k < x.size(); ++k) s += x[k] * y[k];
  return s;
}

// Everything at (q, z) that S(zdot) needs: psi and its Jacobians, the
// bodies' kinematics at qdot = psi.
template <class S>
struct Setting {
  ParametrizationJacobians<S> P;
  Vec<S> drift;  // (d_h psi) psi^h: qddot at zdot = 0
  BodyKinematics<S> K;
};

template <class S>
Setting<S> setting(const System<S>& sys, const Vec<S>& q, const Vec<S>& z) {
  require_bodies(sys);
  Setting<S> s;
  s.P = parametrization_jacobians(sys, q, z);  // NotApplicable without psi
  s.drift = s.P.psi_q * s.P.psi;
  s.K = body_kinematics(sys, q, s.P.psi);
  return s;
}

// S(zdot) with its gradient and Hessian: the accelerations are affine in
// zdot, a = a0 + B zdot, eps = eps0 + E zdot (001 eqs. 3.3-3.5), and S is
// evaluated in the second-order type A2 over zdot (outer and inner m; A2
// is AD2<S> or, with m <= 16, InlineAD2<S>).
template <class S, class A2>
Appellian<S> appellian_in(const System<S>& sys, const Setting<S>& st, const Vec<S>& zdot) {
  using A1 = typename A2::Real;
  using OuterVec = typename A2::DerType;
  using InnerVec = typename A1::DerType;
  const Eigen::Index m = sys.m;
  const auto constant = [m](const S& x) { return sized_constant<A2>(x, m, m); };
  Vec<A2> Zd(m);
  for (Eigen::Index b = 0; b < m; ++b) {
    OuterVec outer(m);
    for (Eigen::Index k = 0; k < m; ++k) outer[k] = A1(S(k == b ? 1 : 0), InnerVec::Zero(m));
    Zd[b] = A2(A1(zdot[b], InnerVec::Unit(m, b)), outer);
  }
  // a0 + B zdot, componentwise in A2.
  const auto affine = [&](const Vec<S>& a0, const Mat<S>& B) {
    Vec<A2> a(a0.size());
    for (Eigen::Index k = 0; k < a0.size(); ++k) {
      A2 ak = constant(a0[k]);
      for (Eigen::Index b = 0; b < m; ++b) ak += constant(B(k, b)) * Zd[b];
      a[k] = ak;
    }
    return a;
  };
  // 001 eq. 3.3: a = d_ij r psi^i psi^j + d_i r (psi^i_j psi^j + psi^i_alpha zdot^alpha).
  const auto acceleration = [&](const PointKinematics<S>& p) {
    return affine(Vec<S>(p.r_qq + p.r_q * st.drift), Mat<S>(p.r_q * st.P.psi_z));
  };
  const S half = S(1) / S(2);

  A2 Sv = constant(S(0));
  for (const PointKinematics<S>& p : st.K.points) {
    const Vec<A2> a = acceleration(p);
    Sv += constant(half * p.mass) * inner(a, a);
  }
  for (const RigidKinematics<S>& body : st.K.rigid_bodies) {
    const Vec<A2> a = acceleration(body.centre);
    // eps = d omega/dq psi + d omega/dqdot (drift + psi_z zdot).
    const Vec<A2> eps =
        affine(Vec<S>(body.omega_q * st.P.psi + body.omega_qd * st.drift),
               Mat<S>(body.omega_qd * st.P.psi_z));
    const Vector3<S> Jw = body.inertia * body.omega;
    const Vector3<S> gyro = body.omega.cross(Jw);  // omega x J omega
    Vec<A2> Jeps(3);
    for (int k = 0; k < 3; ++k) {
      A2 e = eps[0] * constant(body.inertia(k, 0));
      e += eps[1] * constant(body.inertia(k, 1));
      e += eps[2] * constant(body.inertia(k, 2));
      Jeps[k] = e;
    }
    Sv += constant(half * body.centre.mass) * inner(a, a);
    Sv += constant(half) * inner(eps, Jeps);
    A2 cross_term = eps[0] * constant(gyro[0]);
    cross_term += eps[1] * constant(gyro[1]);
    cross_term += eps[2] * constant(gyro[2]);
    Sv += cross_term;
  }

  Appellian<S> out;
  out.value = Sv.value().value();
  out.gradient.setZero(m);
  out.hessian.setZero(m, m);
  const auto& grad = Sv.value().derivatives();
  for (Eigen::Index a = 0; a < m && grad.size() == m; ++a) out.gradient[a] = grad[a];
  if (Sv.derivatives().size() == m)
    for (Eigen::Index a = 0; a < m; ++a) {
      const auto& row = Sv.derivatives()[a].derivatives();
      for (Eigen::Index b = 0; b < m && row.size() == m; ++b) out.hessian(a, b) = row[b];
    }
  return out;
}

template <class S>
Appellian<S> appellian_at(const System<S>& sys, const Setting<S>& st, const Vec<S>& zdot) {
  if constexpr (has_inline_ad<S>) {
    if (sys.m <= kInlineADVariables) return appellian_in<S, InlineAD2<S>>(sys, st, zdot);
  }
  return appellian_in<S, AD2<S>>(sys, st, zdot);
}

}  // namespace gibbs_appell_detail

template <class S>
BodyKinematics<S> body_kinematics(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  gibbs_appell_detail::require_bodies(sys);
  return sys.derivations.body_kinematics(q, qd);
}

template <class S>
S body_kinetic_energy(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  const BodyKinematics<S> K = body_kinematics(sys, q, qd);
  S T = S(0);
  for (const PointKinematics<S>& p : K.points) T += p.mass * (p.r_q * qd).squaredNorm() / S(2);
  for (const RigidKinematics<S>& b : K.rigid_bodies)
    T += (b.centre.mass * (b.centre.r_q * qd).squaredNorm() +
          b.omega.dot(b.inertia * b.omega)) / S(2);
  return T;
}

template <class S>
Appellian<S> appellian(const System<S>& sys, const Vec<S>& q, const Vec<S>& z,
                       const Vec<S>& zdot) {
  return gibbs_appell_detail::appellian_at(sys, gibbs_appell_detail::setting(sys, q, z), zdot);
}

template <class S>
GibbsAppellField<S> gibbs_appell(const System<S>& sys, const Vec<S>& q, const Vec<S>& z) {
  const gibbs_appell_detail::Setting<S> st = gibbs_appell_detail::setting(sys, q, z);
  const auto context = [&] { return "at q = " + to_string(q) + ", z = " + to_string(z); };
  require_full_rank<S>(st.P.psi_z, "rank loss of dpsi/dz", context);

  // dS/dzdot = H zdot + h (S quadratic in zdot): h and H at zdot = 0.
  const Appellian<S> S0 = gibbs_appell_detail::appellian_at(sys, st, Vec<S>(Vec<S>::Zero(sys.m)));
  // 001 eqs. 5.2, 5.4: dS/dzdot^alpha = A_alpha = psi^i_alpha A_i.
  const Vec<S> A_alpha = st.P.psi_z.transpose() * active_force(sys, q, st.P.psi);
  const auto H = factor_positive_definite<S>(S0.hessian, "singular Appellian Hessian", context);

  GibbsAppellField<S> out;
  out.qdot = st.P.psi;
  out.zdot = H.solve(Vec<S>(A_alpha - S0.gradient));
  out.qddot = st.drift + st.P.psi_z * out.zdot;
  return out;
}

}  // namespace nhs
