// Implementation of codegen/expr.hpp: the graph's simplifications and
// hash-consing.
#include "nhs/codegen/expr.hpp"
#include "nhs/codegen/graph_analysis.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <utility>

namespace nhs::codegen {
namespace {
thread_local Graph* active_graph = nullptr;

bool commutative(Op op) { return op == Op::Add || op == Op::Mul; }
bool is_binary(Op op) {
  return op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Div || op == Op::Atan2 || op == Op::Max;
}

__int128 gcd(__int128 a, __int128 b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    const __int128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// A rational constant +-2^k (k of either sign).
bool power_of_two(const Node& n) {
  if (n.op != Op::Constant || n.num == 0) return false;
  const std::int64_t m = n.num < 0 ? -n.num : n.num;
  return (m & (m - 1)) == 0 && (n.den & (n.den - 1)) == 0;
}

bool fits(__int128 v) {
  return v >= std::numeric_limits<std::int64_t>::min() + 1 &&
         v <= std::numeric_limits<std::int64_t>::max();
}

// True for the integer constant v.
bool is_integer(const Node& x, std::int64_t v) { return x.op == Op::Constant && x.num == v && x.den == 1; }

// Exact folding of rationals (A and B: the Constant operands of op(a, b),
// B unused for a unary op): the node of the result, or -1 when it does not
// fit in 64-bit terms or op is a function other than |x| and max.
int fold_constants(Graph& g, Op op, int a, int b, const Node& A, const Node& B) {
  const __int128 an = A.num, ad = A.den, bn = B.num, bd = B.den;
  int folded = -1;
  switch (op) {
    case Op::Add: folded = g.rational(an * bd + bn * ad, ad * bd); break;
    case Op::Sub: folded = g.rational(an * bd - bn * ad, ad * bd); break;
    case Op::Mul: folded = g.rational(an * bn, ad * bd); break;
    case Op::Div: folded = bn == 0 ? -1 : g.rational(an * bd, ad * bn); break;
    case Op::Neg: folded = g.rational(-an, ad); break;
    case Op::Abs: folded = g.rational(an < 0 ? -an : an, ad); break;
    case Op::Max: folded = an * bd >= bn * ad ? a : b; break;
    default: break;
  }
  return folded;
}

// The simplifications of a product a b (A, B: its operands' nodes) to an
// existing or simpler node, or -1 when none applies.
int simplify_product(Graph& g, int a, int b, const Node& A, const Node& B) {
  if (is_integer(A, 0) || is_integer(B, 0)) return g.constant(0);
  // c1 (c2 x) = (c1 c2) x when c1 and c2 are powers of two: exact in any
  // binary floating-point type (e.g. 2 (m / 2) = m, from T = m v^2 / 2).
  for (const auto& [c, m] : {std::pair{a, b}, std::pair{b, a}}) {
    // Copies: g.apply appends nodes, which may move the node vector.
    const Node C = g.node(c);
    const Node M = g.node(m);
    if (!power_of_two(C) || M.op != Op::Mul) continue;
    if (power_of_two(g.node(M.a))) return g.apply(Op::Mul, g.apply(Op::Mul, c, M.a), M.b);
    if (power_of_two(g.node(M.b))) return g.apply(Op::Mul, g.apply(Op::Mul, c, M.b), M.a);
  }
  if (is_integer(A, 1)) return b;
  if (is_integer(B, 1)) return a;
  if (is_integer(A, -1)) return g.apply(Op::Neg, b);
  if (is_integer(B, -1)) return g.apply(Op::Neg, a);
  if (A.op == Op::Neg && B.op == Op::Neg) return g.apply(Op::Mul, A.a, B.a);
  if (A.op == Op::Neg) return g.apply(Op::Neg, g.apply(Op::Mul, A.a, b));
  if (B.op == Op::Neg) return g.apply(Op::Neg, g.apply(Op::Mul, a, B.a));
  return -1;
}

// The simplifications of op(a, b) (A, B: the operands' nodes, B unused for
// a unary op) to an existing or simpler node, or -1 when none applies.
int simplify(Graph& g, Op op, int a, int b, const Node& A, const Node& B) {
  switch (op) {
    case Op::Add:
      if (is_integer(A, 0)) return b;
      if (is_integer(B, 0)) return a;
      if (B.op == Op::Neg) return g.apply(Op::Sub, a, B.a);  // a + (-c) = a - c, exactly
      if (A.op == Op::Neg) return g.apply(Op::Sub, b, A.a);
      break;
    case Op::Sub:
      if (is_integer(B, 0)) return a;
      if (is_integer(A, 0)) return g.apply(Op::Neg, b);
      if (a == b) return g.constant(0);
      if (B.op == Op::Neg) return g.apply(Op::Add, a, B.a);
      break;
    case Op::Mul:
      return simplify_product(g, a, b, A, B);
    case Op::Div:
      if (is_integer(A, 0)) return g.constant(0);
      if (is_integer(B, 1)) return a;
      if (is_integer(B, -1)) return g.apply(Op::Neg, a);
      // a / 2^k = a 2^-k: the same correctly rounded value in any binary
      // floating-point type, at the cost of a product (a file's T = m/2 v^2
      // gives m/2, which the C++ descriptions write m * (1/2)).
      if (power_of_two(B))
        if (const int inverse = g.rational(B.den, B.num); inverse >= 0) return g.apply(Op::Mul, a, inverse);
      break;
    case Op::Neg:
      if (A.op == Op::Neg) return A.a;
      break;
    case Op::Max:
      if (a == b) return a;
      break;
    default:
      break;
  }
  return -1;
}

}  // namespace

std::size_t Graph::KeyHash::operator()(const Key& k) const {
  std::size_t h = static_cast<std::size_t>(k.op);
  h = h * 1000003u ^ static_cast<std::size_t>(k.a + 1);
  h = h * 1000003u ^ static_cast<std::size_t>(k.b + 1);
  h = h * 1000003u ^ static_cast<std::size_t>(k.x);
  h = h * 1000003u ^ static_cast<std::size_t>(k.y);
  return h;
}

int Graph::intern(const Node& node, const Key& key) {
  const auto [it, inserted] = index_.try_emplace(key, size());
  if (inserted) nodes_.push_back(node);
  return it->second;
}

int Graph::constant(double c) {
  // A finite double is M 2^e with an integer M < 2^53: a rational with
  // 64-bit terms unless e is far from 0.
  if (std::isfinite(c)) {
    if (c == 0) return rational(0, 1);
    int e = 0;
    const double m = std::frexp(c, &e);  // c = m 2^e, 0.5 <= |m| < 1
    auto M = static_cast<std::int64_t>(std::ldexp(m, 53));
    e -= 53;
    while (e < 0 && M % 2 == 0) {
      M /= 2;
      ++e;
    }
    if (e >= 0 && e <= 9) return rational(static_cast<__int128>(M) << e, 1);
    if (e < 0 && e >= -62) return rational(M, static_cast<__int128>(1) << -e);
  }
  Node n;
  n.op = Op::Literal;
  n.value = c;
  return intern(n, Key{Op::Literal, -1, -1, static_cast<std::int64_t>(std::bit_cast<std::uint64_t>(c)), 0});
}

int Graph::rational(__int128 num, __int128 den) {
  if (den == 0) return -1;
  if (den < 0) num = -num, den = -den;
  const __int128 g = gcd(num, den);
  if (g > 1) num /= g, den /= g;
  if (num == 0) den = 1;
  if (!fits(num) || !fits(den)) return -1;
  Node n;
  n.op = Op::Constant;
  n.num = static_cast<std::int64_t>(num);
  n.den = static_cast<std::int64_t>(den);
  n.value = static_cast<double>(static_cast<long double>(n.num) / static_cast<long double>(n.den));
  return intern(n, Key{Op::Constant, -1, -1, n.num, n.den});
}

int Graph::epsilon() {
  Node n;
  n.op = Op::Epsilon;
  return intern(n, Key{Op::Epsilon, -1, -1, 0, 0});
}

int Graph::input(int array, int index) {
  Node n;
  n.op = Op::Input;
  n.array = array;
  n.index = index;
  return intern(n, Key{Op::Input, -1, -1, array, index});
}

int Graph::decimal(const std::string& text) {
  const auto found = std::find(decimals_.begin(), decimals_.end(), text);
  const auto k = static_cast<std::int64_t>(found - decimals_.begin());
  if (found == decimals_.end()) decimals_.push_back(text);
  Node n;
  n.op = Op::Decimal;
  n.index = static_cast<int>(k);
  return intern(n, Key{Op::Decimal, -1, -1, k, 0});
}

int Graph::pi() {
  Node n;
  n.op = Op::Pi;
  return intern(n, Key{Op::Pi, -1, -1, 0, 0});
}

void Graph::check_operation(Op op, int a, int b) const {
  const bool binary = is_binary(op);
  if (op == Op::Constant || op == Op::Literal || op == Op::Epsilon || op == Op::Decimal || op == Op::Pi ||
      op == Op::Input || a < 0 || a >= size() || (binary && (b < 0 || b >= size())) || (!binary && b != -1))
    throw TracingError("codegen: malformed operation (operand out of range)");
}

int Graph::append(Op op, int a, int b) {
  check_operation(op, a, b);
  Node n;
  n.op = op;
  n.a = a;
  n.b = b;
  nodes_.push_back(n);
  return size() - 1;
}

int Graph::apply(Op op, int a, int b) {
  check_operation(op, a, b);
  const bool binary = is_binary(op);
  const Node A = node(a);
  const Node B = binary ? node(b) : Node{};

  // Exact folding of rationals; an operation whose result does not fit in
  // 64-bit terms, and every function but |x| and max, stays unfolded.
  if (A.op == Op::Constant && (!binary || B.op == Op::Constant)) {
    if (const int folded = fold_constants(*this, op, a, b, A, B); folded >= 0) return folded;
  }
  if (const int simplified = simplify(*this, op, a, b, A, B); simplified >= 0) return simplified;
  if (commutative(op) || op == Op::Max) {
    if (a > b) std::swap(a, b);
  }
  Node n;
  n.op = op;
  n.a = a;
  n.b = binary ? b : -1;
  return intern(n, Key{op, n.a, n.b, 0, 0});
}

void Graph::require_positive(int id, std::string condition) {
  if (id < 0 || id >= size()) throw TracingError("codegen: guard on a node out of range");
  for (const Guard& g : guards_)
    if (g.node == id && g.condition == condition) return;  // already checked
  guards_.push_back({id, std::move(condition)});
}

Graph& Graph::active() {
  if (!active_graph)
    throw TracingError("codegen: an Expr was used with no Graph recording on this thread");
  return *active_graph;
}

Recording::Recording(Graph& graph) : previous_(active_graph) { active_graph = &graph; }
Recording::~Recording() { active_graph = previous_; }

double Expr::constant_value() const {
  const Node& n = Graph::active().node(id_);
  if (n.op != Op::Constant && n.op != Op::Literal)
    throw TracingError("codegen: constant_value() of a traced (non-constant) value");
  return n.value;
}

double Expr::value(const Expr& x, const char* op) {
  const Node& n = Graph::active().node(x.id_);
  if (n.op != Op::Constant && n.op != Op::Literal)
    throw TracingError(std::string("codegen: comparison '") + op +
                       "' of a traced value: the traced code branches on the state, which "
                       "straight-line generated code cannot do");
  return n.value;
}

GraphAnalysis analyse(const Graph& graph, const std::vector<int>& outputs, const char* who) {
  const int N = graph.size();
  const auto check = [&](int id, const char* what) {
    if (id < 0 || id >= N) throw TracingError(std::string(who) + ": " + what + " is not a node");
  };
  GraphAnalysis r;
  r.needed.assign(static_cast<std::size_t>(N), 0);
  r.fixed.assign(static_cast<std::size_t>(N), 0);
  const auto at = [](std::vector<char>& v, int id) -> char& { return v[static_cast<std::size_t>(id)]; };
  for (int id : outputs) check(id, "an output"), at(r.needed, id) = 1;
  for (const Guard& g : graph.guards()) check(g.node, "a guard"), at(r.needed, g.node) = 1;
  for (int id = N - 1; id >= 0; --id) {
    if (!at(r.needed, id)) continue;
    const Node& n = graph.node(id);
    if (n.a >= 0) at(r.needed, n.a) = 1;
    if (n.b >= 0) at(r.needed, n.b) = 1;
  }
  for (int id = 0; id < N; ++id) {
    const Node& n = graph.node(id);
    at(r.fixed, id) = n.op != Op::Input && (n.a < 0 || at(r.fixed, n.a)) && (n.b < 0 || at(r.fixed, n.b));
  }
  return r;
}

}  // namespace nhs::codegen
