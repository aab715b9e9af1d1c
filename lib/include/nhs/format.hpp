// Text form of scalars and vectors, in the full precision of their type.
#pragma once

#include "nhs/autodiff.hpp"

#include <string>

namespace nhs {

/// "(v1, v2, ...)" with every entry in full precision (to_string<S>).
template <class S>
std::string to_string(const Vec<S>& v) {
  std::string out = "(";
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    out += to_string<S>(v[i]);
  }
  return out + ")";
}

/// "at q = (...), qdot = (...)": the context line of state errors.
template <class S>
std::string state_context(const Vec<S>& q, const Vec<S>& qd) {
  return "at q = " + to_string(q) + ", qdot = " + to_string(qd);
}

}  // namespace nhs
