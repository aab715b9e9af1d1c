// Expr: a scalar that records operations instead of computing them, for code
// generation (the approach of CppAD's tapes and CasADi's SX). CppAD replays
// its tapes but writes no source code without CppADCodeGen, and neither
// CppADCodeGen nor CasADi is among the Debian packages the project is
// limited to; the recorder here is a few hundred lines and records exactly
// the operations the formulations use. Running a formulation's own template code with S = Expr --
// through the system's description, the automatic differentiation of
// autodiff.hpp and the formulation's linear algebra -- leaves in a Graph
// the whole computation from (parameters, state) to the outputs as an
// expression DAG. emit.hpp writes it out as straight-line C++, a template
// over the scalar type: no AD types, no allocation, no dispatch, only the
// arithmetic that does not vanish.
//
// The Graph simplifies as it records: constants are exact rationals (every
// finite double of moderate exponent is one, and ratio<T>(1, 3) stays 1/3)
// and are folded exactly under + - * / while numerator and denominator fit
// in 64 bits, so that the generated code, a template over the scalar type,
// computes its constants in each precision; x + 0, x * 1, x * 0, x - x,
// -(-x) and c1 (c2 x) with c1, c2 powers of two (exact in binary types) are
// reduced (x * 0 = 0 assumes finite operands: a non-finite parameter makes
// the generated code's guards fail, see guarded_ldlt.hpp), and equal
// operations on equal operands are one node (hash-consing, with the
// operands of + and * in a canonical order: common subexpressions are
// shared). Most of the structural zeros of the AD derivative vectors vanish
// this way.
//
// A traced value has no numeric value, so it cannot be compared: a
// comparison of two non-constant Exprs throws TracingError at trace time
// (the code being traced branches on the state, and the generated code
// could not). Constants compare by value.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace nhs::codegen {

/// Raised when the traced code cannot be recorded: a comparison of traced
/// values, an operation with no Graph recording on this thread.
struct TracingError : std::logic_error {
  using std::logic_error::logic_error;
};

/// Operations of the graph. Constant (an exact rational), Literal (a double
/// that is not one: huge or tiny exponents, infinities, NaN), Epsilon (the
/// machine epsilon of the generated code's scalar type), Decimal (a decimal
/// literal of a system file as written, Graph::decimals()[Node::index],
/// converted once per scalar type, correctly rounded: from_string), Pi
/// (boost's pi of the scalar type) and Input are leaves; the others take
/// one operand (a) or two (a, b). Decimal and Pi appear only in graphs
/// built as written (Graph::append, the expression programs of
/// nhs/expression.hpp); tracing turns them into exact rationals and
/// 4 atan(1).
enum class Op : std::uint8_t {
  Constant, Literal, Epsilon, Decimal, Pi, Input,
  Add, Sub, Mul, Div, Atan2, Max,
  Neg, Sin, Cos, Tan, Asin, Acos, Atan, Sqrt, Exp, Log, Abs,
  Sinh, Cosh, Tanh, Asinh, Acosh, Atanh
};

/// One node of the graph. Operands are node ids, smaller than the node's
/// own (the node order is a topological order).
struct Node {
  Op op = Op::Constant;
  int a = -1, b = -1;     ///< operands (-1: none)
  std::int64_t num = 0;   ///< Constant: the value num / den, den > 0, in lowest terms
  std::int64_t den = 1;
  double value = 0;       ///< Constant: num / den rounded to double; Literal: the value
  int array = -1;         ///< Input: which input array (0, 1, ...)
  int index = -1;         ///< Input: the element of that array; Decimal: its text in Graph::decimals()
};

/// A condition the generated code checks at run time before it returns: the
/// node's value must be > 0 (false also for NaN). `condition` names what
/// fails otherwise, as SingularState::condition does (e.g. "singular metric g").
struct Guard {
  int node = -1;
  std::string condition;
};

