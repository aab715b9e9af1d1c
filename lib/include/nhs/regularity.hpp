// Detection of singular states: rank loss of a Jacobian, a symmetric matrix
// that is not positive definite. Singular states raise SingularState; they
// are never divided through.
#pragma once

#include "nhs/autodiff.hpp"
#include "nhs/errors.hpp"

#include <Eigen/Cholesky>

#include <functional>
#include <string>

namespace nhs {

/// Relative threshold below which a singular value or an LDLT pivot counts
/// as zero: 100 epsilon of S.
template <class S>
S regularity_tolerance() {
  return S(100) * epsilon<S>();
}

/// Where a check is made (e.g. `[&] { return state_context(q, qd); }`),
/// as text built only when the check fails: formatting a state costs
/// microseconds, more than the check (measured: 20-46% of a double RHS call
/// when it was built eagerly).
using Context = std::function<std::string()>;

/// Throws NonFiniteValue naming `what` (e.g. "the KKT matrix") and
/// context() unless every entry of M is finite, before a check that would
/// take NaN pivots for a singular state. The message tells the two causes
/// apart: an infinite entry is an overflow (a state or parameter too large
/// for S); a NaN is a value that is not a number (a parameter under a
/// square root of a negative number, 0/0), never called an overflow.
/// Any Eigen expression.
template <class Derived>
void require_finite(const Eigen::MatrixBase<Derived>& M, const std::string& what,
                    const Context& context) {
  if (M.allFinite()) return;
  throw NonFiniteValue("non-finite value: " + what +
                       (M.hasNaN() ? " has entries that are not a number (NaN) " : " has infinite entries (overflow) ") +
                       context());
}

/// Singular values of M (min(rows, cols) of them, decreasing), by JacobiSVD;
/// for a single row or column, its 2-norm (the only singular value).
template <class S>
Vec<S> singular_values(const Mat<S>& M);

/// Throws SingularState(condition) unless M has full rank min(rows, cols):
/// its smallest singular value must exceed
/// regularity_tolerance<S>() * max(1, largest singular value). A matrix with
/// non-finite entries (an overflow, not a singular state) throws
/// NonFiniteValue naming `condition` instead.
/// context() (e.g. state_context(q, qd)) is appended to the message, which
/// also gives the singular values. A single row or column (one constraint,
/// or one quasi-velocity) is checked by its 2-norm without an SVD (no heap
/// allocation; 25% of a second-kind call on the skate was the SVD).
template <class S>
void require_full_rank(const Mat<S>& M, const std::string& condition, const Context& context);

/// The factorization factor_positive_definite returns: Eigen's LDLT,
/// except for the tracing scalar of code generation, which has no values to
/// pivot on (codegen/guarded_ldlt.hpp specializes it). Both have
/// solve(b) for a vector or a matrix b.
template <class S>
struct PositiveDefiniteFactor {
  using type = Eigen::LDLT<Mat<S>>;
};

/// LDLT factorization of a symmetric M that must be positive definite
/// (every pivot > regularity_tolerance * largest pivot); throws
/// SingularState(condition) with the pivots and context() otherwise;
/// NonFiniteValue when M has non-finite entries.
template <class S>
typename PositiveDefiniteFactor<S>::type factor_positive_definite(const Mat<S>& M,
                                                                  const std::string& condition,
                                                                  const Context& context);

#define NHS_REGULARITY_INSTANTIATE(EXTERN, S)                                         \
  EXTERN template Vec<S> singular_values<S>(const Mat<S>&);                           \
  EXTERN template void require_full_rank<S>(const Mat<S>&, const std::string&,        \
                                            const Context&);                          \
  EXTERN template typename PositiveDefiniteFactor<S>::type factor_positive_definite<S>( \
      const Mat<S>&, const std::string&, const Context&);

#define NHS_EXTERN_REGULARITY_(S, NAME) NHS_REGULARITY_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_REGULARITY_)
#undef NHS_EXTERN_REGULARITY_

}  // namespace nhs
