// Special motions, quick set: every formulation in double. The
// multiprecision runs (every formulation, mp50 to 1e-40 at t = 20) are in
// test_special_motions_all.cpp (slow; long double, float128, mp100 in
// test_precision_special_motions.cpp); their quick representative is
// test_precision_quick.cpp. (At the 1e-40 of Tolerance<mp50>::analytic the
// mp50 runs of the first and second kind alone took more than 13 min CPU,
// too much for the quick suite.)
// ctest-labels: study analytic
#include "special_motion_check.hpp"

namespace nhs {
namespace {

template <class S>
class SpecialMotions : public ::testing::Test {};
TYPED_TEST_SUITE(SpecialMotions, TestScalars, ScalarNames);

TYPED_TEST(SpecialMotions, MatchClosedFormsAndKeepInvariants) {
  using S = TypeParam;
  if (!std::is_same_v<S, double>)
    GTEST_SKIP() << "multiprecision runs: test_special_motions_all.cpp (slow), "
                    "test_precision_quick.cpp (quick)";
  int checked = 0;
  check_special_motions<S>([](const Formulation<S>&) { return true; }, checked);
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace nhs
