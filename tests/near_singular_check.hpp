// Shared by test_precision_near_singular.cpp (long double, float128; quick)
// and test_precision_near_singular_mp100.cpp (slow): the symmetric
// bipendulum (000 §13, eqs. 93-94; docs/special-motions.md bipendulum (e))
// integrated towards its singular turning point and compared with the exact
// pendulum, with the library's symmetric_near_turning_point (second kind,
// the precision's default stepper; max-norm error of (q, qdot) and
// sigma_min(dC/dqdot) at t = fraction * T/4), at fraction 0.9 ("far") and
// 1 - 1e-5 ("near").
//
// Tolerance (rtol = atol) as in test_bipendulum.cpp (double, mp50):
// 10^-(d-2) for the hardware-like types (double 1e-13; long double 1e-16,
// float128 1e-31), 10^-(d-10) for mp100 (1e-90), 10^-(d-8) for mp50 (1e-42).
//
// Measured (each file's output; double and mp50 from test_bipendulum.cpp):
//                 tol      far (0.9 T/4)       near ((1 - 1e-5) T/4)   lost
//   double        1e-13    8.4e-13  (12.1)     7.2e-9   ( 8.1)         3.9
//   long double   1e-16    5.6e-16  (15.2)     4.8e-12  (11.3)         3.9
//   float128      1e-31    6.1e-30  (29.2)     1.6e-26  (25.8)         3.4
//   mp50          1e-42    7.4e-43  (42.1)     1.2e-39  (38.9)         3.2
//   mp100         1e-90    1.4e-91  (90.9)     1.1e-88  (88.0)         2.9
//                 (16 columns: 2.8e-92 (91.6), 1.7e-89 (88.8); 20 now)
// (digits kept in parentheses), sigma_min 3.4e-5 at the near point in
// each. Every precision loses 3-4 digits over the 4 decades of approach
// (mp50 lost 6.8, from 6.3e-42 to 3.9e-35, at rtol 1e-40 with Odeint's
// 8-column dense Bulirsch-Stoer; with the 16-column one it now uses, 3.0e-40
// to 3.3e-37 at 1e-40, hence its tolerance 1e-42): float128 keeps 25 digits near the
// turning point where double keeps 8, mp100 88. Asserted: each error below
// its bound (about a decade above what was measured; for mp100's far point
// the tolerance itself), and near > 100 x far.
#pragma once

#include "scalar_test.hpp"

#include "nhs/integrate.hpp"
#include "nhs/studies/bipendulum_findings.hpp"

#include <chrono>
#include <iostream>

namespace nhs {

/// The tolerance and the asserted bounds of the near-singular check in S.
template <class S>
struct NearSingularFigures;
template <>
struct NearSingularFigures<long double> {
  static constexpr const char* tol = "1e-16";
  static constexpr const char* far_bound = "1e-14";
  static constexpr const char* near_bound = "1e-10";
};
template <>
struct NearSingularFigures<float128> {
  static constexpr const char* tol = "1e-31";
  static constexpr const char* far_bound = "1e-28";
  static constexpr const char* near_bound = "1e-24";
};
template <>
struct NearSingularFigures<mp100> {
  static constexpr const char* tol = "1e-90";
  static constexpr const char* far_bound = "1e-90";
  static constexpr const char* near_bound = "1e-87";
};

/// Integrates to the far and the near point in S, prints the digits kept
/// and asserts NearSingularFigures<S>'s bounds.
template <class S>
void check_digits_kept_near_the_turning_point() {
  using F = NearSingularFigures<S>;
  const FindingSettings<S> fs{from_string<S>(F::tol)};
  const auto t0 = std::chrono::steady_clock::now();
  const NearSingular<S> far = symmetric_near_turning_point<S>(from_string<S>("0.9"), fs);
  const NearSingular<S> near = symmetric_near_turning_point<S>(S(1) - from_string<S>("1e-5"), fs);
  using std::log10;
  std::cout << "[ near     ] " << ScalarName<S>::value << " (rtol " << F::tol
            << "): error at 0.9 T/4 " << static_cast<double>(far.error) << " ("
            << -static_cast<double>(log10(far.error)) << " digits), at (1 - 1e-5) T/4 "
            << static_cast<double>(near.error) << " (" << -static_cast<double>(log10(near.error))
            << " digits), sigma_min " << static_cast<double>(near.sigma_min) << "; "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()
            << " s\n";
  EXPECT_LT(near.sigma_min, from_string<S>("1e-4"));
  EXPECT_GT(near.error, S(100) * far.error) << "digits are lost near the singular set";
  EXPECT_LT(near.error, from_string<S>(F::near_bound));
  EXPECT_LT(far.error, from_string<S>(F::far_bound));
}

}  // namespace nhs
