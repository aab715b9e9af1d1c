// Special motions in long double, float128 and mp100: every analytic
// special motion of every study (docs/special-motions.md; each study's
// special_motions(), so studies added later are picked up) integrated to
// its t_end (20) with every valid formulation, against the closed form:
// error <= 1e-12 / 1e-25 / 1e-80 (Tolerance<S>::analytic), with energy,
// the study's invariants and |C| kept as well. In mp100 this is the other
// half of the "no double literal leaks" proof: a double constant anywhere
// in the equations, the studies or the integrator would cap the error at
// ~1e-17. The quick representative is test_precision_quick.cpp.
// ctest-labels: study analytic mp slow
#include "special_motion_check.hpp"

namespace nhs {
namespace {

template <class S>
class PrecisionSpecialMotions : public ::testing::Test {};
TYPED_TEST_SUITE(PrecisionSpecialMotions, ExtraScalars, ScalarNames);

TYPED_TEST(PrecisionSpecialMotions, MatchClosedFormsAndKeepInvariants) {
  using S = TypeParam;
  int checked = 0;
  check_special_motions<S>([](const Formulation<S>&) { return true; }, checked);
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace nhs
