// Implementation of codegen/interpret.hpp.
#include "nhs/codegen/interpret.hpp"

#include "nhs/codegen/graph_analysis.hpp"
#include "nhs/codegen/operations.hpp"

#include <boost/math/constants/constants.hpp>

#include <algorithm>
#include <array>
#include <map>
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

// s = sin x, c = cos x, by one call where the C library has it (GNU sincos:
// glibc's gives the values of its sin and cos, with one argument reduction).
template <class S>
inline void set_sine_cosine(S& s, S& c, const S& x) {
  if constexpr (std::is_same_v<S, double>) {
    ::sincos(x, &s, &c);
  } else if constexpr (std::is_same_v<S, long double>) {
    ::sincosl(x, &s, &c);
  } else {
    using std::cos;
    using std::sin;
    s = sin(x);
    c = cos(x);
  }
}

// d = f(a) (or f(a, b)), in place for the functions the multiprecision
// backends evaluate into a result (eval_sin ...).
template <class S>
void set_function(Op op, S& d, const S& a, const S& b) {
  if constexpr (is_multiprecision<S>) {
    using namespace boost::multiprecision::default_ops;
    auto& D = d.backend();
    const auto& A = a.backend();
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
  d = apply(op, a, b);
}

// The fused kinds of Instruction, after the graph's own operations.
enum Fused : int {
  kMulAdd = static_cast<int>(Op::Atanh) + 1,  ///< a*b + c
  kMulSub,                                    ///< a*b - c
  kSubMul,                                    ///< c - a*b
  kMul2Add,                                   ///< a*b + c*e
  kMul2Sub,                                   ///< a*b - c*e
  kSinCos,                                    ///< dst = sin(a), register b = cos(a)
  kKinds
};

// The element of a per-node vector (index = node id).
template <class V>
inline auto& at(V& v, int id) {
  return v[static_cast<std::size_t>(id)];
}

// True for a node that the program computes: one that depends on the
// inputs (not fixed) and is not an input itself.
bool is_operation(const Graph& graph, const std::vector<char>& fixed, int id) {
  return id >= 0 && !at(fixed, id) && graph.node(id).op != Op::Input;
}

// The instruction chosen for each node (index = node id), before scheduling.
struct Selection {
  std::vector<int> kind;                          ///< an Op or a Fused kind; -1: not an operation
  std::vector<std::array<int, 4>> operand_nodes;  ///< the operands a, b, c, e (-1: unused)
  std::vector<char> absorbed;                     ///< evaluated inside another instruction
  /// The instruction that computes a node: itself, or (a cosine computed
  /// with its sine) another; cosine[sine] is that cosine's node.
  std::vector<int> defined_by, cosine;
};

// Fusion: a product used once, by a sum or difference (not an output,
// not a guard), is evaluated inside it. `operations`: the nodes that depend
// on the inputs, in node order.
Selection select_instructions(const Graph& graph, const std::vector<int>& outputs, const std::vector<char>& fixed,
                              const std::vector<int>& operations) {
  const int N = graph.size();
  std::vector<int> uses(static_cast<std::size_t>(N), 0);
  for (int id : operations)
    for (int operand : {graph.node(id).a, graph.node(id).b})
      if (operand >= 0) ++at(uses, operand);
  for (int id : outputs) ++at(uses, id);
  for (const Guard& g : graph.guards()) ++at(uses, g.node);
  Selection s;
  s.absorbed.assign(static_cast<std::size_t>(N), 0);
  s.defined_by.assign(static_cast<std::size_t>(N), 0);
  s.cosine.assign(static_cast<std::size_t>(N), -1);
  for (int id = 0; id < N; ++id) at(s.defined_by, id) = id;
  s.kind.assign(static_cast<std::size_t>(N), -1);
  s.operand_nodes.assign(static_cast<std::size_t>(N), {-1, -1, -1, -1});
  const auto fusable = [&](int id) {
    return is_operation(graph, fixed, id) && graph.node(id).op == Op::Mul && at(uses, id) == 1;
  };
  for (int id : operations) {
    const Node& n = graph.node(id);
    at(s.kind, id) = static_cast<int>(n.op);
    at(s.operand_nodes, id) = {n.a, n.b, -1, -1};
    if (n.op != Op::Add && n.op != Op::Sub) continue;
    if (n.a == n.b) continue;  // x + x: the product would be used twice
    const bool fa = fusable(n.a), fb = fusable(n.b);
    const Node* ma = fa ? &graph.node(n.a) : nullptr;
    const Node* mb = fb ? &graph.node(n.b) : nullptr;
    if (fa && fb) {
      at(s.kind, id) = n.op == Op::Add ? kMul2Add : kMul2Sub;
      at(s.operand_nodes, id) = {ma->a, ma->b, mb->a, mb->b};
    } else if (fa) {
      at(s.kind, id) = n.op == Op::Add ? kMulAdd : kMulSub;
      at(s.operand_nodes, id) = {ma->a, ma->b, n.b, -1};
    } else if (fb) {
      at(s.kind, id) = n.op == Op::Add ? kMulAdd : kSubMul;
      at(s.operand_nodes, id) = {mb->a, mb->b, n.a, -1};
    } else {
      continue;
    }
    if (fa) at(s.absorbed, n.a) = 1;
    if (fb) at(s.absorbed, n.b) = 1;
  }
  return s;
}

// sin x and cos x of one x: one call (sincos), as compilers do. The sine's
// instruction becomes kSinCos and computes the cosine, which is absorbed.
// Hardware types only.
void pair_sines_with_cosines(const Graph& graph, const std::vector<int>& operations, Selection& s) {
  std::map<int, int> sine_of;
  for (int id : operations)
    if (graph.node(id).op == Op::Sin) sine_of.emplace(graph.node(id).a, id);
  for (int id : operations) {
    if (graph.node(id).op != Op::Cos) continue;
    const auto it = sine_of.find(graph.node(id).a);
    if (it == sine_of.end()) continue;
    at(s.kind, it->second) = kSinCos;
    at(s.cosine, it->second) = id;
    at(s.absorbed, id) = 1;
    at(s.defined_by, id) = it->second;
  }
}

// One run of the schedule: ready instructions of one kind, by node.
struct Batch {
  int kind;
  std::vector<int> nodes;
};

// List scheduling: repeatedly take every ready instruction of the kind
// with the most ready ones, as one run. The instructions are the
// operations that no other absorbed; the runs are returned in order.
std::vector<Batch> schedule(const Graph& graph, const std::vector<char>& fixed, const std::vector<int>& operations,
                            const Selection& s) {
  const int N = graph.size();
  std::vector<int> pending(static_cast<std::size_t>(N), 0);
  std::vector<std::vector<int>> users(static_cast<std::size_t>(N));
  std::vector<std::vector<int>> ready(kKinds);
  std::size_t instructions = 0;
  for (int id : operations) {
    if (at(s.absorbed, id)) continue;
    ++instructions;
    for (int operand : at(s.operand_nodes, id))
      if (is_operation(graph, fixed, operand)) {
        ++at(pending, id);
        at(users, at(s.defined_by, operand)).push_back(id);
      }
    if (at(pending, id) == 0) ready[static_cast<std::size_t>(at(s.kind, id))].push_back(id);
  }
  std::vector<Batch> batches;
  std::size_t scheduled = 0;
  while (scheduled < instructions) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < ready.size(); ++k)
      if (ready[k].size() > ready[best].size()) best = k;
    Batch batch{static_cast<int>(best), {}};
    batch.nodes.swap(ready[best]);
    for (int id : batch.nodes)
      for (int user : at(users, id))
        if (--at(pending, user) == 0) ready[static_cast<std::size_t>(at(s.kind, user))].push_back(user);
    scheduled += batch.nodes.size();
    batches.push_back(std::move(batch));
  }
  return batches;
}

