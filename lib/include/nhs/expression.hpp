// The expressions of system files (docs/system-files.md): text such as
// "m/2*(x_dot^2 + y_dot^2) + I/2*theta_dot^2", parsed into a syntax tree
// (Ast) with Boost.Spirit X3, compiled into a Program (a list of
// instructions over input arrays, parameters and exact constants) and
// evaluated in any evaluation type T of the library: the scalar types of
// scalar.hpp, the AD types of autodiff.hpp over them, and the tracing
// scalar of code generation (codegen/expr.hpp). The system-file loader
// (nhs/studies/system_file.hpp) builds a description from such programs,
// so that every formulation derives g_ij, Gamma_ij,k, dC/dqdot ... from a
// file exactly as from a C++ description.
//
// Grammar (whitespace between tokens is ignored):
//   expression = term (("+" | "-") term)*
//   term       = unary (("*" | "/") unary)*
//   unary      = "-" unary | "+" unary | power
//   power      = primary ("^" unary)?      right-associative: 2^3^2 = 2^9;
//                                          -x^2 = -(x^2); 2^-1 = 1/2
//   primary    = number | name "(" expression ("," expression)* ")"
//              | name | "(" expression ")"
//   number     = digits ["." digits] [("e" | "E") ["+" | "-"] digits]  (or ".5")
//   name       = (letter | "_") (letter | digit | "_")*
// Numbers are exact: a literal is kept as its decimal text and converted
// once per scalar type, correctly rounded (from_string: "0.1" is the S
// nearest 1/10), so "1/3" is one third in every precision. `pi` is the
// constant pi of each type.
#pragma once

#include "nhs/autodiff.hpp"
#include "nhs/codegen/expr.hpp"
#include "nhs/errors.hpp"
#include "nhs/system.hpp"

#include <boost/math/constants/constants.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nhs::expression {

/// A syntax error, an unknown name or a wrong call in an expression, at
/// `position` (0-based character offset into the expression's text). A
/// usage error (exit code 2); the system-file loader adds the file, line
/// and column.
struct ExpressionError : UsageError {
  ExpressionError(std::size_t position_, const std::string& reason_)
      : UsageError(reason_ + " (at character " + std::to_string(position_ + 1) + ")"),
        position(position_),
        reason(reason_) {}
  std::size_t position;  ///< 0-based offset into the expression text
  std::string reason;    ///< the message without the position
};

/// Node kinds of the syntax tree.
enum class Kind : std::uint8_t { Number, Name, Neg, Add, Sub, Mul, Div, Pow, Call };

/// A node of a parsed expression.
struct Ast {
  Kind kind = Kind::Number;
  /// 0-based offset of the node in the text: a number's or name's first
  /// character, a binary or unary operator's own character, a call's name.
  std::size_t position = 0;
  std::string text;       ///< Number: the literal as written; Name and Call: the identifier
  std::vector<Ast> args;  ///< Neg: 1; binary: 2 (left, right); Call: the arguments
};

/// The longest expression text parse() accepts, in characters.
inline constexpr std::size_t kMaxExpressionLength = 20000;
/// The deepest nesting of parentheses, unary signs and powers parse() accepts.
inline constexpr int kMaxExpressionDepth = 200;

/// Parses `text` by the grammar of the file comment. Throws ExpressionError
/// at the offending character for a syntax error (naming what was
/// expected), an empty text, a text longer than kMaxExpressionLength or
/// nested deeper than kMaxExpressionDepth, a call of an unknown function or
/// with the wrong number of arguments (listing the functions). Names are
/// not resolved here (Program::add does).
Ast parse(std::string_view text);

/// The functions an expression may call, with their number of arguments:
/// sin cos tan asin acos atan atan2(y, x) sinh cosh tanh asinh acosh atanh
/// exp log sqrt abs pow(x, y).
const std::vector<std::pair<std::string, int>>& functions();

/// Every name that `ast` uses (not the functions it calls), each once, in
/// order of first appearance.
std::vector<std::string> names_in(const Ast& ast);

/// How a Program evaluates base^exponent (the operator `^` and pow(x, y)),
/// chosen from the exponent's syntax alone: a literal rational exponent
/// (k, -k, p/q, -(p/q) of decimal literals) that is an integer |k| <= 64 by
/// repeated multiplication (Integer: defined for every base, 0 excepted for
/// k < 0); a half-integer k/2, |k| <= 129, as sqrt(base)^k (HalfInteger:
/// base >= 0); any other exponent as exp(exponent log(base)) (ExpLog:
/// base > 0, or base = 0 with a positive exponent).
enum class PowerEvaluation : std::uint8_t { Integer, HalfInteger, ExpLog };
/// The PowerEvaluation of a power with this exponent; `k` (when given)
/// receives the integer exponent (Integer) or twice it (HalfInteger).
PowerEvaluation power_evaluation(const Ast& exponent, int* k = nullptr);

