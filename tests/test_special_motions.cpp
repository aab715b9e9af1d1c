// Special motions, quick set: every formulation in double; in the other
// precisions the second kind (the general formulation that needs no chart;
// the first kind's multiprecision runs are in the slow set, which took the
// quick set past 5 minutes on 2 cores once the bipendulum joined).
// The rest of the multiprecision runs are in test_special_motions_all.cpp.
// ctest-labels: study analytic
#include "special_motion_check.hpp"

namespace nhs {
namespace {

template <class S>
class SpecialMotions : public ::testing::Test {};
TYPED_TEST_SUITE(SpecialMotions, TestScalars, ScalarNames);

TYPED_TEST(SpecialMotions, MatchClosedFormsAndKeepInvariants) {
  using S = TypeParam;
  const bool all = std::is_same_v<S, double>;
  int checked = 0;
  check_special_motions<S>([all](const Formulation<S>& f) {
              return all || f.name() == "second-kind";
            },
                           checked);
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace nhs
