// The bipendulum (000 §13) beyond its Study entry: states built from the
// chart, the special states of docs/special-motions.md and the exact
// symmetric (pendulum) motion. Shared by the tests, the findings
// (nhs/studies/bipendulum_findings.hpp) and the benchmarks.
#pragma once

#include "nhs/studies/study.hpp"

#include <string>
#include <vector>

namespace nhs {

/// (x1, y1, x2, y2) as a vector: a q or a qdot of the bipendulum.
template <class S>
Vec<S> bipendulum_vector(const S& x1, const S& y1, const S& x2, const S& y2) {
  Vec<S> v(4);
  v << x1, y1, x2, y2;
  return v;
}

/// The bipendulum state (q, psi(q, z)) with z = (y0, w1, w2): each point
/// turns about P0 = (0, y0) with rate w_k (docs/studies.md). q size 4.
template <class S>
State<S> bipendulum_state(const Vec<S>& q, const S& y0, const S& w1, const S& w2);

/// The state of docs/special-motions.md bipendulum (c): P1 = (1.3, 0.8),
/// P2 = (-0.9, 0), y0 = -0.5, w2 = 0.6 and w1 from the corrected condition
/// y1d v2^2 = y2d v1^2 (|v1| = 0.49969...), or, with printed_eq_90, |v1|
/// from 000 eq. 90 as printed (0.34319...; not a uniform motion: see
/// docs/errata.md).
template <class S>
State<S> bipendulum_uniform_state(bool printed_eq_90);

/// The hidden point's ordinate y0 (000 eq. 75, least squares over both
/// points; see the chart). Throws SingularState at y1d = y2d = 0 (eq. 72b).
template <class S>
S bipendulum_hidden_y0(const Vec<S>& q, const Vec<S>& qd);

/// The exact symmetric motion (x2 = x1, y2 = -y1, m1 = m2 = m) on the
/// incline g (000 eqs. 93-94): P1 = l (cos theta, sin theta) with
/// l thetadd + g sin theta = 0 from theta(0) = 0, amplitude theta_max < pi:
/// theta(t) = 2 asin(k sn(omega t | k)), k = sin(theta_max / 2),
/// omega = sqrt(g / l) (Jacobi's sn, Boost.Math, exact in S). The motion
/// reaches the singular set (v = 0, eq. 72c) at t = quarter_period = K(k)/omega.
template <class S>
struct PendulumMotion {
  PendulumMotion(const S& mass, const S& gr, const S& length, const S& amplitude);
  State<S> operator()(const S& t) const;  ///< (q(t), qdot(t)), size 4 each
  S m, g, l, amplitude, omega, k, quarter_period;
};

/// The pendulum of docs/special-motions.md bipendulum (e): m = 1.2, g = 3,
/// l = 1.5, amplitude 1 rad.
template <class S>
PendulumMotion<S> symmetric_pendulum();

/// docs/special-motions.md bipendulum (e) (m = 1.2, g = 3, l = 1.5, amplitude
/// 1 rad) up to t = fraction * T/4.
template <class S>
SpecialMotion<S> symmetric_pendulum_motion(const S& fraction_of_quarter_period);

#define NHS_BIPENDULUM_INSTANTIATE(EXTERN, S)                                                  \
  EXTERN template State<S> bipendulum_state<S>(const Vec<S>&, const S&, const S&, const S&);  \
  EXTERN template State<S> bipendulum_uniform_state<S>(bool);                                 \
  EXTERN template S bipendulum_hidden_y0<S>(const Vec<S>&, const Vec<S>&);                    \
  EXTERN template struct PendulumMotion<S>;                                                   \
  EXTERN template PendulumMotion<S> symmetric_pendulum<S>();                                  \
  EXTERN template SpecialMotion<S> symmetric_pendulum_motion<S>(const S&);
#define NHS_EXTERN_BIPENDULUM_(S, NAME) NHS_BIPENDULUM_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_BIPENDULUM_)
#undef NHS_EXTERN_BIPENDULUM_

}  // namespace nhs