/// Instructions of a Program.
enum class Code : std::uint8_t {
  Constant, Pi, Input, Parameter,
  Neg, Add, Sub, Mul, Div, PowInt, PowHalf, Pow,
  Sqrt, Sin, Cos, Tan, Asin, Acos, Atan, Atan2, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh,
  Exp, Log, Abs
};

/// One instruction: its operands are earlier instructions (a, b).
struct Instruction {
  Code code = Code::Constant;
  int a = -1, b = -1;
  int slot = -1;   ///< Constant: index into Program::constants; Input: the array; Parameter: its index
  int index = -1;  ///< Input: the element of the array
  /// PowInt: a^exponent (|exponent| <= 64); PowHalf: a^(exponent/2), exponent odd.
  int exponent = 0;
};

/// Where a name's value comes from when a Program evaluates: element
/// `index` of input array `array` (array >= 0), or parameter `index`
/// (array = -1).
struct Binding {
  int array = -1;
  int index = -1;
};
using Bindings = std::map<std::string, Binding, std::less<>>;

/// Compiled expressions sharing one list of instructions, each output the
/// value of one expression.
struct Program {
  std::vector<Instruction> code;
  std::vector<std::string> constants;  ///< decimal literals, exactly as written
  std::vector<int> outputs;            ///< instruction index of each output

  /// Appends `ast` as a new output and returns its index. Names resolve
  /// through `bindings` ("pi" is the constant unless bound); an unknown name
  /// throws ExpressionError at its position, listing the names `bindings`
  /// knows.
  int add(const Ast& ast, const Bindings& bindings);
};

/// A Program's constants in the base scalar S: each literal converted
/// once (from_string<S>, correctly rounded; for the tracing scalar an exact
/// rational of the graph, see constant_of) and pi.
template <class S>
struct Constants {
  std::vector<S> values;
  S pi;
};

/// The decimal literal `text` in S: from_string<S> for the scalar types of
/// scalar.hpp; for the tracing scalar codegen::Expr, digits and exponent
/// are combined in the graph (exact rational folding while the terms fit
/// in 64 bits, operations on constants computed once in the generated
/// code's own precision otherwise).
template <class S>
S constant_of(const std::string& text) {
  return from_string<S>(text);
}
template <>
codegen::Expr constant_of<codegen::Expr>(const std::string& text);

template <class S>
Constants<S> constants_of(const Program& program) {
  Constants<S> c;
  c.values.reserve(program.constants.size());
  for (const auto& t : program.constants) c.values.push_back(constant_of<S>(t));
  if constexpr (std::is_same_v<S, codegen::Expr>) {
    using std::atan;
    c.pi = S(4) * atan(S(1));  // the tracing scalar has no pi of its own
  } else {
    c.pi = boost::math::constants::pi<S>();
  }
  return c;
}

namespace detail {

template <class T>
struct BaseOf {
  using type = T;
};
template <class D>
struct BaseOf<Eigen::AutoDiffScalar<D>> {
  using type = typename BaseOf<typename Eigen::AutoDiffScalar<D>::Real>::type;
};

/// x as a constant of T with derivative vectors of the sizes of `like`
/// (an operand of the evaluation), so that no operation mixes an empty
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

template <class T>
T chain_rule_derivative(Code code, const T& v) {
  using std::sqrt;
  const T one = constant_like<T>(typename BaseOf<T>::type(1), v);
  switch (code) {
    case Code::Abs: return value_of(v) < 0 ? T(-one) : one;  // not traceable: compares the state
    case Code::Atan: return one / (one + v * v);
    case Code::Asinh: return one / sqrt(v * v + one);
    case Code::Acosh: return one / (sqrt(v - one) * sqrt(v + one));
    default: return one / ((one - v) * (one + v));  // Atanh
  }
}

/// atan, asinh, acosh, atanh, and abs (Eigen's multiplies the derivatives
/// by an int): Eigen's AutoDiffScalar has none of them for every scalar, so
/// AD types apply the chain rule here (value and derivative factor one level
/// down).
template <class T>
T chain_rule_function(Code code, const T& x) {
  if constexpr (nhs::detail::IsAutoDiff<T>::value) {
    using R = typename T::Real;
    const R& v = x.value();
    return T(chain_rule_function(code, v), x.derivatives() * chain_rule_derivative(code, v));
  } else {
    using std::abs;
    using std::acosh;
    using std::asinh;
    using std::atan;
    using std::atanh;
    switch (code) {
      case Code::Abs: return abs(x);
      case Code::Atan: return atan(x);
      case Code::Asinh: return asinh(x);
      case Code::Acosh: return acosh(x);
      default: return atanh(x);
    }
  }
}

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
  if constexpr (std::is_same_v<V, codegen::Expr>) {
    return false;
  } else {
    return !(abs(v) <= V(1e300));
  }
}

