// Figures for people: a value of any precision as a double, and the short
// "1.2e-15" form of summaries, tables and progress lines.
#pragma once

#include <fmt/format.h>

#include <string>

namespace nhs {

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

}  // namespace nhs
