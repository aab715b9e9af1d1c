#include "nhs/format.hpp"
#include "nhs/regularity.hpp"
#include "nhs/scaled_norm.hpp"

#include <Eigen/SVD>

namespace nhs {

template <class S>
Vec<S> singular_values(const Mat<S>& M) {
  if (M.size() == 0) return Vec<S>();
  if (M.rows() == 1 || M.cols() == 1) return Vec<S>::Constant(1, scaled_norm<S>(M));  // a row of 1e200 is no inf
  Eigen::JacobiSVD<Mat<S>> svd(M);
  return svd.singularValues();
}

template <class S>
void require_full_rank(const Mat<S>& M, const std::string& condition, const Context& context) {
  if (M.size() == 0) return;
  using std::max;
  if (M.rows() == 1 || M.cols() == 1) {  // one singular value, |M|, and no SVD
    const S sigma = scaled_norm<S>(M);
    if (M.allFinite() && sigma > regularity_tolerance<S>() * max(S(1), sigma)) return;
  }
  require_finite(M, "the " + std::to_string(M.rows()) + "x" + std::to_string(M.cols()) +
                        " matrix of the check '" + condition + "'",
                 context);
  const Vec<S> sv = singular_values(M);
  const S threshold = regularity_tolerance<S>() * max(S(1), sv[0]);
  if (!(sv[sv.size() - 1] > threshold))
    throw SingularState(condition, "singular state: " + condition + " (" +
                                       std::to_string(M.rows()) + "x" + std::to_string(M.cols()) +
                                       ", singular values " + to_string<S>(sv) + ") " + context());
}

template <class S>
typename PositiveDefiniteFactor<S>::type factor_positive_definite(const Mat<S>& M,
                                                                  const std::string& condition,
                                                                  const Context& context) {
  require_finite(M, "the " + std::to_string(M.rows()) + "x" + std::to_string(M.cols()) +
                        " matrix of the check '" + condition + "'",
                 context);
  Eigen::LDLT<Mat<S>> ldlt(M);
  const Vec<S> d = ldlt.vectorD();
  const S largest = d.size() ? d.cwiseAbs().maxCoeff() : S(0);
  const bool ok = ldlt.info() == Eigen::Success && d.size() > 0 &&
                  d.minCoeff() > regularity_tolerance<S>() * largest;
  if (!ok)
    throw SingularState(condition, "singular state: " + condition + " (LDLT pivots " +
                                       to_string<S>(d) + ") " + context());
  return ldlt;
}

}  // namespace nhs
