// Implementation of nhs/symbolic/symbolic_system.hpp.
#include "nhs/symbolic/symbolic_system.hpp"

#include "nhs/errors.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace nhs::symbolic {
namespace {

using codegen::Expr;
using codegen::Graph;
using codegen::Op;

// Input arrays of the recording: parameters, q, qdot, z.
enum Array : int { kParameters = 0, kQ = 1, kQdot = 2, kZ = 3 };

bool is_greek(const std::string& s) {
  static const std::set<std::string> greek = {
      "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta",
      "vartheta", "iota", "kappa", "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau",
      "upsilon", "phi", "varphi", "chi", "psi", "omega", "Gamma", "Delta", "Theta", "Lambda",
      "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi", "Omega"};
  return greek.count(s) != 0;
}

// LaTeX for a name of the file syntax: a Greek letter's command, trailing
// digits and the part after the first '_' as a subscript (theta1 ->
// \theta_{1}, I_z -> I_{z}, m_rod -> m_{rod}); further '_' in the
// subscript separate its indices with commas (x_1_2 -> x_{1,2}, one
// subscript, never x_{1_2}: TeX refuses double subscripts); a '_' that
// starts or ends the name stays in the upright base as \_ (_ -> \_,
// x_ -> \mathrm{x\_}). docs/equations.md, "Names".
std::string tex_base(const std::string& base) {
  if (is_greek(base)) return "\\" + base;
  if (base.size() == 1 && base != "_") return base;
  std::string t;
  for (char c : base) t += c == '_' ? std::string("\\_") : std::string(1, c);
  return base.size() == 1 ? t : "\\mathrm{" + t + "}";
}

std::string tex_subscript(const std::string& sub) {
  std::string t, part;
  for (std::size_t i = 0; i <= sub.size(); ++i) {
    if (i < sub.size() && sub[i] != '_') {
      part += sub[i];
      continue;
    }
    t += (is_greek(part) ? "\\" : "") + part + (i < sub.size() ? "," : "");
    part.clear();
  }
  return t;
}
}  // namespace

std::string tex_of_name(const std::string& name) {
  std::string base = name, sub;
  if (const auto u = name.find('_'); u != std::string::npos && u > 0 && u + 1 < name.size()) {
    base = name.substr(0, u);
    sub = name.substr(u + 1);
  }
  if (sub.empty()) {
    auto k = base.size();
    while (k > 0 && std::isdigit(static_cast<unsigned char>(base[k - 1]))) --k;
    if (k > 0 && k < base.size()) {
      sub = base.substr(k);
      base = base.substr(0, k);
    }
  }
  std::string t = tex_base(base);
  if (!sub.empty()) t += "_{" + tex_subscript(sub) + "}";
  return t;
}

namespace {

// An accent over a name's base, its subscript outside: \dot{x}_{1}, not
// \dot{x_{1}} (which puts the dot over the subscript's middle).
std::string accented(const std::string& accent, const std::string& tex) {
  const auto u = tex.find("_{");
  if (u == std::string::npos || u == 0) return accent + "{" + tex + "}";
  return accent + "{" + tex.substr(0, u) + "}" + tex.substr(u);
}

// A name as upright text in LaTeX (a constraint's name in lambda_C1).
std::string upright(const std::string& name) {
  std::string t;
  for (char c : name) t += c == '_' ? std::string("\\_") : std::string(1, c);
  return "\\mathrm{" + t + "}";
}

class Names {
 public:
  GiNaC::ex make(const std::string& name, const std::string& tex) {
    if (!used_.insert(name).second)
      throw UsageError("equations: the name '" + name +
                       "' stands for two different things in the text format (docs/equations.md); "
                       "rename a coordinate, quasi-velocity, constraint or parameter");
    return GiNaC::realsymbol(name, tex);
  }

