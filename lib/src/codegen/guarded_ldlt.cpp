// Implementation of codegen/guarded_ldlt.hpp.
#include "nhs/codegen/guarded_ldlt.hpp"

namespace nhs {

template <>
std::string to_string<codegen::Expr>(const codegen::Expr& x) {
  return "t" + std::to_string(x.id());
}

namespace codegen {

GuardedLDLT::GuardedLDLT(const Mat<Expr>& M, const std::string& condition) {
  const Eigen::Index n = M.rows();
  if (M.cols() != n) throw TracingError("codegen: LDL^T of a non-square matrix");
  L_ = Mat<Expr>::Identity(n, n);
  d_ = Vec<Expr>::Zero(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    Expr dj = M(j, j);
    for (Eigen::Index k = 0; k < j; ++k) dj -= L_(j, k) * L_(j, k) * d_[k];
    d_[j] = dj;
    for (Eigen::Index i = j + 1; i < n; ++i) {
      Expr lij = M(i, j);
      for (Eigen::Index k = 0; k < j; ++k) lij -= L_(i, k) * L_(j, k) * d_[k];
      L_(i, j) = lij / dj;
    }
  }
  // The library's criterion (regularity.ipp): every pivot > tol * the
  // largest |pivot|.
  if (n == 0) return;
  Expr largest = abs(d_[0]);
  for (Eigen::Index k = 1; k < n; ++k) largest = fmax(largest, abs(d_[k]));
  const Expr threshold = regularity_tolerance<Expr>() * largest;  // 100 eps of the generated type
  Graph& graph = Graph::active();
  for (Eigen::Index j = 0; j < n; ++j) graph.require_positive((d_[j] - threshold).id(), condition);
}

}  // namespace codegen
}  // namespace nhs
