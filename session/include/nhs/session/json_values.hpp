// Values of S in the JSON outputs (accel, linearize, stability):
// decimal strings in the full precision of S (to_string), so that no
// digit is lost in any precision.
#pragma once

#include "nhs/format.hpp"
#include "nhs/scalar.hpp"

#include <nlohmann/json.hpp>

#include <utility>
#include <vector>

namespace nhs {

/// A vector as an array of decimal strings.
template <class S>
nlohmann::ordered_json json_strings(const Vec<S>& v) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const auto& x : v) a.push_back(to_string<S>(x));
  return a;
}

/// A matrix as an array of rows of decimal strings.
template <class S>
nlohmann::ordered_json json_rows(const Mat<S>& M) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (Eigen::Index i = 0; i < M.rows(); ++i) a.push_back(json_strings<S>(Vec<S>(M.row(i).transpose())));
  return a;
}

/// Complex numbers (re, im) as [{"re": "...", "im": "..."}, ...].
template <class S>
nlohmann::ordered_json json_complex(const std::vector<std::pair<S, S>>& values) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const auto& [re, im] : values) a.push_back({{"re", to_string<S>(re)}, {"im", to_string<S>(im)}});
  return a;
}

}  // namespace nhs
