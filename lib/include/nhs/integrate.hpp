// Integration of a formulation's vector field with Boost.Odeint's adaptive,
// error-controlled steppers, with dense output at requested times.
#pragma once

#include "nhs/formulation.hpp"
#include "nhs/singular_set.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace nhs {

/// Stepper names: "dopri5" (Dormand-Prince 5(4), dense output), "fehlberg78"
/// (Runge-Kutta-Fehlberg 7(8), controlled), "bulirsch-stoer" (Gragg-
/// Bulirsch-Stoer with dense output). "auto" picks dopri5 for double and
/// bulirsch-stoer for multiprecision (DEPENDENCIES.md: dopri5 cannot reach
/// 1e-40 in practice).
std::vector<std::string> stepper_names();

template <class S>
struct IntegrationOptions {
  S t_end = S(10);
  S dt_out = S(1) / S(10);     ///< output spacing; the last sample is at t_end
  S rtol = default_rtol();     ///< relative error tolerance per step
  S atol = default_rtol();     ///< absolute error tolerance per step
  std::string stepper = "auto";
  std::uint64_t max_rhs_calls = 200000000;  ///< IntegrationFailure beyond this
  /// When positive, every vector-field evaluation first checks the state's
  /// margins to the singular sets (singular_set.hpp: sigma_min of dC/dqdot
  /// and the system's own) and stops the motion with SingularState when one
  /// is <= singular_margin. 0: only the formulations' own checks.
  S singular_margin = S(0);

  /// 1e-12 in double; 1e-(digits10 - 10) in higher precisions (1e-40 for mp50).
  static S default_rtol() {
    const int d = std::numeric_limits<S>::digits10;
    const int e = d <= 16 ? 12 : d - 10;
    S tol = S(1);
    for (int i = 0; i < e; ++i) tol /= S(10);
    return tol;
  }
};

/// One output sample of a motion.
template <class S>
struct Sample {
  S t;
  Vec<S> q;     ///< size n
  Vec<S> qdot;  ///< size n
};

struct IntegrationStats {
  std::uint64_t steps = 0;      ///< accepted steps
  std::uint64_t rhs_calls = 0;  ///< vector-field evaluations
  std::string stepper;          ///< the stepper actually used
};

/// Integrates the motion from (q0, qdot0) (on C; see admit_state) from t = 0
/// to opts.t_end with formulation f, calling `observe` at t = 0, dt_out,
/// 2 dt_out, ..., t_end. Stats are written to *stats as the run goes, so
/// they are valid even when it throws.
/// Throws NotApplicable, InvalidState/SingularState (at the initial state
/// or, with the time, along the motion), UsageError (unknown stepper,
/// non-positive t_end/dt_out/tolerances), IntegrationFailure (step size
/// underflow, too many RHS calls, non-finite values). Samples observed
/// before a failure have been delivered.
template <class S>
void integrate(const System<S>& sys, const Formulation<S>& f, const Vec<S>& q0,
               const Vec<S>& qd0, const IntegrationOptions<S>& opts,
               const std::function<void(const Sample<S>&)>& observe, IntegrationStats* stats);

#define NHS_INTEGRATE_INSTANTIATE(EXTERN, S)                                               \
  EXTERN template void integrate<S>(const System<S>&, const Formulation<S>&, const Vec<S>&, \
                                    const Vec<S>&, const IntegrationOptions<S>&,             \
                                    const std::function<void(const Sample<S>&)>&,            \
                                    IntegrationStats*);
#define NHS_EXTERN_INTEGRATE_(S, NAME) NHS_INTEGRATE_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_INTEGRATE_)
#undef NHS_EXTERN_INTEGRATE_

}  // namespace nhs
