// Hand-written closed forms of the equations of motion of five studies, as
// printed in the seeds and corrected in docs/errata.md: the accelerations
// qddot at (q, qdot) (second kind, D^i) and, where the seed has it, the
// first-kind field zdot at (q, z), for general Lagrangian forces A_i.
//
// They are reference solutions kept next to the studies (Drake's pattern):
// tests/test_seed_closed_forms.cpp checks every one against the generic
// derivation at random regular states, and bench/bench_closed_form.cpp uses
// them as "the limit" a generic formulation is timed against. They are
// written directly in the scalar S with fixed-size Eigen vectors, so that in
// double they allocate nothing (tests/test_allocations.cpp checks it).
//
// Coordinates, parameters and forces are those of docs/studies.md. Each study has
//   XParameters<S>             its parameters, `from(values)` in docs/studies.md order;
//   x_forces(p, q, qd)         the study's own active forces A_i (size n);
//   x_qddot(p, q, qd, A)       qddot = D(q, qdot) for forces A (size n);
//   x_zdot(p, q, z, A)         zdot of the first kind (size m), where the seed has it;
//   x_rhs(p, q, qd)            x_qddot with the study's own forces x_forces;
// and for_each_closed_form<S>(visit) walks the five studies for generic
// drivers (benchmarks, the allocation test).
// Preconditions: (q, qdot) on C and regular (no check is made: these are
// the bare formulas; a singular state divides by zero).
#pragma once

#include <Eigen/Core>

#include <cmath>
#include <string_view>
#include <type_traits>
#include <vector>

