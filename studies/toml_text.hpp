// toml++ as the studies library compiles it, and checks on the text of a
// TOML file before toml++ parses it, shared by the readers of system files
// (system_file_load.cpp) and sweep specifications (sweep_spec.cpp). Every
// translation unit that parses TOML includes toml++ through this header:
// header-only, its functions are inline, and two units compiled with
// different TOML_ settings would break the one-definition rule (the linker
// keeps one unit's version for both). Private to the studies library (not
// installed).
#pragma once

#define TOML_EXCEPTIONS 1
// toml++ is compiled in, header-only (docs/cli.md, "Start-up"). Its internal
// assertions are compiled out, as in Debian's libtomlplusplus (built with
// NDEBUG, where GCC turns them into nothing): one of them (parser.inl,
// parse_key) fires on a malformed key the fuzz test writes, where the parser
// goes on to report a parse error. The sanitized build (ctest -L asan) runs
// the fuzz test with them compiled out and finds no memory error after it.
#define TOML_ASSERT(expr) static_cast<void>(0)
#include <toml++/toml.h>

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
