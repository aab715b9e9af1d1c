// Implementation of nhs/symbolic/proof.hpp.
#include "nhs/symbolic/proof.hpp"

#include "nhs/errors.hpp"

#include <chrono>
#include <functional>
#include <limits>
#include <stdexcept>

namespace nhs::symbolic {
namespace {

using GiNaC::ex;

// The most nodes a difference may have before it is simplified: past it,
// GiNaC's gcds take erratic time (equations.cpp, kMaxNodes).
constexpr std::size_t kMaxProofNodes = 20000;

// Not shown: the reason.
struct NotShown : std::runtime_error {
  using std::runtime_error::runtime_error;
};

ex residual(const Equation& e) { return e.lhs - e.rhs; }

// Whether e is identically 0 (normal_form, equations.hpp).
bool vanishes(const ex& e) {
  if (size_of(e, kMaxProofNodes) > kMaxProofNodes)
    throw NotShown("a difference has more than " + std::to_string(kMaxProofNodes) + " nodes before simplification");
  return normal_form(e, std::numeric_limits<std::size_t>::max()).is_zero();
}

void require(bool ok, const std::string& what) {
  if (!ok) throw NotShown(what + " did not simplify to 0");
}

std::string first_kind_is_maggi(const SymbolicSystem& s) {
  const FormulationEquations F = equations_of(s, "first-kind"), M = equations_of(s, "maggi");
  GiNaC::exmap zdot;
  for (std::size_t a = 0; a < F.equations.size(); ++a) zdot[F.equations[a].lhs] = F.equations[a].rhs;
  for (std::size_t a = 0; a < M.equations.size(); ++a)
    require(vanishes(residual(M.equations[a]).subs(zdot)), "Maggi's equation " + std::to_string(a + 1) + " at zdot = Z");
  return "Maggi's " + std::to_string(M.equations.size()) + " residuals vanish at the first kind's zdot = Z(q, z)";
}

std::string maggi_is_gibbs_appell(const SymbolicSystem& s) {
  const FormulationEquations M = equations_of(s, "maggi"), G = equations_of(s, "gibbs-appell");
  for (std::size_t a = 0; a < M.equations.size(); ++a)
    require(vanishes(residual(M.equations[a]) - residual(G.equations[a])),
            "the difference of equation " + std::to_string(a + 1));
  return "the " + std::to_string(M.equations.size()) + " residuals are equal: dS/dzdot is Maggi's left side";
}

std::string second_kind_is_udwadia_kalaba(const SymbolicSystem& s) {
  const FormulationEquations K = equations_of(s, "second-kind"), U = equations_of(s, "udwadia-kalaba");
  const auto n = static_cast<unsigned>(s.n), r = static_cast<unsigned>(s.r);
  GiNaC::exmap qc, at_rest, no_lambda;
  for (const Definition& d : U.definitions) qc[d.symbol] = d.value;
  for (const ex& x : s.qddot) at_rest[x] = 0;
  for (const ex& l : s.lambda) no_lambda[l] = 0;
  // Udwadia-Kalaba's qddot: g qddot = Q + Q_c.
  GiNaC::matrix g(n, n), rhs(n, 1);
  for (unsigned i = 0; i < n; ++i) {
    const ex res = residual(U.equations[i]).subs(qc);
    for (unsigned j = 0; j < n; ++j) g(i, j) = res.diff(GiNaC::ex_to<GiNaC::symbol>(s.qddot[j]));
    rhs(i, 0) = -res.subs(at_rest);
  }
  const GiNaC::matrix qdd = solve_symbolic(g, rhs, "the metric g", "udwadia-kalaba", s.info.name);
  GiNaC::exmap at_uk;
  for (unsigned j = 0; j < n; ++j) at_uk[s.qddot[j]] = qdd(j, 0);
  // The r differentiated constraints.
  for (unsigned a = 0; a < r; ++a)
    require(vanishes(residual(K.equations[n + a]).subs(at_uk)), "d/dt C^" + std::to_string(a + 1) + " at Udwadia-Kalaba's qddot");
  // The n dynamical equations: R = g qddot + Gamma - A = A^T lambda for lambda = (A A^T)^-1 A R.
  GiNaC::matrix R(n, 1), At(n, r);
  for (unsigned i = 0; i < n; ++i) {
    const ex res = residual(K.equations[i]).subs(at_uk);
    R(i, 0) = res.subs(no_lambda);
    for (unsigned a = 0; a < r; ++a) At(i, a) = -res.diff(GiNaC::ex_to<GiNaC::symbol>(s.lambda[a]));
  }
  const GiNaC::matrix A = At.transpose();
  const GiNaC::matrix lambda = solve_symbolic(A.mul(At), A.mul(R), "A A^T", "second-kind", s.info.name);
  const GiNaC::matrix rest = R.sub(At.mul(lambda));
  for (unsigned i = 0; i < n; ++i)
    require(vanishes(rest(i, 0)), "dynamical equation " + std::to_string(i + 1) + " at Udwadia-Kalaba's qddot");
  return "Udwadia-Kalaba's qddot satisfies the " + std::to_string(n + r) + " equations of the second kind, "
         "with lambda = (A A^T)^-1 A (g qddot + Gamma - A)";
}

}  // namespace

std::vector<ProofResult> prove(const SymbolicSystem& s) {
  const std::vector<std::pair<std::string, std::function<std::string(const SymbolicSystem&)>>> pairs = {
      {"first-kind = maggi", first_kind_is_maggi},
      {"maggi = gibbs-appell", maggi_is_gibbs_appell},
      {"second-kind = udwadia-kalaba", second_kind_is_udwadia_kalaba}};
  std::vector<ProofResult> out;
  for (const auto& [name, check] : pairs) {
    ProofResult p{name, false, "", 0};
    const auto t0 = std::chrono::steady_clock::now();
    try {
      p.detail = check(s);
      p.identical = true;
    } catch (const NotShown& e) {
      p.detail = e.what();
    } catch (const NotApplicable& e) {  // not written: not applicable, or too large
      p.detail = e.what();
    } catch (const SingularState& e) {
      p.detail = e.what();
    }
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.push_back(p);
  }
  return out;
}

}  // namespace nhs::symbolic
