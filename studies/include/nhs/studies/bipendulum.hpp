// The bipendulum (000 §13) beyond its Study entry: states built from the
// chart, the special states of docs/special-motions.md, the exact symmetric
// (pendulum) motion, and the findings the suite reports about it (the
// epsilon-limit of the circle of eq. 89, the linear bipendulum and Hertz's
// limit). Shared by the tests, `nhs findings` and the benchmarks.
#pragma once

#include "nhs/stepper.hpp"
#include "nhs/studies/study.hpp"

#include <string>
#include <vector>

namespace nhs {

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
  S m, g, l, omega, k, quarter_period;
};

/// docs/special-motions.md bipendulum (e) (m = 1.2, g = 3, l = 1.5, amplitude
/// 1 rad) up to t = fraction * T/4.
template <class S>
SpecialMotion<S> symmetric_pendulum_motion(const S& fraction_of_quarter_period);

/// Integration settings for the findings: tolerance (relative = absolute)
/// and stepper (automatic picks per precision, nhs/stepper.hpp).
template <class S>
struct FindingSettings {
  S tol;
  std::string formulation = "second-kind";
  Stepper stepper = Stepper::automatic;
};

/// One motion of the family of docs/special-motions.md bipendulum (b) whose
/// epsilon -> 0 limit is the circle of 000 eq. 89: m1 = m2 = 1, g = 0,
/// P1 = (1, 0.5) turning about P2 = P0 = (0, -0.4) with w1 = 0.9, x2 = 0,
/// v2 = (0, epsilon). Integrated to t_end (3 in docs/special-motions.md).
template <class S>
struct CircleLimit {
  S epsilon;
  /// |P1(t_end) - P1_89(t_end)|: distance from the motion of 000 eq. 89,
  /// P1_89(t) = P0(0) + rotation by w1 t of (P1(0) - P0(0)) (uniform on the circle)
  S distance;
  S radial_distance;  ///< | |P1(t_end) - P0(0)| - |P1(0) - P0(0)| |: distance from the circle
  S min_sigma;  ///< min over the output samples of sigma_min(dC/dqdot) (~ 1.35 epsilon)
  std::vector<State<S>> samples;  ///< at t = 0, dt_out, ..., t_end
};
template <class S>
CircleLimit<S> circle_limit(const S& epsilon, const S& t_end, const S& dt_out,
                            const FindingSettings<S>& settings);

/// The bipendulum and the linear bipendulum (m0 given) from the common
/// state of docs/special-motions.md bipendulum (a) (m1 = 0.8, m2 = 1.5, g = 0,
/// P1 = (1.2, 0.3), P2 = (-0.9, -0.5), z = (0.4, 0.6, -0.8)), the linear
/// one with y0 and y0d taken from the bipendulum's own evolution at t = 0
/// (y0d = the first kind's zdot^1). Samples at t = 0, dt_out, ..., t_end.
template <class S>
struct HertzSample {
  S t;
  S y0_bipendulum, y0_linear;
  S distance_P1, distance_P2;  ///< |P_k(linear) - P_k(bipendulum)|
};
template <class S>
std::vector<HertzSample<S>> hertz_comparison(const S& m0, const S& t_end, const S& dt_out,
                                             const FindingSettings<S>& settings);

/// The symmetric motion of docs/special-motions.md (e) integrated with the
/// settings' formulation up to t = fraction * T/4 (0 < fraction < 1), as it
/// approaches the singular turning point: the max-norm error of (q, qdot)
/// against the exact pendulum there, and sigma_min(dC/dqdot) there.
template <class S>
struct NearSingular {
  S error;
  S sigma_min;
};
template <class S>
NearSingular<S> symmetric_near_turning_point(const S& fraction, const FindingSettings<S>& settings);

#define NHS_BIPENDULUM_FINDINGS_INSTANTIATE(EXTERN, S)                                         \
  EXTERN template State<S> bipendulum_state<S>(const Vec<S>&, const S&, const S&, const S&);  \
  EXTERN template State<S> bipendulum_uniform_state<S>(bool);                                 \
  EXTERN template S bipendulum_hidden_y0<S>(const Vec<S>&, const Vec<S>&);                    \
  EXTERN template struct PendulumMotion<S>;                                                   \
  EXTERN template SpecialMotion<S> symmetric_pendulum_motion<S>(const S&);                    \
  EXTERN template CircleLimit<S> circle_limit<S>(const S&, const S&, const S&,                \
                                                 const FindingSettings<S>&);                  \
  EXTERN template std::vector<HertzSample<S>> hertz_comparison<S>(const S&, const S&, const S&, \
                                                                  const FindingSettings<S>&); \
  EXTERN template NearSingular<S> symmetric_near_turning_point<S>(const S&,                   \
                                                                  const FindingSettings<S>&);
#define NHS_EXTERN_BIPENDULUM_FINDINGS_(S, NAME) NHS_BIPENDULUM_FINDINGS_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_BIPENDULUM_FINDINGS_)
#undef NHS_EXTERN_BIPENDULUM_FINDINGS_

}  // namespace nhs