// The elementary functions of a run [i, end) of kind op, in a
// multiprecision type: operands read through `from`, results into the
// registers r.
template <class S, class Instruction>
inline void apply_functions_in_place(Op op, const Instruction* i, const Instruction* const end, S* r,
                                     const S* const* from, const S& huge) noexcept {
  const bool trig = op == Op::Sin || op == Op::Cos || op == Op::Tan;
  for (; i != end; ++i) {
    const S& x = *from[i->a];
    if (trig && (x > huge || x < -huge)) {
      // MPFR's argument reduction of a huge |x| takes minutes
      // (operations.hpp, beyond_reduction): NaN, as apply gives.
      r[i->dst] = std::numeric_limits<S>::quiet_NaN();
    } else {
      set_function(op, r[i->dst], x, *from[i->b]);
    }
  }
}

// Evaluates a run [i, end) of instructions of one kind (Interpreter::Run),
// in a multiprecision type: operands read through `from` (a register, or
// the caller's input element), results written into the registers r,
// without temporaries; `scratch` holds a fused kind's second product.
// Inlined into run(): one dispatch per run, a loop per kind.
template <class S, class Instruction>
inline void execute_in_place(int kind, const Instruction* i, const Instruction* const end, S* r,
                             const S* const* from, S& scratch, const S& huge) noexcept {
  switch (kind) {
    case static_cast<int>(Op::Add):
      for (; i != end; ++i) set_sum(r[i->dst], *from[i->a], *from[i->b]);
      break;
    case static_cast<int>(Op::Sub):
      for (; i != end; ++i) set_difference(r[i->dst], *from[i->a], *from[i->b]);
      break;
    case static_cast<int>(Op::Mul):
      for (; i != end; ++i) set_product(r[i->dst], *from[i->a], *from[i->b]);
      break;
    case static_cast<int>(Op::Div):
      for (; i != end; ++i) set_quotient(r[i->dst], *from[i->a], *from[i->b]);
      break;
    case static_cast<int>(Op::Neg):
      for (; i != end; ++i) set_negative(r[i->dst], *from[i->a]);
      break;
    case kMulAdd:
      for (; i != end; ++i) {
        set_product(r[i->dst], *from[i->a], *from[i->b]);
        set_sum(r[i->dst], r[i->dst], *from[i->c]);
      }
      break;
    case kMulSub:
      for (; i != end; ++i) {
        set_product(r[i->dst], *from[i->a], *from[i->b]);
        set_difference(r[i->dst], r[i->dst], *from[i->c]);
      }
      break;
    case kSubMul:
      for (; i != end; ++i) {
        // Not d = c - d: Boost computes an aliased subtrahend as
        // -(d - c), which is -0 where c = d (tests/test_interpreter.cpp).
        set_product(scratch, *from[i->a], *from[i->b]);
        set_difference(r[i->dst], *from[i->c], scratch);
      }
      break;
    case kMul2Add:
      for (; i != end; ++i) {
        set_product(r[i->dst], *from[i->a], *from[i->b]);
        set_product(scratch, *from[i->c], *from[i->e]);
        set_sum(r[i->dst], r[i->dst], scratch);
      }
      break;
    case kMul2Sub:
      for (; i != end; ++i) {
        set_product(r[i->dst], *from[i->a], *from[i->b]);
        set_product(scratch, *from[i->c], *from[i->e]);
        set_difference(r[i->dst], r[i->dst], scratch);
      }
      break;
    default:
      apply_functions_in_place(static_cast<Op>(kind), i, end, r, from, huge);
  }
}

