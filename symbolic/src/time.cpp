// The equations of a rheonomic system in t (nhs/symbolic/time.hpp).
#include "nhs/symbolic/time.hpp"

#include <algorithm>
#include <stdexcept>

namespace nhs::symbolic {
namespace {

using GiNaC::ex;

bool holds_any(const ex& e, const std::vector<ex>& symbols) {
  return std::any_of(symbols.begin(), symbols.end(), [&](const ex& x) { return e.has(x); });
}

// The matrix K without row and column k1 and k2 (k1 < k2), each entry
// under `subs`.
GiNaC::matrix without_two(const GiNaC::matrix& K, unsigned k1, unsigned k2, const GiNaC::exmap& subs) {
  GiNaC::matrix out(K.rows() - 2, K.cols() - 2);
  for (unsigned i = 0, oi = 0; i < K.rows(); ++i) {
    if (i == k1 || i == k2) continue;
    for (unsigned j = 0, oj = 0; j < K.cols(); ++j) {
      if (j == k1 || j == k2) continue;
      out(oi, oj++) = K(i, j).subs(subs);
    }
    ++oi;
  }
  return out;
}

}  // namespace

FormulationEquations in_time_t(const SymbolicSystem& s, FormulationEquations f) {
  const int c = s.info.clock_coordinate;
  if (c < 0) return f;
  const auto uc = static_cast<std::size_t>(c);
  const ex tau = s.q.at(uc), tau_dot = s.qdot.at(uc), tau_ddot = s.qddot.at(uc);
  std::size_t clock = s.C.size();
  for (std::size_t a = 0; a < s.C.size() && clock == s.C.size(); ++a)
    if ((s.C[a] - (tau_dot - 1)).expand().is_zero()) clock = a;
  if (clock == s.C.size())
    throw std::logic_error("in_time_t: '" + s.info.name + "' declares a clock coordinate without the constraint " +
                           s.info.coordinates.at(uc) + "_dot - 1");
  const ex lambda_clock = s.lambda.at(clock);
  const GiNaC::exmap subs = {{tau_ddot, 0}, {tau_dot, 1}, {tau, GiNaC::realsymbol("t")}};

  std::vector<ex> unknowns;
  for (const ex& x : f.unknowns)
    if (!x.is_equal(tau_ddot) && !x.is_equal(lambda_clock)) unknowns.push_back(x);
  std::vector<Equation> equations, dropped;
  for (const Equation& q : f.equations) {
    // The clock's Lagrange equation is the one that holds lambda_clock
    // (dC_clock/dqdot is the clock's unit vector); it may hold another
    // multiplier too (a rheonomic holonomic constraint's velocity form has
    // df/dt tau_dot).
    const Equation e{q.lhs.subs(subs), q.rhs.subs(subs)};
    const bool clock_row = q.lhs.has(lambda_clock) || q.rhs.has(lambda_clock);
    (!clock_row && (holds_any(e.lhs, unknowns) || holds_any(e.rhs, unknowns)) ? equations : dropped).push_back(e);
  }
  // Definitions, from the last: tau_dot's goes, and so does one that only
  // the dropped equations used (Udwadia-Kalaba's Qc_tau); the others stay
  // (the kinematic relations, the Appellian S, Voronec's coefficients).
  std::vector<Definition> definitions;
  const auto used_in = [](const std::vector<Equation>& es, const ex& symbol) {
    return std::any_of(es.begin(), es.end(), [&](const Equation& e) { return e.lhs.has(symbol) || e.rhs.has(symbol); });
  };
  const auto used_later = [&](const ex& symbol) {
    return used_in(equations, symbol) ||
           std::any_of(definitions.begin(), definitions.end(), [&](const Definition& d) { return d.value.has(symbol); });
  };
  for (auto it = f.definitions.rbegin(); it != f.definitions.rend(); ++it) {
    if (it->symbol.is_equal(tau_dot)) continue;
    if (used_in(dropped, it->symbol) && !used_later(it->symbol)) continue;
    definitions.insert(definitions.begin(), {it->symbol, it->value.subs(subs), it->meaning});
  }
  std::vector<ex> collect_in;
  for (const ex& x : f.collect_in)
    if (!x.is_equal(tau) && !x.is_equal(tau_dot) && !x.is_equal(tau_ddot) && !x.is_equal(lambda_clock))
      collect_in.push_back(x);
  if (f.augmented_matrix) {  // unknowns (qddot, lambda): tau_ddot's and lambda_clock's rows and columns
    const auto k2 = static_cast<unsigned>(s.n) + static_cast<unsigned>(clock);
    f.augmented_matrix = without_two(*f.augmented_matrix, static_cast<unsigned>(c), k2, subs);
  }
  f.unknowns = std::move(unknowns);
  f.equations = std::move(equations);
  f.definitions = std::move(definitions);
  f.collect_in = std::move(collect_in);
  return f;
}

}  // namespace nhs::symbolic
