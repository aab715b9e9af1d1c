// Implementation of codegen/interpret.hpp.
#include "nhs/codegen/interpret.hpp"

#include "nhs/codegen/graph_analysis.hpp"

#include <algorithm>
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
inline void set_negative(S& d, const S& a) {
  if constexpr (is_multiprecision<S>) {
    d = a;
    d.backend().negate();
  } else {
    d = -a;
  }
}

template <class S>
S apply_function(Op op, const S& a, const S& b);

// d = f(a) (or f(a, b)), in place for the functions the multiprecision
// backends evaluate into a result (eval_sin ...).
template <class S>
void set_function(Op op, S& d, const S& a, const S& b) {
  if constexpr (is_multiprecision<S>) {
    using namespace boost::multiprecision::default_ops;
    auto& D = d.backend();
    const auto& A = a.backend();
    if ((op == Op::Sin || op == Op::Cos || op == Op::Tan) && !(abs(a) <= S(1e300))) {
      // MPFR's argument reduction of a huge |a| takes minutes
      // (nhs/expression.hpp, beyond_reduction): NaN, as the library's.
      d = std::numeric_limits<S>::quiet_NaN();
      return;
    }
    switch (op) {
      case Op::Sin: eval_sin(D, A); return;
      case Op::Cos: eval_cos(D, A); return;
      case Op::Tan: eval_tan(D, A); return;
      case Op::Asin: eval_asin(D, A); return;
      case Op::Acos: eval_acos(D, A); return;
      case Op::Atan: eval_atan(D, A); return;
      case Op::Atan2: eval_atan2(D, A, b.backend()); return;
      case Op::Sqrt: eval_sqrt(D, A); return;
      case Op::Exp: eval_exp(D, A); return;
      case Op::Log: eval_log(D, A); return;
      case Op::Sinh: eval_sinh(D, A); return;
      case Op::Cosh: eval_cosh(D, A); return;
      case Op::Tanh: eval_tanh(D, A); return;
      default: break;
    }
  }
  d = apply_function(op, a, b);
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
  const GraphAnalysis analysis = analyse(graph, outputs, "interpret");
  const std::vector<char>& needed = analysis.needed;
  const std::vector<char>& fixed = analysis.fixed;
  const auto at = [](auto& v, int id) -> auto& { return v[static_cast<std::size_t>(id)]; };
  // One register per needed node, in node order; fixed nodes computed now.
  std::vector<int> reg(static_cast<std::size_t>(N), -1);
  int count = 0;
  for (int id = 0; id < N; ++id)
    if (at(needed, id)) at(reg, id) = count++;
  regs_.assign(static_cast<std::size_t>(count), S(0));
  std::vector<int> operations;  // node ids that depend on the inputs
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
    } else {
      operations.push_back(id);
    }
  }
  for (std::size_t g = 0; g < graph.guards().size(); ++g)
    guards_.push_back({at(reg, graph.guards()[g].node), static_cast<int>(g)});
  std::stable_sort(guards_.begin(), guards_.end(), [&](const GuardCheck& x, const GuardCheck& y) {
    return x.reg < y.reg;  // registers are in node order
  });
  // List scheduling: repeatedly take every ready operation of the kind with
  // the most ready ones, as one run.
  std::vector<int> pending(static_cast<std::size_t>(N), 0);
  std::vector<std::vector<int>> users(static_cast<std::size_t>(N));
  constexpr int kKinds = static_cast<int>(Op::Atanh) + 1;
  std::vector<std::vector<int>> ready(kKinds);
  for (int id : operations) {
    const Node& n = graph.node(id);
    for (int operand : {n.a, n.b})
      if (operand >= 0 && !at(fixed, operand) && graph.node(operand).op != Op::Input) {
        ++at(pending, id);
        at(users, operand).push_back(id);
      }
    if (at(pending, id) == 0) ready[static_cast<std::size_t>(n.op)].push_back(id);
  }
  std::size_t scheduled = 0;
  while (scheduled < operations.size()) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < ready.size(); ++k)
      if (ready[k].size() > ready[best].size()) best = k;
    std::vector<int> batch;
    batch.swap(ready[best]);
    Run run{static_cast<Op>(best), static_cast<int>(dst_.size()), 0};
    for (int id : batch) {
      const Node& n = graph.node(id);
      dst_.push_back(at(reg, id));
      a_.push_back(n.a >= 0 ? at(reg, n.a) : at(reg, id));
      b_.push_back(n.b >= 0 ? at(reg, n.b) : at(reg, id));
      for (int user : at(users, id))
        if (--at(pending, user) == 0) ready[static_cast<std::size_t>(graph.node(user).op)].push_back(user);
    }
    run.end = static_cast<int>(dst_.size());
    runs_.push_back(run);
    scheduled += batch.size();
  }
  operations_ = static_cast<int>(operations.size());
  for (int id : outputs) out_regs_.push_back(at(reg, id));
  from_.resize(regs_.size());
  for (std::size_t k = 0; k < regs_.size(); ++k) from_[k] = &regs_[k];
}

template <class S>
int Interpreter<S>::run(const S* const* inputs, S* out) const noexcept {
  S* r = regs_.data();
  // Operands are read through `from`: multiprecision inputs in place (a copy
  // of an MPFR number costs as much as an addition), hardware ones copied
  // into their registers.
  const S* const* from = from_.data();
  if constexpr (is_multiprecision<S>) {
    for (const Load& l : loads_) from_[static_cast<std::size_t>(l.reg)] = &inputs[l.array][l.index];
  } else {
    for (const Load& l : loads_) r[l.reg] = inputs[l.array][l.index];
  }
  const int* dst = dst_.data();
  const int* a = a_.data();
  const int* b = b_.data();
  for (const Run& run : runs_) {
    const int lo = run.begin, hi = run.end;
    switch (run.op) {
      case Op::Add:
        for (int k = lo; k < hi; ++k) set_sum(r[dst[k]], *from[a[k]], *from[b[k]]);
        break;
      case Op::Sub:
        for (int k = lo; k < hi; ++k) set_difference(r[dst[k]], *from[a[k]], *from[b[k]]);
        break;
      case Op::Mul:
        for (int k = lo; k < hi; ++k) set_product(r[dst[k]], *from[a[k]], *from[b[k]]);
        break;
      case Op::Div:
        for (int k = lo; k < hi; ++k) set_quotient(r[dst[k]], *from[a[k]], *from[b[k]]);
        break;
      case Op::Neg:
        for (int k = lo; k < hi; ++k) set_negative(r[dst[k]], *from[a[k]]);
        break;
      default:
        for (int k = lo; k < hi; ++k) set_function(run.op, r[dst[k]], *from[a[k]], *from[b[k]]);
        break;
    }
  }
  for (const GuardCheck& g : guards_)
    if (!(*from[g.reg] > 0)) return g.guard + 1;
  for (std::size_t k = 0; k < out_regs_.size(); ++k) out[k] = *from[out_regs_[k]];
  return 0;
}

#define NHS_INTERPRETER_(S, NAME) NHS_INTERPRETER_INSTANTIATE(, S)
NHS_FOR_EACH_SCALAR(NHS_INTERPRETER_)

}  // namespace nhs::codegen
