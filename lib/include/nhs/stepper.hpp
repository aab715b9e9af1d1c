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
///   automatic      default_stepper<S>() for the scalar of the run
///   dopri5         Dormand-Prince 5(4), Odeint's, with dense output
///   fehlberg78     Runge-Kutta-Fehlberg 7(8) under step-doubling error
///                  control (lib/src/detail/fehlberg78_step_doubling.hpp:
///                  Fehlberg's own estimate vanishes on uniform motions)
///   verner87       Verner's "most efficient" 8(7) pair (Numer. Algorithms
///                  53 (2010) 383), exact rational coefficients in every
///                  scalar, Odeint's controlled generic Runge-Kutta
///                  (lib/src/detail/verner87.hpp)
///   bulirsch_stoer Gragg-Bulirsch-Stoer: up to 33 digits (float128)
///                  Odeint's with dense output; above, a controlled variant
///                  with 16 extrapolation columns (mp50) or 20 (mp100)
///                  (third_party/odeint/, docs/numerics.md "Steppers")
enum class Stepper { automatic, dopri5, fehlberg78, verner87, bulirsch_stoer };

/// The concrete steppers (every value but automatic), in the order the CLI
/// lists them.
inline constexpr Stepper kSteppers[] = {Stepper::dopri5, Stepper::fehlberg78, Stepper::verner87,
                                        Stepper::bulirsch_stoer};

/// The stepper's name as the CLI and the outputs write it: "auto",
/// "dopri5", "fehlberg78", "verner87", "bulirsch-stoer".
std::string_view stepper_name(Stepper s);

/// The names of kSteppers (without "auto").
std::vector<std::string> stepper_names();

/// The stepper of a name as stepper_name writes it ("auto" included).
/// Throws UsageError naming the text and the known names otherwise.
Stepper parse_stepper(std::string_view name);

/// The stepper Stepper::automatic stands for, by the decimal digits d of S:
/// dopri5 up to 18 digits (double, long double), bulirsch_stoer above
/// (float128, mp50, mp100). Measured (docs/numerics.md "Steppers"): in long
/// double at 1e-15 on the skate on the incline to t = 20, fehlberg78 was
/// cheaper (8.5e-14 error with 2.8k RHS calls against dopri5's 9.1e-14 with
/// 15.2k), but on the rolling disc's circle its error estimate (41/840 (k1 +
/// k11 - k12 - k13)) nearly vanishes and it took 546 RHS calls to an error
/// of 1.4e-12 to 1.6e-11 at rtol 1e-16; dopri5 has no such blind spot. In
/// float128 at 1e-30, bulirsch-stoer 8.5k calls, fehlberg78 173k.
/// docs/numerics.md: dopri5 cannot reach 1e-40 in practice.
template <class S>
constexpr Stepper default_stepper() {
  return decimal_digits<S>() <= 18 ? Stepper::dopri5 : Stepper::bulirsch_stoer;
}

/// `s`, with automatic resolved to default_stepper<S>().
template <class S>
constexpr Stepper resolved_stepper(Stepper s) {
  return s == Stepper::automatic ? default_stepper<S>() : s;
}

/// The smallest rtol integrate() accepts with stepper `s` in S: 10 epsilon
/// of S (below it the error control chases round-off: double 2.2e-15, long
/// double 1.1e-18, float128 1.9e-33, mp50 ~1e-49, mp100 ~1e-99; verify runs
/// double at 1e-14 and long double at 1e-17), and for the fixed-order
/// steppers the tolerance tau at which tau^(-1/p) reaches 10^6 steps per
/// unit time on a motion of size 1: 1e-30 for dopri5 (p = 5), 1e-48 for
/// fehlberg78 and verner87 (p = 8). Bulirsch-Stoer raises its order with
/// the tolerance: only the round-off bound. automatic: that of default_stepper<S>().
template <class S>
S minimum_tolerance(Stepper s) {
  const S round_off = S(10) * epsilon<S>();
  using std::max;
  switch (resolved_stepper<S>(s)) {
    case Stepper::dopri5: return max(round_off, power_of_ten<S>(-30));
    case Stepper::fehlberg78:
    case Stepper::verner87: return max(round_off, power_of_ten<S>(-48));
    default: return round_off;
  }
}

}  // namespace nhs
