// Implementation of nhs/codegen/differentiate.hpp.
#include "nhs/codegen/differentiate.hpp"

#include "nhs/errors.hpp"

#include <map>
#include <string>

namespace nhs::codegen {
namespace {

// Builds derivative nodes; d[node] holds one id per input element, or -1
// for an identically zero derivative (no node made).
class Differentiator {
 public:
  // Differentiates only the nodes that `roots` depend on: a graph holds
  // other outputs too (and the derivatives of earlier calls), whose
  // derivatives would be made for nothing, and would be differentiated
  // again by the next call.
  // With `seeds`, node seeds[j] is variable j (array is then unused) and
  // the cone below a seed is not differentiated.
  Differentiator(Graph& g, int array, int count, const std::vector<int>& roots, const std::vector<int>& seeds = {})
      : g_(g), array_(array), count_(count), needed_(static_cast<std::size_t>(g.size()), false) {
    for (std::size_t j = 0; j < seeds.size(); ++j) {
      const int s = seeds[j];
      if (s < 0 || s >= g_.size()) throw TracingError("codegen: a derivative with respect to a node that is not in the graph");
      const Op op = g_.node(s).op;
      if (op == Op::Constant || op == Op::Literal || op == Op::Epsilon || op == Op::Decimal || op == Op::Pi ||
          op == Op::Input || !seeds_.emplace(s, static_cast<int>(j)).second)
        throw TracingError("codegen: the seeds of a derivative must be distinct operation nodes");
    }
    std::vector<int> stack;
    for (const int r : roots) {
      if (r < 0 || r >= g_.size()) throw TracingError("codegen: a Jacobian of a node that is not in the graph");
      stack.push_back(r);
    }
    while (!stack.empty()) {
      const int k = stack.back();
      stack.pop_back();
      if (needed_[static_cast<std::size_t>(k)]) continue;
      needed_[static_cast<std::size_t>(k)] = true;
      if (seeds_.count(k)) continue;  // a variable: its operands are not differentiated
      const Node& n = g_.node(k);
      if (n.a >= 0) stack.push_back(n.a);
      if (n.b >= 0) stack.push_back(n.b);
    }
  }

  const std::vector<int>& of(int id) {
    if (id < 0 || id >= static_cast<int>(needed_.size()) || !needed_[static_cast<std::size_t>(id)])
      throw TracingError("codegen: a Jacobian of a node that is not in the graph");
    while (static_cast<int>(d_.size()) <= id) {
      const int k = static_cast<int>(d_.size());
      d_.push_back(needed_[static_cast<std::size_t>(k)] ? rule(k) : std::vector<int>());
    }
    return d_[static_cast<std::size_t>(id)];
  }

 private:
  int add(int a, int b) { return a < 0 ? b : b < 0 ? a : g_.apply(Op::Add, a, b); }
  int sub(int a, int b) { return b < 0 ? a : a < 0 ? g_.apply(Op::Neg, b) : g_.apply(Op::Sub, a, b); }
  int mul(int a, int da) { return da < 0 ? -1 : g_.apply(Op::Mul, a, da); }  // a node times a derivative
  int div(int da, int b) { return da < 0 ? -1 : g_.apply(Op::Div, da, b); }
  int neg(int da) { return da < 0 ? -1 : g_.apply(Op::Neg, da); }
  int c(double v) { return g_.constant(v); }
  int f(Op op, int a, int b = -1) { return g_.apply(op, a, b); }