template <class T>
T power_int(const T& x, int k, const T& one) {
  if (k < 0) return one / power_int(x, -k, one);
  T result = one, base = x;
  bool first = true;
  while (k > 0) {
    if (k & 1) {
      result = first ? base : T(result * base);
      first = false;
    }
    k >>= 1;
    if (k > 0) base = base * base;
  }
  return result;
}

}  // namespace detail

/// Evaluates every output of `program` in T: `inputs[k]` is input array k
/// (Binding::array), `params` the parameters, `constants` the program's
/// constants in T's base scalar S. out[i] receives output i (out sized by
/// the caller to program.outputs.size()). Non-finite results are not
/// checked here (the formulations and the integrator do: regularity.hpp).
template <class T, class S>
void evaluate(const Program& program, const Constants<S>& constants, const Params<T>& params,
              std::initializer_list<const Vec<T>*> inputs, T* out) {
  using std::abs;
  using std::acos;
  using std::asin;
  using std::atan;
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
  const std::vector<const Vec<T>*> in(inputs);
  // The reference for the derivative sizes of constants: the operand with
  // the most derivatives (a seeded variable, or a sized parameter).
  const T* like = nullptr;
  auto consider = [&like](const T& x) {
    if constexpr (nhs::detail::IsAutoDiff<T>::value) {
      if (!like || x.derivatives().size() > like->derivatives().size()) like = &x;
    } else {
      if (!like) like = &x;
    }
  };
  if (params.size() > 0) consider(params[0]);
  for (const auto* v : in)
    if (v->size() > 0) consider((*v)[0]);
  const T zero_ref = like ? *like : T(S(0));
  const T nan = detail::constant_like<T>(std::numeric_limits<S>::quiet_NaN(), zero_ref);
  std::vector<T> r;
  r.reserve(program.code.size());
  for (const Instruction& ins : program.code) {
    const auto A = [&]() -> const T& { return r[static_cast<std::size_t>(ins.a)]; };
    const auto B = [&]() -> const T& { return r[static_cast<std::size_t>(ins.b)]; };
    switch (ins.code) {
      case Code::Constant:
        r.push_back(detail::constant_like<T>(constants.values[static_cast<std::size_t>(ins.slot)], zero_ref));
        break;
      case Code::Pi: r.push_back(detail::constant_like<T>(constants.pi, zero_ref)); break;
      case Code::Input: r.push_back((*in[static_cast<std::size_t>(ins.slot)])[ins.index]); break;
      case Code::Parameter: r.push_back(params[ins.slot]); break;
      case Code::Neg: r.push_back(-A()); break;
      case Code::Add: r.push_back(A() + B()); break;
      case Code::Sub: r.push_back(A() - B()); break;
      case Code::Mul: r.push_back(A() * B()); break;
      case Code::Div: r.push_back(A() / B()); break;
      case Code::PowInt:
        r.push_back(detail::power_int(A(), ins.exponent, detail::constant_like<T>(S(1), zero_ref)));
        break;
      case Code::PowHalf:
        r.push_back(detail::power_int(T(sqrt(A())), ins.exponent,
                                      detail::constant_like<T>(S(1), zero_ref)));
        break;
      case Code::Pow: r.push_back(exp(B() * log(A()))); break;
      case Code::Sqrt: r.push_back(sqrt(A())); break;
      case Code::Sin: r.push_back(detail::beyond_reduction(A()) ? nan : T(sin(A()))); break;
      case Code::Cos: r.push_back(detail::beyond_reduction(A()) ? nan : T(cos(A()))); break;
      case Code::Tan: r.push_back(detail::beyond_reduction(A()) ? nan : T(tan(A()))); break;
      case Code::Asin: r.push_back(asin(A())); break;
      case Code::Acos: r.push_back(acos(A())); break;
      case Code::Atan: r.push_back(detail::chain_rule_function(ins.code, A())); break;
      case Code::Atan2: r.push_back(atan2(A(), B())); break;
      case Code::Sinh: r.push_back(sinh(A())); break;
      case Code::Cosh: r.push_back(cosh(A())); break;
      case Code::Tanh: r.push_back(tanh(A())); break;
      case Code::Asinh:
      case Code::Acosh:
      case Code::Atanh: r.push_back(detail::chain_rule_function(ins.code, A())); break;
      case Code::Exp: r.push_back(exp(A())); break;
      case Code::Log: r.push_back(log(A())); break;
      case Code::Abs: r.push_back(detail::chain_rule_function(ins.code, A())); break;
    }
  }
  for (std::size_t i = 0; i < program.outputs.size(); ++i)
    out[i] = r[static_cast<std::size_t>(program.outputs[i])];
}

}  // namespace nhs::expression
