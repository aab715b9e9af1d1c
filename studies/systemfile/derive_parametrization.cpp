// psi(q, z) derived from Voronec's split (docs/system-files.md, "A derived
// parametrization"): a file with dependent_velocities, constraints linear or
// affine in qdot (A(q) qdot + a0(q) = 0) and no [parametrization] gets
// z = the independent coordinates' velocities (in coordinate order) and
// qdot_dep = the solution of A_dep qdot_dep = -(A_ind z + a0), built in the
// expression graph: A = dC/dqdot by the graph's forward differentiation of
// C's own program (codegen/differentiate.hpp), a0 = C at qdot = 0, and the
// r x r system solved through its normal equations A_dep^T A_dep, whose
// LDL^T factorization needs no pivoting (A_dep^T A_dep is positive definite
// wherever A_dep has full rank, the condition of Voronec's split). The chart
// is z = qdot_ind. The numerical checks of the load (C(q, psi(q, z)) = 0,
// chart(psi) = z) hold it as they hold a written psi.
#include "loader.hpp"

#include "nhs/codegen/differentiate.hpp"
#include "nhs/scalar.hpp"

#include <cmath>

#include <algorithm>

namespace nhs::systemfile {

using codegen::Expr;
using codegen::Graph;
using codegen::Node;
using codegen::Op;

namespace {

// Copies node `id` of `from` (and what it depends on) into the recording
// graph `to`: parameters and q keep their inputs, qdot (graph array 2) is 0.
// `done` maps ids of `from` to ids of `to`.
int copy_at_rest(const Graph& from, int id, Graph& to, std::vector<int>& done) {
  std::vector<int> stack{id};
  while (!stack.empty()) {
    const int k = stack.back();
    if (done[static_cast<std::size_t>(k)] >= 0) {
      stack.pop_back();
      continue;
    }
    const Node& n = from.node(k);
    const bool leaf = n.a < 0;
    if (!leaf && (done[static_cast<std::size_t>(n.a)] < 0 || (n.b >= 0 && done[static_cast<std::size_t>(n.b)] < 0))) {
      if (done[static_cast<std::size_t>(n.a)] < 0) stack.push_back(n.a);
      if (n.b >= 0 && done[static_cast<std::size_t>(n.b)] < 0) stack.push_back(n.b);
      continue;
    }
    int c = -1;
    switch (n.op) {
      case Op::Constant: c = to.rational(n.num, n.den); break;
      case Op::Literal: c = to.constant(n.value); break;
      case Op::Decimal: c = to.decimal(from.decimals()[static_cast<std::size_t>(n.index)]); break;
      case Op::Pi: c = to.pi(); break;
      case Op::Epsilon: c = to.epsilon(); break;
      case Op::Input: c = n.array == 2 ? to.constant(0) : to.input(n.array, n.index); break;
      default:
        c = to.apply(n.op, done[static_cast<std::size_t>(n.a)], n.b >= 0 ? done[static_cast<std::size_t>(n.b)] : -1);
    }
    done[static_cast<std::size_t>(k)] = c;
    stack.pop_back();
  }
  return done[static_cast<std::size_t>(id)];
}

// M = L D L^T (M symmetric positive definite, r x r, row-major; L unit
// lower triangular, D diagonal), without pivoting, in the recording graph.
struct Ldlt {
  std::vector<Expr> L, D;
  Ldlt(const std::vector<Expr>& M, std::size_t r) : L(r * r, Expr(0)), D(r, Expr(0)) {
    for (std::size_t j = 0; j < r; ++j) {
      Expr d = M[j * r + j];
      for (std::size_t k = 0; k < j; ++k) d = d - L[j * r + k] * L[j * r + k] * D[k];
      D[j] = d;
      for (std::size_t i = j + 1; i < r; ++i) {
        Expr s = M[i * r + j];
        for (std::size_t k = 0; k < j; ++k) s = s - L[i * r + k] * L[j * r + k] * D[k];
        L[i * r + j] = s / D[j];
      }
    }
  }
};

// x with M x = b, M symmetric positive definite (r x r, row-major), by
// LDL^T without pivoting, in the recording graph.
std::vector<Expr> solve_spd(const std::vector<Expr>& M, const std::vector<Expr>& b) {
  const std::size_t r = b.size();
  const Ldlt f(M, r);
  const std::vector<Expr>&L = f.L, &D = f.D;
  std::vector<Expr> x(r, Expr(0));
  std::vector<Expr> y(r, Expr(0));
  for (std::size_t i = 0; i < r; ++i) {
    Expr s = b[i];
    for (std::size_t k = 0; k < i; ++k) s = s - L[i * r + k] * y[k];
    y[i] = s;
  }
  for (std::size_t i = r; i-- > 0;) {
    Expr s = y[i] / D[i];
    for (std::size_t k = i + 1; k < r; ++k) s = s - L[k * r + i] * x[k];
    x[i] = s;
  }
  return x;
}

// C's program and the nodes of A = dC/dqdot (r x n, row-major) in it.
struct ConstraintRows {
  Program source;
  int n;
  std::vector<int> nodes;
  ConstraintRows(const Program& constraints, int n_)
      : source(constraints), n(n_), nodes(codegen::jacobian_nodes(source.graph, source.outputs, 2, n_)) {}
  // A(a, j) copied at rest into the recording graph `to` (done: copy_at_rest's map).
  Expr at(std::size_t a, int j, Graph& to, std::vector<int>& done) const {
    return Expr::from_id(copy_at_rest(source.graph, nodes[a * static_cast<std::size_t>(n) + static_cast<std::size_t>(j)],
                                      to, done));
  }
};

}  // namespace

void Loader::add_split_margin(Program& singular) {
  if (!derives_parametrization()) return;
  const int n = static_cast<int>(f_.info.coordinates.size());
  const auto& dep = f_.info.dependent_velocities;
  const std::string name = "margin_split";
  if (std::any_of(f_.singular_sets.begin(), f_.singular_sets.end(), [&](const FileSingularSet& x) { return x.name == name; }))
    fail(*root_.get("dependent_velocities"), "dependent_velocities: the singular set " + name +
                                                 " of the derived psi is already declared in [singular]");
  const ConstraintRows rows(f_.constraints, n);
  const std::size_t r = rows.source.outputs.size();
  const codegen::Recording recording(singular.graph);
  std::vector<int> done(static_cast<std::size_t>(rows.source.graph.size()), -1);
  // The rows of A over their norms (each constraint's scale out), then
  // M = A_dep^T A_dep of those rows and the product of its LDL^T pivots
  // (as solve_spd's), det M = det(A_dep)^2: the margin |det A_dep| is 0
  // exactly where A_dep loses rank, and at most 1 (Hadamard's inequality).
  std::vector<Expr> norm(r, Expr(0));
  for (std::size_t a = 0; a < r; ++a) {
    for (int j = 0; j < n; ++j) norm[a] = norm[a] + rows.at(a, j, singular.graph, done) * rows.at(a, j, singular.graph, done);
    norm[a] = sqrt(norm[a]);
  }
  const auto unit = [&](std::size_t a, int j) { return rows.at(a, j, singular.graph, done) / norm[a]; };
  std::vector<Expr> M(r * r, Expr(0));
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t j = 0; j < r; ++j)
      for (std::size_t a = 0; a < r; ++a) M[i * r + j] = M[i * r + j] + unit(a, dep[i]) * unit(a, dep[j]);
  Expr det(1);
  for (const Expr& d : Ldlt(M, r).D) det = det * d;
  // Over its value at the initial state and the default parameters, so that
  // the margin is 1 there and of unit scale (random states are refused below
  // 1/5): |det| is small for well-posed splits whose rows are mostly the
  // independent velocities' (0.21 on the bicycle).
  const Expr margin = sqrt(abs(det));
  singular.outputs.push_back(margin.id());
  const double at_initial = value_at_initial(singular);
  singular.outputs.pop_back();
  const double scale = at_initial > 0 && std::isfinite(at_initial) ? at_initial : 1;
  singular.outputs.push_back((margin / Expr(scale)).id());
  std::string names;
  for (const int i : dep) names += (names.empty() ? "" : ", ") + f_.info.coordinates[static_cast<std::size_t>(i)];
  f_.singular_sets.push_back({name, "the derived psi: the constraints cannot be solved for the velocities of " + names +
                                        " (dependent_velocities; the columns of dC/dqdot for them lose rank; "
                                        "|det| of the unit rows' block over its initial value " +
                                        to_string<double>(scale) + ")"});
}

