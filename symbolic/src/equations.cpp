// Implementation of nhs/symbolic/equations.hpp: each formulation's
// equations from T, V, C, F, psi and the Appellian of SymbolicSystem, by
// GiNaC's differentiation and linear algebra. docs/equations.md gives the
// forms with their sources.
#include "nhs/symbolic/equations.hpp"

#include "nhs/errors.hpp"

#include <algorithm>
#include <functional>
#include <map>

namespace nhs::symbolic {
namespace {

using GiNaC::ex;
using Exs = std::vector<ex>;

const GiNaC::symbol& sym(const ex& e) { return GiNaC::ex_to<GiNaC::symbol>(e); }
ex d(const ex& e, const ex& x) { return e.diff(sym(x)); }
std::size_t u(int i) { return static_cast<std::size_t>(i); }

Exs concat(std::initializer_list<const Exs*> parts) {
  Exs out;
  for (const Exs* p : parts) out.insert(out.end(), p->begin(), p->end());
  return out;
}

}  // namespace

GiNaC::matrix metric(const SymbolicSystem& s);
GiNaC::matrix constraint_jacobian(const SymbolicSystem& s);

namespace {

// The quantities every formulation starts from (see the header comment).
struct Mechanics {
  GiNaC::matrix g;  // g_ij = d^2T/dqdot^i dqdot^j, n x n
  Exs E;            // d/dt dT/dqdot^i - dT/dq^i, with qddot symbols, size n
  Exs Gamma;        // E_i - g_ij qddot^j, size n
  Exs A;            // -dV/dq^i + F_i, size n
  GiNaC::matrix Cqd;  // dC^a/dqdot^i, r x n
  Exs Cq_qdot;        // dC^a/dq^i qdot^i, size r
};

Mechanics mechanics(const SymbolicSystem& s) {
  Mechanics k{metric(s), {}, {}, {}, constraint_jacobian(s), {}};
  for (int i = 0; i < s.n; ++i) {
    const ex p = d(s.T, s.qdot[u(i)]);
    ex Ei = -d(s.T, s.q[u(i)]), Gi = Ei;
    for (int j = 0; j < s.n; ++j) {
      Ei += k.g(u(i), u(j)) * s.qddot[u(j)] + d(p, s.q[u(j)]) * s.qdot[u(j)];
      Gi += d(p, s.q[u(j)]) * s.qdot[u(j)];
    }
    k.E.push_back(Ei);
    k.Gamma.push_back(Gi);
    k.A.push_back(-d(s.V, s.q[u(i)]) + s.F[u(i)]);
  }
  for (int a = 0; a < s.r; ++a) {
    ex b = 0;
    for (int i = 0; i < s.n; ++i) b += d(s.C[u(a)], s.q[u(i)]) * s.qdot[u(i)];
    k.Cq_qdot.push_back(b);
  }
  return k;
}

}  // namespace

GiNaC::matrix metric(const SymbolicSystem& s) {
  GiNaC::matrix g(u(s.n), u(s.n));
  for (int i = 0; i < s.n; ++i) {
    const ex p = d(s.T, s.qdot[u(i)]);
    for (int j = 0; j < s.n; ++j) g(u(i), u(j)) = d(p, s.qdot[u(j)]);
  }
  return g;
}

GiNaC::matrix constraint_jacobian(const SymbolicSystem& s) {
  GiNaC::matrix A(u(s.r), u(s.n));
  for (int a = 0; a < s.r; ++a)
    for (int i = 0; i < s.n; ++i) A(u(a), u(i)) = d(s.C[u(a)], s.qdot[u(i)]);
  return A;
}

// The largest expression (in GiNaC nodes) a symbolic solve takes or
// leaves: past it the written equations would be pages long, and the time
// of GiNaC's multivariate gcds (in normal()) grows fast and erratically
// with size (it depends on the symbols' internal order: the same solve took
// 0.3 s in one process and over 100 s in another).
constexpr std::size_t kMaxNodes = 4000;

ex normal_form(const ex& e, std::size_t max_nodes) {
  const GiNaC::wildcard w(0);
  const ex t = GiNaC::expand(GiNaC::expand(e).subs(GiNaC::pow(GiNaC::sin(w), 2) == 1 - GiNaC::pow(GiNaC::cos(w), 2),
                                                   GiNaC::subs_options::algebraic));
  return size_of(t, max_nodes) > max_nodes ? t : GiNaC::normal(t);
}

std::size_t size_of(const ex& e, std::size_t limit) {
  std::size_t k = 0;
  for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end() && k <= limit; ++it) ++k;
  return k;
}

