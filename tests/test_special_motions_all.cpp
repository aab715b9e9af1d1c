// Special motions, slow set: every formulation in mp50 (error <= 1e-40 at
// t = 20, integration tolerance 1e-46). The double runs are in the quick
// set (test_special_motions.cpp).
// ctest-labels: study analytic slow mp
#include "special_motion_check.hpp"

namespace nhs {
namespace {

template <class S>
class SpecialMotionsAll : public ::testing::Test {};
TYPED_TEST_SUITE(SpecialMotionsAll, TestScalars, ScalarNames);

TYPED_TEST(SpecialMotionsAll, MatchClosedFormsAndKeepInvariants) {
  using S = TypeParam;
  if (std::is_same_v<S, double>) GTEST_SKIP() << "double runs are in the quick set";
  int checked = 0;
  check_special_motions<S>([](const Formulation<S>&) { return true; }, checked);
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace nhs
