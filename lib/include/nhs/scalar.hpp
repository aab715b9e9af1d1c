// The supported scalar types, in one place, with the Eigen and Odeint glue
// they need. Nothing else in the project includes multiprecision headers.
//
// Adding a precision is one line in NHS_FOR_EACH_SCALAR plus its
// ScalarName specialization below.
#pragma once

#include <boost/multiprecision/float128.hpp>
#include <boost/multiprecision/mpfr.hpp>
#include <boost/numeric/odeint/algebra/detail/extract_value_type.hpp>

#include <Eigen/Core>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>

namespace nhs {

/// 50 significant decimal digits, MPFR backend with stack allocation and
/// expression templates off (docs/numerics.md: et_on breaks Eigen AutoDiff,
/// Odeint's integrate_times and generic `auto` code; stack allocation is
/// 2-3x faster than heap MPFR in AD-heavy kernels).
using mp50 = boost::multiprecision::number<
    boost::multiprecision::mpfr_float_backend<50, boost::multiprecision::allocate_stack>,
    boost::multiprecision::et_off>;

/// 100 significant decimal digits, MPFR backend, as mp50. The reference
/// precision: double and the other types are checked against it.
using mp100 = boost::multiprecision::number<
    boost::multiprecision::mpfr_float_backend<100, boost::multiprecision::allocate_stack>,
    boost::multiprecision::et_off>;

/// IEEE binary128 (113-bit significand, 33 decimal digits): GCC's
/// __float128 through Boost.Multiprecision, `number<float128_backend,
/// et_off>`. Needs GNU extensions (gnu++20) and libquadmath (linked by the
/// nhs target).
using float128 = boost::multiprecision::float128;

/// X(type, "cli-name") for every supported scalar type, in order of
/// increasing precision. The first one is the quick default (double).
/// long double is the x87 80-bit extended type on x86-64 (64-bit
/// significand, 18 decimal digits).
#define NHS_FOR_EACH_SCALAR(X)     \
  X(double, "double")              \
  X(long double, "long-double")    \
  X(::nhs::float128, "float128")   \
  X(::nhs::mp50, "mp50")           \
  X(::nhs::mp100, "mp100")

#define NHS_SCALAR_TUPLE_(T, NAME) , std::tuple<T>()
/// The supported scalar types as a tuple (typed tests, instantiation units).
using ScalarTypes = decltype(std::tuple_cat(std::tuple<>() NHS_FOR_EACH_SCALAR(NHS_SCALAR_TUPLE_)));
#undef NHS_SCALAR_TUPLE_

template <class S>
struct ScalarName;
#define NHS_SCALAR_NAME_(T, NAME) \
  template <>                     \
  struct ScalarName<T> {          \
    static constexpr std::string_view value = NAME; \
  };
NHS_FOR_EACH_SCALAR(NHS_SCALAR_NAME_)
#undef NHS_SCALAR_NAME_

/// Machine epsilon of S.
template <class S>
S epsilon() {
  return std::numeric_limits<S>::epsilon();
}

/// Number of significant decimal digits that represent S exactly on output
/// (max_digits10: a value printed with this many digits reads back unchanged).
template <class S>
int output_digits() {
  return std::numeric_limits<S>::max_digits10;
}

/// Thrown by from_string on text that is not a complete decimal number.
struct MalformedNumber : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Parses a decimal number into S, exactly rounded in S ("0.1" is the S
/// nearest to 1/10, not the double 0.1 widened). The text, less leading and
/// trailing white space (the same in every precision), must be a whole
/// number [+-]?(d+(.d*)?|.d+)([eE][+-]?d+)? of any length whose value is
/// finite in S; throws MalformedNumber otherwise (the message quotes at most
/// 60 characters of the text).
template <class S>
S from_string(const std::string& text);

/// Formats x with output_digits<S>() significant digits (round-trips).
template <class S>
std::string to_string(const S& x);

/// The decimal digits of S (std::numeric_limits<S>::digits10): 15 double,
/// 18 long double, 33 float128, 50 mp50, 100 mp100. The key of every
/// per-precision choice (steppers, tolerances).
template <class S>
constexpr int decimal_digits() {
  return std::numeric_limits<S>::digits10;
}

/// 10^e in S, correctly rounded (parsed from "1e<e>"; never a double).
template <class S>
S power_of_ten(int e) {
  return from_string<S>("1e" + std::to_string(e));
}

}  // namespace nhs

// --- Eigen: NumTraits for et_off multiprecision numbers (docs/numerics.md) ---
namespace Eigen {
template <class Backend>
struct NumTraits<boost::multiprecision::number<Backend, boost::multiprecision::et_off>>
    : GenericNumTraits<boost::multiprecision::number<Backend, boost::multiprecision::et_off>> {
  using Num = boost::multiprecision::number<Backend, boost::multiprecision::et_off>;
  using Real = Num;
  using NonInteger = Num;
  using Nested = Num;
  using Literal = double;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 1,
    AddCost = 4,
    MulCost = 8
  };
  static Num epsilon() { return std::numeric_limits<Num>::epsilon(); }
  static Num dummy_precision() { return 1000 * epsilon(); }
  static Num highest() { return (std::numeric_limits<Num>::max)(); }
  static Num lowest() { return -(std::numeric_limits<Num>::max)(); }
  static Num infinity() { return std::numeric_limits<Num>::infinity(); }
  static Num quiet_NaN() { return std::numeric_limits<Num>::quiet_NaN(); }
  static int digits10() { return std::numeric_limits<Num>::digits10; }
};
}  // namespace Eigen

// --- Odeint 1.74: a `number` names itself as value_type, which makes
// extract_value_type recurse forever (docs/numerics.md). ---
template <class Backend, boost::multiprecision::expression_template_option ET, class F>
struct has_value_type<boost::multiprecision::number<Backend, ET>, F> : boost::mpl::false_ {};
