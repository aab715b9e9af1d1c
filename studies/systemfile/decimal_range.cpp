// A decimal's range in every precision (decimal_range.hpp).
#include "decimal_range.hpp"

#include "nhs/scalar.hpp"

namespace nhs::detail {

std::optional<OutOfRange> out_of_range(const std::string& text) {
#define NHS_LOADER_OUT_OF_RANGE_(S, NAME) \
  try {                                   \
    (void)from_string<S>(text);           \
  } catch (const MalformedNumber& e) {    \
    return OutOfRange{NAME, e.what()};    \
  }
  NHS_FOR_EACH_SCALAR(NHS_LOADER_OUT_OF_RANGE_)
#undef NHS_LOADER_OUT_OF_RANGE_
  return std::nullopt;
}

}  // namespace nhs::detail
