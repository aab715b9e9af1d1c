// Scalar-independent definitions, and the text conversions of each scalar.
#include "nhs/integrate.hpp"
#include "nhs/scalar.hpp"

#include <cerrno>
#include <cstdlib>
#include <iomanip>
#include <optional>
#include <sstream>

namespace nhs {

std::string_view stepper_name(Stepper s) {
  switch (s) {
    case Stepper::automatic: return "auto";
    case Stepper::dopri5: return "dopri5";
    case Stepper::fehlberg78: return "fehlberg78";
    case Stepper::verner87: return "verner87";
    case Stepper::bulirsch_stoer: return "bulirsch-stoer";
    case Stepper::dla: return "dla";
    case Stepper::nh_rattle: return "nh-rattle";
    case Stepper::nh_midpoint: return "nh-midpoint";
  }
  return "?";
}

std::vector<std::string> stepper_names() {
  std::vector<std::string> names;
  for (const Stepper s : kSteppers) names.emplace_back(stepper_name(s));
  for (const Stepper s : kDiscreteSteppers) names.emplace_back(stepper_name(s));
  return names;
}

Stepper parse_stepper(std::string_view name) {
  if (name == stepper_name(Stepper::automatic)) return Stepper::automatic;
  for (const Stepper s : kSteppers)
    if (name == stepper_name(s)) return s;
  for (const Stepper s : kDiscreteSteppers)
    if (name == stepper_name(s)) return s;
  std::string known;
  for (const auto& n : stepper_names()) known += ", " + n;
  throw UsageError("unknown stepper '" + std::string(name) + "' (known: auto" + known + ")");
}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The text without leading and trailing white space, when it is a decimal
// number [+-]?(d+(.d*)?|.d+)([eE][+-]?d+)?; nullopt otherwise. A scan, not a
// regular expression: std::regex recurses per character and overflowed the
// stack on a 30,000-character number.
std::optional<std::string> decimal_text(const std::string& text) {
  std::size_t b = 0, e = text.size();
  while (b < e && is_space(text[b])) ++b;
  while (e > b && is_space(text[e - 1])) --e;
  std::size_t i = b;
  if (i < e && (text[i] == '+' || text[i] == '-')) ++i;
  std::size_t mantissa_digits = 0;
  while (i < e && is_digit(text[i])) ++i, ++mantissa_digits;
  if (i < e && text[i] == '.') {
    ++i;
    while (i < e && is_digit(text[i])) ++i, ++mantissa_digits;
  }
  if (mantissa_digits == 0) return std::nullopt;
  if (i < e && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < e && (text[i] == '+' || text[i] == '-')) ++i;
    std::size_t exponent_digits = 0;
    while (i < e && is_digit(text[i])) ++i, ++exponent_digits;
    if (exponent_digits == 0) return std::nullopt;
  }
  if (i != e) return std::nullopt;
  return text.substr(b, e - b);
}

// At most this many characters are quoted in an error message.
std::string quoted(const std::string& text) {
  constexpr std::size_t kMax = 60;
  if (text.size() <= kMax) return "'" + text + "'";
  return "'" + text.substr(0, kMax) + "...' (" + std::to_string(text.size()) + " characters)";
}

}  // namespace

template <class S>
S from_string(const std::string& text) {
  const std::optional<std::string> number = decimal_text(text);
  if (!number) throw MalformedNumber("malformed number " + quoted(text));
  S value;
  if constexpr (std::is_same_v<S, double>) {
    value = std::strtod(number->c_str(), nullptr);  // correctly rounded (glibc)
  } else if constexpr (std::is_same_v<S, long double>) {
    value = std::strtold(number->c_str(), nullptr);  // correctly rounded (glibc)
  } else {  // Boost.Multiprecision: mpfr_set_str / strtoflt128, correctly rounded
    try {
      value = S(*number);
    } catch (const std::exception&) {
      throw MalformedNumber("number out of range " + quoted(text));
    }
  }
  using std::isfinite;
  using boost::multiprecision::isfinite;
  if (!isfinite(value)) throw MalformedNumber("number out of range " + quoted(text));
  return value;
}

// A NaN prints as "nan", whatever its sign bit ("-nan" from the stream
// said nothing that "nan" does not).
template <class S>
std::string to_string(const S& x) {
  using boost::multiprecision::isnan;
  using std::isnan;
  if (isnan(x)) return "nan";
  std::ostringstream os;
  os << std::setprecision(output_digits<S>()) << x;
  return os.str();
}

#define NHS_TEXT_INSTANTIATE_(S, NAME)                     \
  template S from_string<S>(const std::string&);          \
  template std::string to_string<S>(const S&);
NHS_FOR_EACH_SCALAR(NHS_TEXT_INSTANTIATE_)

}  // namespace nhs
