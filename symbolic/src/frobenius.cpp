// Implementation of nhs/symbolic/frobenius.hpp.
#include "nhs/symbolic/frobenius.hpp"

#include "nhs/errors.hpp"
#include "nhs/symbolic/equations.hpp"

#include <algorithm>
#include <limits>

namespace nhs::symbolic {
namespace {

using GiNaC::ex;

// Expressions larger than this (GiNaC nodes) are not put in normal form:
// the test is then not done (GiNaC's gcds take erratic time on large
// expressions; docs/equations.md, "Limits").
constexpr std::size_t kMaxNodes = 4000;

ex simplified(const ex& e) {
  if (size_of(e, kMaxNodes) > kMaxNodes) throw NotApplicable("an expression has more than 4000 GiNaC nodes");
  return normal_form(e, kMaxNodes);
}

const GiNaC::symbol& sym(const ex& e) { return GiNaC::ex_to<GiNaC::symbol>(e); }

// The r x r block of A in the columns `dep`.
GiNaC::matrix block(const GiNaC::matrix& A, const std::vector<int>& cols) {
  GiNaC::matrix M(A.rows(), static_cast<unsigned>(cols.size()));
  for (unsigned a = 0; a < A.rows(); ++a)
    for (std::size_t k = 0; k < cols.size(); ++k) M(a, static_cast<unsigned>(k)) = A(a, static_cast<unsigned>(cols[k]));
  return M;
}

// The next r-subset of {0..n-1} in lexicographic order; false after the last.
bool next_subset(std::vector<int>& c, int n) {
  const int r = static_cast<int>(c.size());
  for (int i = r - 1; i >= 0; --i)
    if (c[static_cast<std::size_t>(i)] < n - r + i) {
      ++c[static_cast<std::size_t>(i)];
      for (int j = i + 1; j < r; ++j) c[static_cast<std::size_t>(j)] = c[static_cast<std::size_t>(j - 1)] + 1;
      return true;
    }
  return false;
}

std::vector<int> dependent_columns(const SymbolicSystem& s, const GiNaC::matrix& A,
                                   const std::vector<std::string>& independent) {
  const auto& names = s.info.coordinates;
  if (!independent.empty()) {
    if (static_cast<int>(independent.size()) != s.n - s.r)
      throw UsageError("frobenius: " + std::to_string(independent.size()) + " independent velocities given, n - r = " +
                       std::to_string(s.n - s.r));
    std::vector<int> dep;
    for (const auto& v : independent)
      if (std::find(names.begin(), names.end(), v) == names.end())
        throw UsageError("frobenius: unknown coordinate '" + v + "'");
    for (int i = 0; i < s.n; ++i)
      if (std::find(independent.begin(), independent.end(), names[static_cast<std::size_t>(i)]) == independent.end())
        dep.push_back(i);
    return dep;
  }
  if (!s.info.dependent_velocities.empty()) return s.info.dependent_velocities;
  std::vector<int> c(static_cast<std::size_t>(s.r));
  for (int i = 0; i < s.r; ++i) c[static_cast<std::size_t>(i)] = i;
  do {
    if (!simplified(block(A, c).determinant()).is_zero()) return c;
  } while (next_subset(c, s.n));
  return {};
}

}  // namespace

SymbolicFrobenius symbolic_frobenius(const SymbolicSystem& s, const std::vector<std::string>& independent) {
  SymbolicFrobenius out;
  const auto n = static_cast<unsigned>(s.n), r = static_cast<unsigned>(s.r);
  if (r == 0 || r >= n) {
    out.skipped = r == 0 ? "no constraints" : "r >= n: ker A has no frame";
    return out;
  }
  try {
    // A = dC/dqdot, free of qdot, with C = A qdot: linear and homogeneous.
    GiNaC::matrix A = constraint_jacobian(s);
    for (unsigned a = 0; a < r; ++a) {
      ex rest = s.C[a];
      for (unsigned i = 0; i < n; ++i) {
        A(a, i) = simplified(A(a, i));
        rest -= A(a, i) * s.qdot[i];
      }
      bool linear = simplified(rest).is_zero();
      for (unsigned i = 0; i < n && linear; ++i)
        for (const ex& v : s.qdot) linear = linear && !A(a, i).has(v);
      if (!linear) {
        out.skipped = "constraint " + s.info.constraint_names[a] + " is not linear and homogeneous in qdot (the test is "
                      "for A(q) qdot = 0)";
        return out;
      }
    }
    const std::vector<int> dep = dependent_columns(s, A, independent);
    if (dep.empty()) {
      out.skipped = "every r x r block of dC/dqdot is singular identically";
      return out;
    }
    std::vector<int> ind;
    for (int i = 0; i < s.n; ++i)
      if (std::find(dep.begin(), dep.end(), i) == dep.end()) ind.push_back(i);
    for (int i : dep) out.dependent.push_back(s.info.coordinates[static_cast<std::size_t>(i)]);
    for (int i : ind) out.independent.push_back(s.info.coordinates[static_cast<std::size_t>(i)]);
    // A_dep a = -A_ind: the dependent velocities of each frame field.
    const GiNaC::matrix a = solve_symbolic(block(A, dep), block(A, ind).mul_scalar(-1),
                                           "the dependent block of dC/dqdot", "frobenius", s.info.name);
    for (std::size_t al = 0; al < ind.size(); ++al) {
      std::vector<ex> X(n, ex(0));
      X[static_cast<std::size_t>(ind[al])] = 1;
      for (std::size_t k = 0; k < dep.size(); ++k)
        X[static_cast<std::size_t>(dep[k])] = a(static_cast<unsigned>(k), static_cast<unsigned>(al));
      out.frame.push_back(X);
    }
    out.involutive = true;
    for (std::size_t al = 0; al < out.frame.size(); ++al)
      for (std::size_t be = al + 1; be < out.frame.size(); ++be) {
        const auto& X = out.frame[al];
        const auto& Y = out.frame[be];
        SymbolicBracket b{out.independent[al], out.independent[be], {}, {}};
        for (unsigned i = 0; i < n; ++i) {
          ex e = 0;
          for (unsigned j = 0; j < n; ++j) e += X[j] * Y[i].diff(sym(s.q[j])) - Y[j] * X[i].diff(sym(s.q[j]));
          b.bracket.push_back(simplified(e));
        }
        for (unsigned c = 0; c < r; ++c) {
          ex e = 0;
          for (unsigned i = 0; i < n; ++i) e += A(c, i) * b.bracket[i];
          b.constraint_forms.push_back(simplified(e));
          out.involutive = out.involutive && b.constraint_forms.back().is_zero();
        }
        out.brackets.push_back(std::move(b));
      }
    out.done = true;
  } catch (const NotApplicable&) {
    out = SymbolicFrobenius{};
    out.skipped = "the frame or its brackets exceed the symbolic size limit (4000 GiNaC nodes; docs/equations.md, "
                  "\"Limits\")";
  } catch (const SingularState& e) {
    out = SymbolicFrobenius{};
    out.skipped = std::string("the dependent block of dC/dqdot is singular identically (") + e.what() + ")";
  }
  return out;
}

}  // namespace nhs::symbolic
