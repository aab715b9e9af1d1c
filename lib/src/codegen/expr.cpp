// Implementation of codegen/expr.hpp: the graph's simplifications and
// hash-consing.
#include "nhs/codegen/expr.hpp"

#include <bit>
#include <cmath>
#include <utility>

namespace nhs::codegen {
namespace {
thread_local Graph* active_graph = nullptr;

bool commutative(Op op) { return op == Op::Add || op == Op::Mul; }

double fold(Op op, double a, double b) {
  switch (op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::Div: return a / b;
    case Op::Atan2: return std::atan2(a, b);
    case Op::Neg: return -a;
    case Op::Sin: return std::sin(a);
    case Op::Cos: return std::cos(a);
    case Op::Tan: return std::tan(a);
    case Op::Asin: return std::asin(a);
    case Op::Acos: return std::acos(a);
    case Op::Atan: return std::atan(a);
    case Op::Sqrt: return std::sqrt(a);
    case Op::Exp: return std::exp(a);
    case Op::Log: return std::log(a);
    case Op::Abs: return std::fabs(a);
    case Op::Max: return std::fmax(a, b);
    case Op::Constant:
    case Op::Input: break;
  }
  throw TracingError("codegen: cannot fold a leaf");
}
}  // namespace

std::size_t Graph::KeyHash::operator()(const Key& k) const {
  std::size_t h = static_cast<std::size_t>(k.op);
  h = h * 1000003u ^ static_cast<std::size_t>(k.a + 1);
  h = h * 1000003u ^ static_cast<std::size_t>(k.b + 1);
  h = h * 1000003u ^ static_cast<std::size_t>(k.bits);
  return h;
}

int Graph::intern(const Node& node, const Key& key) {
  const auto [it, inserted] = index_.try_emplace(key, size());
  if (inserted) nodes_.push_back(node);
  return it->second;
}

int Graph::constant(double c) {
  Node n;
  n.op = Op::Constant;
  n.value = c;
  return intern(n, Key{Op::Constant, -1, -1, std::bit_cast<std::uint64_t>(c)});
}

int Graph::input(int array, int index) {
  Node n;
  n.op = Op::Input;
  n.array = array;
  n.index = index;
  return intern(n, Key{Op::Input, -1, -1,
                       (static_cast<std::uint64_t>(array) << 32) | static_cast<std::uint32_t>(index)});
}

int Graph::apply(Op op, int a, int b) {
  const bool binary = op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Div ||
                      op == Op::Atan2 || op == Op::Max;
  if (op == Op::Constant || op == Op::Input || a < 0 || a >= size() ||
      (binary && (b < 0 || b >= size())) || (!binary && b != -1))
    throw TracingError("codegen: malformed operation (operand out of range)");
  const Node A = node(a);
  const Node B = binary ? node(b) : Node{};
  const bool ca = A.op == Op::Constant, cb = binary && B.op == Op::Constant;
  const auto is = [&](const Node& x, double v) { return x.op == Op::Constant && x.value == v; };

  if (ca && (!binary || cb) && !(op == Op::Div && B.value == 0)) return constant(fold(op, A.value, B.value));
  switch (op) {
    case Op::Add:
      if (is(A, 0)) return b;
      if (is(B, 0)) return a;
      if (B.op == Op::Neg) return apply(Op::Sub, a, B.a);  // a + (-c) = a - c, exactly
      if (A.op == Op::Neg) return apply(Op::Sub, b, A.a);
      break;
    case Op::Sub:
      if (is(B, 0)) return a;
      if (is(A, 0)) return apply(Op::Neg, b);
      if (a == b) return constant(0);
      if (B.op == Op::Neg) return apply(Op::Add, a, B.a);
      break;
    case Op::Mul:
      if (is(A, 0) || is(B, 0)) return constant(0);
      if (is(A, 1)) return b;
      if (is(B, 1)) return a;
      if (is(A, -1)) return apply(Op::Neg, b);
      if (is(B, -1)) return apply(Op::Neg, a);
      if (A.op == Op::Neg && B.op == Op::Neg) return apply(Op::Mul, A.a, B.a);
      if (A.op == Op::Neg) return apply(Op::Neg, apply(Op::Mul, A.a, b));
      if (B.op == Op::Neg) return apply(Op::Neg, apply(Op::Mul, a, B.a));
      break;
    case Op::Div:
      if (is(A, 0)) return constant(0);
      if (is(B, 1)) return a;
      if (is(B, -1)) return apply(Op::Neg, a);
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
  if (commutative(op) || op == Op::Max) {
    if (a > b) std::swap(a, b);
  }
  Node n;
  n.op = op;
  n.a = a;
  n.b = binary ? b : -1;
  return intern(n, Key{op, n.a, n.b, 0});
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
  if (n.op != Op::Constant)
    throw TracingError("codegen: constant_value() of a traced (non-constant) value");
  return n.value;
}

double Expr::value(const Expr& x, const char* op) {
  const Node& n = Graph::active().node(x.id_);
  if (n.op != Op::Constant)
    throw TracingError(std::string("codegen: comparison '") + op +
                       "' of a traced value: the traced code branches on the state, which "
                       "straight-line generated code cannot do");
  return n.value;
}

}  // namespace nhs::codegen
