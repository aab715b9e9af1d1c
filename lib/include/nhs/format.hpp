// Text form of scalars and vectors, in the full precision of their type.
#pragma once

#include "nhs/autodiff.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace nhs {

/// "a, b, c": items joined by sep, for messages.
inline std::string join(const std::vector<std::string>& items, const std::string& sep = ", ") {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

/// "1 value", "3 values": a count with its noun, for messages.
inline std::string count_of(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

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