// Evaluates a run [i, end) of instructions of one kind (Interpreter::Run),
// in a hardware type: operands read from and results written into the
// registers r; a fused kind's products rounded to S before the sum (this
// file is compiled without contraction). Inlined into run(): one dispatch
// per run, a loop per kind.
template <class S, class Instruction>
inline void execute_in_registers(int kind, const Instruction* i, const Instruction* const end, S* r) noexcept {
  switch (kind) {
    case static_cast<int>(Op::Add):
      for (; i != end; ++i) r[i->dst] = r[i->a] + r[i->b];
      break;
    case static_cast<int>(Op::Sub):
      for (; i != end; ++i) r[i->dst] = r[i->a] - r[i->b];
      break;
    case static_cast<int>(Op::Mul):
      for (; i != end; ++i) r[i->dst] = r[i->a] * r[i->b];
      break;
    case static_cast<int>(Op::Div):
      for (; i != end; ++i) r[i->dst] = r[i->a] / r[i->b];
      break;
    case static_cast<int>(Op::Neg):
      for (; i != end; ++i) r[i->dst] = -r[i->a];
      break;
    case kMulAdd:
      for (; i != end; ++i) {
        const S p = r[i->a] * r[i->b];
        r[i->dst] = p + r[i->c];
      }
      break;
    case kMulSub:
      for (; i != end; ++i) {
        const S p = r[i->a] * r[i->b];
        r[i->dst] = p - r[i->c];
      }
      break;
    case kSubMul:
      for (; i != end; ++i) {
        const S p = r[i->a] * r[i->b];
        r[i->dst] = r[i->c] - p;
      }
      break;
    case kMul2Add:
      for (; i != end; ++i) {
        const S p = r[i->a] * r[i->b], q = r[i->c] * r[i->e];
        r[i->dst] = p + q;
      }
      break;
    case kMul2Sub:
      for (; i != end; ++i) {
        const S p = r[i->a] * r[i->b], q = r[i->c] * r[i->e];
        r[i->dst] = p - q;
      }
      break;
    case kSinCos:
      for (; i != end; ++i) {
        if (beyond_reduction(r[i->a])) {  // as apply's sin and cos (operations.hpp)
          r[i->dst] = r[i->b] = std::numeric_limits<S>::quiet_NaN();
        } else {
          set_sine_cosine(r[i->dst], r[i->b], r[i->a]);
        }
      }
      break;
    default: {
      const Op op = static_cast<Op>(kind);
      for (; i != end; ++i) r[i->dst] = apply(op, r[i->a], r[i->b]);
    }
  }
}

}  // namespace

