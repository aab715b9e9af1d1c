// Python objects to the library's scalars and back (nhs._core), in one
// place: every argument of the module that is a number or a vector goes
// through to_scalar<S> / to_vector<S>, every number it returns through
// to_python<S> (and its vector, matrix and complex forms).
//
// In: a Python float is the double it holds; in a wider S it is read as its
// shortest round-trip repr, as the tool reads an option ("0.1" is the S
// nearest 1/10, not the double 0.1 widened). An int is exact where S holds
// it, else correctly rounded. A str is a decimal number read by
// parse_number<S> (correctly rounded). An mpmath.mpf is taken exactly from
// its binary mantissa and exponent, then correctly rounded to S. An
// np.longdouble is the long double it holds in long double. Another real
// (NumPy's integers and floats, decimal.Decimal) is read from str(), which
// round-trips. Anything else is a UsageError naming the argument, its value
// and its type.
//
// Out: double as float (a vector as a float64 array), long double as
// np.longdouble (arrays of it), float128 and above as mpmath.mpf built
// exactly from the binary digits of S (whatever mpmath.mp.prec is), or the
// decimal string when mpmath is missing.
#pragma once

#include "nhs/autodiff.hpp"
#include "nhs/errors.hpp"
#include "nhs/format.hpp"

#include <fmt/format.h>
#include "nhs/scalar.hpp"
#include "nhs/session/parse.hpp"
#include "nhs/session/precision.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace nhs::python {

namespace py = pybind11;

/// Whether S is held by NumPy as it is (float64, np.longdouble).
template <class S>
inline constexpr bool kFlat = std::is_same_v<S, double> || std::is_same_v<S, long double>;

/// module.attr(name), imported once and kept (looked up under the GIL,
/// without a C++ static guard: see convert.cpp). UsageError when the
/// module is missing.
const py::object& python_function(const char* module, const char* name);

/// The type of h by name ("bytes", "numpy.ndarray"), for messages.
std::string type_name(py::handle h);

/// repr(h) for a message, at most 60 characters.
std::string shown(py::handle h);

/// Whether h is an instance of module.name.
bool is_instance(py::handle h, const char* module, const char* name);

/// A str argument (a name) as given; UsageError naming `what` otherwise.
std::string str_arg(const py::object& v, const std::string& what);

/// A bool argument: True, False or a NumPy bool; UsageError otherwise.
bool bool_arg(const py::object& v, const std::string& what);

/// An int argument (not a bool) of at least `least`; UsageError naming
/// `what` otherwise.
long long int_arg(const py::object& v, const std::string& what, long long least);

/// How an input is named in messages: `arg`, the Python argument, in a
/// type error ("q: expected a number ..."); `option`, the name the value's
/// own errors carry, the tool's option ("--q: malformed number '1.2.3'"),
/// so that a message is the tool's (docs/python.md, "Errors").
struct Input {
  std::string arg, option;
};

namespace detail {

/// The decimal text of a Python number that S does not hold as it is: a
/// str as given, a float's shortest repr, an int in full, another real's
/// str(); UsageError naming in.arg for anything that is not a number
/// (bool, None, bytes, a container, a complex number).
std::string decimal_of(py::handle h, const Input& in);

/// An mpmath.mpf's (sign, man, exp, bc) rounded to nearest at `bits` bits
/// (exact when bc <= bits): (negative, mantissa as big-endian 64-bit words,
/// exponent); nullopt for inf and nan.
struct Binary {
  bool negative = false;
  std::vector<std::uint64_t> words;  ///< the mantissa, most significant first
  long long exponent = 0;
};
std::optional<Binary> mpf_binary(py::handle mpf, int bits);

/// The decimal text of an mpf (for the message of one S cannot hold).
std::string mpf_text(py::handle mpf);

/// An exact mpmath.mpf of sign * mantissa * 2^exponent, the mantissa's
/// 32-bit words most significant first (zero when empty); nan and inf as
/// mpmath's.
py::object make_mpf(bool negative, const std::vector<std::uint32_t>& words, long long exponent);
py::object special_mpf(bool nan, bool negative);

/// An np.longdouble scalar's value.
long double longdouble_of(py::handle h);

}  // namespace detail

