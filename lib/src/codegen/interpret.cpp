// Implementation of codegen/interpret.hpp.
#include "nhs/codegen/interpret.hpp"

#include <cmath>
#include <limits>
#include <type_traits>

namespace nhs::codegen {
namespace {

template <class S>
constexpr bool is_multiprecision = boost::multiprecision::is_number<S>::value;

// d = a op b without a temporary for Boost.Multiprecision numbers (the
// backends' eval_* write into d's storage; registers never alias).
template <class S>
inline void set_sum(S& d, const S& a, const S& b) {
  if constexpr (is_multiprecision<S>) {
    using boost::multiprecision::default_ops::eval_add;
    eval_add(d.backend(), a.backend(), b.backend());
  } else {
    d = a + b;
  }
}
template <class S>
inline void set_difference(S& d, const S& a, const S& b) {
  if constexpr (is_multiprecision<S>) {
    using boost::multiprecision::default_ops::eval_subtract;
    eval_subtract(d.backend(), a.backend(), b.backend());
  } else {
    d = a - b;
  }
}
template <class S>
inline void set_product(S& d, const S& a, const S& b) {
  if constexpr (is_multiprecision<S>) {
    using boost::multiprecision::default_ops::eval_multiply;
    eval_multiply(d.backend(), a.backend(), b.backend());
  } else {
    d = a * b;
  }
}
template <class S>
inline void set_quotient(S& d, const S& a, const S& b) {
  if constexpr (is_multiprecision<S>) {
    using boost::multiprecision::default_ops::eval_divide;
    eval_divide(d.backend(), a.backend(), b.backend());
  } else {
    d = a / b;
  }
}

template <class S>
S apply_function(Op op, const S& a, const S& b) {
  using std::abs;
  using std::acos;
  using std::acosh;
  using std::asin;
  using std::asinh;
  using std::atan;
  using std::atan2;
  using std::atanh;
  using std::cos;
  using std::cosh;
  using std::exp;
  using std::log;
  using std::sin;
  using std::sinh;
  using std::sqrt;
  using std::tan;
  using std::tanh;
  switch (op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::Div: return a / b;
    case Op::Atan2: return atan2(a, b);
    case Op::Max: return a < b ? b : a;
    case Op::Neg: return -a;
    case Op::Sin: return sin(a);
    case Op::Cos: return cos(a);
    case Op::Tan: return tan(a);
    case Op::Asin: return asin(a);
    case Op::Acos: return acos(a);
    case Op::Atan: return atan(a);
    case Op::Sqrt: return sqrt(a);
    case Op::Exp: return exp(a);
    case Op::Log: return log(a);
    case Op::Abs: return abs(a);
    case Op::Sinh: return sinh(a);
    case Op::Cosh: return cosh(a);
    case Op::Tanh: return tanh(a);
    case Op::Asinh: return asinh(a);
    case Op::Acosh: return acosh(a);
    case Op::Atanh: return atanh(a);
    default: return std::numeric_limits<S>::quiet_NaN();  // leaves are not applied
  }
}

}  // namespace

template <class S>
Interpreter<S>::Interpreter(const Graph& graph, const std::vector<int>& outputs, int arrays) {
  const int N = graph.size();
  const auto check = [&](int id, const char* what) {
    if (id < 0 || id >= N) throw TracingError(std::string("interpret: ") + what + " is not a node");
  };
  std::vector<char> needed(static_cast<std::size_t>(N), 0), fixed(static_cast<std::size_t>(N), 0);
  const auto at = [](auto& v, int id) -> auto& { return v[static_cast<std::size_t>(id)]; };
  for (int id : outputs) check(id, "an output"), at(needed, id) = 1;
  for (const Guard& g : graph.guards()) check(g.node, "a guard"), at(needed, g.node) = 1;
  for (int id = N - 1; id >= 0; --id) {
    if (!at(needed, id)) continue;
    const Node& n = graph.node(id);
    if (n.a >= 0) at(needed, n.a) = 1;
    if (n.b >= 0) at(needed, n.b) = 1;
  }
  for (int id = 0; id < N; ++id) {
    const Node& n = graph.node(id);
    at(fixed, id) = n.op != Op::Input && (n.a < 0 || at(fixed, n.a)) && (n.b < 0 || at(fixed, n.b));
  }
  // One register per needed node, in node order.
  std::vector<int> reg(static_cast<std::size_t>(N), -1);
  int count = 0;
  for (int id = 0; id < N; ++id)
    if (at(needed, id)) at(reg, id) = count++;
  regs_.assign(static_cast<std::size_t>(count), S(0));
  std::vector<std::vector<int>> guards_at(static_cast<std::size_t>(N));
  for (std::size_t g = 0; g < graph.guards().size(); ++g)
    at(guards_at, graph.guards()[g].node).push_back(static_cast<int>(g));
  for (int id = 0; id < N; ++id) {
    if (!at(needed, id)) continue;
    const Node& n = graph.node(id);
    const int r = at(reg, id);
    S& value = regs_[static_cast<std::size_t>(r)];
    if (n.op == Op::Input) {
      if (n.array < 0 || n.array >= arrays)
        throw TracingError("interpret: input array " + std::to_string(n.array) + " out of range");
      loads_.push_back({r, n.array, n.index});
    } else if (at(fixed, id)) {
      // Computed once, in S, as the emitted code's `static const S`.
      switch (n.op) {
        case Op::Constant: value = S(static_cast<long long>(n.num)) / S(static_cast<long long>(n.den)); break;
        case Op::Literal: value = S(n.value); break;
        case Op::Epsilon: value = std::numeric_limits<S>::epsilon(); break;
        default: {
          const S& a = regs_[static_cast<std::size_t>(at(reg, n.a))];
          const S b = n.b >= 0 ? regs_[static_cast<std::size_t>(at(reg, n.b))] : S(0);
          value = apply_function(n.op, a, b);
        }
      }
      for (int g : at(guards_at, id)) fixed_guards_.push_back({r, g});
      continue;
    }
    if (n.op == Op::Input) {
      for (int g : at(guards_at, id)) code_.push_back({Op::Max, r, r, r, g});  // max(x, x) = x, then check
      continue;
    }
    const auto& gs = at(guards_at, id);
    code_.push_back({n.op, r, n.a >= 0 ? at(reg, n.a) : -1, n.b >= 0 ? at(reg, n.b) : -1,
                     gs.empty() ? -1 : gs.front()});
    for (std::size_t k = 1; k < gs.size(); ++k) code_.push_back({Op::Max, r, r, r, gs[k]});
  }
  for (int id : outputs) out_regs_.push_back(at(reg, id));
}

template <class S>
int Interpreter<S>::run(const S* const* inputs, S* out) const noexcept {
  S* r = regs_.data();
  for (const Load& l : loads_) r[l.reg] = inputs[l.array][l.index];
  for (const GuardOnFixed& g : fixed_guards_)
    if (!(r[g.reg] > 0)) return g.guard + 1;
  for (const Instruction& i : code_) {
    S& d = r[i.dst];
    switch (i.op) {
      case Op::Add: set_sum(d, r[i.a], r[i.b]); break;
      case Op::Sub: set_difference(d, r[i.a], r[i.b]); break;
      case Op::Mul: set_product(d, r[i.a], r[i.b]); break;
      case Op::Div: set_quotient(d, r[i.a], r[i.b]); break;
      case Op::Neg: d = -r[i.a]; break;
      case Op::Max:
        if (i.dst != i.a || i.dst != i.b) d = r[i.a] < r[i.b] ? r[i.b] : r[i.a];
        break;
      default: d = apply_function(i.op, r[i.a], i.b >= 0 ? r[i.b] : r[i.a]); break;
    }
    if (i.guard >= 0 && !(d > 0)) return i.guard + 1;
  }
  for (std::size_t k = 0; k < out_regs_.size(); ++k) out[k] = r[out_regs_[k]];
  return 0;
}

#define NHS_INTERPRETER_(S, NAME) NHS_INTERPRETER_INSTANTIATE(, S)
NHS_FOR_EACH_SCALAR(NHS_INTERPRETER_)

}  // namespace nhs::codegen
