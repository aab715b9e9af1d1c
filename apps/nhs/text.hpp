// Short text helpers of the `nhs` command-line tool: lists, counts and
// figures in messages and summaries.
#pragma once

#include "nhs/format.hpp"  // join, count_of
#include "nhs/session/files.hpp"  // echo_text

#include <fmt/core.h>

#include <cstddef>
#include <string>
#include <vector>

namespace nhs::cli {

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
