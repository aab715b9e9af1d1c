// Short text helpers of the `nhs` command-line tool: lists, counts and
// figures in messages and summaries.
#pragma once

#include <fmt/core.h>

#include <cstddef>
#include <string>
#include <vector>

namespace nhs::cli {

/// "1 value", "3 values": a count with its noun, for messages.
inline std::string count_of(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

/// "a, b, c".
std::string join(const std::vector<std::string>& items, const std::string& sep = ", ");

/// S as a double, for short human-readable figures (summaries, tables).
template <class S>
double to_double(const S& x) {
  return static_cast<double>(x);
}

/// "1.2e-15" style figure for summaries.
template <class S>
std::string short_figure(const S& x) {
  return fmt::format("{:.3g}", to_double(x));
}

}  // namespace nhs::cli
