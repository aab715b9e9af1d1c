// The singular-state checks of regularity.hpp for the tracing scalar Expr:
// a traced matrix has no values to pivot on or to compare, so the checks
// become guards (expr.hpp: Guard) that the generated code evaluates at run
// time, and the factorization is LDL^T without pivoting.
//
// - factor_positive_definite<Expr>: L D L^T of M with unit lower L and the
//   pivots d_j in the order of M (no pivoting: M is symmetric positive
//   definite wherever the guards pass). Guards, one per pivot:
//   d_j > regularity_tolerance * max_k |d_k|, the criterion of the library's
//   LDLT, on the unpivoted d (close to it, not identical: the library's
//   pivoted d differ in order and rounding, so the two agree away from a
//   relative margin of ~eps around the threshold). A NaN or an infinite
//   entry fails the guard.
// - require_full_rank<Expr>: records nothing. The rank loss it reports
//   (of dC/dqdot in the second kind, of dpsi/dz in the first kind) makes
//   the Gram matrix factored next (H^ab = C_qdot g^-1 C_qdot^T,
//   G = psi_z^T g psi_z) singular, and that factorization's guards fail.
//
// A generated function whose guard fails returns the guard's number and
// writes nothing reliable; GeneratedFormulation
// (nhs/generated_formulation.hpp) then evaluates the library's formulation,
// which raises the named SingularState with the offending values, or
// returns its result in the margin where the two criteria differ.
#pragma once

#include "nhs/codegen/expr.hpp"
#include "nhs/regularity.hpp"

#include <string>

namespace nhs::codegen {

/// M = L D L^T, unpivoted, over Expr, with a guard per pivot (file
/// comment). M: n x n, symmetric (only its lower triangle is read).
class GuardedLDLT {
 public:
  GuardedLDLT(const Mat<Expr>& M, const std::string& condition);
  /// The pivots d_j (size n).
  const Vec<Expr>& vectorD() const { return d_; }
  /// M^-1 b for b of n rows (a vector or a matrix): forward substitution
  /// with L, division by d, back substitution with L^T.
  template <class Derived>
  Mat<Expr> solve(const Eigen::MatrixBase<Derived>& b) const {
    Mat<Expr> x = b;
    const Eigen::Index n = d_.size();
    for (Eigen::Index c = 0; c < x.cols(); ++c) {
      for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index k = 0; k < i; ++k) x(i, c) -= L_(i, k) * x(k, c);
      for (Eigen::Index i = 0; i < n; ++i) x(i, c) /= d_[i];
      for (Eigen::Index i = n - 1; i >= 0; --i)
        for (Eigen::Index k = i + 1; k < n; ++k) x(i, c) -= L_(k, i) * x(k, c);
    }
    return x;
  }

 private:
  Mat<Expr> L_;
  Vec<Expr> d_;
};

}  // namespace nhs::codegen

namespace nhs {

template <>
struct PositiveDefiniteFactor<codegen::Expr> {
  using type = codegen::GuardedLDLT;
};

/// The traced factorization with its guards (file comment); `context` is
/// not used (the generated code's caller reports the state).
template <>
inline codegen::GuardedLDLT factor_positive_definite<codegen::Expr>(const Mat<codegen::Expr>& M,
                                                                   const std::string& condition,
                                                                   const Context&) {
  return codegen::GuardedLDLT(M, condition);
}

/// Records nothing: the rank loss is caught by the next factorization's
/// guards (file comment).
template <>
inline void require_full_rank<codegen::Expr>(const Mat<codegen::Expr>&, const std::string&,
                                             const Context&) {}

/// The text of a traced value: its node, "t<id>" (error contexts, which
/// traced code builds but never shows).
template <>
std::string to_string<codegen::Expr>(const codegen::Expr& x);

}  // namespace nhs
