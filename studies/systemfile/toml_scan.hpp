// The hand-written scan of a TOML text that guards toml++ 3.3 from the
// characters it cannot be given (toml_scan.cpp). Private to the studies
// library; toml_text.hpp includes it for every reader of TOML.
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

}  // namespace nhs::detail
