// Forward-mode automatic differentiation types over a scalar S (Eigen's
// AutoDiffScalar, dynamic-size derivative vectors), and exact constants in
// any of them.
//
// AD1<S> carries first derivatives; AD2<S> nests AD1 inside AD1 and carries
// second derivatives. Three levels do not compile with multiprecision S
// (DEPENDENCIES.md), and the equations of motion need only two.
#pragma once

#include "nhs/scalar.hpp"

#include <unsupported/Eigen/AutoDiff>

#include <type_traits>

namespace nhs {

template <class S>
using Vec = Eigen::Matrix<S, Eigen::Dynamic, 1>;
template <class S>
using Mat = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;

/// First-order forward AD over S.
template <class S>
using AD1 = Eigen::AutoDiffScalar<Vec<S>>;
/// Second-order forward AD over S (AD1 over AD1).
template <class S>
using AD2 = Eigen::AutoDiffScalar<Vec<AD1<S>>>;

namespace detail {
template <class T>
struct IsAutoDiff : std::false_type {};
template <class D>
struct IsAutoDiff<Eigen::AutoDiffScalar<D>> : std::true_type {};
}  // namespace detail

/// Lifts a value of the base scalar S into T (S, AD1<S> or AD2<S>) as a
/// constant, one level at a time (a multiprecision S converts to a nested
/// AD type only explicitly).
template <class T, class S>
T lift(const S& x) {
  if constexpr (std::is_same_v<T, S>) {
    return x;
  } else {
    using Inner = typename T::Real;
    return T(lift<Inner>(x));
  }
}

/// x as a constant of T whose derivative vectors are allocated and zero:
/// `outer` entries at the outer level, `inner` at the inner level of AD2.
/// Eigen's AutoDiffScalar gives a plain constant an empty derivative vector
/// and resizes it only when it meets a variable directly; an expression of
/// two such constants keeps size 0 and then mixes sizes with a variable.
/// Constants of the right size avoid that (used for system parameters).
template <class T, class S>
T sized_constant(const S& x, Eigen::Index outer, Eigen::Index inner = 0) {
  if constexpr (std::is_same_v<T, S>) {
    return x;
  } else if constexpr (std::is_same_v<T, AD1<S>>) {
    return T(x, Vec<S>::Zero(outer));
  } else {
    static_assert(std::is_same_v<T, AD2<S>>, "T must be S, AD1<S> or AD2<S>");
    Vec<AD1<S>> d(outer);
    for (Eigen::Index i = 0; i < outer; ++i) d[i] = AD1<S>(S(0), Vec<S>::Zero(inner));
    return T(AD1<S>(x, Vec<S>::Zero(inner)), d);
  }
}

/// The exact rational num/den in T, built in T's base scalar (no double
/// literal leaks in: ratio<T>(1, 2) is exactly 1/2, ratio<T>(1, 3) is 1/3
/// rounded in the scalar's precision).
template <class T>
T ratio(int num, int den = 1) {
  if constexpr (detail::IsAutoDiff<T>::value) {
    return T(ratio<typename T::Real>(num, den));
  } else {
    return T(num) / T(den);
  }
}

/// The value of x with every derivative level stripped.
template <class S>
const S& value_of(const S& x) {
  return x;
}
template <class D>
auto value_of(const Eigen::AutoDiffScalar<D>& x) {
  return value_of(x.value());
}

}  // namespace nhs
