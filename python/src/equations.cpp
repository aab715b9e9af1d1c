// nhs.System's symbolic and structural queries (equations.hpp).
#include "equations.hpp"

#include "nhs/constraint_classification.hpp"
#include "nhs/expression.hpp"
#include "nhs/studies/traced.hpp"
#include "nhs/symbolic/print.hpp"

#include <pybind11/stl.h>

#include <map>

namespace nhs::python {

using namespace pybind11::literals;

namespace {

/// A side of an equation as a nested tuple, for System.equations to build
/// sympy objects from (python/nhs/_sympy.py, expression_of): ("number",
/// literal text) | ("name", identifier) | ("neg", a) | (op, a, b) with op
/// one of "add" "sub" "mul" "div" "pow" | ("call", function, args...).
py::object expression_tree(const nhs::expression::Ast& a) {
  using K = nhs::expression::Kind;
  static const std::map<K, const char*> binary = {
      {K::Add, "add"}, {K::Sub, "sub"}, {K::Mul, "mul"}, {K::Div, "div"}, {K::Pow, "pow"}};
  switch (a.kind) {
    case K::Number: return py::make_tuple("number", a.text);
    case K::Name: return py::make_tuple("name", a.text);
    case K::Neg: return py::make_tuple("neg", expression_tree(a.args.at(0)));
    case K::Call: {
      py::list t;
      t.append("call");
      t.append(a.text);
      for (const auto& x : a.args) t.append(expression_tree(x));
      return py::tuple(t);
    }
    default: return py::make_tuple(binary.at(a.kind), expression_tree(a.args.at(0)), expression_tree(a.args.at(1)));
  }
}

}  // namespace

/// System._equations_tree: one formulation's equations of `nhs equations`
/// as data, never as code: {title, symbols (names), definitions [(name,
/// tree)], equations [(lhs tree, rhs tree)], unknowns (names)}, each side
/// the text format's, parsed by the system-file parser into expression_tree.
/// UsageError beyond the derivation budget (symbolic::require_derivation_budget).
py::dict equations_tree(const SystemHandle& s, const std::string& formulation, double max_derivation_size) {
  std::string title;
  nhs::symbolic::PrintedEquations p;
  {
    py::gil_scoped_release release;
    const nhs::TracedStudy traced = nhs::find_traced_study(s.name());
    nhs::symbolic::require_derivation_budget(traced.build, traced.info, max_derivation_size, "max_derivation_size=");
    const nhs::symbolic::SymbolicSystem sys = nhs::symbolic::symbolic_system(traced.build, traced.info);
    const auto f = nhs::symbolic::printable_formulations(sys, {formulation}, nullptr).at(0);
    title = f.title;
    p = nhs::symbolic::printed_equations(f);
  }
  const auto tree = [](const std::string& text) { return expression_tree(nhs::expression::parse(text)); };
  py::list definitions, equations;
  for (const auto& [name, value] : p.definitions) definitions.append(py::make_tuple(name, tree(value)));
  for (const auto& [lhs, rhs] : p.equations) equations.append(py::make_tuple(tree(lhs), tree(rhs)));
  return py::dict("title"_a = title, "symbols"_a = p.symbols, "definitions"_a = definitions,
                  "equations"_a = equations, "unknowns"_a = p.unknowns);
}


py::dict classification_dict(const SystemHandle& s) {
  using S = nhs::mp100;
  nhs::ConstraintClassification c;
  std::vector<std::string> coordinates;
  {
    py::gil_scoped_release release;
    const nhs::Study<S>& st = nhs::find_study<S>(s.name());
    const nhs::System<S> sys = st.build(st.default_parameters());
    c = nhs::classify_constraints(sys, st.default_state(sys).q);
    coordinates = st.info.coordinates;
  }
  // The mp100 values as lists of exact mpmath.mpf (convert.hpp).
  const auto values = [](const nhs::Vec<S>& v) {
    return to_list<S>(std::vector<S>(v.data(), v.data() + v.size()));
  };
  py::list constraints;
  for (const nhs::ConstraintKind& k : c.constraints) {
    py::dict d;
    d["name"] = k.name;
    d["linear"] = k.linear;
    d["affine"] = k.affine;
    d["homogeneous"] = k.homogeneous;
    d["degree"] = k.homogeneous ? py::object(py::float_(k.degree)) : py::object(py::none());
    constraints.append(d);
  }
  py::dict frobenius;
  frobenius["done"] = c.frobenius_done;
  frobenius["skipped"] = c.frobenius_skipped;
  frobenius["frame"] = c.frame;
  frobenius["growth"] = c.growth;
  frobenius["hidden_holonomic"] = c.hidden_holonomic;
  py::list brackets, combinations;
  for (const nhs::BracketEvidence& b : c.brackets) {
    py::dict d;
    d["pair"] = py::make_tuple(b.first, b.second);
    d["constraint_forms"] = values(b.constraint_forms);
    brackets.append(d);
  }
  for (const nhs::IntegrableCombination& k : c.combinations) {
    py::dict d;
    d["mu"] = values(k.mu);
    d["nu"] = values(k.nu);
    combinations.append(d);
  }
  frobenius["brackets"] = brackets;
  frobenius["combinations"] = combinations;
  frobenius["largest_bracket_form"] = c.largest_bracket_form;
  frobenius["largest_inside_residual"] = c.largest_inside_residual;
  py::list points;
  for (const auto& q : c.sample_points) points.append(values(q));
  py::dict out;
  out["constraints"] = constraints;
  out["frobenius"] = frobenius;
  out["cyclic"] = c.cyclic;
  out["chaplygin"] = c.chaplygin;
  out["coordinates"] = coordinates;
  out["sample_points"] = points;
  return out;
}

}  // namespace nhs::python
