// Digits kept near a singular set in long double and float128: the symmetric bipendulum (000 §13, eq. 94; SPECIAL_MOTIONS.md (e)) against the exact pendulum as it approaches its singular turning point.
// ctest-labels: mp
//
// test_bipendulum.cpp (DigitsKeptNearTheTurningPoint) asserts this for
// double and mp50; here long double and float128, with the same library
// function (symmetric_near_turning_point, second kind, default stepper) at
// rtol = atol 10^-(d-2) (d: decimal digits). Measured: at 0.9 T/4 / at
// (1 - 1e-5) T/4, long double keeps 15.2 / 11.3 digits and float128
// 29.2 / 25.8 (double 12.1 / 8.1, mp50 41.2 / 34.4 in test_bipendulum):
// about one digit lost per decade of approach, as sigma_min(dC/dqdot) -> 0
// like 1 - t/(T/4). Asserted with a decade of margin. mp100 is not here:
// at rtol 1e-98 one run took over 3 minutes.
#include "scalar_test.hpp"

#include "nhs/integrate.hpp"
#include "nhs/studies/bipendulum.hpp"

#include <iostream>
#include <type_traits>

namespace nhs {
namespace {

template <class S>
class NearSingular : public ::testing::Test {};
using Precisions = ::testing::Types<long double, float128>;
TYPED_TEST_SUITE(NearSingular, Precisions, ScalarNames);

TYPED_TEST(NearSingular, DigitsKeptNearTheTurningPoint) {
  using S = TypeParam;
  const int d = decimal_digits<S>();
  const FindingSettings<S> fs{power_of_ten<S>(-(d - 2))};
  const auto far = symmetric_near_turning_point<S>(from_string<S>("0.9"), fs);
  const auto near = symmetric_near_turning_point<S>(S(1) - from_string<S>("1e-5"), fs);
  using std::log10;
  const double far_digits = -static_cast<double>(log10(far.error));
  const double near_digits = -static_cast<double>(log10(near.error));
  std::cout << "[ near     ] " << ScalarName<S>::value << ": error at 0.9 T/4 " << far_digits
            << " digits, at (1 - 1e-5) T/4 " << near_digits << " digits (sigma_min "
            << static_cast<double>(near.sigma_min) << ")\n";
  EXPECT_LT(near.sigma_min, from_string<S>("1e-4"));
  EXPECT_GT(near.error, S(100) * far.error) << "digits are lost near the singular set";
  const bool ld = std::is_same_v<S, long double>;
  EXPECT_GT(near_digits, ld ? 10.3 : 24.8);
  EXPECT_GT(far_digits, ld ? 14.2 : 28.2);
}

}  // namespace
}  // namespace nhs
