// Typed-test support: the scalar list and the tolerance trait per scalar
// (Eigen's test_precision pattern).
#pragma once

#include "nhs/autodiff.hpp"
#include "nhs/errors.hpp"
#include "nhs/norms.hpp"

#include <gtest/gtest.h>

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
using TestScalars = detail::ToTestTypes<ScalarTypes>::type;

/// Names typed tests by the scalar's CLI name (double, mp50).
struct ScalarNames {
  template <class S>
  static std::string GetName(int) {
    return std::string(ScalarName<S>::value);
  }
};

/// Tolerances per scalar, stated in the issue: cross-formulation agreement
/// 1e-12 (double) / 1e-40 (50 digits), analytic solutions at t = 20 1e-9 /
/// 1e-30.
template <class S>
struct Tolerance;
template <>
struct Tolerance<double> {
  static inline const double cross = 1e-12;
  static inline const double analytic = 1e-9;
};
template <>
struct Tolerance<mp50> {
  static inline const mp50 cross = mp50("1e-40");
  static inline const mp50 analytic = mp50("1e-30");
};

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
