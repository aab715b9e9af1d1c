// Implementation of codegen/emit.hpp.
#include "nhs/codegen/emit.hpp"

#include <cstdio>
#include <sstream>

namespace nhs::codegen {
namespace {

std::string literal(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // a double literal ("inf"/"nan" aside)
  if (s == "inf") return "std::numeric_limits<double>::infinity()";
  if (s == "-inf") return "(-std::numeric_limits<double>::infinity())";
  if (s == "nan" || s == "-nan") return "std::numeric_limits<double>::quiet_NaN()";
  return v < 0 ? "(" + s + ")" : s;
}

const char* op_name(Op op) {
  switch (op) {
    case Op::Add: return "add";
    case Op::Sub: return "sub";
    case Op::Mul: return "mul";
    case Op::Div: return "div";
    case Op::Atan2: return "atan2";
    case Op::Max: return "fmax";
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
    case Op::Abs: return "fabs";
    case Op::Constant: return "constant";
    case Op::Input: return "input";
  }
  return "?";
}

}  // namespace

std::string emit_function(const Graph& graph, const FunctionSpec& spec, EmitStats* stats) {
  const int N = graph.size();
  const auto check = [&](int id, const char* what) {
    if (id < 0 || id >= N) throw TracingError(std::string("codegen: ") + what + " is not a node");
  };
  // Reachability from the outputs and the guards (operands precede nodes).
  std::vector<char> needed(static_cast<std::size_t>(N), 0);
  for (int id : spec.outputs) check(id, "an output"), needed[static_cast<std::size_t>(id)] = 1;
  for (const Guard& g : graph.guards()) check(g.node, "a guard"), needed[static_cast<std::size_t>(g.node)] = 1;
  for (int id = N - 1; id >= 0; --id) {
    if (!needed[static_cast<std::size_t>(id)]) continue;
    const Node& n = graph.node(id);
    if (n.a >= 0) needed[static_cast<std::size_t>(n.a)] = 1;
    if (n.b >= 0) needed[static_cast<std::size_t>(n.b)] = 1;
  }
  const auto ref = [&](int id) -> std::string {
    const Node& n = graph.node(id);
    if (n.op == Op::Constant) return literal(n.value);
    if (n.op == Op::Input) {
      if (n.array < 0 || n.array >= static_cast<int>(spec.arrays.size()))
        throw TracingError("codegen: input array " + std::to_string(n.array) + " has no name");
      return spec.arrays[static_cast<std::size_t>(n.array)] + "[" + std::to_string(n.index) + "]";
    }
    return "t" + std::to_string(id);
  };
  // Guards, by the node after which they can be checked.
  std::multimap<int, int> guards_at;
  for (std::size_t g = 0; g < graph.guards().size(); ++g) guards_at.emplace(graph.guards()[g].node, static_cast<int>(g));

  std::ostringstream body;
  for (const auto& a : spec.arrays) body << "  (void)" << a << ";\n";
  EmitStats st;
  for (int id = 0; id < N; ++id) {
    const Node& n = graph.node(id);
    if (needed[static_cast<std::size_t>(id)] && n.op != Op::Constant && n.op != Op::Input) {
      ++st.operations;
      ++st.by_op[op_name(n.op)];
      body << "  const double t" << id << " = ";
      switch (n.op) {
        case Op::Add: body << ref(n.a) << " + " << ref(n.b); break;
        case Op::Sub: body << ref(n.a) << " - " << ref(n.b); break;
        case Op::Mul: body << ref(n.a) << " * " << ref(n.b); break;
        case Op::Div: body << ref(n.a) << " / " << ref(n.b); break;
        case Op::Neg: body << "-" << ref(n.a); break;
        case Op::Atan2:
        case Op::Max: body << "std::" << op_name(n.op) << "(" << ref(n.a) << ", " << ref(n.b) << ")"; break;
        default: body << "std::" << op_name(n.op) << "(" << ref(n.a) << ")"; break;
      }
      body << ";\n";
    }
    const auto [lo, hi] = guards_at.equal_range(id);
    for (auto it = lo; it != hi; ++it)
      body << "  if (!(" << ref(id) << " > 0.0)) return " << it->second + 1 << ";  // "
           << graph.guards()[static_cast<std::size_t>(it->second)].condition << "\n";
  }
  for (std::size_t k = 0; k < spec.outputs.size(); ++k)
    body << "  out[" << k << "] = " << ref(spec.outputs[k]) << ";\n";

  std::ostringstream fn;
  fn << "// " << st.operations << " operations:";
  for (const auto& [name, count] : st.by_op) fn << " " << name << " " << count << ",";
  fn.seekp(-1, std::ios_base::cur);
  fn << ".\nint " << spec.name << "(";
  for (const auto& a : spec.arrays) fn << "const double* " << a << ", ";
  fn << "double* out) noexcept {\n" << body.str() << "  return 0;\n}\n";
  if (stats) *stats = st;
  return fn.str();
}

}  // namespace nhs::codegen
