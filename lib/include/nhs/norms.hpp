// How results are compared across formulations and precisions.
#pragma once

#include "nhs/autodiff.hpp"

#include <limits>

namespace nhs {

/// max_i |a_i - b_i| / max(max|a|, max|b|): the relative difference in the
/// max-norm used by every cross-validation (a, b of equal size; the
/// denominator is floored at the smallest normal number of S).
template <class S>
S relative_difference(const Vec<S>& a, const Vec<S>& b) {
  using std::max;
  const S scale = max(max(a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff()),
                      std::numeric_limits<S>::min());
  return (a - b).cwiseAbs().maxCoeff() / scale;
}

}  // namespace nhs
