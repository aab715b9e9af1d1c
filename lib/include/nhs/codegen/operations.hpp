// The operations of the graph (expr.hpp) on values: what one node computes
// from its operands, in any evaluation type T of the library -- the scalar
// types of scalar.hpp, the AD types of autodiff.hpp over them, and the
// tracing scalar Expr, which records the operation into the active graph.
// Both evaluators of a graph use it: the node-by-node evaluation of an
// expression program in T (nhs/expression.hpp, evaluate) and the scheduled
// interpreter of a traced field in S (interpret.hpp), so that an operation
// means the same in both.
#pragma once

#include "nhs/autodiff.hpp"
#include "nhs/codegen/expr.hpp"

#include <cmath>
#include <limits>
#include <type_traits>

namespace nhs::codegen {
namespace detail {

template <class T>
struct BaseOf {
  using type = T;
};
template <class D>
struct BaseOf<Eigen::AutoDiffScalar<D>> {
  using type = typename BaseOf<typename Eigen::AutoDiffScalar<D>::Real>::type;
};

}  // namespace detail

/// The base scalar of T (T itself, or the scalar under every AD level).
template <class T>
using BaseScalar = typename detail::BaseOf<T>::type;

/// x (a value of T's base scalar S) as a constant of T with derivative
/// vectors of the sizes of `like`, so that no operation mixes an empty
/// derivative vector with a sized one (autodiff.hpp, sized_constant).
template <class T, class S>
T constant_like(const S& x, const T& like) {
  if constexpr (std::is_same_v<T, S>) {
    return x;
  } else {
    using Der = typename T::DerType;
    using Inner = typename Der::Scalar;
    const Eigen::Index outer = like.derivatives().size();
    if constexpr (std::is_same_v<Inner, S>) {
      return T(x, Der::Zero(outer));
    } else {
      const Inner zero = constant_like<Inner>(S(0), like.value());
      return T(constant_like<Inner>(x, like.value()), Der::Constant(outer, zero));
    }
  }
}

namespace detail {

template <class T>
T chain_rule_derivative(Op op, const T& v) {
  using std::sqrt;
  const T one = constant_like<T>(BaseScalar<T>(1), v);
  switch (op) {
    case Op::Abs: return value_of(v) < 0 ? T(-one) : one;  // not traceable: compares the state
    case Op::Atan: return one / (one + v * v);
    case Op::Asinh: return one / sqrt(v * v + one);
    case Op::Acosh: return one / (sqrt(v - one) * sqrt(v + one));
    default: return one / ((one - v) * (one + v));  // Atanh
  }
}

/// atan, asinh, acosh, atanh, and abs (Eigen's multiplies the derivatives
/// by an int): Eigen's AutoDiffScalar has none of them for every scalar, so
/// AD types apply the chain rule here (value and derivative factor one level
/// down).
template <class T>
T chain_rule_function(Op op, const T& x) {
  if constexpr (nhs::detail::IsAutoDiff<T>::value) {
    const auto& v = x.value();
    return T(chain_rule_function(op, v), x.derivatives() * chain_rule_derivative(op, v));
  } else {
    using std::abs;
    using std::acosh;
    using std::asinh;
    using std::atan;
    using std::atanh;
    switch (op) {
      case Op::Abs: return abs(x);
      case Op::Atan: return atan(x);
      case Op::Asinh: return asinh(x);
      case Op::Acosh: return acosh(x);
      default: return atanh(x);
    }
  }
}

}  // namespace detail

/// Whether sin, cos, tan of x would need an argument reduction beyond
/// reason (|x| > 1e300, or NaN): MPFR reduces e^(3e8) with hundreds of
/// millions of bits of pi, which takes minutes. Such a value is NaN (the
/// formulations then report a non-finite value). Never for the tracing
/// scalar, which has no values.
template <class T>
bool beyond_reduction(const T& x) {
  using std::abs;
  const auto& v = value_of(x);
  using V = std::decay_t<decltype(v)>;
  if constexpr (std::is_same_v<V, Expr>) {
    return false;
  } else {
    return !(abs(v) <= V(1e300));
  }
}

/// The value of the operation `op` (not a leaf) on a (and b; for a unary
/// op, b is not read) in T. sin, cos and tan of an argument beyond_reduction
/// are NaN; max(a, b) is b where a < b, else a. A leaf op gives NaN.
template <class T>
T apply(Op op, const T& a, const T& b) {
  using std::acos;
  using std::asin;
  using std::atan2;
  using std::cos;
  using std::cosh;
  using std::exp;
  using std::log;
  using std::sin;
  using std::sinh;
  using std::sqrt;
  using std::tan;
  using std::tanh;
  const auto trigonometric = [&a](auto f) -> T {
    return beyond_reduction(a) ? constant_like<T>(std::numeric_limits<BaseScalar<T>>::quiet_NaN(), a) : T(f(a));
  };
  switch (op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::Div: return a / b;
    case Op::Atan2: return atan2(a, b);
    case Op::Max: return a < b ? b : a;
    case Op::Neg: return -a;
    case Op::Sin: return trigonometric([](const T& x) { return sin(x); });
    case Op::Cos: return trigonometric([](const T& x) { return cos(x); });
    case Op::Tan: return trigonometric([](const T& x) { return tan(x); });
    case Op::Asin: return asin(a);
    case Op::Acos: return acos(a);
    case Op::Sqrt: return sqrt(a);
    case Op::Exp: return exp(a);
    case Op::Log: return log(a);
    case Op::Sinh: return sinh(a);
    case Op::Cosh: return cosh(a);
    case Op::Tanh: return tanh(a);
    case Op::Atan:
    case Op::Asinh:
    case Op::Acosh:
    case Op::Atanh:
    case Op::Abs: return detail::chain_rule_function(op, a);
    default: return constant_like<T>(std::numeric_limits<BaseScalar<T>>::quiet_NaN(), a);
  }
}

}  // namespace nhs::codegen
