// Whether a decimal of a file is finite in every precision (out_of_range,
// decimal_range.cpp): shared by the readers of system files and sweep
// specifications (through toml_text.hpp) and by the symbolic checks of a
// literal (symbolic_checks.cpp). Private to the studies library.
#pragma once

#include <optional>
#include <string>

namespace nhs::detail {

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
