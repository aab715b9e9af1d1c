// Python objects to the library's scalars and back (convert.hpp).
#include "convert.hpp"

#include <boost/multiprecision/float128.hpp>
#include <boost/multiprecision/mpfr.hpp>

#include <map>

namespace nhs::python {

// Looked up under the GIL with no C++ static guard: an import can release
// the GIL, and a thread waiting on a guard while holding the GIL would
// deadlock with it; two threads may both import, which Python's import
// lock makes harmless, and the later store wins.
const py::object& python_function(const char* module, const char* name) {
  static std::map<std::string, py::object*>* cache = new std::map<std::string, py::object*>();
  const std::string key = std::string(module) + "." + name;
  if (const auto it = cache->find(key); it != cache->end()) return *it->second;
  py::object f = py::module_::import(module).attr(name);  // may release the GIL
  py::object*& slot = (*cache)[key];
  if (!slot) slot = new py::object(std::move(f));
  return *slot;
}

std::string type_name(py::handle h) { return Py_TYPE(h.ptr())->tp_name; }

std::string shown(py::handle h) {
  std::string r = py::repr(h).cast<std::string>();
  if (r.size() > 60) r = r.substr(0, 57) + "...";
  return r;
}

bool is_instance(py::handle h, const char* module, const char* name) {
  return py::isinstance(h, python_function(module, name));
}

std::string str_arg(const py::object& v, const std::string& what) {
  if (!PyUnicode_Check(v.ptr())) throw UsageError(what + ": expected a str, got " + type_name(v));
  return v.cast<std::string>();
}

bool bool_arg(const py::object& v, const std::string& what) {
  if (PyBool_Check(v.ptr())) return v.ptr() == Py_True;
  if (is_instance(v, "numpy", "bool_")) return PyObject_IsTrue(v.ptr()) == 1;
  throw UsageError(what + ": expected a bool, got " + type_name(v));
}

long long int_arg(const py::object& v, const std::string& what, long long least) {
  if (PyBool_Check(v.ptr()) || is_instance(v, "numpy", "bool_") || !PyIndex_Check(v.ptr()))
    throw UsageError(what + ": expected an int, got " + type_name(v));
  const py::object i = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
  if (!i) throw py::error_already_set();
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow != 0 || x < least)
    throw UsageError(what + ": expected an int of at least " + std::to_string(least) +
                     (overflow > 0 ? " and at most " + std::to_string(std::numeric_limits<long long>::max()) : "") +
                     ", got " + shown(v));
  return x;
}

namespace detail {

std::string decimal_of(py::handle h, const Input& in) {
  if (PyUnicode_Check(h.ptr())) return h.cast<std::string>();
  if (PyFloat_Check(h.ptr())) return fmt::format("{}", PyFloat_AS_DOUBLE(h.ptr()));
  if (PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr())) return py::str(h).cast<std::string>();
  if ((!PyBool_Check(h.ptr()) && !is_instance(h, "numpy", "bool_") && is_instance(h, "numbers", "Real")) ||
      is_instance(h, "decimal", "Decimal"))
    return py::str(h).cast<std::string>();
  throw UsageError(in.arg + ": expected a number (an int, a float, a decimal str or an mpmath.mpf), got " + shown(h) +
                   " (" + type_name(h) + ")");
}

std::optional<Binary> mpf_binary(py::handle mpf, int bits) {
  py::tuple t = py::reinterpret_borrow<py::tuple>(mpf);
  py::int_ man(t[1]);  // an int, or gmpy2's mpz when mpmath uses it
  if (man.equal(py::int_(0)))
    return py::int_(t[2]).equal(py::int_(0)) ? std::optional<Binary>(Binary{}) : std::nullopt;  // 0; inf, nan
  if (t[3].cast<long long>() > bits) {  // rounded to nearest, ties to even, at `bits` bits
    t = python_function("mpmath.libmp", "normalize")(t[0], t[1], t[2], t[3], bits, "n");
    man = py::int_(t[1]);
  }
  Binary b;
  b.negative = t[0].cast<int>() != 0;
  const long long bc = t[3].cast<long long>();
  const std::size_t words = static_cast<std::size_t>((bc + 63) / 64);
  const std::string bytes = man.attr("to_bytes")(8 * words, "big").cast<std::string>();
  for (std::size_t k = 0; k < words; ++k) {
    std::uint64_t w = 0;
    for (std::size_t j = 0; j < 8; ++j) w = (w << 8) | static_cast<unsigned char>(bytes[8 * k + j]);
    b.words.push_back(w);
  }
  const py::int_ exponent(t[2]);
  int overflow = 0;
  b.exponent = PyLong_AsLongLongAndOverflow(exponent.ptr(), &overflow);
  constexpr long long kClamp = 1LL << 30;  // beyond every S's range: ldexp gives 0 or inf
  if (overflow != 0 || b.exponent > kClamp || b.exponent < -kClamp) b.exponent = overflow < 0 || b.exponent < 0 ? -kClamp : kClamp;
  return b;
}