 private:
  std::set<std::string> used_;
};

// The GiNaC expression of every node of `g`, in node order (a topological
// order); inputs resolve through `inputs[array][index]`.
std::vector<GiNaC::ex> to_ginac(const Graph& g, const std::array<std::vector<GiNaC::ex>, 4>& inputs) {
  std::vector<GiNaC::ex> e;
  e.reserve(static_cast<std::size_t>(g.size()));
  for (int id = 0; id < g.size(); ++id) {
    const codegen::Node& nd = g.node(id);
    const auto A = [&] { return e.at(static_cast<std::size_t>(nd.a)); };
    const auto B = [&] { return e.at(static_cast<std::size_t>(nd.b)); };
    GiNaC::ex v;
    switch (nd.op) {
      case Op::Constant: v = GiNaC::numeric(static_cast<long>(nd.num)) / GiNaC::numeric(static_cast<long>(nd.den)); break;
      case Op::Literal:  // a non-finite literal is refused if it reaches an output
        v = std::isfinite(nd.value) ? GiNaC::ex(GiNaC::numeric(nd.value)) : GiNaC::ex(GiNaC::symbol("non_finite_literal"));
        break;
      case Op::Epsilon: v = GiNaC::symbol("machine_epsilon"); break;  // refused if it reaches an output
      case Op::Input: {
        const auto& arr = inputs.at(static_cast<std::size_t>(nd.array));
        if (nd.index < 0 || static_cast<std::size_t>(nd.index) >= arr.size())
          throw codegen::TracingError("equations: input " + std::to_string(nd.index) + " of array " +
                                      std::to_string(nd.array) + " out of range");
        v = arr[static_cast<std::size_t>(nd.index)];
        break;
      }
      case Op::Add: v = A() + B(); break;
      case Op::Sub: v = A() - B(); break;
      case Op::Mul: v = A() * B(); break;
      case Op::Div: v = A() / B(); break;
      case Op::Atan2: v = GiNaC::atan2(A(), B()); break;
      case Op::Max: v = GiNaC::symbol("max_of_traced_values"); break;  // refused if it reaches an output
      case Op::Neg: v = -A(); break;
      case Op::Sin: v = GiNaC::sin(A()); break;
      case Op::Cos: v = GiNaC::cos(A()); break;
      case Op::Tan: v = GiNaC::tan(A()); break;
      case Op::Asin: v = GiNaC::asin(A()); break;
      case Op::Acos: v = GiNaC::acos(A()); break;
      case Op::Atan: v = GiNaC::atan(A()); break;
      case Op::Sqrt: v = GiNaC::sqrt(A()); break;
      case Op::Exp: v = GiNaC::exp(A()); break;
      case Op::Log: v = GiNaC::log(A()); break;
      case Op::Abs: v = GiNaC::abs(A()); break;
      case Op::Sinh: v = GiNaC::sinh(A()); break;
      case Op::Cosh: v = GiNaC::cosh(A()); break;
      case Op::Tanh: v = GiNaC::tanh(A()); break;
      case Op::Asinh: v = GiNaC::asinh(A()); break;
      case Op::Acosh: v = GiNaC::acosh(A()); break;
      case Op::Atanh: v = GiNaC::atanh(A()); break;
    }
    e.push_back(v);
  }
  return e;
}

// An output's expression; UsageError when it holds an operation with no
// symbolic meaning here.
GiNaC::ex output(const std::vector<GiNaC::ex>& e, const Expr& x, const std::string& what) {
  const GiNaC::ex v = e.at(static_cast<std::size_t>(x.id()));
  static const std::map<std::string, std::string> placeholders = {
      {"machine_epsilon", "the machine epsilon"},
      {"max_of_traced_values", "max()"},
      {"non_finite_literal", "a non-finite constant"}};
  for (GiNaC::const_preorder_iterator it = v.preorder_begin(); it != v.preorder_end(); ++it)
    if (GiNaC::is_a<GiNaC::symbol>(*it))
      if (const auto p = placeholders.find(GiNaC::ex_to<GiNaC::symbol>(*it).get_name()); p != placeholders.end())
        throw UsageError("equations: " + what + " uses " + p->second + ", which has no symbolic form");
  return v;
}

Vec<Expr> inputs_of(int array, int size) {
  Vec<Expr> v(size);
  for (int i = 0; i < size; ++i) v[i] = Expr::input(array, i);
  return v;
}

// d/dt of f(q, qdot) along (qdot, qddot).
GiNaC::ex time_derivative(const GiNaC::ex& f, const SymbolicSystem& s) {
  GiNaC::ex d = 0;
  for (int i = 0; i < s.n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    d += f.diff(GiNaC::ex_to<GiNaC::symbol>(s.q[k])) * s.qdot[k] +
         f.diff(GiNaC::ex_to<GiNaC::symbol>(s.qdot[k])) * s.qddot[k];
  }
  return d;
}

std::vector<GiNaC::ex> vec_of(const std::vector<GiNaC::ex>& e, const Vec<Expr>& v, const std::string& what) {
  std::vector<GiNaC::ex> out;
  for (Eigen::Index i = 0; i < v.size(); ++i) out.push_back(output(e, v[i], what));
  return out;
}

GiNaC::ex dot(const std::vector<GiNaC::ex>& a, const std::vector<GiNaC::ex>& b) {
  GiNaC::ex s = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) s += a[i] * b[i];
  return s;
}

