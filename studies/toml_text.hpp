// Checks on the text of a TOML file before toml++ parses it, shared by the
// readers of system files (system_file_load.cpp) and sweep specifications
// (sweep_spec.cpp). Private to the studies library (not installed).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace nhs::detail {

/// Non-ASCII text that toml++ 3.3 (Debian's) cannot be given: its test for
/// non-ASCII white space reaches __builtin_unreachable (undefined behaviour)
/// for most code points (upstream issues #190 and #295, fixed after 3.3). It
/// asks it about a non-ASCII character (a) outside strings and comments,
/// where TOML allows none anyway, and (b) in a multi-line basic string right
/// after a backslash, or as the first character after a line-ending
/// backslash and the white space that follows it. Both are refused by
/// position, before toml++ sees the file; strings and comments otherwise
/// keep any UTF-8 (the studies' files write "§").
struct NonAscii {
  std::size_t line, column;  ///< 1-based; the column in code points
  std::string reason;
};
/// Nothing, or the first such character's line, column and the reason.
std::optional<NonAscii> unparseable_non_ascii(const std::string& text);

/// A decimal that is not a finite number in some precision: that
/// precision's name (NHS_FOR_EACH_SCALAR's, double first) and from_string's
/// message (which quotes the text, cut when long).
struct OutOfRange {
  std::string precision;
  std::string message;
};
/// The first precision in which the decimal `text` is not a finite number,
/// or nullopt: a value of a file may be run in every precision ("1e400" is
/// finite in long double and beyond, not in double).
std::optional<OutOfRange> out_of_range(const std::string& text);

}  // namespace nhs::detail
