// Compares the symmetric bipendulum integrated towards its singular turning point (000 §13, eqs. 93-94; docs/special-motions.md bipendulum (e)) with the exact pendulum in long double and float128: the digits each precision keeps near the singular set.
// ctest-labels: mp
//
// The check, its tolerances and the table of digits kept in every
// precision: near_singular_check.hpp. test_bipendulum.cpp covers double
// and mp50, test_precision_near_singular_mp100.cpp (slow, ~100 s) mp100.
// Here ~1 s.
#include "near_singular_check.hpp"

namespace nhs {
namespace {

template <class S>
class PrecisionNearSingular : public ::testing::Test {};
using HardwarePrecisions = ::testing::Types<long double, float128>;
TYPED_TEST_SUITE(PrecisionNearSingular, HardwarePrecisions, ScalarNames);

TYPED_TEST(PrecisionNearSingular, DigitsKeptNearTheTurningPoint) {
  check_digits_kept_near_the_turning_point<TypeParam>();
}

}  // namespace
}  // namespace nhs
