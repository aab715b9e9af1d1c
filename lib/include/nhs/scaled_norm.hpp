// The 2-norm of a vector or matrix whose entries are near the ends of the
// scalar's exponent range: Eigen's norm() squares the entries, so that a
// row of size 1e200 has norm inf in double and one of size 1e-200 norm 0.
#pragma once

#include "nhs/scalar.hpp"

namespace nhs {

/// The Frobenius (for a vector, Euclidean) norm of M (any shape) as the
/// largest |entry| times the norm of M divided by it: no square overflows
/// or underflows. 0 for an empty or zero M; the largest |entry| itself when
/// that is not finite (inf, or NaN). Used where a constraint's own scale
/// must not matter (a holonomic constraint written times 1e+-200: its
/// gradient's norm, the one singular value of a single constraint row).
template <class S, class Derived>
S scaled_norm(const Eigen::MatrixBase<Derived>& M) {
  using std::isfinite;
  using boost::multiprecision::isfinite;
  if (M.size() == 0) return S(0);
  const S largest = M.cwiseAbs().maxCoeff();
  if (!(largest > S(0)) || !isfinite(largest)) return largest;
  return largest * S((M / largest).norm());
}

}  // namespace nhs