GiNaC::matrix solve_symbolic(GiNaC::matrix M, GiNaC::matrix B, const std::string& what,
                             const std::string& formulation, const std::string& system) {
  const unsigned n = M.rows();
  const std::size_t budget = kMaxNodes;
  const auto check = [&](const ex& e) {
    if (size_of(e, budget) > budget)
      throw NotApplicable("formulation '" + formulation + "' is not written for '" + system + "': solving the " +
                          std::to_string(n) + " x " + std::to_string(n) + " system with " + what +
                          " symbolically gives expressions of more than " + std::to_string(budget) +
                          " nodes (docs/equations.md, \"Limits\"); its implicit form is written by "
                          "lagrange-multipliers or maggi");
    return e;
  };
  for (unsigned i = 0; i < n; ++i) {  // inputs past the budget: refused before GiNaC's gcds run
    for (unsigned j = 0; j < n; ++j) check(M(i, j));
    for (unsigned j = 0; j < B.cols(); ++j) check(B(i, j));
  }
  for (unsigned c = 0; c < n; ++c) {
    unsigned pivot = n;
    std::size_t best = 0;
    for (unsigned r = c; r < n; ++r) {
      M(r, c) = check(GiNaC::normal(M(r, c)));
      if (M(r, c).is_zero()) continue;
      const std::size_t size = size_of(M(r, c));
      if (pivot == n || size < best) pivot = r, best = size;
    }
    if (pivot == n) throw SingularState(what, "equations: " + what + " of '" + system + "' is singular identically");
    for (unsigned j = 0; j < n; ++j) std::swap(M(c, j), M(pivot, j));
    for (unsigned j = 0; j < B.cols(); ++j) std::swap(B(c, j), B(pivot, j));
    const ex p = M(c, c);
    for (unsigned r = 0; r < n; ++r) {
      if (r == c) continue;
      const ex f = check(GiNaC::normal(M(r, c) / p));
      if (f.is_zero()) continue;
      for (unsigned j = c; j < n; ++j) M(r, j) = check(GiNaC::normal(M(r, j) - f * M(c, j)));
      for (unsigned j = 0; j < B.cols(); ++j) B(r, j) = check(GiNaC::normal(B(r, j) - f * B(c, j)));
    }
  }
  for (unsigned r = 0; r < n; ++r)
    for (unsigned j = 0; j < B.cols(); ++j) B(r, j) = check(GiNaC::normal(B(r, j) / M(r, r)));
  return B;
}

