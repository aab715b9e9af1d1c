// The expressions of system files (docs/system-files.md): text such as
// "m/2*(x_dot^2 + y_dot^2) + I/2*theta_dot^2", parsed into a syntax tree
// (Ast) with Boost.Spirit X3, compiled into a Program (a graph of the code
// generator's operations, codegen/expr.hpp, built as written, over input
// arrays, parameters and exact constants: one operation set for system
// files and generated fields) and evaluated in any evaluation type T of the
// library: the scalar types of scalar.hpp, the AD types of autodiff.hpp
// over them, and the tracing scalar of code generation (codegen/expr.hpp). The system-file loader
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
#include "nhs/codegen/operations.hpp"
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

/// Where a name's value comes from when a Program evaluates: element
/// `index` of input array `array` (array >= 0), or parameter `index`
/// (array = -1); or, when `let` is set, a named sub-expression (a system
/// file's [let] table, docs/system-files.md): the name stands for the value
/// of the syntax tree *let, compiled with the same bindings as the
/// expression that uses it, once per Program (one node of its graph however
/// often it is used: Program::let_nodes), never substituted as text. The
/// tree must outlive the compilation (add, add_derivative_along). When
/// `node` is set (>= 0), the name stands for that node of the Program's own
/// graph: a value the caller built there (the direction u of a support
/// function h(u), docs/bodies.md), valid for that Program only.
struct Binding {
  int array = -1;
  int index = -1;
  const Ast* let = nullptr;
  int node = -1;
};
using Bindings = std::map<std::string, Binding, std::less<>>;

/// Compiled expressions sharing one graph of the code generator's
/// operations (codegen/expr.hpp), built as written (Graph::append: no
/// folding, no sharing of operations), each output the value of one
/// expression. Leaves: Decimal (a literal, as written), Pi, and Input nodes
/// -- array 0 the parameters, array k + 1 the evaluation's input k
/// (Binding). A power is its multiplications (an integer exponent k, by
/// binary powering: x^5 = x (x^2)^2, 1/x^k for k < 0), sqrt then those (a
/// half-integer), or exp(y log x). The graph is evaluated node by node in
/// any type by evaluate(); it can also be run by codegen::Interpreter in a
/// scalar type, and traced (evaluate with the tracing scalar) into the
/// simplified graphs of the generated fields.
struct Program {
  codegen::Graph graph;
  std::vector<int> outputs;  ///< the node of each output
  /// The node of each named sub-expression (Binding::let) compiled so far
  /// into `graph`, by its tree: a let used again, by this or a later output,
  /// is that node.
  std::map<const Ast*, int> let_nodes;

  /// Appends `ast` as a new output and returns its index. Names resolve
  /// through `bindings` ("pi" is the constant unless bound); an unknown name
  /// throws ExpressionError at its position, listing the names `bindings`
  /// knows. A name bound to a let whose tree uses a name that `bindings` do
  /// not know (a velocity where only q is allowed, say) throws
  /// ExpressionError at the use, naming the let and that name.
  int add(const Ast& ast, const Bindings& bindings);

  /// The node of `ast` in `graph` (compiled as add() does), not made an
  /// output: for a caller that builds on it (a frame's rotation from its
  /// angles, nhs/rigid_frames.hpp over the tracing scalar).
  int node(const Ast& ast, const Bindings& bindings);

  /// The node of sum_i d(node)/dx_i v_i (as add_derivative_along), not made
  /// an output: the rate along the motion of a quantity already compiled.
  int derivative_along(int node, int of, int along, int count);

  /// Appends, as a new output, the derivative of `ast` along a direction:
  /// sum_i d(ast)/dx_i v_i, x_i element i of input `of` and v_i element i of
  /// input `along` (Binding::array numbers, i < count), e.g. a holonomic
  /// constraint's velocity form df/dq qdot. The derivatives are the graph's
  /// own forward differentiation (codegen/differentiate.hpp: the textbook
  /// rule of each operation, identically zero terms left out), so that the
  /// output is the same in every run and every type. Names resolve as in
  /// add(); returns the output's index.
  int add_derivative_along(const Ast& ast, const Bindings& bindings, int of, int along, int count);
};

/// A Program's constants in the base scalar S: each decimal literal
/// (Graph::decimals()) converted once (from_string<S>, correctly rounded;
/// for the tracing scalar an exact rational of the graph, see constant_of)
/// and pi.
template <class S>
struct Constants {
  std::vector<S> values;  ///< by Node::index of the Decimal leaves
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
  const auto& decimals = program.graph.decimals();
  c.values.reserve(decimals.size());
  for (const auto& t : decimals) c.values.push_back(constant_of<S>(t));
  if constexpr (std::is_same_v<S, codegen::Expr>) {
    using std::atan;
    c.pi = S(4) * atan(S(1));  // the tracing scalar has no pi of its own
  } else {
    c.pi = boost::math::constants::pi<S>();
  }
  return c;
}

/// Evaluates every output of `program` in T: `inputs[k]` is input array k
/// (Binding::array), `params` the parameters, `constants` the program's
/// constants in T's base scalar S. out[i] receives output i (out sized by
/// the caller to program.outputs.size()). Non-finite results are not
/// checked here (the formulations and the integrator do: regularity.hpp).
template <class T, class S>
void evaluate(const Program& program, const Constants<S>& constants, const Params<T>& params,
              std::initializer_list<const Vec<T>*> inputs, T* out) {
  using codegen::constant_like;
  using codegen::Op;
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
  const codegen::Graph& g = program.graph;
  std::vector<T> r;
  r.reserve(static_cast<std::size_t>(g.size()));
  for (int id = 0; id < g.size(); ++id) {
    const codegen::Node& n = g.node(id);
    const auto operand = [&r](int k) -> const T& { return r[static_cast<std::size_t>(k)]; };
    switch (n.op) {
      case Op::Decimal:
        r.push_back(constant_like<T>(constants.values[static_cast<std::size_t>(n.index)], zero_ref));
        break;
      case Op::Pi: r.push_back(constant_like<T>(constants.pi, zero_ref)); break;
      case Op::Constant:
        r.push_back(constant_like<T>(S(S(static_cast<long long>(n.num)) / S(static_cast<long long>(n.den))), zero_ref));
        break;
      case Op::Literal: r.push_back(constant_like<T>(S(n.value), zero_ref)); break;
      case Op::Epsilon: r.push_back(constant_like<T>(S(std::numeric_limits<S>::epsilon()), zero_ref)); break;
      case Op::Input:
        r.push_back(n.array == 0 ? params[n.index] : (*in[static_cast<std::size_t>(n.array - 1)])[n.index]);
        break;
      default: r.push_back(codegen::apply(n.op, operand(n.a), operand(n.b >= 0 ? n.b : n.a))); break;
    }
  }
  for (std::size_t i = 0; i < program.outputs.size(); ++i)
    out[i] = r[static_cast<std::size_t>(program.outputs[i])];
}

}  // namespace nhs::expression
