// Numbers and vectors read from text: a command's option, a sweep's value,
// a Python argument's exact decimal form. Exactly rounded into S
// (from_string<S>), with a UsageError naming the input.
#pragma once

#include "nhs/errors.hpp"
#include "nhs/scalar.hpp"

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

}  // namespace nhs