/// An expression DAG under construction. Not thread-safe; one Graph records
/// on one thread at a time (Recording).
class Graph {
 public:
  /// The node of the constant c (one node per distinct value): a Constant
  /// when c is a rational num / den with 64-bit terms, a Literal otherwise.
  int constant(double c);
  /// The node of the rational num / den (den != 0), or -1 when it does not
  /// fit (the caller then keeps the operation unfolded).
  int rational(__int128 num, __int128 den);
  /// The node of the machine epsilon of the generated code's scalar type.
  int epsilon();
  /// The node of element `index` of input array `array`.
  int input(int array, int index);
  /// The node of the decimal literal `text` (digits [. digits] [e [+-]
  /// digits], as the expression grammar admits it), one per distinct text.
  int decimal(const std::string& text);
  /// The node of pi.
  int pi();
  /// The node of op applied to a (and b), simplified and shared (see the
  /// file comment). Throws TracingError for an operand id out of range.
  int apply(Op op, int a, int b = -1);
  /// A new node op(a, b) exactly as written: no folding, no
  /// simplification, no sharing, so that evaluating the graph performs the
  /// operations of the text in every type, bit for bit (the expression
  /// programs of nhs/expression.hpp). Throws TracingError for a leaf op or
  /// an operand id out of range.
  int append(Op op, int a, int b = -1);
  /// Records a guard: node > 0 at run time (Guard); once per node and
  /// condition.
  void require_positive(int node, std::string condition);

  const Node& node(int id) const { return nodes_.at(static_cast<std::size_t>(id)); }
  int size() const { return static_cast<int>(nodes_.size()); }
  const std::vector<Guard>& guards() const { return guards_; }
  /// The texts of the Decimal leaves (Node::index).
  const std::vector<std::string>& decimals() const { return decimals_; }

  /// The graph recording on this thread; TracingError when there is none.
  static Graph& active();

 private:
  friend class Recording;
  struct Key {
    Op op;
    int a, b;
    std::int64_t x, y;  // Constant (num, den), Literal (bits, 0), Input (array, index)
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };
  int intern(const Node& node, const Key& key);
  // Throws TracingError unless op(a, b) is a well-formed operation.
  void check_operation(Op op, int a, int b) const;
  std::vector<Node> nodes_;
  std::vector<std::string> decimals_;
  std::unordered_map<Key, int, KeyHash> index_;
  std::vector<Guard> guards_;
};

/// Makes `graph` the one that Exprs on this thread record into, for the
/// lifetime of this object (nestable: the previous one is restored).
class Recording {
 public:
  explicit Recording(Graph& graph);
  ~Recording();
  Recording(const Recording&) = delete;
  Recording& operator=(const Recording&) = delete;

 private:
  Graph* previous_;
};

/// A traced scalar: a node of the active Graph. Arithmetic types convert
/// to constants implicitly (so that S(2), S(0) and Eigen's literals work
/// as with any scalar).
class Expr {
 public:
  Expr() : Expr(0.0) {}
  template <class A>
    requires std::is_arithmetic_v<A>
  Expr(A c) : id_(Graph::active().constant(static_cast<double>(c))) {}  // NOLINT: implicit

  /// The machine epsilon of the scalar type the generated code runs in.
  static Expr epsilon() { return from_id(Graph::active().epsilon()); }
  /// Element `index` of input array `array` of the generated function.
  static Expr input(int array, int index) { return from_id(Graph::active().input(array, index)); }
  static Expr from_id(int id) {
    Expr e(Raw{});
    e.id_ = id;
    return e;
  }
  int id() const { return id_; }
  bool is_constant() const {
    const Op op = Graph::active().node(id_).op;
    return op == Op::Constant || op == Op::Literal;
  }
  /// The value of a constant, rounded to double; TracingError for a traced
  /// value.
  double constant_value() const;

  Expr& operator+=(const Expr& o) { return *this = *this + o; }
  Expr& operator-=(const Expr& o) { return *this = *this - o; }
  Expr& operator*=(const Expr& o) { return *this = *this * o; }
  Expr& operator/=(const Expr& o) { return *this = *this / o; }

  friend Expr operator+(const Expr& a, const Expr& b) { return apply(Op::Add, a, b); }
  friend Expr operator-(const Expr& a, const Expr& b) { return apply(Op::Sub, a, b); }
  friend Expr operator*(const Expr& a, const Expr& b) { return apply(Op::Mul, a, b); }
  friend Expr operator/(const Expr& a, const Expr& b) { return apply(Op::Div, a, b); }
  friend Expr operator-(const Expr& a) { return apply(Op::Neg, a); }
  friend Expr operator+(const Expr& a) { return a; }

