// The same value bit for bit, for tests that compare two evaluations of one
// computation: for the hardware types the very bits (so +0 != -0; long
// double by value and sign, its padding bytes being unspecified), NaN ==
// NaN; for the multiprecision types equal values and equal signs.
#pragma once

#include <cmath>
#include <cstring>
#include <type_traits>

namespace nhs::test {

template <class S>
bool identical(const S& a, const S& b) {
  using std::isnan;
  using std::signbit;
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  if constexpr (std::is_floating_point_v<S> && !std::is_same_v<S, long double>) {
    return std::memcmp(&a, &b, sizeof(S)) == 0;
  } else {
    return a == b && signbit(a) == signbit(b);
  }
}

}  // namespace nhs::test