  // The derivative of node k (one id per input element, -1 for zero), from
  // those of its operands, which precede it in d_.
  std::vector<int> rule(int k) {
    const Node n = g_.node(k);  // a copy: apply() may grow the node vector
    std::vector<int> out(static_cast<std::size_t>(count_), -1);
    if (const auto seed = seeds_.find(k); seed != seeds_.end()) {
      out[static_cast<std::size_t>(seed->second)] = c(1);
      return out;
    }
    switch (n.op) {
      case Op::Constant:
      case Op::Literal:
      case Op::Epsilon:
      case Op::Decimal:
      case Op::Pi:
        return out;
      case Op::Input:
        if (n.array == array_ && n.index >= 0 && n.index < count_) out[static_cast<std::size_t>(n.index)] = c(1);
        return out;
      default:
        break;
    }
    const std::vector<int> da = d_[static_cast<std::size_t>(n.a)];
    const std::vector<int> db = n.b >= 0 ? d_[static_cast<std::size_t>(n.b)] : std::vector<int>(out.size(), -1);
    switch (n.op) {
      case Op::Add:
      case Op::Sub:
      case Op::Mul:
      case Op::Div:
      case Op::Atan2:
      case Op::Max:
        binary_rule(n, k, da, db, out);
        break;
      default:
        unary_rule(n, k, da, out);
    }
    return out;
  }

  // The derivative of node k = n.op(a, b), a binary operation, into out
  // (da, db: the operands' derivatives).
  void binary_rule(const Node& n, int k, const std::vector<int>& da, const std::vector<int>& db,
                   std::vector<int>& out) {
    const int a = n.a, b = n.b;
    switch (n.op) {
      case Op::Add:
        for (std::size_t j = 0; j < out.size(); ++j) out[j] = add(da[j], db[j]);
        break;
      case Op::Sub:
        for (std::size_t j = 0; j < out.size(); ++j) out[j] = sub(da[j], db[j]);
        break;
      case Op::Mul:
        for (std::size_t j = 0; j < out.size(); ++j) out[j] = add(mul(b, da[j]), mul(a, db[j]));
        break;
      case Op::Div: {  // d(a/b) = (da - (a/b) db) / b
        const int q = k;
        for (std::size_t j = 0; j < out.size(); ++j) {
          const int num = sub(da[j], mul(q, db[j]));
          out[j] = num < 0 ? -1 : div(num, b);
        }
        break;
      }
      case Op::Atan2: {  // atan2(a, b): (b da - a db) / (a^2 + b^2)
        int den = -1;
        for (std::size_t j = 0; j < out.size(); ++j) {
          const int num = sub(mul(b, da[j]), mul(a, db[j]));
          if (num < 0) continue;
          if (den < 0) den = f(Op::Add, f(Op::Mul, a, a), f(Op::Mul, b, b));
          out[j] = div(num, den);
        }
        break;
      }
      case Op::Max: {  // (da + db + s (da - db)) / 2, s = (a - b)/|a - b|
        int s = -1;
        for (std::size_t j = 0; j < out.size(); ++j) {
          const int sum = add(da[j], db[j]), diff = sub(da[j], db[j]);
          if (sum < 0 && diff < 0) continue;
          if (s < 0) {
            const int d = f(Op::Sub, a, b);
            s = f(Op::Div, d, f(Op::Abs, d));
          }
          out[j] = f(Op::Mul, c(0.5), add(sum, mul(s, diff)));
        }
        break;
      }
      default:
        break;
    }
  }