// The Appellian of the bodies recorded in `b` (see SymbolicSystem::appellian).
GiNaC::ex appellian_of(const std::vector<GiNaC::ex>& e, const Bodies<Expr>& b, const SymbolicSystem& s) {
  const auto accel = [&](const Vec<Expr>& r) {
    std::vector<GiNaC::ex> a;
    for (const GiNaC::ex& x : vec_of(e, r, "a body's position"))
      a.push_back(time_derivative(time_derivative(x, s), s));
    return a;
  };
  GiNaC::ex S = 0;
  for (const auto& p : b.points) {
    const auto a = accel(p.position);
    S += output(e, p.mass, "a mass") * dot(a, a) / 2;
  }
  for (const auto& rb : b.rigid_bodies) {
    const auto a = accel(rb.centre);
    std::vector<GiNaC::ex> w, eps, Jw(3), Je(3);
    for (int i = 0; i < 3; ++i) {
      w.push_back(output(e, rb.omega[i], "an angular velocity"));
      eps.push_back(time_derivative(w.back(), s));
    }
    for (int i = 0; i < 3; ++i) {
      Jw[static_cast<std::size_t>(i)] = 0;
      Je[static_cast<std::size_t>(i)] = 0;
      for (int j = 0; j < 3; ++j) {
        const GiNaC::ex Jij = output(e, rb.inertia(i, j), "an inertia tensor");
        Jw[static_cast<std::size_t>(i)] += Jij * w[static_cast<std::size_t>(j)];
        Je[static_cast<std::size_t>(i)] += Jij * eps[static_cast<std::size_t>(j)];
      }
    }
    const std::vector<GiNaC::ex> wxJw = {w[1] * Jw[2] - w[2] * Jw[1], w[2] * Jw[0] - w[0] * Jw[2],
                                         w[0] * Jw[1] - w[1] * Jw[0]};
    S += output(e, rb.mass, "a mass") * dot(a, a) / 2 + dot(eps, Je) / 2 + dot(eps, wxJw);
  }
  return S;
}

}  // namespace

namespace {

// The system's defining functions, recorded once over the tracing scalar
// (the recording lives as long as the struct: its members are Exprs of
// `graph`).
struct Recorded {
  Graph graph;
  const codegen::Recording recording{graph};
  Expr T, V;
  Vec<Expr> C, F, psi;  ///< F: the non-conservative plus the non-ideal constraint force
  Bodies<Expr> bodies;
  bool has_bodies = false;
};

// Records into `rec` the system that `build` makes, with info's shapes.
void record(const codegen::TracedSystemBuilder& build, const SystemInfo& info, Recorded& rec) {
  const int n = static_cast<int>(info.coordinates.size()), r = static_cast<int>(info.constraint_names.size()),
            m = static_cast<int>(info.quasi_velocities.size());
  std::vector<Expr> p;
  for (std::size_t i = 0; i < info.parameters.size(); ++i) p.push_back(Expr::input(kParameters, static_cast<int>(i)));
  const System<Expr> sys = build(p);
  const Vec<Expr> q = inputs_of(kQ, n), qd = inputs_of(kQdot, n), z = inputs_of(kZ, m);
  rec.T = sys.kinetic_energy(q, qd);
  rec.V = sys.potential(q);
  rec.C.resize(r);
  Vec<Expr> F = Vec<Expr>::Zero(n), Fc = Vec<Expr>::Zero(n);
  sys.constraints(q, qd, rec.C);
  if (sys.nonconservative_force) sys.nonconservative_force(q, qd, F);
  if (sys.nonideal_constraint_force) sys.nonideal_constraint_force(q, qd, Fc);
  rec.F = F + Fc;
  if (sys.has_parametrization()) {
    rec.psi.resize(n);
    sys.parametrization(q, z, rec.psi);
  }
  rec.has_bodies = sys.has_bodies();
  if (rec.has_bodies) sys.bodies(q, qd, rec.bodies);
}

}  // namespace

