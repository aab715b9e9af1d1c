// Forward-mode automatic differentiation types over a scalar S (Eigen's
// AutoDiffScalar, dynamic-size derivative vectors), and exact constants in
// any of them.
//
// AD1<S> carries first derivatives; AD2<S> nests AD1 inside AD1 and carries
// second derivatives. Three levels do not compile with multiprecision S
// (docs/numerics.md), and the equations of motion need only two.
//
// InlineAD1<S> / InlineAD2<S> are the same with derivative vectors stored
// inline (Eigen's Dynamic size with a compile-time maximum,
// kInlineADVariables): no heap allocation per operation, for derivations
// with at most that many variables, in the types where an inline array of
// them is cheap (has_inline_ad<S>: the hardware types). FixedAD1/FixedAD2
// have sizes fixed at compile time, for systems whose n is.
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

/// Capacity of the inline AD derivative vectors: derivations over at most
/// this many variables (2n for the Hessian of T: systems with n <= 8) can
/// use InlineAD1/InlineAD2.
inline constexpr int kInlineADVariables = 16;

/// Whether S has the inline AD types: double, long double and float128,
/// whose inline arrays are plain memory. Not MPFR: an inline array of
/// kInlineADVariables (squared, for AD2) MPFR numbers would construct every
/// one of them on every AD temporary, used or not.
template <class S>
inline constexpr bool has_inline_ad = std::is_floating_point_v<S> || std::is_same_v<S, float128>;

/// A derivative vector of runtime size <= kInlineADVariables, stored inline.
template <class S>
using InlineVec = Eigen::Matrix<S, Eigen::Dynamic, 1, 0, kInlineADVariables, 1>;
/// First-order forward AD over S with inline derivative vectors.
template <class S>
using InlineAD1 = Eigen::AutoDiffScalar<InlineVec<S>>;
/// Second-order forward AD over S with inline derivative vectors (InlineAD1
/// over InlineAD1).
template <class S>
using InlineAD2 = Eigen::AutoDiffScalar<InlineVec<InlineAD1<S>>>;

/// First-order forward AD over S with N derivatives, fixed at compile time
/// (for systems whose sizes are: no heap allocation, unrolled loops).
template <class S, int N>
using FixedAD1 = Eigen::AutoDiffScalar<Eigen::Matrix<S, N, 1>>;
/// Second-order forward AD over S with fixed sizes: Outer derivatives, each
/// a FixedAD1 with Inner derivatives.
template <class S, int Outer, int Inner>
using FixedAD2 = Eigen::AutoDiffScalar<Eigen::Matrix<FixedAD1<S, Inner>, Outer, 1>>;

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
/// T is S, a first-order AD type over S (AD1<S>, InlineAD1<S>,
/// FixedAD1<S, N>) or a second-order one (AD2<S>, InlineAD2<S>,
/// FixedAD2<S, N, M>); outer and inner must not exceed the capacity of an
/// inline type's derivative vectors and must equal a fixed type's sizes.
template <class T, class S>
T sized_constant(const S& x, Eigen::Index outer, Eigen::Index inner = 0) {
  if constexpr (std::is_same_v<T, S>) {
    return x;
  } else {
    static_assert(detail::IsAutoDiff<T>::value, "T must be S or an AD type over S");
    using Der = typename T::DerType;
    using Inner = typename Der::Scalar;
    if constexpr (std::is_same_v<Inner, S>) {
      return T(x, Der::Zero(outer));
    } else {
      return T(sized_constant<Inner>(x, inner),
               Der::Constant(outer, sized_constant<Inner>(S(0), inner)));
    }
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
