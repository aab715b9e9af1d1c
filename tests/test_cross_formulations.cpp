// Compares every pair of formulations: the same qddot at 60 random regular
// states of every study, in the quick precisions double and mp50
// (Pinocchio/MuJoCo pattern: one algorithm against another, no stored
// numbers). long double, float128, mp100: test_precision_cross.cpp.
// ctest-labels: unit cross
#include "cross_check.hpp"

namespace nhs {
namespace {

template <class S>
class CrossFormulations : public ::testing::Test {};
TYPED_TEST_SUITE(CrossFormulations, TestScalars, ScalarNames);

TYPED_TEST(CrossFormulations, AllPairsAgreeAtRandomRegularStates) {
  check_cross_formulations<TypeParam>(60);
}

}  // namespace
}  // namespace nhs
