// Numbers and vectors read from text: a command's option, a sweep's value,
// a Python argument's exact decimal form. Exactly rounded into S
// (from_string<S>), with a UsageError naming the input.
#pragma once

#include "nhs/autodiff.hpp"  // Vec
#include "nhs/errors.hpp"
#include "nhs/scalar.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace nhs {

/// A number of the input `option` (an option, a Python argument) in S,
/// exactly rounded (from_string<S>); UsageError naming the input and the
/// value when malformed.
template <class S>
S parse_number(const std::string& option, const std::string& text) {
  try {
    return from_string<S>(text);
  } catch (const MalformedNumber& e) {
    throw UsageError(option + ": " + e.what());
  }
}

/// "v1,v2,..." in S; UsageError naming the option and the bad item.
template <class S>
Vec<S> parse_vector(const std::string& option, const std::string& text) {
  std::vector<S> values;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
    if (item.find_first_not_of(" \t") == std::string::npos)
      throw UsageError(option + ": empty value in list '" + text + "'");
    values.push_back(parse_number<S>(option, item));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  Vec<S> v(static_cast<Eigen::Index>(values.size()));
  for (std::size_t i = 0; i < values.size(); ++i) v[static_cast<Eigen::Index>(i)] = values[i];
  return v;
}

/// A positive integer (decimal digits only, at most 19) of the input
/// `option`; UsageError naming it otherwise.
inline std::uint64_t parse_count(const std::string& option, const std::string& text) {
  std::uint64_t v = 0;
  bool ok = !text.empty() && text.size() <= 19;
  for (char c : text) {
    if (c < '0' || c > '9') {
      ok = false;
      break;
    }
    v = 10 * v + static_cast<std::uint64_t>(c - '0');
  }
  if (!ok || v == 0) throw UsageError(option + ": expected a positive integer, got '" + text + "'");
  return v;
}

/// A positive, finite number of seconds of the input `option` (a wall-time
/// budget); UsageError naming it otherwise.
inline double parse_seconds(const std::string& option, const std::string& text) {
  const double s = parse_number<double>(option, text);
  if (!(s > 0) || !std::isfinite(s))
    throw UsageError(option + ": expected a positive number of seconds, got '" + text + "'");
  return s;
}

}  // namespace nhs
