// Implementation of gibbs_appell.hpp; included once per scalar type by the
// generated instantiation units (lib/src/instantiate.cpp.in).
#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/gibbs_appell.hpp"
#include "nhs/regularity.hpp"

namespace nhs {
namespace gibbs_appell_detail {

// Parts of an AD2 quantity x(q, qdot) evaluated with outer variables
// (q, qdot) and inner the single direction s (seeds (qdot, 0)); Eigen
// leaves a derivative vector empty where x is constant.
template <class S>
S value(const AD2<S>& x) {
  return x.value().value();
}
// dx/dx_j (x_j = q^j for j < n, qdot^{j-n} after).
template <class S>
S first(const AD2<S>& x, Eigen::Index j) {
  return x.derivatives().size() == 0 ? S(0) : x.derivatives()[j].value();
}
// d/ds dx/dx_j = d^2 x / dx_j dq^l qdot^l.
template <class S>
S mixed(const AD2<S>& x, Eigen::Index j) {
  if (x.derivatives().size() == 0) return S(0);
  const Vec<S>& d = x.derivatives()[j].derivatives();
  return d.size() == 0 ? S(0) : d[0];
}

template <class S>
void require_bodies(const System<S>& sys) {
  if (!sys.has_bodies())
    throw NotApplicable("system '" + sys.info.name +
                        "' has no body model (point masses, rigid bodies): the Appellian is "
                        "defined from the bodies' accelerations");
}

template <class S>
PointKinematics<S> point_kinematics(const System<S>& sys, const AD2<S>& mass,
                                    const Vec<AD2<S>>& r, const Vec<S>& qd,
                                    const std::string& what) {
  const Eigen::Index n = sys.n, d = r.size();
  if (d != 2 && d != 3)
    throw UsageError("system '" + sys.info.name + "': " + what + " has " + std::to_string(d) +
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
        throw UsageError("system '" + sys.info.name + "': " + what +
                         " depends on qdot (positions must depend on q only)");
    }
  }
  return out;
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
// evaluated in AD2 over zdot (outer and inner m).
template <class S>
Appellian<S> appellian_at(const System<S>& sys, const Setting<S>& st, const Vec<S>& zdot) {
  const Eigen::Index m = sys.m;
  const auto constant = [m](const S& x) { return sized_constant<AD2<S>>(x, m, m); };
  Vec<AD2<S>> Zd(m);
  for (Eigen::Index b = 0; b < m; ++b) {
    Vec<AD1<S>> outer(m);
    for (Eigen::Index k = 0; k < m; ++k) outer[k] = AD1<S>(S(k == b ? 1 : 0), Vec<S>::Zero(m));
    Zd[b] = AD2<S>(AD1<S>(zdot[b], Vec<S>::Unit(m, b)), outer);
  }
  // a0 + B zdot, componentwise in AD2.
  const auto affine = [&](const Vec<S>& a0, const Mat<S>& B) {
    Vec<AD2<S>> a(a0.size());
    for (Eigen::Index k = 0; k < a0.size(); ++k) {
      AD2<S> ak = constant(a0[k]);
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

  AD2<S> Sv = constant(S(0));
  for (const PointKinematics<S>& p : st.K.points) {
    const Vec<AD2<S>> a = acceleration(p);
    Sv += constant(half * p.mass) * inner(a, a);
  }
  for (const RigidKinematics<S>& body : st.K.rigid_bodies) {
    const Vec<AD2<S>> a = acceleration(body.centre);
    // eps = d omega/dq psi + d omega/dqdot (drift + psi_z zdot).
    const Vec<AD2<S>> eps =
        affine(Vec<S>(body.omega_q * st.P.psi + body.omega_qd * st.drift),
               Mat<S>(body.omega_qd * st.P.psi_z));
    const Vector3<S> Jw = body.inertia * body.omega;
    const Vector3<S> gyro = body.omega.cross(Jw);  // omega x J omega
    Vec<AD2<S>> Jeps(3);
    for (int k = 0; k < 3; ++k) {
      AD2<S> e = eps[0] * constant(body.inertia(k, 0));
      e += eps[1] * constant(body.inertia(k, 1));
      e += eps[2] * constant(body.inertia(k, 2));
      Jeps[k] = e;
    }
    Sv += constant(half * body.centre.mass) * inner(a, a);
    Sv += constant(half) * inner(eps, Jeps);
    AD2<S> cross_term = eps[0] * constant(gyro[0]);
    cross_term += eps[1] * constant(gyro[1]);
    cross_term += eps[2] * constant(gyro[2]);
    Sv += cross_term;
  }

  Appellian<S> out;
  out.value = Sv.value().value();
  out.gradient.setZero(m);
  out.hessian.setZero(m, m);
  const Vec<S>& grad = Sv.value().derivatives();
  for (Eigen::Index a = 0; a < m && grad.size() == m; ++a) out.gradient[a] = grad[a];
  if (Sv.derivatives().size() == m)
    for (Eigen::Index a = 0; a < m; ++a) {
      const Vec<S>& row = Sv.derivatives()[a].derivatives();
      for (Eigen::Index b = 0; b < m && row.size() == m; ++b) out.hessian(a, b) = row[b];
    }
  return out;
}

}  // namespace gibbs_appell_detail

template <class S>
BodyKinematics<S> body_kinematics(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  gibbs_appell_detail::require_bodies(sys);
  using gibbs_appell_detail::first;
  using gibbs_appell_detail::value;
  const Eigen::Index n = sys.n;
  // Outer variables (q, qdot); inner the direction s with seeds (qdot, 0).
  const Vec<S> zero1 = Vec<S>::Zero(1);
  Vec<AD2<S>> Q(n), QD(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    Vec<AD1<S>> dq(2 * n), dqd(2 * n);
    for (Eigen::Index j = 0; j < 2 * n; ++j) {
      dq[j] = AD1<S>(S(j == i ? 1 : 0), zero1);
      dqd[j] = AD1<S>(S(j == n + i ? 1 : 0), zero1);
    }
    Vec<S> seed(1);
    seed << qd[i];
    Q[i] = AD2<S>(AD1<S>(q[i], seed), dq);
    QD[i] = AD2<S>(AD1<S>(qd[i], zero1), dqd);
  }
  Bodies<AD2<S>> bodies;
  sys.bodies_ad2(Q, QD, bodies);

  BodyKinematics<S> out;
  for (std::size_t k = 0; k < bodies.points.size(); ++k)
    out.points.push_back(gibbs_appell_detail::point_kinematics(
        sys, bodies.points[k].mass, bodies.points[k].position, qd,
        "point mass " + std::to_string(k)));
  for (std::size_t k = 0; k < bodies.rigid_bodies.size(); ++k) {
    const RigidBody<AD2<S>>& b = bodies.rigid_bodies[k];
    RigidKinematics<S> rk;
    rk.centre = gibbs_appell_detail::point_kinematics(
        sys, b.mass, b.centre, qd, "the centre of rigid body " + std::to_string(k));
    rk.omega_q.resize(3, n);
    rk.omega_qd.resize(3, n);
    for (int c = 0; c < 3; ++c) {
      rk.omega[c] = value(b.omega[c]);
      for (Eigen::Index j = 0; j < n; ++j) {
        rk.omega_q(c, j) = first(b.omega[c], j);
        rk.omega_qd(c, j) = first(b.omega[c], n + j);
      }
      for (int d = 0; d < 3; ++d) rk.inertia(c, d) = value(b.inertia(c, d));
    }
    out.rigid_bodies.push_back(std::move(rk));
  }
  return out;
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
