// Compares the symmetric bipendulum integrated towards its singular turning point (000 §13, eqs. 93-94; docs/special-motions.md bipendulum (e)) with the exact pendulum in mp100: the digits kept near the singular set.
// ctest-labels: mp slow
//
// The check and the table of every precision: near_singular_check.hpp.
// Slow: 107-198 s at rtol 1e-90 with the 16-column Bulirsch-Stoer (one
// core of a shared machine); 24-36 s with the 20 columns mp100 now uses.
#include "near_singular_check.hpp"

namespace nhs {
namespace {

TEST(PrecisionNearSingularMp100, DigitsKeptNearTheTurningPoint) {
  check_digits_kept_near_the_turning_point<mp100>();
}

}  // namespace
}  // namespace nhs
