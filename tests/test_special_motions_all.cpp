// Special motions, slow set: the multiprecision runs of every formulation
// other than the second kind (that one is in the quick set).
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
  check_special_motions<S>([](const Formulation<S>& f) {
              return f.name() != "second-kind";
            },
                           checked);
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace nhs
