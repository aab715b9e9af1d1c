// The quick representative of the slow multiprecision checks: the skate on
// the incline (docs/special-motions.md, 001 §9.1, omega = 0.9) integrated to
// t = 2 (t = 20, and every study and formulation, in the slow
// test_precision_special_motions.cpp and test_special_motions_all.cpp)
// with the first-kind equations in long double, float128, mp50 and mp100
// against its closed form (error <= Tolerance<S>::analytic: 1e-12, 1e-25,
// 1e-40, 1e-80), with the default stepper and tolerance of each precision
// (default_stepper<S>(rtol), default_tolerance<S>()), and the text round trip
// of each scalar at full precision.
// ctest-labels: study analytic mp
#include "motion_error.hpp"
#include "scalar_test.hpp"

#include "nhs/integrate.hpp"
#include "nhs/studies/all.hpp"

#include <iostream>

namespace nhs {
namespace {

template <class S>
class PrecisionQuick : public ::testing::Test {};
using QuickScalars = ::testing::Types<long double, float128, mp50, mp100>;
TYPED_TEST_SUITE(PrecisionQuick, QuickScalars, ScalarNames);

TYPED_TEST(PrecisionQuick, TextRoundTripsAtFullPrecision) {
  using S = TypeParam;
  const S third = S(1) / S(3);
  EXPECT_EQ(from_string<S>(to_string<S>(third)), third);
  EXPECT_EQ(static_cast<int>(to_string<S>(third).size()), output_digits<S>() + 2);  // "0." + digits
  // "0.1" is the S nearest to 1/10: 10 x it is 1 to within one rounding.
  using std::abs;
  EXPECT_LE(abs(S(10) * from_string<S>("0.1") - S(1)), epsilon<S>());
  EXPECT_NE(from_string<S>("0.1"), S(0.1)) << "the double 0.1 widened is not 1/10 in S";
  EXPECT_THROW(from_string<S>("0.1x"), MalformedNumber);
}

TYPED_TEST(PrecisionQuick, SkateOnTheInclineToT2) {
  using S = TypeParam;
  const Study<S>& st = find_study<S>("skate");
  const SpecialMotion<S> mo = st.special_motions().front();
  const System<S> sys = st.build(mo.parameters);
  IntegrationOptions<S> opts;  // default stepper and tolerance of S
  opts.t_end = S(2);
  opts.dt_out = S(1) / S(2);
  IntegrationStats stats;
  const S err = motion_error<S>(sys, find_formulation<S>("first-kind"), mo, opts, &stats);
  std::cout << "[ motion   ] " << ScalarName<S>::value << " " << mo.name << ": stepper "
            << stepper_name(stats.stepper) << ", rtol " << static_cast<double>(opts.rtol) << ", error "
            << static_cast<double>(err) << ", " << stats.rhs_calls << " RHS calls\n";
  EXPECT_EQ(stats.stepper, default_stepper<S>(opts.rtol));
  EXPECT_LE(err, Tolerance<S>::analytic);
}

}  // namespace
}  // namespace nhs
