// Integration of a formulation's vector field with Boost.Odeint's adaptive,
// error-controlled steppers, with dense output at requested times.
#pragma once

#include "nhs/formulation.hpp"
#include "nhs/singular_set.hpp"
#include "nhs/manifold.hpp"
#include "nhs/precision_policy.hpp"
#include "nhs/stepper.hpp"

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace nhs {

// default_tolerance<S>() (the defaults of IntegrationOptions below) is
// defined with the other per-precision figures in nhs/precision_policy.hpp.

struct IntegrationStats {
  std::uint64_t steps = 0;      ///< accepted steps
  std::uint64_t rhs_calls = 0;  ///< vector-field evaluations
  Stepper stepper = Stepper::automatic;  ///< the stepper actually used (never automatic once run)
  std::uint64_t projections = 0;  ///< states projected onto C (IntegrationOptions::project)
};

/// What every continuous run watches, whatever its options
/// (docs/numerics.md, "psi's reach" and "Step-size collapse"):
///
/// psi's reach. A formulation whose state x has fewer components than
/// (q, qdot) (first-kind, maggi, gibbs-appell: n + m; voronec,
/// naive-reduced: 2n - r; and their generated fields) gives qdot through
/// psi(q, z), on C by construction. At the end of every accepted step,
/// |C^a| above precision_policy<S>().strict.drift (the bound of `nhs check`
/// on max |C|: double 1e-9, long double 1e-12, float128 1e-25, mp50 1e-40,
/// mp100 1e-80) times max(1 + |qdot|^2, sum_i |dC^a/dqdot^i qdot^i|) means
/// psi has left its reach (e.g. a chart v = sqrt(xd^2 + yd^2) followed past
/// v = 0): the run stops with InvalidState at the first time in the step
/// found beyond it (bisection along the step's interpolant), naming the
/// constraint, its value, the bound, the time, q, qdot and the state x; the
/// samples before are delivered. The fields in (q, qdot) (second-kind,
/// udwadia-kalaba, lagrange-multipliers) drift off C legitimately and are
/// not stopped for it.
///
/// Step-size collapse. A trial step (accepted or rejected; for the
/// dense-output steppers, the accepted ones) shorter than rho |t|,
/// rho = max(1000 eps, min(1e5 rtol, 1e-7)), 2000 times in a row, or 100
/// times in a row having cost 50000 RHS calls, stops the run with
/// IntegrationFailure "step size collapsed at t = ..., the field is not
/// smooth or is stiff here", within about 1e5 RHS calls of the collapse:
/// where a motion slides along a jump of the field or of its derivative
/// (a chattering switch) the error control holds the steps at ~100-1500
/// rtol and would grind to the RHS budget. Every adaptive stepper and
/// precision; a longer step resets the count.
template <class S>
struct IntegrationOptions {
  S t_end = S(10);
  S dt_out = S(1) / S(10);     ///< output spacing; the last sample is at t_end
  S rtol = default_tolerance<S>();  ///< relative error tolerance per step
  S atol = default_tolerance<S>();  ///< absolute error tolerance per step
  Stepper stepper = Stepper::automatic;  ///< automatic: default_stepper<S>(rtol)
  std::uint64_t max_rhs_calls = 200000000;  ///< IntegrationFailure beyond this
  /// At most this many output samples (t_end / dt_out + 1); UsageError
  /// beyond. The output times are generated as the run goes, never stored.
  std::uint64_t max_samples = 1000000000;
  /// When positive, the motion stops with SingularState at the first time it
  /// is found within this margin of a singular set (singular_set.hpp:
  /// sigma_min of dC/dqdot and the system's own margins; and the
  /// formulation's, Formulation::singular_margins, e.g. Voronec's
  /// split_margin), also inside a step, with every stepper: every accepted
  /// step is scanned along the stepper's dense output (dopri5, Odeint's
  /// Bulirsch-Stoer) or a cubic Hermite interpolant of its end points
  /// (fehlberg78, the high-order Bulirsch-Stoer and verner87 in mp50/mp100:
  /// one more RHS call per step; verner87 up to float128, whose end
  /// derivatives are known, and whose interpolant would cost 7 calls: none;
  /// dla, nh-rattle and nh-midpoint: of the nodes q and the velocities of
  /// their momenta, no RHS call, the system's margins only). The margins at
  /// 5 equidistant times of the step are refined by halving the intervals
  /// beside every sampled minimum until the margin there is resolved: the
  /// samples beside it within a factor 5/4 of it, and a Lipschitz bound
  /// (twice the largest sampled slope) keeping it above the threshold. A
  /// margin that vanishes like |t - t*|^alpha, alpha >= 0.21 (a square root,
  /// a corner, a tangential touch), is never resolved near its zero, so the
  /// refinement closes in on it; a bisection finds the first time at or
  /// below the threshold (docs/numerics.md, "Singular margins"). The message
  /// names the margin, its value, the time and the state; samples before
  /// that time are delivered. The initial state is checked too. The same
  /// threshold in every precision. While it watches, a SingularState raised
  /// by the field at a trial stage retries the step 10 times shorter (the
  /// watch then names a set it follows at its crossing); it is raised as it
  /// was once the motion passes the failed trial's span unstopped, at the
  /// 20th such trial, or where the steps would otherwise fail (never as an
  /// IntegrationFailure). 0: only the formulations' own checks, where
  /// their field is evaluated (relative to the precision: 100 eps).
  S singular_margin = S(0);
  /// Called after every accepted step with its end time and the statistics
  /// so far (progress reports); may throw to stop the run (e.g. Interrupted
  /// on SIGINT), the samples before having been delivered. Empty: none.
  std::function<void(const S&, const IntegrationStats&)> on_step;
  /// Projection onto C after every accepted step (off by default). Fields
  /// that are only tangent to C (second-kind, udwadia-kalaba,
  /// lagrange-multipliers, in (q, qdot)) drift off C at the level of the
  /// local error; with `project` the state x is mapped to (q, qdot) with the
  /// formulation's from_state, q is kept (or, for a system with
  /// holonomic constraints, mapped onto them by System::project_coordinates),
  /// qdot is replaced by
  /// project_velocity(sys, q, qdot) (manifold.hpp: Newton iteration with
  /// g-orthogonal corrections, i.e. minimum-norm steps in the kinetic-energy
  /// metric, to |C^a| <= 10 eps max(1 + |qdot|^2, sum_i |C^a_i qdot^i|)),
  /// and x = to_state(q, qdot).
  /// Dense-output steppers (dopri5, bulirsch-stoer up to float128, verner87
  /// up to float128) are re-initialized at the projected state (dopri5 and
  /// verner87 lose their stored first derivative: one extra RHS call per
  /// step); the controlled ones (fehlberg78, and beyond float128
  /// bulirsch-stoer and verner87) need nothing.
  /// Output samples interpolated between two steps are projected the same
  /// way before they are observed. Formulations in (q, z) (first-kind,
  /// maggi, gibbs-appell, voronec) stay on C by construction: there the
  /// projection is a no-op to round-off.
  bool project = false;
  /// The step of the fixed-step steppers (Stepper::dla, Stepper::nh_rattle;
  /// ignored by the others): each output interval is cut into the fewest
  /// equal steps not longer than this. 0: 1/100 (or the interval, if
  /// shorter).
  S step = S(0);
  /// The power P(q, qdot) of the forces and reactions on the motion (size
  /// n each; e.g. power_of_forces_and_reactions, nhs/work_energy.hpp). When
  /// set, the continuous steppers carry the work W(t) = integral of P from 0
  /// to t as one more component of their state, under the same error
  /// control and dense output as the rest (and kept as it is by the
  /// projection), and every Sample gives it (Sample::work). The discrete
  /// steppers (dla, nh-rattle, nh-midpoint) do not carry it: their samples
  /// leave work empty. What P throws at a trial stage ends the run as a
  /// field's error does. Empty (the default): no work, and the steppers'
  /// state is the formulation's alone. Source: the work-energy balance
  /// E(t) - E(0) = W(t), docs/affine-constraints.md (A8).
  std::function<S(const Vec<S>&, const Vec<S>&)> power;
};

/// One output sample of a motion.
template <class S>
struct Sample {
  S t;
  Vec<S> q;     ///< size n
  Vec<S> qdot;  ///< size n
  /// W(t), the work of IntegrationOptions::power since t = 0; empty when no
  /// power is given or the stepper is a discrete one.
  std::optional<S> work = std::nullopt;
};

/// Integrates the motion from (q0, qdot0) (on C; see admit_state) from t = 0
/// to opts.t_end with formulation f, calling `observe` at t = 0, dt_out,
/// 2 dt_out, ..., t_end. Stats are written to *stats as the run goes, so
/// they are valid even when it throws.
/// Throws NotApplicable; UsageError (non-positive or
/// non-finite t_end/dt_out/tolerances, rtol below minimum_tolerance, more
/// than opts.max_samples output samples); InvalidState/SingularState (at
/// the initial state or, with the time, along the motion: see
/// IntegrationOptions::singular_margin; InvalidState where the motion leaves
/// psi's reach, above IntegrationOptions); IntegrationFailure (step size
/// underflow or collapse, above IntegrationOptions; too many RHS calls or
/// steps); NonFiniteValue (a non-finite
/// vector field or state: an overflow); with opts.project, also what
/// project_velocity throws (SingularState where dC/dqdot loses rank,
/// InvalidState when Newton does not converge); whatever opts.on_step
/// throws. Samples observed before a failure have been delivered.
template <class S>
void integrate(const System<S>& sys, const Formulation<S>& f, const Vec<S>& q0,
               const Vec<S>& qd0, const IntegrationOptions<S>& opts,
               const std::function<void(const Sample<S>&)>& observe, IntegrationStats* stats);

/// Checks opts as integrate() does before any step and returns the stepper
/// it will use (resolved_stepper<S>(opts.stepper, opts.rtol,
/// round_off_grows_with_speed), the last being the formulation's
/// Formulation::round_off_grows_with_speed()). Throws UsageError for
/// non-positive or non-finite t_end, dt_out, rtol or a negative atol, rtol
/// below minimum_tolerance<S>(stepper) (nhs/stepper.hpp), or more
/// than opts.max_samples output samples. For callers that must refuse bad
/// options before they create anything (the CLI's output file).
template <class S>
Stepper validated_stepper(const IntegrationOptions<S>& opts, bool round_off_grows_with_speed = false);

/// The projection of IntegrationOptions::project on one state: x (the
/// integration coordinates of f, size of f.to_state) to (q, qdot) with
/// f.from_state, qdot replaced by project_velocity(sys, q, qdot), back with
/// f.to_state. q is unchanged, but for sys.project_coordinates (holonomic
/// constraints), applied first. A state already on C is returned unchanged
/// to round-off. Throws what project_velocity and project_coordinates throw
/// (SingularState, InvalidState).
template <class S>
Vec<S> project_state(const System<S>& sys, const Formulation<S>& f, const Vec<S>& x);

#define NHS_INTEGRATE_INSTANTIATE(EXTERN, S)                                               \
  EXTERN template Stepper validated_stepper<S>(const IntegrationOptions<S>&, bool);              \
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