template <class S>
Interpreter<S>::Interpreter(const Graph& graph, const std::vector<int>& outputs, int arrays)
    : huge_(1e300) {
  const GraphAnalysis analysis = analyse(graph, outputs, "interpret");
  std::vector<int> operations;  // node ids that depend on the inputs
  const std::vector<int> reg = assign_registers(graph, analysis, arrays, operations);
  for (std::size_t g = 0; g < graph.guards().size(); ++g)
    guards_.push_back({at(reg, graph.guards()[g].node), static_cast<int>(g)});
  std::stable_sort(guards_.begin(), guards_.end(), [&](const GuardCheck& x, const GuardCheck& y) {
    return x.reg < y.reg;  // registers are in node order
  });

  Selection selection = select_instructions(graph, outputs, analysis.fixed, operations);
  if constexpr (!is_multiprecision<S>) pair_sines_with_cosines(graph, operations, selection);

  // The instructions, run by run, with their operands' registers.
  for (const Batch& batch : schedule(graph, analysis.fixed, operations, selection)) {
    Run run{batch.kind, static_cast<int>(code_.size()), 0};
    for (int id : batch.nodes) {
      const int d = at(reg, id);
      const auto& o = at(selection.operand_nodes, id);
      const auto r = [&](int k) {
        const int operand = o[static_cast<std::size_t>(k)];
        return operand >= 0 ? at(reg, operand) : d;
      };
      if (at(selection.kind, id) == kSinCos)
        code_.push_back({d, r(0), at(reg, at(selection.cosine, id)), d, d});
      else
        code_.push_back({d, r(0), r(1), r(2), r(3)});
    }
    run.end = static_cast<int>(code_.size());
    runs_.push_back(run);
  }
  operations_ = static_cast<int>(operations.size());
  for (int id : outputs) out_regs_.push_back(at(reg, id));
  pool_.push_back(make_registers());
  idle_.store(pool_.back().get());
}

template <class S>
std::unique_ptr<typename Interpreter<S>::Registers> Interpreter<S>::make_registers() const {
  auto r = std::make_unique<Registers>();
  r->value = prototype_;
  r->from.resize(r->value.size());
  for (std::size_t k = 0; k < r->value.size(); ++k) r->from[k] = &r->value[k];
  return r;
}