double derivation_size(const codegen::TracedSystemBuilder& build, const SystemInfo& info) {
  Recorded rec;
  record(build, info, rec);
  const double n = static_cast<double>(info.coordinates.size());
  return n * n * static_cast<double>(rec.graph.size());
}

void require_derivation_budget(const codegen::TracedSystemBuilder& build, const SystemInfo& info, double budget,
                               const std::string& option) {
  const double size = derivation_size(build, info);
  if (size > budget) {
    char text[160];
    std::snprintf(text, sizeof text, "an estimated derivation size of %.3g (n^2 x traced nodes), beyond the budget %.3g",
                  size, budget);
    throw UsageError("equations: '" + info.name + "' has " + text +
                     ": its symbolic equations would take more time and memory than the budget allows "
                     "(docs/equations.md, \"Limits\"); raise it with " + option + " to try");
  }
}

std::string name_of(const GiNaC::ex& symbol) { return GiNaC::ex_to<GiNaC::symbol>(symbol).get_name(); }

SymbolicSystem symbolic_system(const codegen::TracedSystemBuilder& build, const SystemInfo& info) {
  SymbolicSystem s;
  s.info = info;
  s.n = static_cast<int>(info.coordinates.size());
  s.r = static_cast<int>(info.constraint_names.size());
  s.m = static_cast<int>(info.quasi_velocities.size());
  Names names;
  for (const auto& p : info.parameters) s.parameters.push_back(names.make(p.name, tex_of_name(p.name)));
  for (const auto& c : info.coordinates) {
    const std::string t = tex_of_name(c);
    s.q.push_back(names.make(c, t));
    s.qdot.push_back(names.make(c + "_dot", accented("\\dot", t)));
    s.qddot.push_back(names.make(c + "_ddot", accented("\\ddot", t)));
  }
  for (const auto& z : info.quasi_velocities) {
    // A quasi-velocity named <x>_dot is the velocity of coordinate x (the
    // linear bipendulum's y0_dot): one symbol, and its derivative is
    // x_ddot; checked against psi below.
    const auto same = std::find(info.coordinates.begin(), info.coordinates.end(),
                                z.size() > 4 && z.compare(z.size() - 4, 4, "_dot") == 0 ? z.substr(0, z.size() - 4) : "");
    if (same != info.coordinates.end()) {
      const auto i = static_cast<std::size_t>(same - info.coordinates.begin());
      s.z.push_back(s.qdot[i]);
      s.zdot.push_back(s.qddot[i]);
      continue;
    }
    const std::string t = tex_of_name(z);
    s.z.push_back(names.make(z, t));
    s.zdot.push_back(names.make(z + "_dot", accented("\\dot", t)));
  }
  for (const auto& c : info.constraint_names)
    s.lambda.push_back(names.make("lambda_" + c, "\\lambda_{" + upright(c) + "}"));

  Recorded rec;
  record(build, info, rec);
  const std::vector<GiNaC::ex> e = to_ginac(rec.graph, {s.parameters, s.q, s.qdot, s.z});
  s.T = output(e, rec.T, "the kinetic energy T");
  s.V = output(e, rec.V, "the potential V");
  s.C = vec_of(e, rec.C, "a constraint");
  s.F = vec_of(e, rec.F, "a force");
  if (rec.psi.size() > 0) s.psi = vec_of(e, rec.psi, "the parametrization psi");
  for (int a = 0; a < s.m; ++a)
    for (int i = 0; i < s.n; ++i)
      if (s.z[static_cast<std::size_t>(a)].is_equal(s.qdot[static_cast<std::size_t>(i)]) &&
          !(s.psi.size() == static_cast<std::size_t>(s.n) &&
            GiNaC::normal(s.psi[static_cast<std::size_t>(i)] - s.qdot[static_cast<std::size_t>(i)]).is_zero()))
        throw UsageError("equations: the quasi-velocity '" + info.quasi_velocities[static_cast<std::size_t>(a)] +
                         "' is named as the velocity of '" + info.coordinates[static_cast<std::size_t>(i)] +
                         "' but psi does not make it that velocity; rename it");
  if (rec.has_bodies) s.appellian = appellian_of(e, rec.bodies, s);
  return s;
}

}  // namespace nhs::symbolic