namespace nhs::closed_form {

/// A fixed-size column vector of N entries of S.
template <class S, int N>
using Fixed = Eigen::Matrix<S, N, 1>;

// ----------------------------------------------------------------------------
// skate, 001 §9.1: q = (x, y, theta), z = (s, omega) with xd = s cos theta,
// yd = s sin theta, thetad = omega.

/// Parameters of `skate` (m, I, g).
template <class S>
struct SkateParameters {
  using Q = Fixed<S, 3>;
  using Z = Fixed<S, 2>;
  S m, I, g;
  /// From the parameter vector in docs/studies.md order (size 3).
  static SkateParameters from(const std::vector<S>& v) { return {v[0], v[1], v[2]}; }
};

/// A = (m g, 0, 0): incline g along +x on the centre (docs/studies.md).
template <class S>
Fixed<S, 3> skate_forces(const SkateParameters<S>& p, const typename SkateParameters<S>::Q& q,
                         const typename SkateParameters<S>::Q& qd) {
  (void)q;
  (void)qd;
  return {p.m * p.g, S(0), S(0)};
}

/// 001 §9.1, second method:
///   D1 = cos th/m (A1 cos th + A2 sin th) - thd (xd cos th + yd sin th) sin th,
///   D2 = sin th/m (A1 cos th + A2 sin th) + thd (xd cos th + yd sin th) cos th,
///   D3 = A3/I.
template <class S>
Fixed<S, 3> skate_qddot(const SkateParameters<S>& p, const typename SkateParameters<S>::Q& q,
                        const typename SkateParameters<S>::Q& qd,
                        const typename SkateParameters<S>::Q& A) {
  using std::cos;
  using std::sin;
  const S c = cos(q[2]), s = sin(q[2]);
  const S along = A[0] * c + A[1] * s;
  const S sl = qd[0] * c + qd[1] * s;
  return {c / p.m * along - qd[2] * sl * s, s / p.m * along + qd[2] * sl * c, A[2] / p.I};
}

/// 001 §9.1, first method: dz1/dt = (A1 cos th + A2 sin th)/m, dz2/dt = A3/I.
template <class S>
Fixed<S, 2> skate_zdot(const SkateParameters<S>& p, const typename SkateParameters<S>::Q& q,
                       const typename SkateParameters<S>::Z& z,
                       const typename SkateParameters<S>::Q& A) {
  using std::cos;
  using std::sin;
  (void)z;
  return {(A[0] * cos(q[2]) + A[1] * sin(q[2])) / p.m, A[2] / p.I};
}

// ----------------------------------------------------------------------------
// rolling-disc, 001 §9.2: q = (x, y, theta, psi), z = (thetad, psid).

/// Parameters of `rolling-disc` (m, R, A, B, g, k).
template <class S>
struct RollingDiscParameters {
  using Q = Fixed<S, 4>;
  using Z = Fixed<S, 2>;
  S m, R, A, B, g, k;
  /// From the parameter vector in docs/studies.md order (size 6).
  static RollingDiscParameters from(const std::vector<S>& v) {
    return {v[0], v[1], v[2], v[3], v[4], v[5]};
  }
};

/// A = (m g, 0, -k thetad, 0): incline on the centre, viscous torque (004).
template <class S>
Fixed<S, 4> rolling_disc_forces(const RollingDiscParameters<S>& p,
                                const typename RollingDiscParameters<S>::Q& q,
                                const typename RollingDiscParameters<S>::Q& qd) {
  (void)q;
  return {p.m * p.g, S(0), -p.k * qd[2], S(0)};
}

/// 001 eq. 9.6, with M = m R^2 + A and W = A1 R cos psi + A2 R sin psi + A3:
///   D1 = R cos psi W/M - R thetad psid sin psi, D2 = R sin psi W/M + R thetad psid cos psi,
///   D3 = W/M, D4 = A4/B.
template <class S>
Fixed<S, 4> rolling_disc_qddot(const RollingDiscParameters<S>& p,
                               const typename RollingDiscParameters<S>::Q& q,
                               const typename RollingDiscParameters<S>::Q& qd,
                               const typename RollingDiscParameters<S>::Q& A) {
  using std::cos;
  using std::sin;
  const S c = cos(q[3]), s = sin(q[3]);
  const S M = p.m * p.R * p.R + p.A;
  const S WM = (A[0] * p.R * c + A[1] * p.R * s + A[2]) / M;
  const S turn = p.R * qd[2] * qd[3];
  return {p.R * c * WM - turn * s, p.R * s * WM + turn * c, WM, A[3] / p.B};
}

/// 001 eq. 9.5: dz1/dt = W/M, dz2/dt = A4/B.
template <class S>
Fixed<S, 2> rolling_disc_zdot(const RollingDiscParameters<S>& p,
                              const typename RollingDiscParameters<S>::Q& q,
                              const typename RollingDiscParameters<S>::Z& z,
                              const typename RollingDiscParameters<S>::Q& A) {
  using std::cos;
  using std::sin;
  (void)z;
  const S M = p.m * p.R * p.R + p.A;
  return {(A[0] * p.R * cos(q[3]) + A[1] * p.R * sin(q[3]) + A[2]) / M, A[3] / p.B};
}

// ----------------------------------------------------------------------------
// coaxial-discs, 001 §9.3 as corrected in docs/errata.md:
// q = (x, y, theta1, theta2, psi), z = (theta1d, theta2d),
// psi_1 = (R cos psi, R sin psi, 1, 0, -R/a), psi_2 = (0, 0, 0, 1, R/a) in q's order.

/// Parameters of `coaxial-discs` (m, R, A, B, a, g).
template <class S>
struct CoaxialDiscsParameters {
  using Q = Fixed<S, 5>;
  using Z = Fixed<S, 2>;
  S m, R, A, B, a, g;
  /// From the parameter vector in docs/studies.md order (size 6).
  static CoaxialDiscsParameters from(const std::vector<S>& v) {
    return {v[0], v[1], v[2], v[3], v[4], v[5]};
  }
};

/// A = (2 m g, 0, 0, 0, m g a cos psi): incline on both disc centres,
/// V = -m g x - m g (x + a sin psi).
template <class S>
Fixed<S, 5> coaxial_discs_forces(const CoaxialDiscsParameters<S>& p,
                                 const typename CoaxialDiscsParameters<S>::Q& q,
                                 const typename CoaxialDiscsParameters<S>::Q& qd) {
  using std::cos;
  (void)qd;
  const S mg = p.m * p.g;
  Fixed<S, 5> A;
  A << S(2) * mg, S(0), S(0), S(0), mg * p.a * cos(q[4]);
  return A;
}

/// 001 §9.3, final system as corrected in docs/errata.md: zdot = G^-1 Z with
///   G11 = G22 = A + m R^2 + 2 B R^2/a^2, G12 = -2 B R^2/a^2,
///   Z1 = R (A_x cos psi + A_y sin psi) + A_theta1 - (R/a) A_psi, Z2 = A_theta2 + (R/a) A_psi.
template <class S>
Fixed<S, 2> coaxial_discs_zdot(const CoaxialDiscsParameters<S>& p,
                               const typename CoaxialDiscsParameters<S>::Q& q,
                               const typename CoaxialDiscsParameters<S>::Z& z,
                               const typename CoaxialDiscsParameters<S>::Q& A) {
  using std::cos;
  using std::sin;
  (void)z;
  const S Ra = p.R / p.a;
  const S br = S(2) * p.B * Ra * Ra;
  const S G11 = p.A + p.m * p.R * p.R + br, G12 = -br;
  const S det = G11 * G11 - G12 * G12;
  const S Z1 = p.R * (A[0] * cos(q[4]) + A[1] * sin(q[4])) + A[2] - Ra * A[4];
  const S Z2 = A[3] + Ra * A[4];
  return {(G11 * Z1 - G12 * Z2) / det, (G11 * Z2 - G12 * Z1) / det};
}

/// qddot = psi_alpha zdot^alpha + (d_q psi) qdot on C, with zdot of
/// coaxial_discs_zdot and z = (theta1d, theta2d) read off qdot:
///   xdd = R cos psi zd1 - R sin psi psid theta1d, ydd = R sin psi zd1 + R cos psi psid theta1d,
///   theta1dd = zd1, theta2dd = zd2, psidd = (R/a)(zd2 - zd1).
/// (001 §9.3 gives only the first kind; this is its lift to TQ.)
template <class S>
Fixed<S, 5> coaxial_discs_qddot(const CoaxialDiscsParameters<S>& p,
                                const typename CoaxialDiscsParameters<S>::Q& q,
                                const typename CoaxialDiscsParameters<S>::Q& qd,
                                const typename CoaxialDiscsParameters<S>::Q& A) {
  using std::cos;
  using std::sin;
  const S c = cos(q[4]), s = sin(q[4]);
  const Fixed<S, 2> zd = coaxial_discs_zdot<S>(p, q, Fixed<S, 2>(qd[2], qd[3]), A);
  const S turn = p.R * qd[4] * qd[2];
  Fixed<S, 5> D;
  D << p.R * c * zd[0] - s * turn, p.R * s * zd[0] + c * turn, zd[0], zd[1],
      p.R / p.a * (zd[1] - zd[0]);
  return D;
}

// ----------------------------------------------------------------------------
// parallel-points, 001 §9.4: q = (x1, y1, x2, y2), C = x1d y2d - x2d y1d,
// z = (rho, sigma, theta) (9.15).

/// Parameters of `parallel-points` (m1, m2, g).
template <class S>
struct ParallelPointsParameters {
  using Q = Fixed<S, 4>;
  using Z = Fixed<S, 3>;
  S m1, m2, g;
  /// From the parameter vector in docs/studies.md order (size 3).
  static ParallelPointsParameters from(const std::vector<S>& v) { return {v[0], v[1], v[2]}; }
};

/// A = (m1 g, 0, m2 g, 0): incline on both points.
template <class S>
Fixed<S, 4> parallel_points_forces(const ParallelPointsParameters<S>& p,
                                   const typename ParallelPointsParameters<S>::Q& q,
                                   const typename ParallelPointsParameters<S>::Q& qd) {
  (void)q;
  (void)qd;
  return {p.m1 * p.g, S(0), p.m2 * p.g, S(0)};
}

/// 001 §9.4, second method, general A; with 2K = m1 v1^2 + m2 v2^2:
///   D1 = (A1 (m1 v1^2 + m2 x2d^2)/m1 + A2 m2 x2d y2d/m1 + A3 y1d y2d - A4 x1d y2d)/2K,
///   D2 = (A1 m2 x2d y2d/m1 + A2 (m1 v1^2 + m2 y2d^2)/m1 - A3 x2d y1d + A4 x1d x2d)/2K,
///   D3 = (A1 y1d y2d - A2 x2d y1d + A3 (m2 v2^2 + m1 x1d^2)/m2 + A4 m1 x1d y1d/m2)/2K,
///   D4 = (-A1 x1d y2d + A2 x1d x2d + A3 m1 x1d y1d/m2 + A4 (m2 v2^2 + m1 y1d^2)/m2)/2K.
/// Singular at v1 = v2 = 0 (2K = 0).
template <class S>
Fixed<S, 4> parallel_points_qddot(const ParallelPointsParameters<S>& p,
                                  const typename ParallelPointsParameters<S>::Q& q,
                                  const typename ParallelPointsParameters<S>::Q& qd,
                                  const typename ParallelPointsParameters<S>::Q& A) {
  (void)q;
  const S &m1 = p.m1, &m2 = p.m2;
  const S x1d = qd[0], y1d = qd[1], x2d = qd[2], y2d = qd[3];
  const S v1sq = x1d * x1d + y1d * y1d, v2sq = x2d * x2d + y2d * y2d;
  const S twoK = m1 * v1sq + m2 * v2sq;
  return {(A[0] * (m1 * v1sq + m2 * x2d * x2d) / m1 + A[1] * m2 * x2d * y2d / m1 +
           A[2] * y1d * y2d - A[3] * x1d * y2d) / twoK,
          (A[0] * m2 * x2d * y2d / m1 + A[1] * (m1 * v1sq + m2 * y2d * y2d) / m1 -
           A[2] * x2d * y1d + A[3] * x1d * x2d) / twoK,
          (A[0] * y1d * y2d - A[1] * x2d * y1d + A[2] * (m2 * v2sq + m1 * x1d * x1d) / m2 +
           A[3] * m1 * x1d * y1d / m2) / twoK,
          (-A[0] * x1d * y2d + A[1] * x1d * x2d + A[2] * m1 * x1d * y1d / m2 +
           A[3] * (m2 * v2sq + m1 * y1d * y1d) / m2) / twoK};
}

/// 001 eq. 9.17:
///   drho/dt = (A1 cos th + A2 sin th)/m1, dsigma/dt = (A3 cos th + A4 sin th)/m2,
///   dth/dt = (rho (A2 cos th - A1 sin th) + sigma (A4 cos th - A3 sin th))
///            / (m1 rho^2 + m2 sigma^2).
template <class S>
Fixed<S, 3> parallel_points_zdot(const ParallelPointsParameters<S>& p,
                                 const typename ParallelPointsParameters<S>::Q& q,
                                 const typename ParallelPointsParameters<S>::Z& z,
                                 const typename ParallelPointsParameters<S>::Q& A) {
  using std::cos;
  using std::sin;
  (void)q;
  const S c = cos(z[2]), s = sin(z[2]), rho = z[0], sigma = z[1];
  return {(A[0] * c + A[1] * s) / p.m1, (A[2] * c + A[3] * s) / p.m2,
          (rho * (A[1] * c - A[0] * s) + sigma * (A[3] * c - A[2] * s)) /
              (p.m1 * rho * rho + p.m2 * sigma * sigma)};
}

// ----------------------------------------------------------------------------
// bipendulum, 000 §13: q = (x1, y1, x2, y2),
// C = x1 x1d y2d - x2 x2d y1d + (y1 - y2) y1d y2d (000 eq. 73).

/// Parameters of `bipendulum` (m1, m2, g, k).
template <class S>
struct BipendulumParameters {
  using Q = Fixed<S, 4>;
  S m1, m2, g, k;
  /// From the parameter vector in docs/studies.md order: (m1, m2, g, k), or
  /// (m1, m2, g) with k = 0.
  static BipendulumParameters from(const std::vector<S>& v) {
    return {v[0], v[1], v[2], v.size() > 3 ? v[3] : S(0)};
  }
};

/// A = (m1 g - k x1, -k y1, m2 g - k x2, -k y2): the incline on both points
/// (000 eq. 91) and the study's harmonic pull k/2 |P_i|^2 towards the origin
/// (studies/bipendulum.cpp; not in the seed).
template <class S>
Fixed<S, 4> bipendulum_forces(const BipendulumParameters<S>& p,
                              const typename BipendulumParameters<S>::Q& q,
                              const typename BipendulumParameters<S>::Q& qd) {
  (void)qd;
  return {p.m1 * p.g - p.k * q[0], -p.k * q[1], p.m2 * p.g - p.k * q[2], -p.k * q[3]};
}

/// 000 eqs. 80-82 (general forces; (80) is (79) with docs/errata.md's
/// correction of Delta D^1, (81) its 1 <-> 2 exchange):
///   Delta = m1 x2^2 y1d^4 v2^2 + m2 x1^2 y2d^4 v1^2,
///   x1dd = [x2^2 y1d^4 v2^2 A_x1 + (m2/m1) x1^2 x1d y2d^4 (x1d A_x1 + y1d A_y1)
///           + x1 x2 y1d^3 y2d^2 (y2d A_x2 - x2d A_y2) + m2 x1 (y1d v2^2 - y2d v1^2) y1d^2 y2d^3]/Delta,
///   y1dd = y1d [x2^2 y1d^3 v2^2 A_y1 + (m2/m1) x1^2 y2d^4 (x1d A_x1 + y1d A_y1)
///           + x1 x2 x1d y1d y2d^2 (x2d A_y2 - y2d A_x2) + m2 x1 x1d y2d^3 (y2d v1^2 - y1d v2^2)]/Delta,
///   and x2dd, y2dd by exchanging 1 <-> 2 (81).
/// Singular where Delta = 0 (e.g. x1 = x2 = 0, or y1d = y2d = 0; 000 eq. 72
/// and docs/errata.md).
template <class S>
Fixed<S, 4> bipendulum_qddot(const BipendulumParameters<S>& p,
                             const typename BipendulumParameters<S>::Q& q,
                             const typename BipendulumParameters<S>::Q& qd,
                             const typename BipendulumParameters<S>::Q& A) {
  const S &m1 = p.m1, &m2 = p.m2;
  const S x1 = q[0], x2 = q[2];
  const S x1d = qd[0], y1d = qd[1], x2d = qd[2], y2d = qd[3];
  const S v1sq = x1d * x1d + y1d * y1d, v2sq = x2d * x2d + y2d * y2d;
  const S y1d2 = y1d * y1d, y2d2 = y2d * y2d;
  const S y1d3 = y1d2 * y1d, y2d3 = y2d2 * y2d;
  const S y1d4 = y1d2 * y1d2, y2d4 = y2d2 * y2d2;
  const S P1 = x2 * x2 * y1d4 * v2sq;  // m1 P1 + m2 P2 = Delta
  const S P2 = x1 * x1 * y2d4 * v1sq;
  const S Delta = m1 * P1 + m2 * P2;
  const S pow1 = x1d * A[0] + y1d * A[1], pow2 = x2d * A[2] + y2d * A[3];  // powers on P1, P2
  const S cross1 = y1d * A[0] - x1d * A[1], cross2 = y2d * A[2] - x2d * A[3];
  const S theta = y1d * v2sq - y2d * v1sq;
  const S x1x2 = x1 * x2;
  return {(P1 * A[0] + m2 / m1 * x1 * x1 * x1d * y2d4 * pow1 + x1x2 * y1d3 * y2d2 * cross2 +
           m2 * x1 * theta * y1d2 * y2d3) / Delta,
          y1d *
              (x2 * x2 * y1d3 * v2sq * A[1] + m2 / m1 * x1 * x1 * y2d4 * pow1 -
               x1x2 * x1d * y1d * y2d2 * cross2 - m2 * x1 * x1d * y2d3 * theta) / Delta,
          (P2 * A[2] + m1 / m2 * x2 * x2 * x2d * y1d4 * pow2 + x1x2 * y2d3 * y1d2 * cross1 -
           m1 * x2 * theta * y2d2 * y1d3) / Delta,
          y2d *
              (x1 * x1 * y2d3 * v1sq * A[3] + m1 / m2 * x2 * x2 * y1d4 * pow2 -
               x1x2 * x2d * y2d * y1d2 * cross1 + m1 * x2 * x2d * y1d3 * theta) / Delta};
}

/// 000 eqs. 91-92, the incline alone, A = (m1 g, 0, m2 g, 0) (k = 0; p.k is ignored):
///   Theta = (g x2 + v2^2) y1d - (g x1 + v1^2) y2d,
///   x1dd = g + m2 Theta/Delta x1 y1d^2 y2d^3,  y1dd = -m2 Theta/Delta x1 x1d y1d y2d^3,
///   x2dd = g - m1 Theta/Delta x2 y2d^2 y1d^3,  y2dd = m1 Theta/Delta x2 x2d y2d y1d^3.
template <class S>
Fixed<S, 4> bipendulum_qddot_incline(const BipendulumParameters<S>& p,
                                     const typename BipendulumParameters<S>::Q& q,
                                     const typename BipendulumParameters<S>::Q& qd) {
  const S &m1 = p.m1, &m2 = p.m2, &g = p.g;
  const S x1 = q[0], x2 = q[2];
  const S x1d = qd[0], y1d = qd[1], x2d = qd[2], y2d = qd[3];
  const S v1sq = x1d * x1d + y1d * y1d, v2sq = x2d * x2d + y2d * y2d;
  const S y1d2 = y1d * y1d, y2d2 = y2d * y2d;
  const S Delta = m1 * x2 * x2 * y1d2 * y1d2 * v2sq + m2 * x1 * x1 * y2d2 * y2d2 * v1sq;
  const S theta = (g * x2 + v2sq) * y1d - (g * x1 + v1sq) * y2d;
  const S t1 = m2 * theta / Delta * x1 * y2d2 * y2d;  // m2 Theta/Delta x1 y2d^3
  const S t2 = m1 * theta / Delta * x2 * y1d2 * y1d;  // m1 Theta/Delta x2 y1d^3
  return {g + t1 * y1d2, -t1 * x1d * y1d, g - t2 * y2d2, t2 * x2d * y2d};
}

// ----------------------------------------------------------------------------
// The right-hand sides with each study's own forces, and the list of them.

/// qddot of `skate` under its own forces (skate_qddot with skate_forces).
template <class S>
Fixed<S, 3> skate_rhs(const SkateParameters<S>& p, const Fixed<S, 3>& q, const Fixed<S, 3>& qd) {
  return skate_qddot<S>(p, q, qd, skate_forces<S>(p, q, qd));
}
/// qddot of `rolling-disc` under its own forces.
template <class S>
Fixed<S, 4> rolling_disc_rhs(const RollingDiscParameters<S>& p, const Fixed<S, 4>& q,
                             const Fixed<S, 4>& qd) {
  return rolling_disc_qddot<S>(p, q, qd, rolling_disc_forces<S>(p, q, qd));
}
/// qddot of `coaxial-discs` under its own forces.
template <class S>
Fixed<S, 5> coaxial_discs_rhs(const CoaxialDiscsParameters<S>& p, const Fixed<S, 5>& q,
                              const Fixed<S, 5>& qd) {
  return coaxial_discs_qddot<S>(p, q, qd, coaxial_discs_forces<S>(p, q, qd));
}
/// qddot of `parallel-points` under its own forces.
template <class S>
Fixed<S, 4> parallel_points_rhs(const ParallelPointsParameters<S>& p, const Fixed<S, 4>& q,
                                const Fixed<S, 4>& qd) {
  return parallel_points_qddot<S>(p, q, qd, parallel_points_forces<S>(p, q, qd));
}
/// qddot of `bipendulum` under its own forces (general form (80)-(82)).
template <class S>
Fixed<S, 4> bipendulum_rhs(const BipendulumParameters<S>& p, const Fixed<S, 4>& q,
                           const Fixed<S, 4>& qd) {
  return bipendulum_qddot<S>(p, q, qd, bipendulum_forces<S>(p, q, qd));
}

/// Calls visit(id, std::type_identity<Parameters>{}, rhs) for each study with
/// a closed form, rhs a plain function pointer
/// Fixed<S, n> (*)(const Parameters&, const Fixed<S, n>& q, const Fixed<S, n>& qd).
template <class S, class Visit>
void for_each_closed_form(Visit&& visit) {
  visit(std::string_view("skate"), std::type_identity<SkateParameters<S>>{}, &skate_rhs<S>);
  visit(std::string_view("rolling-disc"), std::type_identity<RollingDiscParameters<S>>{},
        &rolling_disc_rhs<S>);
  visit(std::string_view("coaxial-discs"), std::type_identity<CoaxialDiscsParameters<S>>{},
        &coaxial_discs_rhs<S>);
  visit(std::string_view("parallel-points"), std::type_identity<ParallelPointsParameters<S>>{},
        &parallel_points_rhs<S>);
  visit(std::string_view("bipendulum"), std::type_identity<BipendulumParameters<S>>{},
        &bipendulum_rhs<S>);
}

}  // namespace nhs::closed_form
