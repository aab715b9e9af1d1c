// Short text helpers of the `nhs` command-line tool: lists, counts and
// figures in messages and summaries.
#pragma once

#include "nhs/format.hpp"  // join, count_of

#include <fmt/core.h>

#include <cstddef>
#include <string>
#include <vector>

namespace nhs::cli {

/// `text` made safe to echo on one line of a message: control characters
/// written as \n, \r, \t or \xNN (a value holding a newline stays on
/// one line, a terminal's escape sequences are not played); every run of
/// more than 240 bytes without a blank (a name, a number, a path) cut to
/// its first 200 and last 40 bytes with "...[<k> bytes]..." between; and
/// the whole cut the same way to about max_bytes (its first three quarters
/// and its last quarter kept). Cuts fall on UTF-8 character boundaries.
/// report_error passes every error line through it; commands use it where
/// they echo user text in other messages.
std::string echo_text(const std::string& text, std::size_t max_bytes = 4000);

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
