// Scalar-independent definitions, and the text conversions of each scalar.
#include "nhs/integrate.hpp"
#include "nhs/scalar.hpp"

#include <cerrno>
#include <cstdlib>
#include <iomanip>
#include <regex>
#include <sstream>

namespace nhs {

std::vector<std::string> stepper_names() { return {"dopri5", "fehlberg78", "bulirsch-stoer"}; }

template <class S>
S from_string(const std::string& text) {
  static const std::regex decimal(R"(\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*)");
  if (!std::regex_match(text, decimal)) throw MalformedNumber("malformed number '" + text + "'");
  S value;
  if constexpr (std::is_same_v<S, double>) {
    value = std::strtod(text.c_str(), nullptr);  // correctly rounded (glibc)
  } else if constexpr (std::is_same_v<S, long double>) {
    value = std::strtold(text.c_str(), nullptr);  // correctly rounded (glibc)
  } else {  // Boost.Multiprecision: mpfr_set_str / strtoflt128, correctly rounded
    value = S(text);
  }
  using std::isfinite;
  using boost::multiprecision::isfinite;
  if (!isfinite(value)) throw MalformedNumber("number out of range '" + text + "'");
  return value;
}

template <class S>
std::string to_string(const S& x) {
  std::ostringstream os;
  os << std::setprecision(output_digits<S>()) << x;
  return os.str();
}

#define NHS_TEXT_INSTANTIATE_(S, NAME)                     \
  template S from_string<S>(const std::string&);          \
  template std::string to_string<S>(const S&);
NHS_FOR_EACH_SCALAR(NHS_TEXT_INSTANTIATE_)

}  // namespace nhs