/// The number h in S (the header's rules). UsageError naming in.arg for
/// what is not a number, in.option for a malformed or out-of-range value.
template <class S>
S to_scalar(py::handle h, const Input& in) {
  PyObject* p = h.ptr();
  if (PyFloat_Check(p)) {
    const double x = PyFloat_AS_DOUBLE(p);
    if constexpr (std::is_same_v<S, double>)
      if (std::isfinite(x)) return x;
    return parse_number<S>(in.option, fmt::format("{}", x));  // the shortest repr; refuses inf and nan
  }
  if (PyLong_Check(p) && !PyBool_Check(p)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
    constexpr long long kExact = std::is_same_v<S, double> ? (1LL << 53) : std::numeric_limits<long long>::max();
    if (overflow == 0 && v >= -kExact && v <= kExact) return S(v);
    if (PyErr_Occurred()) throw py::error_already_set();
  } else if (!PyUnicode_Check(p) && py::hasattr(h, "_mpf_")) {
    const py::object mpf = h.attr("_mpf_");
    const std::optional<detail::Binary> b = detail::mpf_binary(mpf, std::numeric_limits<S>::digits);
    if (b) {
      using std::ldexp;
      S x(0);
      for (const std::uint64_t w : b->words) x = S(ldexp(x, 64)) + S(w);
      x = ldexp(x, static_cast<int>(b->exponent));  // the exponent clamped to +-2^30 by mpf_binary
      using std::isfinite;
      using boost::multiprecision::isfinite;
      if (isfinite(x)) return b->negative ? S(-x) : x;
    }
    return parse_number<S>(in.option, detail::mpf_text(mpf));  // inf, nan, out of range: the tool's message
  } else if constexpr (std::is_same_v<S, long double>) {
    if (is_instance(h, "numpy", "longdouble")) {
      const long double x = detail::longdouble_of(h);
      if (std::isfinite(x)) return x;
    }
  }
  return parse_number<S>(in.option, detail::decimal_of(h, in));
}

/// A vector argument in S: a str as the tool's comma-separated text, a
/// list, tuple (or other sequence) or 1-D NumPy array of numbers item by
/// item (to_scalar; a float64 array in double and an np.longdouble array
/// in long double straight from its buffer). UsageError naming in.arg for
/// bytes (whose items are byte values, not digits), a dict or set (no
/// order of its own), a masked array (whose mask would be ignored), an
/// array of another dimension or dtype, an item with a comma, an empty
/// vector.
template <class S>
Vec<S> to_vector(const py::object& v, const Input& in);

/// A value of S for Python: float, np.longdouble, or an exact mpmath.mpf
/// (the decimal string without mpmath).
template <class S>
py::object to_python(const S& x);

/// A complex number re + i im of S: complex for double, np.clongdouble for
/// long double, an exact mpmath.mpc above (the pair of decimal strings
/// without mpmath).
template <class S>
py::object to_python(const S& re, const S& im);

/// A vector of S: a NumPy array (float64, np.longdouble; an object array
/// of mpmath.mpf above).
template <class S>
py::object to_python(const Vec<S>& v);

/// A matrix of S (rows x cols): a 2-D NumPy array, as the vector's.
template <class S>
py::object to_python(const Mat<S>& m);

/// Complex numbers (re, im) of S: a complex NumPy array (complex128,
/// np.clongdouble), a list of mpmath.mpc above.
template <class S>
py::object to_python(const std::vector<std::pair<S, S>>& values);

/// Values of S as a Python list (to_python of each).
template <class S>
py::list to_list(const std::vector<S>& values);

/// Calls f.template operator()<S>() for the scalar named `precision`
/// (UsageError for an unknown name).
template <class F>
py::object with_precision(const std::string& precision, F&& f) {
  std::optional<py::object> out;
  with_scalar(precision, [&]<class S>() {
    out = f.template operator()<S>();
    return 0;
  });
  return *out;
}

}  // namespace nhs::python
