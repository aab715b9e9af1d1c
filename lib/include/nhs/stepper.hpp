// The integration methods of integrate() (nhs/integrate.hpp), as a type:
// names are parsed once, where a user typed them (the CLI, the benchmark
// programs), and the library dispatches on the enum in one place
// (lib/src/integrate.ipp).
#pragma once

#include "nhs/scalar.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace nhs {

/// The adaptive, error-controlled steppers of integrate().
///   automatic      default_stepper<S>(rtol) for the scalar and tolerance of the run
///   dopri5         Dormand-Prince 5(4), Odeint's, with dense output
///   fehlberg78     Runge-Kutta-Fehlberg 7(8) under step-doubling error
///                  control (lib/src/detail/fehlberg78_step_doubling.hpp:
///                  Fehlberg's own estimate vanishes on uniform motions)
///   verner87       Verner's "most efficient" 8(7) pair (Numer. Algorithms
///                  53 (2010) 383), exact rational coefficients in every
///                  scalar; up to 33 digits with Verner's 8th-order
///                  interpolant (lib/src/detail/verner87_dense.hpp), above
///                  under Odeint's controlled generic Runge-Kutta, steps
///                  ending on the output times (lib/src/detail/verner87.hpp)
///   bulirsch_stoer Gragg-Bulirsch-Stoer: up to 33 digits (float128)
///                  Odeint's with dense output; above, a controlled variant
///                  with 16 extrapolation columns (mp50) or 20 (mp100)
///                  (third_party/odeint/, docs/numerics.md "Steppers")
/// The fixed-step, structure-preserving steppers for linear constraints
/// (nhs/discrete_lagrange_dalembert.hpp; IntegrationOptions::step):
///   dla            the discrete Lagrange-d'Alembert method (Cortes &
///                  Martinez 2001): trapezoidal discrete Lagrangian, the
///                  discrete constraint at the midpoint, one multiplier per
///                  step at its start
///   nh_rattle      its symmetric, RATTLE-like variant: the constraint
///                  forces split between the step's ends, the end velocity
///                  on C at every step (the same configurations as dla,
///                  other velocities)
///   nh_midpoint    the same with the midpoint discrete Lagrangian
///                  h L((q0 + q1)/2, (q1 - q0)/h): symmetric, on C
/// They take no tolerance: their accuracy is set by the step.
enum class Stepper { automatic, dopri5, fehlberg78, verner87, bulirsch_stoer, dla, nh_rattle, nh_midpoint };

/// The adaptive, error-controlled steppers (every value but automatic and
/// the fixed-step ones), in the order the CLI lists them.
inline constexpr Stepper kSteppers[] = {Stepper::dopri5, Stepper::fehlberg78, Stepper::verner87,
                                        Stepper::bulirsch_stoer};

/// The fixed-step, structure-preserving steppers.
inline constexpr Stepper kDiscreteSteppers[] = {Stepper::dla, Stepper::nh_rattle, Stepper::nh_midpoint};

/// Whether s is one of kDiscreteSteppers.
constexpr bool is_discrete_stepper(Stepper s) {
  return s == Stepper::dla || s == Stepper::nh_rattle || s == Stepper::nh_midpoint;
}

/// The stepper's name as the CLI and the outputs write it: "auto",
/// "dopri5", "fehlberg78", "verner87", "bulirsch-stoer", "dla",
/// "nh-rattle", "nh-midpoint".
std::string_view stepper_name(Stepper s);

/// The names of kSteppers, then of kDiscreteSteppers (without "auto").
std::vector<std::string> stepper_names();

/// The stepper of a name as stepper_name writes it ("auto" included).
/// Throws UsageError naming the text and the known names otherwise.
Stepper parse_stepper(std::string_view name);

/// The stepper Stepper::automatic stands for, by the decimal digits of S
/// and the relative tolerance rtol (docs/numerics.md "Steppers", where the
/// measurements are):
///   up to 18 digits (double, long double): verner87 at rtol <= 1e-7, with
///     its interpolant; dopri5 above. On the skate on the incline, the
///     rolling disc's circle and the co-axial discs' orbit to t = 20 and
///     200, in double, verner87 made 1.6-7.5x fewer RHS calls than dopri5 at
///     every rtol from 1e-7 to 1e-13, in long double 7.5-11x at 1e-15 and
///     9.7-16x at 1e-17, with smaller errors at both;
///     at 1e-5 the two cost about the same at matched accuracy, and at the
///     same rtol dopri5's error is smaller (verner87's up to 23x dopri5's).
///   above (float128, mp50, mp100): bulirsch_stoer: in float128 2.6-4.8x
///     fewer calls than verner87 at 1e-20 and 16-22x at 1e-30, in mp50
///     54-120x at 1e-30; dopri5 cannot reach 1e-40 in practice.
/// round_off_grows_with_speed: the field's (Formulation::
/// round_off_grows_with_speed, Voronec's): dopri5 up to 18 digits at every
/// rtol, whose weights amplify the field's noise least.
template <class S>
Stepper default_stepper(const S& rtol, bool round_off_grows_with_speed = false) {
  if (decimal_digits<S>() > 18) return Stepper::bulirsch_stoer;
  return rtol <= power_of_ten<S>(-7) && !round_off_grows_with_speed ? Stepper::verner87
                                                                     : Stepper::dopri5;
}

/// `s`, with automatic resolved to default_stepper<S>(rtol, round_off_grows_with_speed).
template <class S>
Stepper resolved_stepper(Stepper s, const S& rtol, bool round_off_grows_with_speed = false) {
  return s == Stepper::automatic ? default_stepper<S>(rtol, round_off_grows_with_speed) : s;
}

/// The smallest rtol integrate() accepts with stepper `s` in S: 10 epsilon
/// of S (below it the error control chases round-off: double 2.2e-15, long
/// double 1.1e-18, float128 1.9e-33, mp50 ~1e-49, mp100 ~1e-99; verify runs
/// double at 1e-14 and long double at 1e-17), and for the fixed-order
/// steppers the tolerance tau at which tau^(-1/p) reaches 10^6 steps per
/// unit time on a motion of size 1: 1e-30 for dopri5 (p = 5), 1e-48 for
/// fehlberg78 and verner87 (p = 8). Bulirsch-Stoer raises its order with
/// the tolerance: only the round-off bound. automatic: that of the stepper
/// it stands for at the tightest tolerances (default_stepper<S>(0)).
template <class S>
S minimum_tolerance(Stepper s) {
  const S round_off = S(10) * epsilon<S>();
  using std::max;
  switch (resolved_stepper<S>(s, S(0))) {
    case Stepper::dopri5: return max(round_off, power_of_ten<S>(-30));
    case Stepper::fehlberg78:
    case Stepper::verner87: return max(round_off, power_of_ten<S>(-48));
    default: return round_off;
  }
}

}  // namespace nhs
