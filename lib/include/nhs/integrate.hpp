// Integration of a formulation's vector field with Boost.Odeint's adaptive,
// error-controlled steppers, with dense output at requested times.
#pragma once

#include "nhs/formulation.hpp"
#include "nhs/singular_set.hpp"
#include "nhs/manifold.hpp"

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace nhs {

/// Stepper names: "dopri5" (Dormand-Prince 5(4), dense output), "fehlberg78"
/// (Runge-Kutta-Fehlberg 7(8), controlled by step doubling,
/// lib/src/detail/fehlberg78_step_doubling.hpp), "bulirsch-stoer" (Gragg-
/// Bulirsch-Stoer: Odeint's, with dense output, up to 33 digits (float128);
/// above, a controlled variant with 16 extrapolation columns (mp50) or 20
/// (mp100), third_party/odeint/bulirsch_stoer_kmax.hpp).
/// "auto" is default_stepper<S>().
std::vector<std::string> stepper_names();

/// The decimal digits of S (std::numeric_limits<S>::digits10): 15 double,
/// 18 long double, 33 float128, 50 mp50, 100 mp100.
template <class S>
constexpr int decimal_digits() {
  return std::numeric_limits<S>::digits10;
}

/// The stepper "auto" stands for, by the decimal digits d of S: "dopri5"
/// up to 18 digits (double, long double), "bulirsch-stoer" above
/// (float128, mp50, mp100). Measured (docs/numerics.md "Steppers"): in long double
/// at 1e-15 on the skate on the incline to t = 20, fehlberg78 was cheaper
/// (8.5e-14 error with 2.8k RHS calls against dopri5's 9.1e-14 with 15.2k),
/// but on the rolling disc's circle its error estimate (41/840 (k1 + k11 -
/// k12 - k13)) nearly vanishes and it took 546 RHS calls to an error of
/// 1.4e-12 to 1.6e-11 at rtol 1e-16; dopri5 has no such blind spot. In
/// float128 at 1e-30, bulirsch-stoer 8.5k calls, fehlberg78 173k.
/// docs/numerics.md: dopri5 cannot reach 1e-40 in practice.
template <class S>
std::string default_stepper() {
  return decimal_digits<S>() <= 18 ? "dopri5" : "bulirsch-stoer";
}

/// 10^e in S, correctly rounded (parsed from "1e<e>"; never a double).
template <class S>
S power_of_ten(int e) {
  return from_string<S>("1e" + std::to_string(e));
}

/// The default integration tolerance (rtol = atol) of S: what the precision
/// reaches with a few digits to spare for the round-off accumulated over
/// ~10^4-10^5 steps: 10^-(d - 3) up to 33 digits, 10^-(d - 5) above:
///   double 1e-12, long double 1e-15, float128 1e-30, mp50 1e-45,
///   mp100 1e-95.
template <class S>
S default_tolerance() {
  const int d = decimal_digits<S>();
  return power_of_ten<S>(-(d <= 33 ? d - 3 : d - 5));
}

struct IntegrationStats {
  std::uint64_t steps = 0;      ///< accepted steps
  std::uint64_t rhs_calls = 0;  ///< vector-field evaluations
  std::string stepper;          ///< the stepper actually used
  std::uint64_t projections = 0;  ///< states projected onto C (IntegrationOptions::project)
};

template <class S>
struct IntegrationOptions {
  S t_end = S(10);
  S dt_out = S(1) / S(10);     ///< output spacing; the last sample is at t_end
  S rtol = default_tolerance<S>();  ///< relative error tolerance per step
  S atol = default_tolerance<S>();  ///< absolute error tolerance per step
  std::string stepper = "auto";     ///< "auto" (default_stepper<S>()) or a stepper_names() entry
  std::uint64_t max_rhs_calls = 200000000;  ///< IntegrationFailure beyond this
  /// At most this many output samples (t_end / dt_out + 1); UsageError
  /// beyond. The output times are generated as the run goes, never stored.
  std::uint64_t max_samples = 1000000000;
  /// When positive, the motion stops with SingularState at the first time it
  /// is found within this margin of a singular set (singular_set.hpp:
  /// sigma_min of dC/dqdot and the system's own margins), also inside a
  /// step: every accepted step is scanned along the stepper's dense output
  /// (dopri5, Odeint's Bulirsch-Stoer) or a cubic Hermite interpolant of its
  /// end points (fehlberg78, the high-order Bulirsch-Stoer: one more RHS
  /// call per step): the margins at 5 equidistant times, a golden-section
  /// search around every sampled minimum until a Lipschitz bound (twice the
  /// sampled slope) keeps it above the margin, and a bisection to the first
  /// time at or below it. The message names the margin, its value, the time
  /// and the state; samples before that time are delivered. The initial
  /// state is checked too. 0: only the formulations' own checks, where
  /// their field is evaluated.
  S singular_margin = S(0);
  /// Called after every accepted step with its end time and the statistics
  /// so far (progress reports); may throw to stop the run (e.g. Interrupted
  /// on SIGINT), the samples before having been delivered. Empty: none.
  std::function<void(const S&, const IntegrationStats&)> on_step;
  /// Projection onto C after every accepted step (off by default). Fields
  /// that are only tangent to C (second-kind, udwadia-kalaba,
  /// lagrange-multipliers, in (q, qdot)) drift off C at the level of the
  /// local error; with `project` the state x is mapped to (q, qdot) with the
  /// formulation's from_state, q is kept, qdot is replaced by
  /// project_velocity(sys, q, qdot) (manifold.hpp: Newton iteration with
  /// g-orthogonal corrections, i.e. minimum-norm steps in the kinetic-energy
  /// metric, to |C^a| <= 10 eps max(1 + |qdot|^2, sum_i |C^a_i qdot^i|)),
  /// and x = to_state(q, qdot).
  /// Dense-output steppers (dopri5, bulirsch-stoer) are re-initialized at
  /// the projected state (dopri5 loses its first-same-as-last derivative:
  /// one extra RHS call per step); the controlled fehlberg78 needs nothing.
  /// Output samples interpolated between two steps are projected the same
  /// way before they are observed. Formulations in (q, z) (first-kind,
  /// maggi, gibbs-appell, voronec) stay on C by construction: there the
  /// projection is a no-op to round-off.
  bool project = false;
};

/// One output sample of a motion.
template <class S>
struct Sample {
  S t;
  Vec<S> q;     ///< size n
  Vec<S> qdot;  ///< size n
};

/// Integrates the motion from (q0, qdot0) (on C; see admit_state) from t = 0
/// to opts.t_end with formulation f, calling `observe` at t = 0, dt_out,
/// 2 dt_out, ..., t_end. Stats are written to *stats as the run goes, so
/// they are valid even when it throws.
/// Throws NotApplicable; UsageError (unknown stepper, non-positive or
/// non-finite t_end/dt_out/tolerances, rtol below minimum_tolerance, more
/// than opts.max_samples output samples); InvalidState/SingularState (at
/// the initial state or, with the time, along the motion: see
/// IntegrationOptions::singular_margin); IntegrationFailure (step size
/// underflow, too many RHS calls or steps); NonFiniteValue (a non-finite
/// vector field or state: an overflow); with opts.project, also what
/// project_velocity throws (SingularState where dC/dqdot loses rank,
/// InvalidState when Newton does not converge); whatever opts.on_step
/// throws. Samples observed before a failure have been delivered.
template <class S>
void integrate(const System<S>& sys, const Formulation<S>& f, const Vec<S>& q0,
               const Vec<S>& qd0, const IntegrationOptions<S>& opts,
               const std::function<void(const Sample<S>&)>& observe, IntegrationStats* stats);

/// The smallest rtol `integrate` accepts with `stepper` (a stepper_names()
/// entry) in S: 10 epsilon of S (below it the error control chases
/// round-off: double 2.2e-15, long double 1.1e-18, float128 1.9e-33, mp50
/// ~1e-49, mp100 ~1e-99; verify runs double at 1e-14 and long double at
/// 1e-17), and for the fixed-order steppers the tolerance
/// tau at which tau^(-1/p) reaches 10^6 steps per unit time on a motion of
/// size 1: 1e-30 for dopri5 (p = 5), 1e-48 for fehlberg78 (p = 8).
/// Bulirsch-Stoer raises its order with the tolerance: only the round-off
/// bound.
template <class S>
S minimum_tolerance(const std::string& stepper);

/// Checks opts as integrate() does before any step and returns the stepper
/// it will use (opts.stepper, or default_stepper<S>() for "auto"). Throws
/// UsageError for non-positive or non-finite t_end, dt_out, rtol or a
/// negative atol, an unknown stepper, rtol below minimum_tolerance, or more
/// than opts.max_samples output samples. For callers that must refuse bad
/// options before they create anything (the CLI's output file).
template <class S>
std::string validated_stepper(const IntegrationOptions<S>& opts);

/// The projection of IntegrationOptions::project on one state: x (the
/// integration coordinates of f, size of f.to_state) to (q, qdot) with
/// f.from_state, qdot replaced by project_velocity(sys, q, qdot), back with
/// f.to_state. q is unchanged. A state already on C is returned unchanged to
/// round-off. Throws what project_velocity throws (SingularState,
/// InvalidState).
template <class S>
Vec<S> project_state(const System<S>& sys, const Formulation<S>& f, const Vec<S>& x);

#define NHS_INTEGRATE_INSTANTIATE(EXTERN, S)                                               \
  EXTERN template S minimum_tolerance<S>(const std::string&);                              \
  EXTERN template std::string validated_stepper<S>(const IntegrationOptions<S>&);          \
  EXTERN template Vec<S> project_state<S>(const System<S>&, const Formulation<S>&,         \
                                          const Vec<S>&);                                  \
  EXTERN template void integrate<S>(const System<S>&, const Formulation<S>&, const Vec<S>&, \
                                    const Vec<S>&, const IntegrationOptions<S>&,             \
                                    const std::function<void(const Sample<S>&)>&,            \
                                    IntegrationStats*);
#define NHS_EXTERN_INTEGRATE_(S, NAME) NHS_INTEGRATE_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_INTEGRATE_)
#undef NHS_EXTERN_INTEGRATE_

}  // namespace nhs
