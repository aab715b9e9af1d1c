// Implementation of codegen/emit.hpp.
#include "nhs/codegen/emit.hpp"

#include "nhs/codegen/graph_analysis.hpp"

#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

namespace nhs::codegen {
namespace {

const char* op_name(Op op) {
  switch (op) {
    case Op::Add: return "add";
    case Op::Sub: return "sub";
    case Op::Mul: return "mul";
    case Op::Div: return "div";
    case Op::Atan2: return "atan2";
    case Op::Max: return "max";
    case Op::Neg: return "neg";
    case Op::Sin: return "sin";
    case Op::Cos: return "cos";
    case Op::Tan: return "tan";
    case Op::Asin: return "asin";
    case Op::Acos: return "acos";
    case Op::Atan: return "atan";
    case Op::Sqrt: return "sqrt";
    case Op::Exp: return "exp";
    case Op::Log: return "log";
    case Op::Abs: return "abs";
    case Op::Sinh: return "sinh";
    case Op::Cosh: return "cosh";
    case Op::Tanh: return "tanh";
    case Op::Asinh: return "asinh";
    case Op::Acosh: return "acosh";
    case Op::Atanh: return "atanh";
    case Op::Constant: return "constant";
    case Op::Literal: return "literal";
    case Op::Epsilon: return "epsilon";
    case Op::Decimal: return "decimal";
    case Op::Pi: return "pi";
    case Op::Input: return "input";
  }
  return "?";
}

bool is_function(Op op) {
  switch (op) {
    case Op::Atan2: case Op::Sin: case Op::Cos: case Op::Tan: case Op::Asin: case Op::Acos:
    case Op::Atan: case Op::Sqrt: case Op::Exp: case Op::Log: case Op::Abs: case Op::Sinh:
    case Op::Cosh: case Op::Tanh: case Op::Asinh: case Op::Acosh: case Op::Atanh:
      return true;
    default:
      return false;
  }
}

std::string literal(double v) {
  if (std::isnan(v)) return "S(std::numeric_limits<double>::quiet_NaN())";
  if (std::isinf(v)) return v > 0 ? "S(std::numeric_limits<double>::infinity())"
                                   : "S(-std::numeric_limits<double>::infinity())";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%a", v);  // hexadecimal: exact
  return std::string("S(") + buf + ")";
}

// A constant leaf as C++ in S. TracingError for Decimal and Pi: leaves of
// graphs built as written (expression programs), which reach code
// generation through tracing (as exact rationals and 4 atan(1)).
std::string leaf_text(const Node& n) {
  switch (n.op) {
    case Op::Constant:
      return "S(" + std::to_string(n.num) + "LL)" + (n.den != 1 ? " / S(" + std::to_string(n.den) + "LL)" : "");
    case Op::Literal: return literal(n.value);
    case Op::Epsilon: return "std::numeric_limits<S>::epsilon()";
    default:
      throw TracingError(std::string("codegen: a ") + op_name(n.op) +
                         " leaf is evaluated as written, not emitted; trace the expression first");
  }
}

}  // namespace

std::string emit_function(const Graph& graph, const FunctionSpec& spec, EmitStats* stats) {
  const int N = graph.size();
  const auto at = [](auto& v, int id) -> auto& { return v[static_cast<std::size_t>(id)]; };
  const GraphAnalysis analysis = analyse(graph, spec.outputs, "codegen");
  const std::vector<char>& needed = analysis.needed;
  const std::vector<char>& fixed = analysis.fixed;
  const auto ref = [&](int id) -> std::string {
    const Node& n = graph.node(id);
    if (n.op == Op::Input) {
      if (n.array < 0 || n.array >= static_cast<int>(spec.arrays.size()))
        throw TracingError("codegen: input array " + std::to_string(n.array) + " has no name");
      return spec.arrays[static_cast<std::size_t>(n.array)] + "[" + std::to_string(n.index) + "]";
    }
    return "t" + std::to_string(id);
  };
  // An argument of node id's function: through spec.constant_argument_wrapper
  // where id is a library function (not sqrt, abs) of constants.
  const auto arg = [&](int id, int operand) -> std::string {
    const Op op = graph.node(id).op;
    if (spec.constant_argument_wrapper.empty() || !at(fixed, id) || op == Op::Sqrt || op == Op::Abs)
      return ref(operand);
    return spec.constant_argument_wrapper + "(" + ref(operand) + ")";
  };
  std::multimap<int, int> guards_at;
  for (std::size_t g = 0; g < graph.guards().size(); ++g)
    guards_at.emplace(graph.guards()[g].node, static_cast<int>(g));

  std::ostringstream body;
  std::set<std::string> functions;
  EmitStats st;
  for (const auto& a : spec.arrays) body << "  (void)" << a << ";\n";
  for (int id = 0; id < N; ++id) {
    const Node& n = graph.node(id);
    if (at(needed, id) && n.op != Op::Input) {
      if (at(fixed, id)) {
        body << "  static const S t" << id << " = ";
      } else {
        body << "  const S t" << id << " = ";
        ++st.operations;
        ++st.by_op[op_name(n.op)];
      }
      if (is_function(n.op)) functions.insert(n.op == Op::Abs ? "abs" : op_name(n.op));
      switch (n.op) {
        case Op::Constant:
        case Op::Literal:
        case Op::Epsilon:
        case Op::Decimal:
        case Op::Pi: body << leaf_text(n); break;
        case Op::Add: body << ref(n.a) << " + " << ref(n.b); break;
        case Op::Sub: body << ref(n.a) << " - " << ref(n.b); break;
        case Op::Mul: body << ref(n.a) << " * " << ref(n.b); break;
        case Op::Div: body << ref(n.a) << " / " << ref(n.b); break;
        case Op::Neg: body << "-" << ref(n.a); break;
        case Op::Max: body << "generated_max(" << ref(n.a) << ", " << ref(n.b) << ")"; break;
        case Op::Atan2: body << "atan2(" << arg(id, n.a) << ", " << arg(id, n.b) << ")"; break;
        default: body << op_name(n.op) << "(" << arg(id, n.a) << ")"; break;
      }
      body << ";\n";
    }
    const auto [lo, hi] = guards_at.equal_range(id);
    for (auto it = lo; it != hi; ++it)
      body << "  if (!(" << ref(id) << " > 0)) return " << it->second + 1 << ";  // "
           << graph.guards()[static_cast<std::size_t>(it->second)].condition << "\n";
  }
  for (std::size_t k = 0; k < spec.outputs.size(); ++k)
    body << "  out[" << k << "] = " << ref(spec.outputs[k]) << ";\n";

  std::ostringstream fn;
  fn << "// " << st.operations << " operations per call:";
  bool first = true;
  for (const auto& [name, count] : st.by_op) fn << (first ? " " : ", ") << name << " " << count, first = false;
  fn << ".\ntemplate <class S>\nint " << spec.name << "(";
  for (const auto& a : spec.arrays) fn << "const S* " << a << ", ";
  fn << "S* out) noexcept {\n";
  for (const auto& f : functions) fn << "  using std::" << f << ";\n";
  fn << body.str() << "  return 0;\n}\n";
  if (stats) *stats = st;
  return fn.str();
}

}  // namespace nhs::codegen