  // The derivative of node k = n.op(a), a unary operation, into out (da:
  // the operand's derivative): g'(a) da. TracingError for an operation
  // without a rule.
  void unary_rule(const Node& n, int k, const std::vector<int>& da, std::vector<int>& out) {
    const int a = n.a;
    // The factor g'(a) of a unary operation's derivative, made once.
    int factor = -1;
    const auto unary = [&](const auto& make_factor) {
      for (std::size_t j = 0; j < out.size(); ++j) {
        if (da[j] < 0) continue;
        if (factor < 0) factor = make_factor();
        out[j] = mul(factor, da[j]);
      }
    };
    switch (n.op) {
      case Op::Neg:
        for (std::size_t j = 0; j < out.size(); ++j) out[j] = neg(da[j]);
        break;
      case Op::Sin: unary([&] { return f(Op::Cos, a); }); break;
      case Op::Cos: unary([&] { return f(Op::Neg, f(Op::Sin, a)); }); break;
      case Op::Tan: unary([&] { return f(Op::Add, c(1), f(Op::Mul, k, k)); }); break;
      case Op::Asin: unary([&] { return f(Op::Div, c(1), f(Op::Sqrt, f(Op::Sub, c(1), f(Op::Mul, a, a)))); }); break;
      case Op::Acos:
        unary([&] { return f(Op::Neg, f(Op::Div, c(1), f(Op::Sqrt, f(Op::Sub, c(1), f(Op::Mul, a, a))))); });
        break;
      case Op::Atan: unary([&] { return f(Op::Div, c(1), f(Op::Add, c(1), f(Op::Mul, a, a))); }); break;
      case Op::Sqrt: unary([&] { return f(Op::Div, c(1), f(Op::Mul, c(2), k)); }); break;
      case Op::Exp: unary([&] { return k; }); break;
      case Op::Log: unary([&] { return f(Op::Div, c(1), a); }); break;
      case Op::Abs: unary([&] { return f(Op::Div, a, k); }); break;
      case Op::Sinh: unary([&] { return f(Op::Cosh, a); }); break;
      case Op::Cosh: unary([&] { return f(Op::Sinh, a); }); break;
      case Op::Tanh: unary([&] { return f(Op::Sub, c(1), f(Op::Mul, k, k)); }); break;
      case Op::Asinh: unary([&] { return f(Op::Div, c(1), f(Op::Sqrt, f(Op::Add, f(Op::Mul, a, a), c(1)))); }); break;
      case Op::Acosh: unary([&] { return f(Op::Div, c(1), f(Op::Sqrt, f(Op::Sub, f(Op::Mul, a, a), c(1)))); }); break;
      case Op::Atanh: unary([&] { return f(Op::Div, c(1), f(Op::Sub, c(1), f(Op::Mul, a, a))); }); break;
      default:
        throw TracingError("codegen: no derivative rule for operation " + std::to_string(static_cast<int>(n.op)));
    }
  }

  Graph& g_;
  int array_, count_;
  std::vector<bool> needed_;  // per node of the graph as it was: a root depends on it
  std::map<int, int> seeds_;  // seed node -> its variable's index
  std::vector<std::vector<int>> d_;
};

}  // namespace

namespace {

std::vector<int> entries_of(Graph& graph, Differentiator& d, const std::vector<int>& outputs, int count) {
  std::vector<int> entries;
  entries.reserve(outputs.size() * static_cast<std::size_t>(count));
  for (const int o : outputs) {
    const std::vector<int> row = d.of(o);  // a copy: later nodes may grow the table
    for (const int e : row) entries.push_back(e < 0 ? graph.constant(0) : e);
  }
  return entries;
}

}  // namespace

std::vector<int> jacobian_nodes(Graph& graph, const std::vector<int>& outputs, int array, int count) {
  Differentiator d(graph, array, count, outputs);
  return entries_of(graph, d, outputs, count);
}

std::vector<int> gradient_nodes(Graph& graph, const std::vector<int>& outputs, const std::vector<int>& seeds) {
  const int count = static_cast<int>(seeds.size());
  Differentiator d(graph, -1, count, outputs, seeds);
  return entries_of(graph, d, outputs, count);
}

TracedFormulation field_jacobian(TracedFormulation traced) {
  const int N = traced.inputs, n = traced.n;
  std::vector<int> rows;
  if (traced.formulation == "second-kind") {
    rows.assign(traced.outputs.begin(), traced.outputs.begin() + n);  // qddot
  } else {
    rows.assign(traced.outputs.begin(), traced.outputs.begin() + N);  // qdot = psi, zdot
  }
  const std::vector<int> d = jacobian_nodes(traced.graph, rows, 1, N);
  std::vector<int> out;
  out.reserve(static_cast<std::size_t>(N) * static_cast<std::size_t>(N));
  if (traced.formulation == "second-kind")  // d qdot / d (q, qdot) = [0 I]
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < N; ++j) out.push_back(traced.graph.constant(j == n + i ? 1 : 0));
  out.insert(out.end(), d.begin(), d.end());
  traced.outputs = std::move(out);
  return traced;
}

}  // namespace nhs::codegen
