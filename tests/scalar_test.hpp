// Typed-test support: the scalar list and the tolerance trait per scalar
// (Eigen's test_precision pattern).
#pragma once

#include "nhs/autodiff.hpp"
#include "nhs/errors.hpp"
#include "nhs/norms.hpp"
#include "nhs/precision_policy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>

namespace nhs {

namespace detail {
template <class Tuple>
struct ToTestTypes;
template <class... T>
struct ToTestTypes<std::tuple<T...>> {
  using type = ::testing::Types<T...>;
};
}  // namespace detail

/// Every supported scalar type (nhs::ScalarTypes) as GoogleTest types.
using AllScalars = detail::ToTestTypes<ScalarTypes>::type;

/// The scalars of the quick typed tests: double and mp50. Every typed test
/// compiles once per scalar, so the quick suite keeps two (one hardware
/// type, one multiprecision type); the other precisions (long double,
/// float128, mp100) are exercised by the `mp`-labelled tests
/// (test_precision_*.cpp, test_convergence_order.cpp, ...), one scalar per
/// translation unit where heavy.
using TestScalars = ::testing::Types<double, mp50>;

/// The precisions outside the quick typed tests, for the `mp` tests.
using ExtraScalars = ::testing::Types<long double, float128, mp100>;

/// Names typed tests by the scalar's CLI name (double, mp50), with '-'
/// written '_' (long_double): ctest runs each test through --gtest_filter,
/// where a '-' starts the negative patterns, so "Suite/long-double.Test"
/// matched nothing and the test passed without running.
struct ScalarNames {
  template <class S>
  static std::string GetName(int) {
    std::string name(ScalarName<S>::value);
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
  }
};

/// Tolerances per scalar, from the one table of nhs/precision_policy.hpp
/// (its comment has every figure, where it comes from and why):
///   cross:    precision_policy<S>().cross, the agreement of two
///             formulations, or of a formulation with a closed form, at one
///             state (relative, max-norm): double 1e-12, long double 1e-15,
///             float128 1e-30, mp50 1e-45, mp100 1e-95;
///   analytic: precision_policy<S>().strict.analytic, the max-norm error of
///             an integrated special motion at the output samples up to
///             t = 20 (and the energy, |C| and invariant drift along it):
///             1e-9, 1e-12, 1e-25, 1e-40, 1e-80. mp50's 1e-40 is stricter
///             than the main job's 1e-30 (`nhs verify`, its time budget).
template <class S>
struct Tolerance {
  static inline const S cross = precision_policy<S>().cross;
  static inline const S analytic = precision_policy<S>().strict.analytic;
};

/// The integration tolerance (rtol = atol) of the tests that integrate a
/// special motion to t = 20 and assert Tolerance<S>::analytic:
/// precision_policy<S>().strict.rtol, chosen so that the global error stays
/// below that bound with margin (the bound is what is asserted, the
/// tolerance is only the means): 1e-13, 1e-16, 1e-30, 1e-46, 1e-90.
template <class S>
S integration_tolerance() {
  return precision_policy<S>().strict.rtol;
}

/// The integration tolerance (rtol = atol) of the tests that assert first
/// integrals (the separate energies of 000 eqs. 85-86) to
/// Tolerance<S>::analytic over spans up to t = 30: well below what is
/// asserted (the bound is the claim), Tolerance<S>::analytic / 10^4, 1e-13
/// in double and 1e-44 in mp50. (10^4 Tolerance::cross left one digit once
/// cross became 1e-45: E2 drifted 1.26e-40 > 1e-40 on the bipendulum's
/// harmonic case. integration_tolerance<mp50> = 1e-46 passes but made
/// Bipendulum.EnergiesSeparate take 246 s instead of 75 s.) Used by
/// test_bipendulum.cpp and test_energy_separation.cpp.
template <class S>
S tight_tolerance() {
  return Tolerance<S>::analytic / S(10000);
}

/// max_i |v_i|, and 0 for an empty vector.
template <class S>
S max_abs(const Vec<S>& v) {
  return v.size() ? S(v.cwiseAbs().maxCoeff()) : S(0);
}

/// The condition of the SingularState that f() throws, or a note that it
/// threw none (so that EXPECT_EQ shows what happened).
template <class F>
std::string singular_condition(F&& f) {
  try {
    f();
  } catch (const SingularState& e) {
    return e.condition;
  }
  return "(no SingularState thrown)";
}

}  // namespace nhs