double Loader::value_at_initial(const Program& p) const {
  std::vector<double> defaults;
  for (const Parameter& par : f_.info.parameters) defaults.push_back(from_string<double>(par.default_value));
  const Params<double> params(defaults);
  Vec<double> q(static_cast<Eigen::Index>(f_.initial_q.outputs.size()));
  expression::evaluate(f_.initial_q, expression::constants_of<double>(f_.initial_q), params, {}, q.data());
  const Vec<double> qdot = Vec<double>::Zero(q.size());
  std::vector<double> out(p.outputs.size());
  expression::evaluate(p, expression::constants_of<double>(p), params, {&q, &qdot}, out.data());
  return out.back();
}

bool Loader::derives_parametrization() const {
  return !root_.get("parametrization") && !f_.info.dependent_velocities.empty() &&
         (f_.info.linear_constraints || f_.info.affine_constraints);
}

void Loader::derive_parametrization() {
  const auto& q = f_.info.coordinates;
  const int n = static_cast<int>(q.size());
  const auto& dep = f_.info.dependent_velocities;
  std::vector<int> independent;
  for (int i = 0; i < n; ++i)
    if (std::find(dep.begin(), dep.end(), i) == dep.end()) independent.push_back(i);
  const toml::node& at = *root_.get("dependent_velocities");
  if (f_.info.quasi_velocities.empty()) {
    for (const int i : independent) {
      f_.info.quasi_velocities.push_back(q[static_cast<std::size_t>(i)] + "d");
      claim(at, f_.info.quasi_velocities.back(),
            "derived quasi-velocity (the velocity of " + q[static_cast<std::size_t>(i)] +
                "; declare quasi_velocities = [...] to name them otherwise)");
    }
  } else if (f_.info.quasi_velocities.size() != independent.size()) {
    fail(*root_.get("quasi_velocities"),
         std::to_string(f_.info.quasi_velocities.size()) + " quasi_velocities, and psi derived from "
         "dependent_velocities has one per independent velocity: " + std::to_string(independent.size()));
  }
  f_.locations["parametrization"] = where(at);
  f_.locations["chart"] = where(at);
  // A = dC/dqdot (r x n) and a0 = C(q, 0) in a copy of C's program.
  const ConstraintRows rows(f_.constraints, n);
  const std::size_t r = rows.source.outputs.size();
  Program psi;
  const codegen::Recording recording(psi.graph);
  std::vector<int> done(static_cast<std::size_t>(rows.source.graph.size()), -1);
  const auto A = [&](std::size_t a, int j) { return rows.at(a, j, psi.graph, done); };
  std::vector<Expr> rhs(r, Expr(0));
  for (std::size_t a = 0; a < r; ++a) {
    Expr s = Expr::from_id(copy_at_rest(rows.source.graph, rows.source.outputs[a], psi.graph, done));
    for (std::size_t k = 0; k < independent.size(); ++k)
      s = s + A(a, independent[k]) * Expr::from_id(psi.graph.input(2, static_cast<int>(k)));
    rhs[a] = -s;
  }
  // The normal equations of A_dep qdot_dep = rhs.
  std::vector<Expr> M(r * r, Expr(0)), b(r, Expr(0));
  for (std::size_t i = 0; i < r; ++i) {
    for (std::size_t a = 0; a < r; ++a) b[i] = b[i] + A(a, dep[i]) * rhs[a];
    for (std::size_t j = 0; j < r; ++j)
      for (std::size_t a = 0; a < r; ++a) M[i * r + j] = M[i * r + j] + A(a, dep[i]) * A(a, dep[j]);
  }
  const std::vector<Expr> x = solve_spd(M, b);
  Program chart;
  const codegen::Recording chart_recording(chart.graph);
  for (int i = 0; i < n; ++i) {
    const auto d = std::find(dep.begin(), dep.end(), i);
    if (d != dep.end()) {
      psi.outputs.push_back(x[static_cast<std::size_t>(d - dep.begin())].id());
    } else {
      const auto k = std::find(independent.begin(), independent.end(), i) - independent.begin();
      psi.outputs.push_back(psi.graph.input(2, static_cast<int>(k)));
      chart.outputs.push_back(chart.graph.input(2, i));
    }
  }
  f_.parametrization = std::move(psi);
  f_.derived.push_back("psi");
  f_.chart = std::move(chart);
}

}  // namespace nhs::systemfile