std::string mpf_text(py::handle mpf) {
  // 120 significant digits: every digit of an mpf up to 334 bits (mp100's).
  return python_function("mpmath.libmp", "to_str")(mpf, 120).cast<std::string>();
}

py::object make_mpf(bool negative, const std::vector<std::uint32_t>& words, long long exponent) {
  std::string hex = negative ? "-0x0" : "0x0";
  for (const std::uint32_t w : words) hex += fmt::format("{:08x}", w);
  const py::object man = py::reinterpret_steal<py::object>(PyLong_FromString(hex.c_str(), nullptr, 16));
  if (!man) throw py::error_already_set();
  const py::object value = python_function("mpmath.libmp", "from_man_exp")(man, exponent);
  return python_function("mpmath", "mp").attr("make_mpf")(value);
}

py::object special_mpf(bool nan, bool negative) {
  const char* name = nan ? "fnan" : negative ? "fninf" : "finf";
  return python_function("mpmath", "mp").attr("make_mpf")(python_function("mpmath.libmp", name));
}

long double longdouble_of(py::handle h) {
  const auto a = py::array_t<long double>::ensure(h);
  if (!a) throw py::error_already_set();
  return *a.data();
}

/// x's binary digits (convert.hpp, "Out"): an exact mpmath.mpf; the
/// decimal string when mpmath is missing.
template <class S>
py::object exact_mpf(const S& x) {
  using std::abs, std::frexp, std::ldexp, std::fmod;
  using boost::multiprecision::isnan, boost::multiprecision::isinf;
  try {
    if (isnan(x)) return special_mpf(true, false);
    if (isinf(x)) return special_mpf(false, x < 0);
    constexpr int d = std::numeric_limits<S>::digits;
    std::vector<std::uint32_t> words((d + 31) / 32);
    if (x == 0) return make_mpf(false, words, 0);
    int e = 0;
    S m = frexp(S(abs(x)), &e);
    // In [1/2, 1): Boost's frexp for MPFR leaves 1/2 - ulp/2 at 1/2's
    // exponent (found on 0.5 - 2^-169 in mp50).
    while (m < S(0.5)) m = ldexp(m, 1), --e;
    while (m >= S(1)) m = ldexp(m, -1), ++e;
    m = ldexp(m, d);  // an integer of d bits
    const S base = ldexp(S(1), 32);
    bool whole = true;  // every word an integer: the d bits hold x
    for (std::size_t k = words.size(); k-- > 0;) {
      const S low = fmod(m, base);
      words[k] = static_cast<std::uint32_t>(low);
      whole = whole && S(words[k]) == low;
      m = ldexp(S(m - low), -32);
    }
    if (!whole)  // never seen: x's own decimal string, which round-trips, at d bits
      return python_function("mpmath", "mp").attr("make_mpf")(
          python_function("mpmath.libmp", "from_str")(to_string<S>(x), d, "n"));
    return make_mpf(x < 0, words, static_cast<long long>(e) - d);
  } catch (const py::error_already_set& err) {
    if (!err.matches(PyExc_ImportError)) throw;
    return py::str(to_string<S>(x));
  }
}

}  // namespace detail

template <class S>
Vec<S> to_vector(const py::object& v, const Input& in) {
  if (PyUnicode_Check(v.ptr())) return parse_vector<S>(in.option, v.cast<std::string>());
  const std::string expected = in.arg + ": expected a list, tuple or 1-D NumPy array of numbers";
  if (PyBytes_Check(v.ptr()) || PyByteArray_Check(v.ptr()) || PyMemoryView_Check(v.ptr()))
    throw UsageError(expected + ", got " + type_name(v) + " (bytes are read as byte values, not as digits)");
  if (is_instance(v, "numpy", "ndarray")) {
    if (is_instance(v, "numpy.ma", "MaskedArray"))
      throw UsageError(expected + ", got a masked array (its mask would be ignored: give a.filled(...) or "
                       "a.compressed())");
    const auto a = py::reinterpret_borrow<py::array>(v);
    if (a.ndim() != 1)
      throw UsageError(in.arg + ": expected a vector, got an array of " + std::to_string(a.ndim()) + " dimensions");
    const char kind = a.dtype().kind();
    if (kind != 'i' && kind != 'u' && kind != 'f' && kind != 'O' && kind != 'U')
      throw UsageError(expected + ", got an array of dtype " + py::str(a.dtype()).cast<std::string>());
    if constexpr (kFlat<S>) {
      if (a.dtype().is(py::dtype::of<S>()) && a.shape(0) > 0) {  // its values, from the buffer (any strides)
        Vec<S> out(a.shape(0));
        const char* base = static_cast<const char*>(a.data());
        for (py::ssize_t i = 0; i < a.shape(0); ++i) out[i] = *reinterpret_cast<const S*>(base + i * a.strides(0));
        return out;
      }
    }
  } else if (!PyList_Check(v.ptr()) && !PyTuple_Check(v.ptr()) && !is_instance(v, "collections.abc", "Sequence")) {
    throw UsageError(expected + ", got " + type_name(v) +
                     (is_instance(v, "collections.abc", "Mapping") || is_instance(v, "collections.abc", "Set")
                          ? " (a vector is ordered: give a list)"
                          : ""));
  }
  std::vector<S> values;
  for (py::handle item : py::iter(v)) {
    if (PyUnicode_Check(item.ptr()) && item.cast<std::string>().find(',') != std::string::npos)
      throw UsageError(in.arg + ": an item holds a comma, " + shown(item) + ": give one number an item");
    values.push_back(to_scalar<S>(item, in));
  }
  if (values.empty()) throw UsageError(in.arg + ": empty vector");
  return Eigen::Map<const Vec<S>>(values.data(), static_cast<Eigen::Index>(values.size()));
}