template <class S>
typename Interpreter<S>::Registers* Interpreter<S>::take() const noexcept {
  if (Registers* r = idle_.exchange(nullptr, std::memory_order_acquire)) return r;
  const std::lock_guard<std::mutex> lock(pool_mutex_);
  if (!spare_.empty()) {
    Registers* r = spare_.back();
    spare_.pop_back();
    return r;
  }
  pool_.push_back(make_registers());  // a concurrent run: one more set
  spare_.reserve(pool_.size());       // so that give_back never allocates
  return pool_.back().get();
}

template <class S>
void Interpreter<S>::give_back(Registers* r) const noexcept {
  Registers* none = nullptr;
  if (idle_.compare_exchange_strong(none, r, std::memory_order_release, std::memory_order_relaxed)) return;
  const std::lock_guard<std::mutex> lock(pool_mutex_);
  spare_.push_back(r);
}

template <class S>
std::vector<int> Interpreter<S>::assign_registers(const Graph& graph, const GraphAnalysis& analysis, int arrays,
                                                  std::vector<int>& operations) {
  const int N = graph.size();
  const std::vector<char>& needed = analysis.needed;
  const std::vector<char>& fixed = analysis.fixed;
  // One register per needed node, in node order, then a scratch register;
  // fixed nodes computed now.
  std::vector<int> reg(static_cast<std::size_t>(N), -1);
  int count = 0;
  for (int id = 0; id < N; ++id)
    if (at(needed, id)) at(reg, id) = count++;
  prototype_.assign(static_cast<std::size_t>(count) + 1, S(0));
  for (int id = 0; id < N; ++id) {
    if (!at(needed, id)) continue;
    const Node& n = graph.node(id);
    const int r = at(reg, id);
    S& value = prototype_[static_cast<std::size_t>(r)];
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
        case Op::Decimal: value = from_string<S>(graph.decimals()[static_cast<std::size_t>(n.index)]); break;
        case Op::Pi: value = boost::math::constants::pi<S>(); break;
        default: {
          const S& a = prototype_[static_cast<std::size_t>(at(reg, n.a))];
          const S b = n.b >= 0 ? prototype_[static_cast<std::size_t>(at(reg, n.b))] : S(0);
          value = apply(n.op, a, b);
        }
      }
    } else {
      operations.push_back(id);
    }
  }
  return reg;
}

template <class S>
int Interpreter<S>::run(const S* const* inputs, S* out) const noexcept {
  Registers* const w = take();
  S* r = w->value.data();
  const Instruction* code = code_.data();
  int failed = 0;
  if constexpr (is_multiprecision<S>) {
    // Operands are read through `from`: the inputs in place (a copy of an
    // MPFR number costs as much as an addition).
    const S* const* from = w->from.data();
    S& scratch = w->value.back();
    for (const Load& l : loads_) w->from[static_cast<std::size_t>(l.reg)] = &inputs[l.array][l.index];
    for (const Run& run : runs_) execute_in_place(run.kind, code + run.begin, code + run.end, r, from, scratch, huge_);
    for (const GuardCheck& g : guards_)
      if (!(*from[g.reg] > 0)) {
        failed = g.guard + 1;
        break;
      }
    if (!failed)
      for (std::size_t k = 0; k < out_regs_.size(); ++k) out[k] = *from[out_regs_[k]];
  } else {
    // Hardware types: the inputs copied into their registers, every operand
    // read from the registers.
    for (const Load& l : loads_) r[l.reg] = inputs[l.array][l.index];
    for (const Run& run : runs_) execute_in_registers(run.kind, code + run.begin, code + run.end, r);
    for (const GuardCheck& g : guards_)
      if (!(r[g.reg] > 0)) {
        failed = g.guard + 1;
        break;
      }
    if (!failed)
      for (std::size_t k = 0; k < out_regs_.size(); ++k) out[k] = r[out_regs_[k]];
  }
  give_back(w);
  return failed;
}

#define NHS_INTERPRETER_(S, NAME) NHS_INTERPRETER_INSTANTIATE(, S)
NHS_FOR_EACH_SCALAR(NHS_INTERPRETER_)

}  // namespace nhs::codegen