namespace {

void require_psi(const SymbolicSystem& s, const std::string& f) {
  if (s.psi.empty())
    throw NotApplicable("formulation '" + f + "' does not apply to '" + s.info.name +
                        "': the system has no parametric representation psi");
}

void require_definite(const SymbolicSystem& s, const std::string& f) {
  if (s.info.semidefinite_metric)
    throw NotApplicable("formulation '" + f + "' does not apply to '" + s.info.name +
                        "': its metric g is only semidefinite, and the written form inverts g "
                        "(the numerical udwadia-kalaba uses M_A there; lagrange-multipliers applies)");
}

// The substitution onto C in the coordinates (q, z): qdot = psi(q, z),
// qddot = (dpsi/dq^h) psi^h + (dpsi/dz^beta) zdot^beta (000 eqs. 33-35).
GiNaC::exmap onto_chart(const SymbolicSystem& s) {
  GiNaC::exmap m;
  for (int i = 0; i < s.n; ++i) {
    ex a = 0;
    for (int h = 0; h < s.n; ++h) a += d(s.psi[u(i)], s.q[u(h)]) * s.psi[u(h)];
    for (int b = 0; b < s.m; ++b) a += d(s.psi[u(i)], s.z[u(b)]) * s.zdot[u(b)];
    m[s.qdot[u(i)]] = s.psi[u(i)];
    m[s.qddot[u(i)]] = a;
  }
  return m;
}

// psi^i_alpha = dpsi^i/dz^alpha.
ex psi_alpha(const SymbolicSystem& s, int i, int alpha) { return d(s.psi[u(i)], s.z[u(alpha)]); }

std::vector<Definition> kinematics(const SymbolicSystem& s) {
  std::vector<Definition> defs;
  for (int i = 0; i < s.n; ++i)
    defs.push_back({s.qdot[u(i)], s.psi[u(i)], "the parametric representation qdot = psi(q, z)"});
  return defs;
}

FormulationEquations maggi_equations(const SymbolicSystem& s, const Mechanics& k) {
  require_psi(s, "maggi");
  FormulationEquations f;
  f.title = "Maggi's equations psi^i_alpha (d/dt dT/dqdot^i - dT/dq^i) = psi^i_alpha A_i on C (000 eq. 32, Remark 11.7)";
  f.definitions = kinematics(s);
  const GiNaC::exmap on = onto_chart(s);
  for (int a = 0; a < s.m; ++a) {
    ex lhs = 0, rhs = 0;
    for (int i = 0; i < s.n; ++i) {
      lhs += psi_alpha(s, i, a) * k.E[u(i)].subs(on);
      rhs += psi_alpha(s, i, a) * k.A[u(i)].subs(on);
    }
    f.equations.push_back({lhs, rhs});
  }
  f.unknowns = s.zdot;
  f.collect_in = concat({&s.zdot, &s.z});
  return f;
}

FormulationEquations first_kind_equations(const SymbolicSystem& s, const Mechanics& k) {
  require_psi(s, "first-kind");
  const FormulationEquations maggi = maggi_equations(s, k);
  // Maggi's residual is M zdot + c: zdot = -M^-1 c, M = G = psi^T g psi.
  GiNaC::matrix M(u(s.m), u(s.m)), c(u(s.m), 1);
  GiNaC::exmap at_rest;
  for (const ex& zd : s.zdot) at_rest[zd] = 0;
  for (int a = 0; a < s.m; ++a) {
    const ex res = maggi.equations[u(a)].lhs - maggi.equations[u(a)].rhs;
    for (int b = 0; b < s.m; ++b) M(u(a), u(b)) = GiNaC::normal(d(res, s.zdot[u(b)]));
    c(u(a), 0) = res.subs(at_rest);
  }
  const GiNaC::matrix Z =
      solve_symbolic(M, c.mul_scalar(-1), "the reduced metric G = psi^T g psi", "first-kind", s.info.name);
  FormulationEquations f;
  f.formulation = "first-kind";
  f.title = "Benenti's equations of the first kind: the field zdot = Z(q, z) on C, qdot = psi(q, z) "
            "(000 Thm 11.1, eq. 27; 001 Thm 7.1)";
  f.definitions = kinematics(s);
  for (int a = 0; a < s.m; ++a) f.equations.push_back({s.zdot[u(a)], Z(u(a), 0)});
  f.unknowns = s.zdot;
  f.collect_in = concat({&s.zdot, &s.z});
  return f;
}

FormulationEquations gibbs_appell_equations(const SymbolicSystem& s, const Mechanics& k) {
  require_psi(s, "gibbs-appell");
  if (!s.appellian)
    throw NotApplicable("formulation 'gibbs-appell' does not apply to '" + s.info.name +
                        "': the system declares no bodies, from which the Appellian S is defined");
  FormulationEquations f;
  f.title = "the Gibbs-Appell equations dS/dzdot^alpha = psi^i_alpha A_i, S the Appellian of the bodies "
            "on C (001 §5, eqs. 3.3, 5.2-5.4; 000 eqs. 65-67)";
  f.definitions = kinematics(s);
  GiNaC::exmap at_rest;
  for (const ex& zd : s.zdot) at_rest[zd] = 0;
  const GiNaC::exmap on = onto_chart(s);
  const ex S_full = s.appellian->subs(on);
  const ex S = GiNaC::expand(S_full - S_full.subs(at_rest));  // the terms free of zdot do not enter
  const GiNaC::realsymbol S_symbol("S", "S");
  f.definitions.push_back({S_symbol, S, "the Appellian S on C, without its terms free of zdot"});
  for (int a = 0; a < s.m; ++a) {
    ex rhs = 0;
    for (int i = 0; i < s.n; ++i) rhs += psi_alpha(s, i, a) * k.A[u(i)].subs(on);
    f.equations.push_back({d(S, s.zdot[u(a)]), rhs});
  }
  f.unknowns = s.zdot;
  f.collect_in = concat({&s.zdot, &s.z});
  return f;
}

FormulationEquations second_kind_equations(const SymbolicSystem& s, const Mechanics& k) {
  require_definite(s, "second-kind");
  FormulationEquations f;
  f.title = "Benenti's equations of the second kind: g_ij qddot^j + Gamma_i = A_i + lambda_a dC^a/dqdot^i, "
            "with d/dt C^a = 0 determining lambda (001 Thm 8.1, eqs. 3.11, 8.12)";
  for (int i = 0; i < s.n; ++i) {
    ex R = 0;
    for (int a = 0; a < s.r; ++a) R += s.lambda[u(a)] * k.Cqd(u(a), u(i));
    f.equations.push_back({k.E[u(i)], k.A[u(i)] + R});
  }
  for (int a = 0; a < s.r; ++a) {
    ex lhs = k.Cq_qdot[u(a)];
    for (int i = 0; i < s.n; ++i) lhs += k.Cqd(u(a), u(i)) * s.qddot[u(i)];
    f.equations.push_back({lhs, 0});
  }
  f.unknowns = concat({&s.qddot, &s.lambda});
  f.collect_in = concat({&s.qddot, &s.lambda, &s.qdot});
  return f;
}

FormulationEquations kkt_equations(const SymbolicSystem& s, const Mechanics& k) {
  FormulationEquations f;
  f.title = "the Lagrange equations with multipliers as one KKT system "
            "[g, -A^T; A, 0] (qddot, lambda) = (A - Gamma, -dC/dq qdot), A = dC/dqdot (seed 004, "
            "\"Dinamica di Cetaev\"; 001 eqs. 3.11, 3.14)";
  GiNaC::matrix K(u(s.n + s.r), u(s.n + s.r));
  for (int i = 0; i < s.n; ++i) {
    ex lhs = 0;
    for (int j = 0; j < s.n; ++j) {
      K(u(i), u(j)) = k.g(u(i), u(j));
      lhs += k.g(u(i), u(j)) * s.qddot[u(j)];
    }
    for (int a = 0; a < s.r; ++a) {
      K(u(i), u(s.n + a)) = -k.Cqd(u(a), u(i));
      K(u(s.n + a), u(i)) = k.Cqd(u(a), u(i));
      lhs -= k.Cqd(u(a), u(i)) * s.lambda[u(a)];
    }
    f.equations.push_back({lhs, k.A[u(i)] - k.Gamma[u(i)]});
  }
  for (int a = 0; a < s.r; ++a) {
    ex lhs = 0;
    for (int i = 0; i < s.n; ++i) lhs += k.Cqd(u(a), u(i)) * s.qddot[u(i)];
    f.equations.push_back({lhs, -k.Cq_qdot[u(a)]});
  }
  f.augmented_matrix = K;
  f.unknowns = concat({&s.qddot, &s.lambda});
  f.collect_in = concat({&s.qddot, &s.lambda, &s.qdot});
  return f;
}

FormulationEquations udwadia_kalaba_equations(const SymbolicSystem& s, const Mechanics& k) {
  require_definite(s, "udwadia-kalaba");
  FormulationEquations f;
  f.title = "the Udwadia-Kalaba equation g qddot = Q + Q_c, Q = A - Gamma, "
            "Q_c = A^T (A g^-1 A^T)^-1 (b - A g^-1 Q), A = dC/dqdot, b = -dC/dq qdot "
            "(seed 003, \"Equazione di Udwadia-Kalaba\"; Udwadia and Kalaba 1992)";
  // Q_c = A^T mu with (A g^-1 A^T) mu = b - A g^-1 Q; g^-1 [Q, A^T] first.
  GiNaC::matrix QA(u(s.n), u(1 + s.r)), b(u(s.r), 1);
  for (int i = 0; i < s.n; ++i) {
    QA(u(i), 0) = k.A[u(i)] - k.Gamma[u(i)];
    for (int a = 0; a < s.r; ++a) QA(u(i), u(1 + a)) = k.Cqd(u(a), u(i));
  }
  for (int a = 0; a < s.r; ++a) b(u(a), 0) = -k.Cq_qdot[u(a)];
  const GiNaC::matrix X = solve_symbolic(k.g, QA, "the metric g", "udwadia-kalaba", s.info.name);
  GiNaC::matrix ginvQ(u(s.n), 1), ginvAt(u(s.n), u(s.r)), Q(u(s.n), 1);
  for (int i = 0; i < s.n; ++i) {
    Q(u(i), 0) = QA(u(i), 0);
    ginvQ(u(i), 0) = X(u(i), 0);
    for (int a = 0; a < s.r; ++a) ginvAt(u(i), u(a)) = X(u(i), u(1 + a));
  }
  const GiNaC::matrix mu = solve_symbolic(k.Cqd.mul(ginvAt), b.sub(k.Cqd.mul(ginvQ)), "A g^-1 A^T",
                                          "udwadia-kalaba", s.info.name);
  const GiNaC::matrix Qc = k.Cqd.transpose().mul(mu);
  for (int i = 0; i < s.n; ++i) {
    const std::string name = "Qc_" + name_of(s.q[u(i)]);
    const GiNaC::realsymbol Qci(name, "Q_{c," + tex_of_name(name_of(s.q[u(i)])) + "}");
    f.definitions.push_back({Qci, GiNaC::normal(Qc(u(i), 0)), "the constraint force Q_c (ideal constraints)"});
    ex lhs = 0;
    for (int j = 0; j < s.n; ++j) lhs += k.g(u(i), u(j)) * s.qddot[u(j)];
    f.equations.push_back({lhs, Q(u(i), 0) + Qci});
  }
  Exs qc;  // the constraint force's names, collected after the velocities
  for (const Definition& def : f.definitions) qc.push_back(def.symbol);
  f.unknowns = s.qddot;
  f.collect_in = concat({&s.qddot, &s.qdot, &qc});
  return f;
}

// Voronec's split of linear or affine constraints (002 eq. 8; A6): the
// independent indices, a = -C_dep^-1 C_indep (r x m) and a0 = -C_dep^-1
// C(q, 0) (r x 1, zero for homogeneous constraints).
struct VoronecSplit {
  std::vector<int> ind;
  GiNaC::matrix a, a0;
};

VoronecSplit voronec_split(const SymbolicSystem& s, const Mechanics& k) {
  const std::vector<int>& dep = s.info.dependent_velocities;
  if ((!s.info.linear_constraints && !s.info.affine_constraints) || static_cast<int>(dep.size()) != s.r)
    throw NotApplicable("formulation 'voronec' does not apply to '" + s.info.name +
                        "': it needs linear or affine constraints and the r dependent velocities they are solved "
                        "for (dependent_velocities)");
  VoronecSplit out;
  for (int i = 0; i < s.n; ++i)
    if (std::find(dep.begin(), dep.end(), i) == dep.end()) out.ind.push_back(i);
  const int m = static_cast<int>(out.ind.size()), r = s.r;
  GiNaC::matrix Cdep(u(r), u(r)), Cind(u(r), u(m));
  for (int a = 0; a < r; ++a) {
    for (int nu = 0; nu < r; ++nu) Cdep(u(a), u(nu)) = k.Cqd(u(a), u(dep[u(nu)]));
    for (int j = 0; j < m; ++j) Cind(u(a), u(j)) = k.Cqd(u(a), u(out.ind[u(j)]));
  }
  out.a = solve_symbolic(Cdep, Cind.mul_scalar(-1), "the dependent block of dC/dqdot", "voronec", s.info.name);
  out.a0 = GiNaC::matrix(u(r), 1);
  if (s.info.affine_constraints) {
    GiNaC::exmap still;
    for (const ex& v : s.qdot) still[v] = 0;
    GiNaC::matrix C0(u(r), 1);
    for (int c = 0; c < r; ++c) C0(u(c), 0) = -s.C[u(c)].subs(still);
    out.a0 = solve_symbolic(Cdep, C0, "the dependent block of dC/dqdot", "voronec", s.info.name);
  }
  return out;
}

// Voronec's equations (002 eqs. 8-11), as voronec.hpp solves them: the
// split qdot_dep = a(q) qdot_indep + a0(q) of linear or affine constraints
// (voronec_split); Tbar = T(q, qdot_indep, a qdot_indep + a0); for each
// independent i
//   d/dt dTbar/dqdot_i - dTbar/dq_i - a_nu,i dTbar/dq_dep,nu
//     - p_nu (b^nu_ij qdot_j + b0^nu_i) = A_i + a_nu,i A_dep,nu,
// p_nu = dT/dqdot_dep,nu on the split, b^nu_ij = da_nu,i/dq_j - da_nu,j/dq_i
// + da_nu,i/dq_dep,mu a_mu,j - da_nu,j/dq_dep,mu a_mu,i (002 eq. 11), and
// b0^nu_i = da_nu,i/dq_dep,mu a0_mu - da0_nu/dq_i - a_mu,i da0_nu/dq_dep,mu
// (docs/affine-constraints.md A7; 0 for homogeneous constraints).
FormulationEquations voronec_equations(const SymbolicSystem& s, const Mechanics& k) {
  const std::vector<int>& dep = s.info.dependent_velocities;
  const VoronecSplit sp = voronec_split(s, k);
  const std::vector<int>& ind = sp.ind;
  const int m = static_cast<int>(ind.size()), r = s.r;
  const GiNaC::matrix& a0 = sp.a0;
  const auto A = [&](int nu, int j) { return sp.a(u(nu), u(j)); };
  const auto qi = [&](int j) { return s.q[u(ind[u(j)])]; };
  const auto qdep = [&](int nu) { return s.q[u(dep[u(nu)])]; };

  FormulationEquations f;
  f.title = std::string("Voronec's equations for the split qdot_dep = a(q) qdot_indep") +
            (s.info.affine_constraints ? " + a0(q)" : "") + ", with the reduced kinetic energy Tbar and the " +
            (s.info.affine_constraints ? "coefficients b^nu_ij, b0^nu_i (002 eqs. 8-11; A7)" : "coefficients b^nu_ij (002 eqs. 8-11)");
  GiNaC::exmap split;
  for (int nu = 0; nu < r; ++nu) {
    ex v = 0;
    for (int j = 0; j < m; ++j) v += A(nu, j) * s.qdot[u(ind[u(j)])];
    v += a0(u(nu), 0);
    split[s.qdot[u(dep[u(nu)])]] = v;
    f.definitions.push_back({s.qdot[u(dep[u(nu)])], v, "the dependent velocities from the constraints (002 eq. 8)"});
  }
  // The affine part b0_nu,i (A7) as symbols b0_<dep>_<i>, 0 where it vanishes.
  GiNaC::matrix b0(u(r), u(m));
  if (s.info.affine_constraints)
    for (int nu = 0; nu < r; ++nu)
      for (int i = 0; i < m; ++i) {
        ex v = -d(a0(u(nu), 0), qi(i));
        for (int mu = 0; mu < r; ++mu)
          v += d(A(nu, i), qdep(mu)) * a0(u(mu), 0) - A(mu, i) * d(a0(u(nu), 0), qdep(mu));
        v = GiNaC::normal(v);
        if (v.is_zero()) continue;
        const std::string nd = name_of(qdep(nu)), ni = name_of(qi(i));
        const GiNaC::realsymbol bs("b0_" + nd + "_" + ni, "b^{" + tex_of_name(nd) + "}_{" + tex_of_name(ni) + "\\,0}");
        f.definitions.push_back({bs, v, "the affine part of Voronec's coefficients, b0^nu_i (docs/affine-constraints.md A7)"});
        b0(u(nu), u(i)) = bs;
      }
  // b^nu_ij as symbols b_<dep>_<i>_<j> for i < j (antisymmetric), 0 where it vanishes.
  std::vector<GiNaC::matrix> b(u(r), GiNaC::matrix(u(m), u(m)));
  for (int nu = 0; nu < r; ++nu)
    for (int i = 0; i < m; ++i)
      for (int j = i + 1; j < m; ++j) {
        ex v = d(A(nu, i), qi(j)) - d(A(nu, j), qi(i));
        for (int mu = 0; mu < r; ++mu) v += d(A(nu, i), qdep(mu)) * A(mu, j) - d(A(nu, j), qdep(mu)) * A(mu, i);
        v = GiNaC::normal(v);
        if (v.is_zero()) continue;
        const std::string nd = name_of(qdep(nu)), ni = name_of(qi(i)), nj = name_of(qi(j));
        const GiNaC::realsymbol bs("b_" + nd + "_" + ni + "_" + nj, "b^{" + tex_of_name(nd) + "}_{" + tex_of_name(ni) + "\\," + tex_of_name(nj) + "}");
        f.definitions.push_back({bs, v, "Voronec's coefficient b^nu_ij (002 eq. 11), b^nu_ji = -b^nu_ij"});
        b[u(nu)](u(i), u(j)) = bs;
        b[u(nu)](u(j), u(i)) = -bs;
      }
  const ex Tbar = s.T.subs(split);
  for (int i = 0; i < m; ++i) {
    const ex p = d(Tbar, s.qdot[u(ind[u(i)])]);
    ex lhs = -d(Tbar, qi(i));
    for (int kk = 0; kk < s.n; ++kk) lhs += d(p, s.q[u(kk)]) * s.qdot[u(kk)].subs(split);
    for (int j = 0; j < m; ++j) lhs += d(p, s.qdot[u(ind[u(j)])]) * s.qddot[u(ind[u(j)])];
    ex rhs = k.A[u(ind[u(i)])].subs(split);
    for (int nu = 0; nu < r; ++nu) {
      lhs -= A(nu, i) * d(Tbar, qdep(nu));
      const ex p_nu = d(s.T, s.qdot[u(dep[u(nu)])]).subs(split);
      for (int j = 0; j < m; ++j) lhs -= p_nu * b[u(nu)](u(i), u(j)) * s.qdot[u(ind[u(j)])];
      lhs -= p_nu * b0(u(nu), u(i));
      rhs += A(nu, i) * k.A[u(dep[u(nu)])].subs(split);
    }
    f.equations.push_back({lhs, rhs});
  }
  Exs qdd, qd;
  for (int j : ind) {
    qdd.push_back(s.qddot[u(j)]);
    qd.push_back(s.qdot[u(j)]);
  }
  Exs bs;  // Voronec's coefficients, collected after the velocities
  for (const Definition& def : f.definitions)
    if (name_of(def.symbol).rfind("b_", 0) == 0 || name_of(def.symbol).rfind("b0_", 0) == 0) bs.push_back(def.symbol);
  f.unknowns = qdd;
  f.collect_in = concat({&qdd, &qd, &bs});
  return f;
}

}  // namespace

const std::vector<std::string>& symbolic_formulations() {
  static const std::vector<std::string> names = {"first-kind", "maggi", "gibbs-appell", "second-kind",
                                                 "udwadia-kalaba", "lagrange-multipliers", "voronec"};
  return names;
}

FormulationEquations equations_of(const SymbolicSystem& s, const std::string& formulation) {
  using Builder = std::function<FormulationEquations(const SymbolicSystem&, const Mechanics&)>;
  static const std::map<std::string, Builder> builders = {
      {"first-kind", first_kind_equations},         {"maggi", maggi_equations},
      {"gibbs-appell", gibbs_appell_equations},     {"second-kind", second_kind_equations},
      {"udwadia-kalaba", udwadia_kalaba_equations}, {"lagrange-multipliers", kkt_equations},
      {"voronec", voronec_equations}};
  const auto it = builders.find(formulation);
  if (it == builders.end()) {
    std::string known;
    for (const auto& n : symbolic_formulations()) known += (known.empty() ? "" : ", ") + n;
    throw UsageError("equations: unknown formulation '" + formulation + "' (known: " + known + ")");
  }
  FormulationEquations f = it->second(s, mechanics(s));
  f.formulation = formulation;
  return f;
}

}  // namespace nhs::symbolic