template <class S>
py::object to_python(const S& x) {
  if constexpr (std::is_same_v<S, double>)
    return py::float_(x);
  else if constexpr (std::is_same_v<S, long double>)
    return py::array_t<long double>(std::vector<py::ssize_t>{}, &x)[py::tuple()];
  else
    return detail::exact_mpf<S>(x);
}

template <class S>
py::object to_python(const S& re, const S& im) {
  if constexpr (kFlat<S>) {
    const std::complex<S> z(re, im);
    return py::array_t<std::complex<S>>(std::vector<py::ssize_t>{}, &z)[py::tuple()];
  } else {
    // Exactly from its parts: mpmath.mpc(re, im) would round them to the
    // caller's mp.prec.
    const py::object r = to_python<S>(re), i = to_python<S>(im);
    if (PyUnicode_Check(r.ptr())) return py::make_tuple(r, i);
    return python_function("mpmath", "mp").attr("make_mpc")(py::make_tuple(r.attr("_mpf_"), i.attr("_mpf_")));
  }
}

template <class S>
py::object to_python(const Vec<S>& v) {
  if constexpr (kFlat<S>) {
    return py::array_t<S>(static_cast<py::ssize_t>(v.size()), v.data());
  } else {
    py::list items;
    for (const auto& x : v) items.append(to_python<S>(x));
    return python_function("numpy", "array")(items, py::arg("dtype") = "object");
  }
}

template <class S>
py::object to_python(const Mat<S>& m) {
  const std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(m.rows()), static_cast<py::ssize_t>(m.cols())};
  if constexpr (kFlat<S>) {
    py::array_t<S> out(shape);
    auto o = out.template mutable_unchecked<2>();
    for (Eigen::Index i = 0; i < m.rows(); ++i)
      for (Eigen::Index j = 0; j < m.cols(); ++j) o(i, j) = m(i, j);
    return out;
  } else {
    py::list items;
    for (Eigen::Index i = 0; i < m.rows(); ++i)
      for (Eigen::Index j = 0; j < m.cols(); ++j) items.append(to_python<S>(m(i, j)));
    return python_function("numpy", "array")(items, py::arg("dtype") = "object")
        .attr("reshape")(py::make_tuple(shape[0], shape[1]));
  }
}

template <class S>
py::object to_python(const std::vector<std::pair<S, S>>& values) {
  if constexpr (kFlat<S>) {
    py::array_t<std::complex<S>> out(static_cast<py::ssize_t>(values.size()));
    auto o = out.template mutable_unchecked<1>();
    for (std::size_t k = 0; k < values.size(); ++k)
      o(static_cast<py::ssize_t>(k)) = std::complex<S>(values[k].first, values[k].second);
    return out;
  } else {
    py::list out;
    for (const auto& [re, im] : values) out.append(to_python<S>(re, im));
    return out;
  }
}

template <class S>
py::list to_list(const std::vector<S>& values) {
  py::list out;
  for (const S& x : values) out.append(to_python<S>(x));
  return out;
}

#define NHS_PY_CONVERT_INSTANTIATE_(S, NAME)                                       \
  template Vec<S> to_vector<S>(const py::object&, const Input&);                  \
  template py::object to_python<S>(const S&);                                     \
  template py::object to_python<S>(const S&, const S&);                           \
  template py::object to_python<S>(const Vec<S>&);                                \
  template py::object to_python<S>(const Mat<S>&);                                \
  template py::object to_python<S>(const std::vector<std::pair<S, S>>&);          \
  template py::list to_list<S>(const std::vector<S>&);
NHS_FOR_EACH_SCALAR(NHS_PY_CONVERT_INSTANTIATE_)
#undef NHS_PY_CONVERT_INSTANTIATE_

}  // namespace nhs::python