  friend bool operator<(const Expr& a, const Expr& b) { return value(a, "<") < value(b, "<"); }
  friend bool operator>(const Expr& a, const Expr& b) { return value(a, ">") > value(b, ">"); }
  friend bool operator<=(const Expr& a, const Expr& b) { return value(a, "<=") <= value(b, "<="); }
  friend bool operator>=(const Expr& a, const Expr& b) { return value(a, ">=") >= value(b, ">="); }
  friend bool operator==(const Expr& a, const Expr& b) { return value(a, "==") == value(b, "=="); }
  friend bool operator!=(const Expr& a, const Expr& b) { return value(a, "!=") != value(b, "!="); }

  friend Expr sin(const Expr& x) { return apply(Op::Sin, x); }
  friend Expr cos(const Expr& x) { return apply(Op::Cos, x); }
  friend Expr tan(const Expr& x) { return apply(Op::Tan, x); }
  friend Expr asin(const Expr& x) { return apply(Op::Asin, x); }
  friend Expr acos(const Expr& x) { return apply(Op::Acos, x); }
  friend Expr atan(const Expr& x) { return apply(Op::Atan, x); }
  friend Expr atan2(const Expr& y, const Expr& x) { return apply(Op::Atan2, y, x); }
  friend Expr sqrt(const Expr& x) { return apply(Op::Sqrt, x); }
  friend Expr exp(const Expr& x) { return apply(Op::Exp, x); }
  friend Expr log(const Expr& x) { return apply(Op::Log, x); }
  friend Expr abs(const Expr& x) { return apply(Op::Abs, x); }
  friend Expr fabs(const Expr& x) { return apply(Op::Abs, x); }
  friend Expr sinh(const Expr& x) { return apply(Op::Sinh, x); }
  friend Expr cosh(const Expr& x) { return apply(Op::Cosh, x); }
  friend Expr tanh(const Expr& x) { return apply(Op::Tanh, x); }
  friend Expr asinh(const Expr& x) { return apply(Op::Asinh, x); }
  friend Expr acosh(const Expr& x) { return apply(Op::Acosh, x); }
  friend Expr atanh(const Expr& x) { return apply(Op::Atanh, x); }
  /// The larger of a and b, traced (generated_max in the generated code):
  /// the guards' scale; std::max would compare.
  friend Expr fmax(const Expr& a, const Expr& b) { return apply(Op::Max, a, b); }

 private:
  struct Raw {};
  explicit Expr(Raw) {}
  static Expr apply(Op op, const Expr& a) { return from_id(Graph::active().apply(op, a.id_)); }
  static Expr apply(Op op, const Expr& a, const Expr& b) {
    return from_id(Graph::active().apply(op, a.id_, b.id_));
  }
  // The value of a constant operand of comparison `op`; TracingError for a
  // traced one (the traced code branches on the state).
  static double value(const Expr& x, const char* op);
  int id_ = -1;
};

}  // namespace nhs::codegen

template <>
struct std::numeric_limits<nhs::codegen::Expr> : std::numeric_limits<double> {
  // epsilon is the generated code's scalar type's (a leaf); the others are
  // double's, as constants (the traced code never uses them).
  static nhs::codegen::Expr epsilon() { return nhs::codegen::Expr::epsilon(); }
  static nhs::codegen::Expr min() { return std::numeric_limits<double>::min(); }
  static nhs::codegen::Expr max() { return std::numeric_limits<double>::max(); }
  static nhs::codegen::Expr lowest() { return std::numeric_limits<double>::lowest(); }
  static nhs::codegen::Expr infinity() { return std::numeric_limits<double>::infinity(); }
  static nhs::codegen::Expr quiet_NaN() { return std::numeric_limits<double>::quiet_NaN(); }
};

namespace Eigen {
template <>
struct NumTraits<nhs::codegen::Expr> : GenericNumTraits<nhs::codegen::Expr> {
  using Real = nhs::codegen::Expr;
  using NonInteger = nhs::codegen::Expr;
  using Nested = nhs::codegen::Expr;
  using Literal = double;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 1,
    AddCost = 1,
    MulCost = 1
  };
  static Real epsilon() { return nhs::codegen::Expr::epsilon(); }
  static Real dummy_precision() { return Real(1000) * nhs::codegen::Expr::epsilon(); }
  static Real highest() { return std::numeric_limits<double>::max(); }
  static Real lowest() { return std::numeric_limits<double>::lowest(); }
  static Real infinity() { return std::numeric_limits<double>::infinity(); }
  static Real quiet_NaN() { return std::numeric_limits<double>::quiet_NaN(); }
  static int digits10() { return std::numeric_limits<double>::digits10; }
};
}  // namespace Eigen
