// Compares every pair of formulations at 60 random regular states of every
// study in long double, float128 and mp100 (relative 1e-15, 1e-30, 1e-95;
// Tolerance in scalar_test.hpp). In mp100 this is also half of the proof
// that no double literal leaks into the equations (a leaked 0.1 would
// disagree at ~1e-17): every formulation reaches q̈ by its own route.
// ctest-labels: unit cross mp
#include "cross_check.hpp"

namespace nhs {
namespace {

template <class S>
class PrecisionCross : public ::testing::Test {};
TYPED_TEST_SUITE(PrecisionCross, ExtraScalars, ScalarNames);

TYPED_TEST(PrecisionCross, AllPairsAgreeAtRandomRegularStates) {
  check_cross_formulations<TypeParam>(60);
}

}  // namespace
}  // namespace nhs
