// nhs._core: the C++ half of the Python module `nhs` (pybind11). It binds
// the library's typed API beneath the `nhs` tool (nhs_session: problems,
// accelerations, fields, run plans, linearization; nhs_verification: the
// checks), never the tool's own code, so that System.accel returns what
// `nhs accel` prints and System.run integrates what `nhs run` integrates,
// by construction (the same typed requests, the same functions):
//   - numbers are read exactly, as the tool reads its options (a Python
//     float as its shortest round-trip repr, an mpmath.mpf with all its
//     digits, parsed in the run's precision);
//   - double and long double come out as NumPy arrays holding the binary
//     values (float64, np.longdouble); float128, mp50 and mp100 as
//     mpmath.mpf made exactly from the decimal strings the CLI prints
//     (strings when mpmath is missing).
// The library's typed errors become nhs.UsageError, nhs.InvalidState
// (.condition), nhs.IntegrationError and nhs.IOError; an interrupted run
// becomes KeyboardInterrupt. Long calls release the GIL.

#include "nhs/error_table.hpp"
#include "nhs/format.hpp"
#include "nhs/regularity.hpp"
#include "nhs/session/accelerations.hpp"
#include "nhs/session/clock.hpp"
#include "nhs/session/files.hpp"
#include "nhs/session/linearization_report.hpp"
#include "nhs/session/motion_table.hpp"
#include "nhs/session/output_budget.hpp"
#include "nhs/session/precision.hpp"
#include "nhs/session/parse.hpp"
#include "nhs/session/problem.hpp"
#include "nhs/session/run_plan.hpp"
#include "nhs/studies/system_file.hpp"
#include "nhs/studies/motion_run.hpp"
#include "nhs/constraint_classification.hpp"
#include "nhs/studies/traced.hpp"
#include "nhs/verification/check.hpp"
#include "nhs/verification/summary.hpp"
#include "nhs/symbolic/print.hpp"
#include "nhs/expression.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <chrono>
#include <complex>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace pybind11::literals;

namespace nhs::python {

namespace {

// The Python exception types (created once in PYBIND11_MODULE, never freed).
PyObject* g_error = nullptr;
PyObject* g_usage = nullptr;
PyObject* g_invalid = nullptr;
PyObject* g_integration = nullptr;
PyObject* g_io = nullptr;

void raise(PyObject* type, const char* message, const char* condition = nullptr) {
  py::object exc = py::reinterpret_steal<py::object>(PyObject_CallFunction(type, "s", message));
  if (!exc) return;  // the call's own error stays set
  if (type == g_invalid)
    exc.attr("condition") = condition ? py::object(py::str(condition)) : py::object(py::none());
  PyErr_SetObject(type, exc.ptr());
}

/// The most rows System.run keeps by default (its max_rows=): a run's rows
/// are all in memory, so that a fine grid (dt_out = 1e-9 to t = 0.5: 5e8
/// rows) is refused up front rather than growing until the system kills the
/// process. The budget of `nhs run` (kMaxOutputRows, 10 million rows:
/// 0.96 GB for a system of 12 columns in double, row_bytes).
constexpr std::uint64_t kMaxRunRows = kMaxOutputRows;

/// The memory one kept row of `columns` values takes, in bytes, for the
/// message of a refused grid: the values themselves in double and long
/// double (one array, no copy); above, the library's value, its decimal
/// string and the mpmath.mpf made from it (Run): about 400 bytes a value,
/// measured in mp50 (skate, 50,001 rows of 12 columns: +226 MB).
template <class S>
std::size_t row_bytes(std::size_t columns) {
  if constexpr (std::is_same_v<S, double> || std::is_same_v<S, long double>) return columns * sizeof(S);
  else return columns * 400;
}

// Raised from a GIL-released run when Python's SIGINT handler has set
// KeyboardInterrupt (PyErr_CheckSignals): the error stays set.
struct PythonSignal : std::exception {};

/// The exception of the error p: the error table's (classify_error,
/// nhs/error_table.hpp: nhs.UsageError, nhs.InvalidState with .condition,
/// nhs.IntegrationError, nhs.IOError, KeyboardInterrupt); MemoryError and
/// RuntimeError (and pybind11's own exceptions) by pybind11's translators.
void translate(std::exception_ptr p) {
  if (!p) return;
  try {
    std::rethrow_exception(p);
  } catch (const PythonSignal&) {
    if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
    return;
  } catch (...) {
  }
  const ClassifiedError e = classify_error(p);
  const std::string_view name = error_class(e.category).python_exception;
  PyObject* type = name == "UsageError"         ? g_usage
                   : name == "InvalidState"     ? g_invalid
                   : name == "IntegrationError" ? g_integration
                   : name == "IOError"          ? g_io
                                                : nullptr;
  if (type)
    raise(type, e.message.c_str(),
          e.category == ErrorCategory::singular_state ? e.condition.c_str() : "off the constraint manifold C");
  else if (name == "KeyboardInterrupt")
    PyErr_SetString(PyExc_KeyboardInterrupt, e.message.c_str());
  else
    std::rethrow_exception(p);
}

// --- numbers in ----------------------------------------------------------

/// module.attr(name), imported once and kept. Looked up under the GIL with
/// no C++ static guard: an import can release the GIL, and a thread waiting
/// on a guard while holding the GIL would deadlock with it; two threads may
/// both import, which Python's import lock makes harmless, and the later
/// store wins. UsageError when the module is missing.
const py::object& python_function(const char* module, const char* name) {
  static std::map<std::string, py::object*>* cache = new std::map<std::string, py::object*>();
  const std::string key = std::string(module) + "." + name;
  if (const auto it = cache->find(key); it != cache->end()) return *it->second;
  py::object f = py::module_::import(module).attr(name);  // may release the GIL
  py::object*& slot = (*cache)[key];
  if (!slot) slot = new py::object(std::move(f));
  return *slot;
}

/// The type of h by name ("bytes", "numpy.ndarray"), for messages.
std::string type_name(py::handle h) {
  return Py_TYPE(h.ptr())->tp_name;
}

/// repr(h) for a message, at most 60 characters.
std::string shown(py::handle h) {
  std::string r = py::repr(h).cast<std::string>();
  if (r.size() > 60) r = r.substr(0, 57) + "...";
  return r;
}

/// Whether h is an instance of module.name (imported once: python_function).
bool is_instance(py::handle h, const char* module, const char* name) {
  return py::isinstance(h, python_function(module, name));
}

/// A str argument (a name: formulation, precision, stepper, field) as
/// given; UsageError naming `what` and the type expected otherwise.
std::string str_arg(const py::object& v, const std::string& what) {
  if (!PyUnicode_Check(v.ptr())) throw UsageError(what + ": expected a str, got " + type_name(v));
  return v.cast<std::string>();
}

/// A bool argument: True, False or a NumPy bool; UsageError otherwise (a
/// str such as "no" is not read as True).
bool bool_arg(const py::object& v, const std::string& what) {
  if (PyBool_Check(v.ptr())) return v.ptr() == Py_True;
  if (is_instance(v, "numpy", "bool_")) return PyObject_IsTrue(v.ptr()) == 1;
  throw UsageError(what + ": expected a bool, got " + type_name(v));
}

/// An int argument (a Python or NumPy integer, not a bool) of at least
/// `least`; UsageError naming `what` otherwise.
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

/// A Python number as the text the CLI would read: str as given; float (and
/// np.float64) as its shortest round-trip repr; int in full; mpmath.mpf with
/// every digit of its mantissa; another real number (NumPy's integers and
/// floats, np.longdouble, decimal.Decimal) by str(), which round-trips.
/// UsageError naming `what` for anything else (bool, None, bytes, a
/// container, a complex number).
std::string number_text(py::handle h, const std::string& what) {
  if (PyUnicode_Check(h.ptr())) return h.cast<std::string>();
  if (PyFloat_Check(h.ptr())) return fmt::format("{}", PyFloat_AS_DOUBLE(h.ptr()));
  if (PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr())) return py::str(h).cast<std::string>();
  if (py::hasattr(h, "_mpf_")) {
    // 120 significant digits: every digit of an mpf up to 334 bits (the
    // widest precision, mp100), so that S rounds the mpf's own value.
    const py::object& to_str = python_function("mpmath.libmp", "to_str");
    return to_str(h.attr("_mpf_"), 120).cast<std::string>();
  }
  if ((!PyBool_Check(h.ptr()) && !is_instance(h, "numpy", "bool_") && is_instance(h, "numbers", "Real")) ||
      is_instance(h, "decimal", "Decimal"))
    return py::str(h).cast<std::string>();
  throw UsageError(what + ": expected a number (an int, a float, a decimal str or an mpmath.mpf), got " + shown(h) +
                   " (" + type_name(h) + ")");
}

/// A vector argument as the CLI's comma-separated text: None -> "", a str
/// as the CLI's text ("1,2,3"), a list, tuple (or other sequence) or 1-D
/// NumPy array of real numbers item by item (number_text). UsageError
/// naming `what` for bytes (whose items are byte values, not the digits
/// written), a dict or set (no order of its own), a masked array (whose
/// mask would be ignored), an array of another dimension or dtype.
std::string vector_text(const py::object& v, const std::string& what) {
  if (v.is_none()) return {};
  if (PyUnicode_Check(v.ptr())) return v.cast<std::string>();
  const std::string expected = what + ": expected a list, tuple or 1-D NumPy array of numbers";
  if (PyBytes_Check(v.ptr()) || PyByteArray_Check(v.ptr()) || PyMemoryView_Check(v.ptr()))
    throw UsageError(expected + ", got " + type_name(v) + " (bytes are read as byte values, not as digits)");
  if (is_instance(v, "numpy", "ndarray")) {
    if (is_instance(v, "numpy.ma", "MaskedArray"))
      throw UsageError(expected + ", got a masked array (its mask would be ignored: give a.filled(...) or "
                       "a.compressed())");
    const auto a = py::cast<py::array>(v);
    if (a.ndim() != 1)
      throw UsageError(what + ": expected a vector, got an array of " + std::to_string(a.ndim()) + " dimensions");
    const char kind = a.dtype().kind();
    if (kind != 'i' && kind != 'u' && kind != 'f' && kind != 'O' && kind != 'U')
      throw UsageError(expected + ", got an array of dtype " + py::str(a.dtype()).cast<std::string>());
  } else if (!PyList_Check(v.ptr()) && !PyTuple_Check(v.ptr()) &&
             !is_instance(v, "collections.abc", "Sequence")) {
    throw UsageError(expected + ", got " + type_name(v) +
                     (is_instance(v, "collections.abc", "Mapping") || is_instance(v, "collections.abc", "Set")
                          ? " (a vector is ordered: give a list)"
                          : ""));
  }
  std::string out;
  out.reserve(32 * 8);
  const auto append_double = [&out](double x) {
    if (!out.empty()) out += ',';
    fmt::format_to(std::back_inserter(out), "{}", x);  // the shortest round-trip repr, as Python's
  };
  // A float64 NumPy array: its values read straight from the buffer.
  if (py::isinstance<py::array_t<double>>(v)) {
    const auto a = py::cast<py::array_t<double>>(v);
    const auto r = a.unchecked<1>();
    for (py::ssize_t i = 0; i < r.shape(0); ++i) append_double(r(i));
  } else {
    for (py::handle item : py::iter(v)) {
      if (PyFloat_Check(item.ptr())) {
        append_double(PyFloat_AS_DOUBLE(item.ptr()));
      } else {
        if (PyUnicode_Check(item.ptr()) && item.cast<std::string>().find(',') != std::string::npos)
          throw UsageError(what + ": an item holds a comma, " + shown(item) + ": give one number an item");
        if (!out.empty()) out += ',';
        out += number_text(item, what);
      }
    }
  }
  if (out.empty()) throw UsageError(what + ": empty vector");
  return out;
}

std::string option_text(const py::object& v, const std::string& what) {
  return v.is_none() ? std::string() : number_text(v, what);
}

/// The argument `what` (params, at), {name: value}, as (name, exact
/// decimal text) pairs (number_text); None is empty. UsageError naming
/// `what` (and `what`[name] for a value) unless a dict with str keys and
/// number values.
std::vector<std::pair<std::string, std::string>> param_pairs(const py::object& params, const std::string& what) {
  std::vector<std::pair<std::string, std::string>> pairs;
  if (params.is_none()) return pairs;
  if (!PyDict_Check(params.ptr()))
    throw UsageError(what + ": expected a dict {name: value}, got " + type_name(params));
  for (auto [k, v] : py::reinterpret_borrow<py::dict>(params)) {
    if (!PyUnicode_Check(k.ptr())) throw UsageError(what + ": a parameter's name is a str, got " + shown(k));
    const std::string name = k.cast<std::string>();
    pairs.emplace_back(name, number_text(v, what + "[" + name + "]"));
  }
  return pairs;
}

// --- numbers out ---------------------------------------------------------

/// A value of S for Python: float for double, np.longdouble for long
/// double, an exact mpmath.mpf otherwise (the decimal string when mpmath is
/// missing).
template <class S>
py::object scalar(const S& x) {
  if constexpr (std::is_same_v<S, double>) {
    return py::float_(x);
  } else if constexpr (std::is_same_v<S, long double>) {
    return py::array_t<long double>(std::vector<py::ssize_t>{}, &x)[py::tuple()];
  } else {
    // mpmath.mpf made exactly from the decimal string at S's binary digits
    // (the string round-trips S); the string itself without mpmath.
    const std::string text = to_string<S>(x);
    try {
      const py::object& from_str = python_function("mpmath.libmp", "from_str");
      const py::object& mp = python_function("mpmath", "mp");
      return mp.attr("make_mpf")(from_str(text, std::numeric_limits<S>::digits, "n"));
    } catch (const py::error_already_set& e) {
      if (!e.matches(PyExc_ImportError)) throw;
      return py::str(text);
    }
  }
}

/// A complex number re + i im of S for Python (above long double): an
/// mpmath.mpc made exactly from its parts (scalar<S>; mpmath.mpc(re, im)
/// would round them to the caller's mp.prec), or the pair of decimal
/// strings without mpmath.
template <class S>
py::object complex_scalar(const S& re, const S& im) {
  const py::object r = scalar<S>(re), i = scalar<S>(im);
  if (PyUnicode_Check(r.ptr())) return py::make_tuple(r, i);
  const py::object& mp = python_function("mpmath", "mp");
  return mp.attr("make_mpc")(py::make_tuple(r.attr("_mpf_"), i.attr("_mpf_")));
}

/// A vector of S for Python: a NumPy array (float64, np.longdouble; an
/// object array of mpmath.mpf, or of str without mpmath, otherwise).
template <class S>
py::object vector(const Vec<S>& v) {
  if constexpr (std::is_same_v<S, double> || std::is_same_v<S, long double>) {
    return py::array_t<S>(static_cast<py::ssize_t>(v.size()), v.data());
  } else {
    py::list items;
    for (const auto& x : v) items.append(scalar<S>(x));
    return python_function("numpy", "array")(items, "dtype"_a = "object");
  }
}

template <class S>
py::list strings(const Vec<S>& v) {
  py::list out;
  for (const auto& x : v) out.append(to_string<S>(x));
  return out;
}

/// Calls f.template operator()<S>() for the scalar named `precision`.
template <class F>
py::object with_precision(const std::string& precision, F&& f) {
  std::optional<py::object> out;
  with_scalar(precision, [&]<class S>() {
    out = f.template operator()<S>();
    return 0;
  });
  return *out;
}

/// The accelerations at a state (the result of System.accel): the C++
/// answer, turned into Python objects when an attribute is first read (so
/// that a call costs the computation, not conversions nobody reads).
class AccelResult {
 public:
  struct Answer {
    virtual ~Answer() = default;
    virtual py::object vector(int which) const = 0;  // kQ ... kReaction
    virtual py::object gauss_z() const = 0;
    virtual py::dict parameters(bool as_strings) const = 0;
    virtual py::list strings(int which) const = 0;
    virtual bool has(int which) const = 0;
    /// The field's Jacobian (N x N array) and the names of x, or None
    /// (accel without jacobian=True).
    virtual py::object jacobian() const = 0;
    virtual py::object jacobian_state() const = 0;
    virtual py::object eigenvalues() const = 0;
    std::string study, formulation, field, precision;
  };
  enum { kQ, kQdot, kQddot, kMultipliers, kReaction, kCount };

  explicit AccelResult(std::shared_ptr<const Answer> a) : a_(std::move(a)) {}

  const Answer& answer() const { return *a_; }
  py::object get(int which) const {
    py::object& slot = cache_[which];
    if (!slot) slot = a_->has(which) ? a_->vector(which) : py::object(py::none());
    return slot;
  }
  py::object gauss_z() const { return a_->gauss_z(); }
  py::dict parameters() const { return a_->parameters(false); }
  py::dict strings() const {
    py::dict d;
    d["parameters"] = a_->parameters(true);
    static const char* names[] = {"q", "qdot", "qddot", "multipliers", "reaction"};
    for (int k = 0; k < kCount; ++k)
      if (a_->has(k)) d[names[k]] = a_->strings(k);
    d["gauss_z"] = a_->gauss_z().is_none() ? py::object(py::none()) : a_->strings(-1)[0];
    return d;
  }

 private:
  std::shared_ptr<const Answer> a_;
  mutable py::object cache_[kCount];
};

template <class S>
struct AccelAnswerOf : AccelResult::Answer {
  explicit AccelAnswerOf(AccelAnswer<S> answer) : a(std::move(answer)) {}
  AccelAnswer<S> a;
  const Vec<S>* pick(int which) const {
    switch (which) {
      case AccelResult::kQ: return &a.q;
      case AccelResult::kQdot: return &a.qdot;
      case AccelResult::kQddot: return &a.acceleration.qddot;
      case AccelResult::kMultipliers: return a.acceleration.multipliers ? &*a.acceleration.multipliers : nullptr;
      case AccelResult::kReaction: return a.acceleration.reaction ? &*a.acceleration.reaction : nullptr;
    }
    return nullptr;
  }
  bool has(int which) const override { return pick(which) != nullptr; }
  py::object vector(int which) const override { return python::vector<S>(*pick(which)); }
  py::object gauss_z() const override { return scalar<S>(a.gauss_z); }
  py::list strings(int which) const override {
    if (which < 0) {
      py::list l;
      l.append(to_string<S>(a.gauss_z));
      return l;
    }
    return python::strings<S>(*pick(which));
  }
  py::object jacobian() const override {
    if (!a.jacobian) return py::none();
    const Mat<S>& J = a.jacobian->J;
    if constexpr (std::is_same_v<S, double> || std::is_same_v<S, long double>) {
      py::array_t<S> out({static_cast<py::ssize_t>(J.rows()), static_cast<py::ssize_t>(J.cols())});
      auto m = out.template mutable_unchecked<2>();
      for (Eigen::Index i = 0; i < J.rows(); ++i)
        for (Eigen::Index j = 0; j < J.cols(); ++j) m(i, j) = J(i, j);
      return out;
    } else {
      py::list rows;
      for (Eigen::Index i = 0; i < J.rows(); ++i) {
        py::list row;
        for (Eigen::Index j = 0; j < J.cols(); ++j) row.append(scalar<S>(J(i, j)));
        rows.append(row);
      }
      return python_function("numpy", "array")(rows, "dtype"_a = "object");
    }
  }
  py::object eigenvalues() const override {
    if (!a.jacobian) return py::none();
    if constexpr (std::is_same_v<S, double> || std::is_same_v<S, long double>) {
      py::array_t<std::complex<S>> out(static_cast<py::ssize_t>(a.jacobian->eigenvalues.size()));
      auto m = out.template mutable_unchecked<1>();
      for (std::size_t k = 0; k < a.jacobian->eigenvalues.size(); ++k)
        m(static_cast<py::ssize_t>(k)) = std::complex<S>(a.jacobian->eigenvalues[k].first, a.jacobian->eigenvalues[k].second);
      return out;
    } else {
      py::list out;
      for (const auto& [re, im] : a.jacobian->eigenvalues) out.append(complex_scalar<S>(re, im));
      return out;
    }
  }
  py::object jacobian_state() const override {
    return a.jacobian ? py::object(py::cast(a.jacobian->state)) : py::object(py::none());
  }
  py::dict parameters(bool as_strings) const override {
    py::dict d;
    for (const auto& [n, v] : a.parameters)
      d[py::str(n)] = as_strings ? py::object(py::str(to_string<S>(v))) : scalar<S>(v);
    return d;
  }
};

// --- the vector field --------------------------------------------------------

/// System.field(...): the formulation's second-order field at fixed
/// parameters, for SciPy's solve_ivp, an optimizer or a user's own loop.
/// x = (q, qdot) (size 2n) maps to (qdot, qddot), qddot from the
/// formulation's acceleration (its field backend: generated, traced or the
/// library's, as accel and run choose). The system is autonomous: t is
/// accepted and not read. x is taken as given, not projected onto C: off C
/// the formulation's equations are evaluated as they stand. Calls on one
/// Field are serialized (a traced field's interpreter has registers); the
/// batch runs without the GIL.
class FieldHandle {
 public:
  struct Impl {
    virtual ~Impl() = default;
    virtual py::object call(const py::object& x) = 0;
    virtual py::object batch(const py::object& q, const py::object& qdot) = 0;
    virtual double bench(const py::object& x, long long repeats) = 0;
    virtual py::object jac(const py::object& x) = 0;
    int n = 0;
    std::string study, formulation, field, precision;
    std::string source;  ///< the study id or file path the field was made from (for its traced Jacobian)
    /// The system file as loaded when the field was made (null for a
    /// built-in study): jac refuses once the file has changed.
    std::shared_ptr<const SystemFile> file;
  };
  explicit FieldHandle(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  Impl& impl() const { return *impl_; }

 private:
  std::shared_ptr<Impl> impl_;
};

template <class S>
class FieldOf final : public FieldHandle::Impl {
 public:
  explicit FieldOf(Problem<S> setup) : s_(std::move(setup)) {
    n = s_.sys.n;
    study = s_.sys.info.name;
    formulation = s_.formulation_name;
    field = field_backend_name(s_.field);
  }

  // The lock discipline (a Field is shared by threads): nothing under
  // mutex_ touches a Python object. A call reads its arguments with the GIL
  // into its own C++ values, computes under mutex_ (without the GIL above
  // long double), releases mutex_, and only then makes Python objects
  // (which may run Python code and let the GIL go). A thread that holds the
  // GIL and waits for mutex_ therefore waits for a holder that needs
  // nothing from it.
  py::object call(const py::object& x) override {
    Vec<S> q(n), qd(n);
    read_state(x, "x", q, qd);
    const Vec<S> qdd = accel(q, qd);
    if constexpr (kFlat) {  // written straight into the array returned
      py::array_t<S> out(2 * n);
      S* o = out.mutable_data();
      for (int i = 0; i < n; ++i) o[i] = qd[i];
      for (int i = 0; i < n; ++i) o[n + i] = qdd[i];
      return out;
    } else {
      Vec<S> out(2 * n);
      out << qd, qdd;
      return vector<S>(out);
    }
  }

  py::object batch(const py::object& Q, const py::object& Qdot) override {
    const std::vector<S> q = rows_of(Q, "Q"), qd = rows_of(Qdot, "Qdot");
    const auto count = [this](const std::vector<S>& v) { return static_cast<py::ssize_t>(v.size()) / n; };
    if (count(q) != count(qd))
      throw UsageError("Qdot has " + std::to_string(count(qd)) + " rows, Q has " + std::to_string(count(q)));
    const py::ssize_t rows = count(q);
    std::vector<S> out(q.size());
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(mutex_);
      Vec<S> qi(n), qdi(n);
      for (py::ssize_t i = 0; i < rows; ++i) {
        qi = Eigen::Map<const Vec<S>>(q.data() + i * n, n);
        qdi = Eigen::Map<const Vec<S>>(qd.data() + i * n, n);
        Eigen::Map<Vec<S>>(out.data() + i * n, n) = unlocked_accel(qi, qdi);
      }
    }
    const std::vector<py::ssize_t> shape{rows, static_cast<py::ssize_t>(n)};
    if constexpr (kFlat) {
      return py::array_t<S>(shape, out.data());
    } else {
      // An object array of mpmath.mpf, of shape (rows, n) also when empty.
      py::list items;
      for (const S& v : out) items.append(scalar<S>(v));
      return python_function("numpy", "array")(items, "dtype"_a = "object").attr("reshape")(py::cast(shape));
    }
  }

  // d(qdot, qddot)/d(q, qdot) (2n x 2n) of the second kind's field: its
  // traced graph differentiated forward (field_jacobian_at).
  py::object jac(const py::object& x) override {
    if (formulation.rfind("second-kind", 0) != 0)
      throw UsageError("Field.jac: the Jacobian is the second kind's, d(qdot, qddot)/d(q, qdot); this field is " +
                       formulation + " (make it with System.field(formulation=\"second-kind\"))");
    Vec<S> q(n), qd(n);
    read_state(x, "x", q, qd);
    Mat<S> J;
    {
      py::gil_scoped_release release;
      // The Jacobian is traced from the file as it is now: refused when
      // that is no longer the file this field evaluates.
      if (file && cached_system_file(source) != file)
        throw UsageError("Field.jac: the system file " + source +
                         " changed since this Field was made; make it again (System.field)");
      J = field_jacobian_at<S>(source, "second-kind", s_.sys, q, qd).J;
    }
    const auto N = static_cast<py::ssize_t>(2 * n);
    if constexpr (kFlat) {
      py::array_t<S> out({N, N});
      auto o = out.template mutable_unchecked<2>();
      for (py::ssize_t i = 0; i < N; ++i)
        for (py::ssize_t j = 0; j < N; ++j) o(i, j) = J(i, j);
      return out;
    } else {
      py::list rows;
      for (py::ssize_t i = 0; i < N; ++i) rows.append(vector<S>(Vec<S>(J.row(i).transpose())));
      return python_function("numpy", "array")(rows, "dtype"_a = "object");
    }
  }

  double bench(const py::object& x, long long repeats) override {
    Vec<S> q(n), qd(n);
    read_state(x, "x", q, qd);
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto t0 = Clock::now();
    S sink(0);
    for (long long k = 0; k < repeats; ++k) sink += unlocked_accel(q, qd)[0];
    const double seconds = seconds_since(t0);
    if (!(sink == sink)) throw NonFiniteValue("bench: qddot is not finite");
    return seconds / static_cast<double>(repeats);
  }

 private:
  static constexpr bool kFlat = std::is_same_v<S, double> || std::is_same_v<S, long double>;

  Vec<S> sized(Vec<S> v, const std::string& what) const {
    if (v.size() != n)
      throw UsageError(what + " has " + std::to_string(v.size()) + " values, the system has n = " + std::to_string(n));
    return v;
  }
  // (q, qdot) from x of size 2n: a float64 (long double) array read from
  // its buffer, else item by item as accel reads a vector.
  // (A subclass of ndarray, such as a masked array, takes the checked path.)
  void read_state(const py::object& x, const char* what, Vec<S>& q, Vec<S>& qd) const {
    if constexpr (kFlat) {
      // Set under the GIL, without a static guard (see python_function).
      static PyTypeObject* ndarray = nullptr;
      if (!ndarray) ndarray = reinterpret_cast<PyTypeObject*>(python_function("numpy", "ndarray").ptr());
      if (Py_TYPE(x.ptr()) == ndarray) {
        const auto a = py::reinterpret_borrow<py::array>(x);
        if (a.ndim() == 1 && a.shape(0) == 2 * n && a.dtype().is(py::dtype::of<S>())) {
          const char* base = static_cast<const char*>(a.data());
          const py::ssize_t stride = a.strides(0);  // any strides
          for (int i = 0; i < n; ++i) {
            q[i] = *reinterpret_cast<const S*>(base + i * stride);
            qd[i] = *reinterpret_cast<const S*>(base + (n + i) * stride);
          }
          return;
        }
      }
    }
    const Vec<S> v = parse_vector<S>(what, vector_text(x, what));
    if (v.size() != 2 * n)
      throw UsageError(std::string(what) + " has " + std::to_string(v.size()) + " values, expected 2n = " +
                       std::to_string(2 * n) + " (q, qdot)");
    q = v.head(n);
    qd = v.tail(n);
  }
  // The rows of a batch argument (rows, n), one after the other: a NumPy
  // array of integers or floats converted to S as a whole (double, long
  // double), anything else row by row as accel reads a vector (vector_text:
  // exact, refusing complex, bool and other non-real items). UsageError
  // naming `what` for an array of another dtype (complex, bool, datetime,
  // bytes), a masked array, or a shape that is not (rows, n).
  std::vector<S> rows_of(const py::object& a, const char* what) const {
    if (is_instance(a, "numpy.ma", "MaskedArray"))
      throw UsageError(std::string(what) + ": a masked array (its mask would be ignored)");
    const bool is_array = is_instance(a, "numpy", "ndarray");
    if (is_array) {
      const auto arr = py::reinterpret_borrow<py::array>(a);
      if (arr.ndim() != 2 || arr.shape(1) != n)
        throw UsageError(std::string(what) + ": expected an array of shape (rows, " + std::to_string(n) + "), got " +
                         (arr.ndim() == 2 ? "(" + std::to_string(arr.shape(0)) + ", " + std::to_string(arr.shape(1)) + ")"
                                          : std::to_string(arr.ndim()) + " dimensions"));
      const char kind = arr.dtype().kind();
      if (kind != 'i' && kind != 'u' && kind != 'f' && kind != 'O' && kind != 'U')
        throw UsageError(std::string(what) + ": expected an array of real numbers, got dtype " +
                         py::str(arr.dtype()).cast<std::string>());
      if constexpr (kFlat) {
        if (kind != 'O' && kind != 'U') {
          const auto m = py::array_t<S, py::array::c_style | py::array::forcecast>::ensure(a);
          if (!m) throw py::error_already_set();
          return std::vector<S>(m.data(), m.data() + m.size());
        }
      }
    } else if (PyUnicode_Check(a.ptr()) || PyBytes_Check(a.ptr()) || !PySequence_Check(a.ptr())) {
      throw UsageError(std::string(what) + ": expected a 2-D array of numbers (rows, " + std::to_string(n) +
                       "), got " + type_name(a));
    }
    std::vector<S> out;
    py::ssize_t i = 0;
    for (py::handle row : py::iter(a)) {
      const std::string name = std::string(what) + "[" + std::to_string(i++) + "]";
      const Vec<S> v = sized(parse_vector<S>(name, vector_text(py::reinterpret_borrow<py::object>(row), name)), name);
      out.insert(out.end(), v.data(), v.data() + n);
    }
    return out;
  }
  // qddot at (q, qd) under mutex_, without the GIL above long double (a
  // call in double keeps it: the GIL's release and return cost about as
  // much as the field). The caller holds the GIL.
  Vec<S> accel(const Vec<S>& q, const Vec<S>& qd) {
    if constexpr (kFlat) {
      const std::lock_guard<std::mutex> lock(mutex_);
      return unlocked_accel(q, qd);
    } else {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(mutex_);
      return unlocked_accel(q, qd);
    }
  }
  // qddot at (q, qd); NonFiniteValue (nhs.IntegrationError) where it is
  // not finite, the errors of the formulation otherwise. The second kind's
  // field over x = (q, qdot) is (qdot, qddot), and its tail is qddot
  // without what acceleration() adds: the multipliers' reaction
  // C_qdot^T lambda, whose constraint Jacobian costs a traced or generated
  // field as much again (the bicycle: 2x). The other formulations' x is
  // not (q, qdot): their acceleration().
  Vec<S> unlocked_accel(const Vec<S>& q, const Vec<S>& qd) {
    Vec<S> qdd;
    if (second_kind_) {
      x_ << q, qd;
      qdd = s_.formulation->field(s_.sys, x_).tail(n);
    } else {
      qdd = s_.formulation->acceleration(s_.sys, q, qd).qddot;
    }
    if (!qdd.allFinite()) {
      const Context context = [&] { return "from " + s_.formulation->name() + " " + state_context(q, qd); };
      require_finite(qdd, "qddot", context);
    }
    return qdd;
  }

  Problem<S> s_;
  const bool second_kind_ = s_.formulation->name().rfind("second-kind", 0) == 0;
  Vec<S> x_ = Vec<S>(2 * s_.sys.n);  // unlocked_accel's x (under mutex_)
  std::mutex mutex_;
};

/// What System.accel, .field and .run ask for, from their Python arguments:
/// each checked (its type, a vector's shape) and read exactly (number_text,
/// vector_text) when constructed, before the precision is dispatched;
/// spec<S>() is the typed request of the library (nhs/session/problem.hpp).
/// A type error names the argument (q0: expected a list ...); a value's
/// error names the tool's option, so that the message is the tool's.
class ProblemArgs {
 public:
  ProblemArgs(const std::string& system, const py::object& formulation, const std::string& precision,
              const py::object& params, const std::array<py::object, 3>& state,
              const std::array<const char*, 3>& names, const py::object& field, const py::object& manifold_tol,
              const py::object& t = py::none(), const char* t_name = "t")
      : system_(system), precision_(precision), t_option_(std::string("--") + t_name) {
    if (!formulation.is_none()) formulation_ = str_arg(formulation, "formulation");
    params_ = param_pairs(params, "params");
    for (std::size_t k = 0; k < 3; ++k) state_[k] = vector_text(state[k], names[k]);
    manifold_tol_ = option_text(manifold_tol, "manifold_tol");
    t_ = option_text(t, t_name);
    if (!field.is_none()) {
      const std::string f = str_arg(field, "field");
      if (f != "default") field_ = parse_field_backend(f, "field");
    }
  }

  /// The precision's name, as given.
  const std::string& precision() const { return precision_; }

  template <class S>
  ProblemSpec<S> spec() const {
    ProblemSpec<S> spec;
    spec.system = system_;
    spec.formulation = formulation_;
    spec.field = field_;
    spec.precision = precision_;
    // A value's message names the tool's option, as the tool's does
    // (docs/python.md, "Errors": the same text).
    const Study<S>& st = find_study<S>(system_);
    spec.parameters = parameter_overrides<S>(st, params_);
    const std::string* option[3] = {&spec.names.q, &spec.names.qdot, &spec.names.z};
    std::optional<Vec<S>>* state[3] = {&spec.q, &spec.qdot, &spec.z};
    for (std::size_t k = 0; k < 3; ++k)
      if (!state_[k].empty()) *state[k] = parse_vector<S>(*option[k], state_[k]);
    if (!manifold_tol_.empty()) spec.manifold_tol = parse_number<S>(spec.names.manifold_tol, manifold_tol_);
    spec.names.t = t_option_;
    if (!t_.empty()) spec.t = parse_number<S>(spec.names.t, t_);
    return spec;
  }

 private:
  std::string system_, formulation_, precision_;
  std::vector<std::pair<std::string, std::string>> params_;  ///< name, exact decimal text
  std::array<std::string, 3> state_;                          ///< vector_text's, "" when not given
  std::string manifold_tol_;
  std::string t_;  ///< the state's time t (t, t0), "" when not given
  std::string t_option_;  ///< the tool's option for t_name: --t, --t0
  std::optional<FieldBackend> field_;
};

/// What System.run asks for, from its Python arguments: the problem's
/// (ProblemArgs, under the names q0, qdot0, z0), and the run's numbers as
/// exact decimal text (number_text; "" when not given), read in S by
/// spec<S>() under the tool's option names, so that a message is the
/// tool's (docs/python.md, "Errors"). The typed request of the library is
/// RunSpec (nhs/session/run_plan.hpp).
struct RunArgs {
  ProblemArgs problem;
  std::string t_end{}, motion{}, dt_out{}, rtol{}, atol{}, step{}, singular_margin{};
  Stepper stepper = Stepper::automatic;
  bool project = false;
  std::optional<std::uint64_t> max_rhs_calls{};
  std::optional<double> max_wall_time{};

  template <class S>
  RunSpec<S> spec() const {
    RunSpec<S> spec;
    if (!t_end.empty()) spec.t_end = parse_number<S>(spec.names.t_end, t_end);
    spec.dt_out = parse_number<S>(spec.names.dt_out, dt_out);
    if (!rtol.empty()) spec.rtol = parse_number<S>(spec.names.rtol, rtol);
    if (!atol.empty()) spec.atol = parse_number<S>(spec.names.atol, atol);
    if (!singular_margin.empty()) spec.singular_margin = parse_number<S>("--singular-margin", singular_margin);
    spec.max_rhs_calls = max_rhs_calls;
    spec.max_wall_time = max_wall_time;
    spec.stepper = stepper;
    if (!step.empty()) spec.step = parse_number<S>(spec.names.step, step);
    spec.project = project;
    spec.motion = motion;
    require_run_options(spec);  // before the problem's, as the tool's
    spec.problem = problem.spec<S>();
    return spec;
  }
};

/// What System.linearize and System.stability ask for, from their Python
/// arguments: the family's values `at` and the parameter overrides as
/// (name, exact decimal text) pairs (param_pairs), read in S by spec<S>()
/// under the tool's option names (--at <name>), so that a message is the
/// tool's. The typed request of the library is SteadySpec
/// (nhs/session/steady_linearization.hpp).
class SteadyArgs {
 public:
  SteadyArgs(std::string system, const py::object& steady, const py::object& at, const py::object& formulation,
             const py::object& params)
      : system_(std::move(system)),
        steady_(str_arg(steady, "steady")),
        formulation_(str_arg(formulation, "formulation")),
        at_(param_pairs(at, "at")),
        params_(param_pairs(params, "params")) {}

  template <class S>
  SteadySpec<S> spec() const {
    SteadySpec<S> spec;
    spec.system = system_;
    spec.steady = steady_;
    spec.formulation = formulation_;
    for (const auto& [name, text] : at_) spec.at.emplace_back(name, parse_number<S>("--at " + name, text));
    spec.parameters = parameter_overrides<S>(find_study<S>(system_), params_);
    return spec;
  }

 private:
  std::string system_, steady_, formulation_;
  std::vector<std::pair<std::string, std::string>> at_, params_;  ///< name, exact decimal text
};

// --- the system -----------------------------------------------------------

/// A run's rows kept for Python (System.run): in double and long double
/// one after the other in `flat`, handed to NumPy as they are; above, one
/// vector a row, turned into decimal strings ("" for NaN).
template <class S>
struct RunRows {
  static constexpr bool kFlat = std::is_same_v<S, double> || std::is_same_v<S, long double>;
  std::vector<std::string> columns;
  std::vector<S> flat;
  std::vector<std::vector<S>> rows;
  std::size_t count = 0;

  void reserve(double planned) {
    if constexpr (kFlat) flat.reserve(static_cast<std::size_t>(planned) * columns.size());
  }
  void add(std::vector<S> row) {
    if constexpr (kFlat)
      flat.insert(flat.end(), row.begin(), row.end());
    else
      rows.push_back(std::move(row));
    ++count;
  }
  /// The rows as an (N, columns) NumPy array (double, long double; the
  /// array owns them, no copy) or a list of lists of decimal strings.
  py::object to_python() && {
    if constexpr (kFlat) {
      const std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(count), static_cast<py::ssize_t>(columns.size())};
      if (flat.empty()) return py::array_t<S>(shape);
      auto owned = std::make_unique<std::vector<S>>(std::move(flat));
      const S* values = owned->data();
      const py::capsule base(owned.get(), [](void* p) { delete static_cast<std::vector<S>*>(p); });
      owned.release();  // the capsule's now
      return py::array_t<S>(shape, values, base);
    } else {
      using boost::multiprecision::isnan;
      py::list data;
      for (const auto& row : rows) {
        py::list r;
        for (const auto& x : row) r.append(isnan(x) ? std::string() : to_string<S>(x));
        data.append(r);
      }
      return data;
    }
  }
};

/// The rows a run will keep in memory (t_end / dt_out + 1, as OutputTimes
/// counts them, to within one). UsageError, before any step, when they are
/// more than max_rows.
template <class S>
double planned_rows(const IntegrationOptions<S>& io, std::size_t ncols, std::uint64_t max_rows,
                    const std::string& precision) {
  const double ratio = static_cast<double>(io.t_end / io.dt_out);
  const double planned = std::ceil(ratio * (1 - 1e-12)) + 1;
  if (!(planned <= static_cast<double>(max_rows)))
    throw UsageError(fmt::format(
        "t_end / dt_out = {:.6g}: the run would keep {:.0f} rows of {} columns in memory, more than max_rows = "
        "{} (about {} bytes a row in {}); give a larger dt_out, raise max_rows (run(..., max_rows=N)), or "
        "write the rows to a file with `nhs run --out`",
        ratio, planned, ncols, max_rows, row_bytes<S>(ncols), precision));
  return planned;
}

/// Python's SIGINT handler runs in PyErr_CheckSignals, with the GIL: a
/// run asks it at most every 20 ms (PythonSignal when it raised).
class SignalCheck {
 public:
  void operator()() {
    const auto now = Clock::now();
    if (now - last_ < std::chrono::milliseconds(20)) return;
    last_ = now;
    py::gil_scoped_acquire acquire;
    if (PyErr_CheckSignals() != 0) throw PythonSignal();
  }

 private:
  Clock::time_point last_ = Clock::now();
};

/// How a run that keeps its rows ended: "" (completed), "integration" (an
/// integration failure or a non-finite value) or "singular" (a singular
/// set, named by condition); the caller raises.
struct RunFailure {
  std::string message, kind, condition;
};

/// The failure of a run that keeps its rows (the error table's
/// categories); anything else, a Python signal included, is rethrown.
RunFailure kept_failure(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const PythonSignal&) {
    throw;
  } catch (...) {
  }
  const ClassifiedError e = classify_error(error);
  if (e.category == ErrorCategory::integration_failure || e.category == ErrorCategory::non_finite)
    return {e.message, "integration", ""};
  if (e.category == ErrorCategory::singular_state) return {e.message, "singular", e.condition};
  std::rethrow_exception(error);
}

/// System._run's "summary": the run's figures (MotionCheck), its stepper
/// and counts, and how it ended.
template <class S>
py::dict run_summary(const RunPlan<S>& plan, const MotionCheck<S>& f, const RunFailure& failure,
                     const std::string& precision, double seconds) {
  const IntegrationStats& stats = f.stats;
  py::dict sm;
  sm["study"] = plan.problem.sys.info.name;
  sm["formulation"] = integrated_by(stats.stepper, plan.problem.formulation->name());
  sm["precision"] = precision;
  sm["stepper"] = std::string(stepper_name(stats.stepper));
  sm["completed"] = failure.message.empty();
  sm["failure"] = failure.message;
  sm["failure_kind"] = failure.kind;      // "", "integration" or "singular"
  sm["condition"] = failure.condition;    // the singular set reached
  sm["samples"] = f.samples;
  sm["t_last"] = scalar<S>(f.t_last);
  sm["steps"] = stats.steps;
  sm["rhs_calls"] = stats.rhs_calls;
  sm["projections"] = stats.projections;
  sm["max_C"] = scalar<S>(f.max_C);
  sm["E0"] = scalar<S>(f.E0);
  sm["energy_drift"] = scalar<S>(f.energy_drift);
  sm["energy_conserved"] = f.energy_checked();
  if (f.balance_checked()) {  // the work-energy balance max |E - E0 - W| and max |W| (work_energy.hpp)
    py::dict balance;
    balance["drift"] = scalar<S>(f.balance_drift);
    balance["work_scale"] = scalar<S>(f.work_scale);
    sm["work_balance"] = balance;
  }
  py::dict inv;
  for (const InvariantDrift<S>& i : f.invariants) {
    py::dict d;
    d["drift"] = scalar<S>(i.drift);
    d["conserved"] = i.conserved;
    d["undefined_rows"] = i.undefined;
    inv[py::str(i.name)] = d;
  }
  sm["invariants"] = inv;
  if (!f.min_margin_name.empty()) {
    sm["min_margin_name"] = f.min_margin_name;
    sm["min_margin"] = scalar<S>(f.min_margin);
  }
  if (plan.motion) {
    sm["motion"] = plan.motion->name;
    sm["max_error"] = scalar<S>(f.max_error);
  }
  sm["wall_seconds"] = seconds;
  return sm;
}

/// A built-in study or a system file, by name (see the Python docstrings).
class SystemHandle {
 public:
  explicit SystemHandle(std::string name) : name_(std::move(name)) {
    const Study<double>& st = find_study<double>(name_);  // loads a file; FileError
    info_ = st.info;
    for (const auto& p : info_.parameters) defaults_[p.name] = p.default_value;
  }

  const std::string& name() const { return name_; }
  const SystemInfo& info() const { return info_; }
  py::dict parameters() const {
    py::dict d;
    for (const auto& p : info_.parameters) d[py::str(p.name)] = p.default_value;
    return d;
  }
  bool is_file() const { return is_system_file_name(name_); }

  /// The formulations that apply to the system at its default parameters.
  std::vector<std::string> formulations() const {
    const Study<double>& st = find_study<double>(name_);
    const System<double> sys = st.build(st.default_parameters());
    std::vector<std::string> out;
    for (const auto& f : nhs::formulations<double>()) {
      try {
        f->require_applicable(sys);
        out.push_back(f->name());
      } catch (const NotApplicable&) {
      }
    }
    return out;
  }

  /// System.field: the set-up of accel at the default state (which must be
  /// admissible), kept for repeated calls.
  FieldHandle field(const py::object& formulation, const py::object& precision_arg, const py::object& params,
                    const py::object& field) const {
    const std::string precision = str_arg(precision_arg, "precision");
    const ProblemArgs args(name_, formulation, precision, params, {py::none(), py::none(), py::none()},
                           {"q", "qdot", "z"}, field, py::none());
    std::shared_ptr<FieldHandle::Impl> impl;
    // Before the field is made: a file changed meanwhile makes jac refuse.
    std::shared_ptr<const SystemFile> file = is_file() ? cached_system_file(name_) : nullptr;
    with_precision(precision, [&]<class S>() {
      impl = std::make_shared<FieldOf<S>>(make_problem<S>(args.spec<S>()));
      return py::object();
    });
    impl->precision = precision;
    impl->source = name_;
    impl->file = std::move(file);
    return FieldHandle(std::move(impl));
  }

  AccelResult accel(const py::object& q, const py::object& qdot, const py::object& z,
                    const py::object& formulation, const py::object& precision_arg, const py::object& params,
                    const py::object& field, const py::object& manifold_tol,
                    const py::object& singular_margin, const py::object& jacobian, const py::object& t) const {
    const std::string precision = str_arg(precision_arg, "precision");
    const ProblemArgs args(name_, formulation, precision, params, {q, qdot, z}, {"q", "qdot", "z"}, field,
                           manifold_tol, t, "t");
    const bool with_jacobian = bool_arg(jacobian, "jacobian");
    std::shared_ptr<AccelResult::Answer> answer;
    with_precision(precision, [&]<class S>() {
      const ProblemSpec<S> spec = args.spec<S>();
      // The margin to a singular set: 100 epsilon by default, as nhs accel's.
      const S margin = singular_margin.is_none()
                           ? regularity_tolerance<S>()
                           : parse_number<S>("--singular-margin", number_text(singular_margin, "singular_margin"));
      require_singular_margin(margin);
      const auto evaluate = [&] {
        return std::make_shared<AccelAnswerOf<S>>(accelerations_at<S>(make_problem<S>(spec), margin, with_jacobian));
      };
      if constexpr (std::is_same_v<S, double>) {
        answer = evaluate();
      } else {
        py::gil_scoped_release release;
        answer = evaluate();
      }
      const auto& typed = static_cast<const AccelAnswerOf<S>&>(*answer);
      answer->study = typed.a.study;
      answer->formulation = typed.a.formulation;
      answer->field = typed.a.field;
      return py::object();
    });
    answer->precision = precision;
    return AccelResult(std::move(answer));
  }

  /// Benchmark hook (bench/python_overhead.py): seconds per call of the C++
  /// work of System.accel on these arguments (double): the typed problem
  /// built (make_problem) and its accelerations (accelerations_at), over
  /// `repeats` calls: the baseline of the Python call's cost.
  double bench_accel(int repeats, const py::object& q, const py::object& qdot,
                     const py::object& formulation) const {
    const ProblemArgs args(name_, formulation, "double", py::none(), {q, qdot, py::none()}, {"q", "qdot", "z"},
                           py::none(), py::none());
    const ProblemSpec<double> spec = args.spec<double>();
    const auto t0 = Clock::now();
    double sink = 0;
    for (int k = 0; k < repeats; ++k)
      sink += accelerations_at<double>(make_problem<double>(spec), regularity_tolerance<double>(), false)
                  .acceleration.qddot[0];
    const double s = seconds_since(t0);
    return sink == sink ? s / repeats : s / repeats;
  }

  /// The motion as {columns, data, summary}: data a 2-D NumPy array (float64
  /// or np.longdouble, NaN where an invariant is undefined) or, above long
  /// double, a list of rows of decimal strings ("" where undefined).
  /// max_rows (None: kMaxRunRows): the most rows the run may keep; a grid
  /// of more (t_end / dt_out + 1) is UsageError before any step.
  py::dict run(const py::object& t_end, const py::object& dt_out, const py::object& formulation,
               const py::object& precision_arg, const py::object& stepper, const py::object& rtol,
               const py::object& atol, const py::object& project, const py::object& q0, const py::object& qdot0,
               const py::object& z0, const py::object& params, const py::object& field,
               const py::object& max_rhs_calls, const py::object& singular_margin,
               const py::object& manifold_tol, const py::object& step, const py::object& motion,
               const py::object& max_rows, const py::object& max_wall_time, const py::object& t0,
               const std::array<std::string, 3>& state_names) const {
    const std::string precision = str_arg(precision_arg, "precision");
    RunArgs args{.problem = ProblemArgs(name_, formulation, precision, params, {q0, qdot0, z0},
                                        {state_names[0].c_str(), state_names[1].c_str(), state_names[2].c_str()},
                                        field, manifold_tol, t0, "t0")};
    args.t_end = option_text(t_end, "t_end");
    if (!motion.is_none()) {
      if (!PyUnicode_Check(motion.ptr()) && (PyBool_Check(motion.ptr()) || !PyLong_Check(motion.ptr())))
        throw UsageError("motion: expected a str (a motion's name) or an int (its number), got " +
                         type_name(motion));
      args.motion = py::str(motion).cast<std::string>();
    }
    args.dt_out = number_text(dt_out, "dt_out");
    args.rtol = option_text(rtol, "rtol");
    args.atol = option_text(atol, "atol");
    args.stepper = parse_stepper(str_arg(stepper, "stepper"));
    args.step = option_text(step, "step");
    args.singular_margin = option_text(singular_margin, "singular_margin");
    args.project = bool_arg(project, "project");
    if (!max_rhs_calls.is_none()) args.max_rhs_calls = static_cast<std::uint64_t>(int_arg(max_rhs_calls, "max_rhs_calls", 1));
    const std::string wall = option_text(max_wall_time, "max_wall_time");
    if (!wall.empty()) args.max_wall_time = parse_seconds("max_wall_time", wall);  // named as the argument
    const std::uint64_t rows_allowed =
        max_rows.is_none() ? kMaxRunRows : static_cast<std::uint64_t>(int_arg(max_rows, "max_rows", 1));
    return with_precision(precision, [&]<class S>() { return run_scalar<S>(args, rows_allowed); }).cast<py::dict>();
  }

  /// `nhs check` on this system, quietly, into out_dir (summary.md,
  /// summary.json, trajectories/): returns the exit code (0 pass, 1 fail).
  int check(const py::object& precision, const py::object& states, const py::object& quick,
            const py::object& jobs, const std::string& out_dir) const {
    const std::string precision_text = str_arg(precision, "precision");
    CheckSpec spec;
    spec.system = name_;
    spec.precisions = parse_precision_list(precision_text);
    spec.states = static_cast<int>(std::min<long long>(int_arg(states, "states", 1), 1000000000));
    spec.quick = bool_arg(quick, "quick");
    spec.jobs = static_cast<unsigned>(std::min<long long>(int_arg(jobs, "jobs", 0), 65536));
    spec.out_dir = out_dir;
    py::gil_scoped_release release;
    const CheckReport report = run_checks(spec);  // quiet
    write_check_summaries(report, spec, check_command(spec, precision_text));
    return report.pass() ? 0 : 1;
  }

 private:
  template <class S>
  py::object run_scalar(const RunArgs& args, std::uint64_t max_rows) const {
    std::optional<RunPlan<S>> plan;
    RunRows<S> rows;
    std::optional<MotionCheck<S>> figures;
    RunFailure failure;
    const auto t0 = Clock::now();
    {
      py::gil_scoped_release release;
      plan.emplace(plan_run<S>(args.spec<S>()));
      const Problem<S>& s = plan->problem;
      const MotionReference<S> reference = plan_reference(*plan);
      std::optional<MotionTable<S>> table;
      table.emplace(s.sys, reference);
      rows.columns = table->columns();
      rows.reserve(planned_rows(plan->options, rows.columns.size(), max_rows, args.problem.precision()));
      SignalCheck check_signals;
      MotionObservers<S> observers;
      observers.record = [&](const Sample<S>& sample) { rows.add(table->values(sample)); };
      // The wall-time budget (max_wall_time; WallBudget) is checked
      // where the CLI's run checks it: after every step and every row.
      observers.watch = [&](const S& t) {
        check_signals();
        plan->wall.check(t);
      };
      MotionRun<S> run = run_motion<S>(s.sys, *s.formulation, State<S>{s.q, s.qdot}, plan->options, reference, observers);
      figures.emplace(std::move(run.figures));
      if (run.error) failure = kept_failure(run.error);
    }
    const double seconds = seconds_since(t0);
    py::dict out;
    out["columns"] = rows.columns;
    out["data"] = std::move(rows).to_python();
    out["summary"] = run_summary<S>(*plan, *figures, failure, args.problem.precision(), seconds);
    return out;
  }

  std::string name_;
  SystemInfo info_;
  std::map<std::string, std::string> defaults_;
};

// System.classify: classify_constraints at the default parameters near the
// default q, as `nhs list SYSTEM` does, as plain Python data; the mp100
// values as decimal strings (nhs/__init__.py converts them to mpmath).
py::dict classification_dict(const SystemHandle& s) {
  using S = nhs::mp100;
  nhs::ConstraintClassification c;
  std::vector<std::string> coordinates;
  {
    py::gil_scoped_release release;
    const nhs::Study<S>& st = nhs::find_study<S>(s.name());
    const nhs::System<S> sys = st.build(st.default_parameters());
    c = nhs::classify_constraints(sys, st.default_state(sys).q);
    coordinates = st.info.coordinates;
  }
  const auto strings = [](const nhs::Vec<S>& v) {
    py::list l;
    for (Eigen::Index i = 0; i < v.size(); ++i) l.append(nhs::to_string<S>(v[i]));
    return l;
  };
  py::list constraints;
  for (const nhs::ConstraintKind& k : c.constraints) {
    py::dict d;
    d["name"] = k.name;
    d["linear"] = k.linear;
    d["affine"] = k.affine;
    d["homogeneous"] = k.homogeneous;
    d["degree"] = k.homogeneous ? py::object(py::float_(k.degree)) : py::object(py::none());
    constraints.append(d);
  }
  py::dict frobenius;
  frobenius["done"] = c.frobenius_done;
  frobenius["skipped"] = c.frobenius_skipped;
  frobenius["frame"] = c.frame;
  frobenius["growth"] = c.growth;
  frobenius["hidden_holonomic"] = c.hidden_holonomic;
  py::list brackets, combinations;
  for (const nhs::BracketEvidence& b : c.brackets) {
    py::dict d;
    d["pair"] = py::make_tuple(b.first, b.second);
    d["constraint_forms"] = strings(b.constraint_forms);
    brackets.append(d);
  }
  for (const nhs::IntegrableCombination& k : c.combinations) {
    py::dict d;
    d["mu"] = strings(k.mu);
    d["nu"] = strings(k.nu);
    combinations.append(d);
  }
  frobenius["brackets"] = brackets;
  frobenius["combinations"] = combinations;
  frobenius["largest_bracket_form"] = c.largest_bracket_form;
  frobenius["largest_inside_residual"] = c.largest_inside_residual;
  py::list points;
  for (const auto& q : c.sample_points) points.append(strings(q));
  py::dict out;
  out["constraints"] = constraints;
  out["frobenius"] = frobenius;
  out["cyclic"] = c.cyclic;
  out["chaplygin"] = c.chaplygin;
  out["coordinates"] = coordinates;
  out["sample_points"] = points;
  return out;
}

/// System._linearize: the JSON text of `nhs linearize` (System.linearize).
std::string linearize_text(const SystemHandle& s, const py::object& steady, const py::object& at,
                           const py::object& formulation, const py::object& precision_arg, const py::object& params) {
  const SteadyArgs args(s.name(), steady, at, formulation, params);
  const std::string precision = str_arg(precision_arg, "precision");
  std::string text;
  py::gil_scoped_release release;
  nhs::with_scalar(precision, [&]<class S>() {
    const nhs::SteadySpec<S> spec = args.spec<S>();
    text = nhs::linearization_json<S>(nhs::linearize_steady<S>(spec, nhs::family_values<S>(spec)), precision);
    return 0;
  });
  return text;
}

/// System._stability: the JSON text of `nhs stability` (System.stability),
/// the eigenvalues along the family written to csv when it is not empty.
std::string stability_text(const SystemHandle& s, const py::object& steady, const py::object& vary_arg,
                           const py::object& from, const py::object& to, const py::object& points,
                           const py::object& at, const py::object& formulation, const py::object& precision_arg,
                           const py::object& params, const py::object& csv_arg) {
  const SteadyArgs args(s.name(), steady, at, formulation, params);
  const std::string vary = str_arg(vary_arg, "vary"), precision = str_arg(precision_arg, "precision");
  const std::string csv = str_arg(csv_arg, "csv");
  const std::string from_text = number_text(from, "start"), to_text = number_text(to, "stop");
  const auto count = static_cast<std::uint64_t>(int_arg(points, "points", 1));
  std::string text;
  py::gil_scoped_release release;
  nhs::with_scalar(precision, [&]<class S>() {
    const nhs::SteadySpec<S> spec = args.spec<S>();
    const S lo = nhs::parse_number<S>("--from", from_text), hi = nhs::parse_number<S>("--to", to_text);
    if (!csv.empty()) nhs::refuse_overwriting(s.name(), csv, "--csv");
    nhs::StabilityScan<S> scan = nhs::scan_stability<S>(spec, vary, lo, hi, count);
    scan.from_text = from_text;
    scan.to_text = to_text;
    if (!csv.empty()) nhs::write_text_file(csv, nhs::stability_csv<S>(scan));
    text = nhs::stability_json<S>(scan, precision, csv);
    return 0;
  });
  return text;
}

/// A side of an equation as a nested tuple, for System.equations to build
/// sympy objects from (python/nhs/_sympy.py, expression_of): ("number",
/// literal text) | ("name", identifier) | ("neg", a) | (op, a, b) with op
/// one of "add" "sub" "mul" "div" "pow" | ("call", function, args...).
py::object expression_tree(const nhs::expression::Ast& a) {
  using K = nhs::expression::Kind;
  static const std::map<K, const char*> binary = {
      {K::Add, "add"}, {K::Sub, "sub"}, {K::Mul, "mul"}, {K::Div, "div"}, {K::Pow, "pow"}};
  switch (a.kind) {
    case K::Number: return py::make_tuple("number", a.text);
    case K::Name: return py::make_tuple("name", a.text);
    case K::Neg: return py::make_tuple("neg", expression_tree(a.args.at(0)));
    case K::Call: {
      py::list t;
      t.append("call");
      t.append(a.text);
      for (const auto& x : a.args) t.append(expression_tree(x));
      return py::tuple(t);
    }
    default: return py::make_tuple(binary.at(a.kind), expression_tree(a.args.at(0)), expression_tree(a.args.at(1)));
  }
}

/// System._equations_tree: one formulation's equations of `nhs equations`
/// as data, never as code: {title, symbols (names), definitions [(name,
/// tree)], equations [(lhs tree, rhs tree)], unknowns (names)}, each side
/// the text format's, parsed by the system-file parser into expression_tree.
/// UsageError beyond the derivation budget (symbolic::require_derivation_budget).
py::dict equations_tree(const SystemHandle& s, const std::string& formulation, double max_derivation_size) {
  std::string title;
  nhs::symbolic::PrintedEquations p;
  {
    py::gil_scoped_release release;
    const nhs::TracedStudy traced = nhs::find_traced_study(s.name());
    nhs::symbolic::require_derivation_budget(traced.build, traced.info, max_derivation_size, "max_derivation_size=");
    const nhs::symbolic::SymbolicSystem sys = nhs::symbolic::symbolic_system(traced.build, traced.info);
    const auto f = nhs::symbolic::printable_formulations(sys, {formulation}, nullptr).at(0);
    title = f.title;
    p = nhs::symbolic::printed_equations(f);
  }
  const auto tree = [](const std::string& text) { return expression_tree(nhs::expression::parse(text)); };
  py::list definitions, equations;
  for (const auto& [name, value] : p.definitions) definitions.append(py::make_tuple(name, tree(value)));
  for (const auto& [lhs, rhs] : p.equations) equations.append(py::make_tuple(tree(lhs), tree(rhs)));
  return py::dict("title"_a = title, "symbols"_a = p.symbols, "definitions"_a = definitions,
                  "equations"_a = equations, "unknowns"_a = p.unknowns);
}

const char* const kAccelDoc = R"doc(The accelerations at a state, as `nhs accel` computes them.

        q (n), and qdot (n) or z (m) with qdot = psi(q, z): the state; None
        for the system's default state. qdot is projected onto C when within
        manifold_tol of it (default 1e-10 in double, scaled per precision),
        else nhs.InvalidState. formulation: a name of nhs formulations
        (default: second-kind, or udwadia-kalaba for a semidefinite metric).
        precision: one of nhs.precisions(). params: {name: value} overrides.
        field: None (the default backend, as `nhs run`'s: a built-in
        study's generated code, a file's traced field, else the library's
        formulation), "library", "generated", "traced" or "compiled" (as the
        CLI's --library, --generated, --compiled). singular_margin: states within
        it of a singular set are refused (default 100 epsilon). t: the
        state's time, for a system that depends on t (`nhs accel --t`: the
        clock coordinate's value; q and qdot may then leave the clock out);
        nhs.UsageError for a system without t.

        Returns an nhs.Acceleration: .qddot (n), .multipliers lambda_a (r)
        and .reaction R_i (n) where the formulation defines them (else
        None), .gauss_z (Gauss's Z at qddot), the admitted .q and .qdot,
        .parameters, and .strings (the CLI's decimal strings).
        jacobian=True (`nhs accel --jacobian`): also .jacobian, the N x N
        Jacobian of the first-order field at the admitted state, by forward
        differentiation of the traced field, and .jacobian_state, the names
        of x: (q, qdot) for second-kind, (q, z) for first-kind and
        gibbs-appell (the only formulations it takes; nhs.UsageError for
        another), and .eigenvalues, the Jacobian's eigenvalues.
        Raises nhs.UsageError, nhs.InvalidState (.condition), or
        nhs.IntegrationError where a value is not finite.)doc";

const char* const kFieldDoc = R"doc(The formulation's vector field at fixed parameters, as a callable.

        Returns an nhs.Field f: f(t, x) with x = (q, qdot) (size 2n) gives
        (qdot, qddot), qddot as System.accel computes it (the same field
        backend: field=None is the default, a built-in study's generated
        code or a file's traced field; "library", "generated", "traced",
        "compiled" as for accel). Usable as scipy.integrate.solve_ivp(f,
        ...). The system is autonomous: t is not read. x is taken as given,
        not projected onto C. f.accel_batch(Q, Qdot) evaluates qddot at N
        states, arrays of shape (N, n), in C++ without the GIL. In double
        and long double the values are NumPy arrays of that dtype; above,
        object arrays of mpmath.mpf. Raises nhs.UsageError (shapes, names),
        nhs.InvalidState (a singular state, .condition) or
        nhs.IntegrationError (a qddot that is not finite).)doc";

/// The exceptions nhs.Error and its subclasses (the error table's Python
/// column, nhs/error_table.hpp), registered in m with their translator.
void register_errors(py::module_& m) {
  g_error = PyErr_NewException("nhs.Error", PyExc_Exception, nullptr);
  g_usage = PyErr_NewException("nhs.UsageError", py::make_tuple(py::handle(g_error), py::handle(PyExc_ValueError)).release().ptr(), nullptr);
  g_invalid = PyErr_NewException("nhs.InvalidState", py::make_tuple(py::handle(g_error), py::handle(PyExc_ValueError)).release().ptr(), nullptr);
  g_integration = PyErr_NewException("nhs.IntegrationError", py::make_tuple(py::handle(g_error), py::handle(PyExc_ArithmeticError)).release().ptr(), nullptr);
  g_io = PyErr_NewException("nhs.IOError", py::make_tuple(py::handle(g_error), py::handle(PyExc_OSError)).release().ptr(), nullptr);
  m.attr("Error") = py::handle(g_error);
  m.attr("UsageError") = py::handle(g_usage);
  m.attr("InvalidState") = py::handle(g_invalid);
  m.attr("IntegrationError") = py::handle(g_integration);
  m.attr("IOError") = py::handle(g_io);
  py::register_exception_translator(&translate);

}

/// The module's functions: precisions, studies, binary digits, steppers.
void bind_functions(py::module_& m) {
  m.def("precisions", &nhs::precision_names, "The precisions, lowest first.");
  m.attr("MAX_ROWS") = kMaxRunRows;
  m.def("studies", [] {
    std::vector<std::string> names;
    for (const auto& st : nhs::studies<double>()) names.push_back(st.info.name);
    return names;
  }, "The ids of the built-in studies, in the order of docs/studies.md.");
  m.def("binary_digits", [] {
    py::dict d;
#define NHS_PY_DIGITS_(T, NAME) d[NAME] = std::numeric_limits<T>::digits;
    NHS_FOR_EACH_SCALAR(NHS_PY_DIGITS_)
#undef NHS_PY_DIGITS_
    return d;
  }, "precision -> its binary digits (the mantissa's bits).");
  m.def("steppers", [] {
    std::vector<std::string> names{"auto"};
    for (const auto& n : nhs::stepper_names()) names.push_back(n);
    return names;
  }, "The stepper names ('auto' first).");

}

/// nhs.Acceleration (System.accel's result).
void bind_acceleration(py::module_& m) {
  using namespace pybind11::literals;
  py::class_<AccelResult>(m, "Acceleration", "The accelerations at a state (System.accel).")
      .def_property_readonly("qddot", [](const AccelResult& r) { return r.get(AccelResult::kQddot); },
                             "q'' (size n)")
      .def_property_readonly("multipliers", [](const AccelResult& r) { return r.get(AccelResult::kMultipliers); },
                             "the multipliers lambda_a (size r), or None where the formulation has none")
      .def_property_readonly("reaction", [](const AccelResult& r) { return r.get(AccelResult::kReaction); },
                             "the reactive forces R_i (size n), or None where the formulation has none")
      .def_property_readonly("gauss_z", &AccelResult::gauss_z, "Gauss's Z at qddot (nhs/gauss.hpp)")
      .def_property_readonly("jacobian", [](const AccelResult& r) { return r.answer().jacobian(); },
                             "the first-order field's Jacobian (N x N) with accel(jacobian=True), else None")
      .def_property_readonly("jacobian_state", [](const AccelResult& r) { return r.answer().jacobian_state(); },
                             "the names of the state x of .jacobian, else None")
      .def_property_readonly("eigenvalues", [](const AccelResult& r) { return r.answer().eigenvalues(); },
                             "the eigenvalues of .jacobian (complex NumPy array; mpmath.mpc in multiprecision), "
                             "sorted by real part, then imaginary part, decreasing; else None")
      .def_property_readonly("q", [](const AccelResult& r) { return r.get(AccelResult::kQ); },
                             "the state's q (size n)")
      .def_property_readonly("qdot", [](const AccelResult& r) { return r.get(AccelResult::kQdot); },
                             "the admitted q' (size n; projected onto C)")
      .def_property_readonly("study", [](const AccelResult& r) { return r.answer().study; })
      .def_property_readonly("formulation", [](const AccelResult& r) { return r.answer().formulation; },
                             "the formulation's name, e.g. 'second-kind' (its backend is .field)")
      .def_property_readonly("field", [](const AccelResult& r) { return r.answer().field; },
                             "its field backend: 'library', 'generated', 'traced' or 'compiled'")
      .def_property_readonly("precision", [](const AccelResult& r) { return r.answer().precision; })
      .def_property_readonly("parameters", &AccelResult::parameters, "name -> value, every parameter")
      .def_property_readonly("strings", &AccelResult::strings,
                             "every number as `nhs accel` prints it (decimal strings, same keys as its JSON)")
      .def("__repr__", [](const AccelResult& r) {
        return "Acceleration(" + r.answer().study + ", " + r.answer().formulation + ", " +
               r.answer().precision + ", qddot=" + py::repr(r.get(AccelResult::kQddot)).cast<std::string>() + ")";
      });

}

/// nhs.Field (System.field's result).
void bind_field(py::module_& m) {
  using namespace pybind11::literals;
  py::class_<FieldHandle>(m, "Field", "A formulation's vector field at fixed parameters (System.field).")
      .def("__call__", [](const FieldHandle& f, const py::object&, const py::object& x) { return f.impl().call(x); },
           "t"_a, "x"_a,
           "(qdot, qddot) at x = (q, qdot); t is not read (a system that depends on t carries it in x, as its "
           "clock coordinate)")
      .def("accel_batch", [](const FieldHandle& f, const py::object& q, const py::object& qdot) {
             return f.impl().batch(q, qdot);
           }, "Q"_a, "Qdot"_a, "qddot at each row of Q, Qdot (shape (N, n)); shape (N, n)")
      .def("jac", [](const FieldHandle& f, const py::object&, const py::object& x) { return f.impl().jac(x); },
           "t"_a, "x"_a,
           "d(qdot, qddot)/d(q, qdot) at x (2n x 2n), for solve_ivp's jac: the second kind's traced field "
           "differentiated forward, in the field's precision (nhs.UsageError for another formulation)")
      .def("_bench_cpp", [](const FieldHandle& f, const py::object& x, long long repeats) {
             return f.impl().bench(x, repeats);
           }, "x"_a, "repeats"_a, "Benchmark hook: seconds per qddot evaluation in a C++ loop at x")
      .def_property_readonly("n", [](const FieldHandle& f) { return f.impl().n; })
      .def_property_readonly("study", [](const FieldHandle& f) { return f.impl().study; })
      .def_property_readonly("formulation", [](const FieldHandle& f) { return f.impl().formulation; },
                             "the formulation's name, e.g. 'second-kind' (its backend is .field)")
      .def_property_readonly("field", [](const FieldHandle& f) { return f.impl().field; },
                             "its field backend: 'library', 'generated', 'traced' or 'compiled'")
      .def_property_readonly("precision", [](const FieldHandle& f) { return f.impl().precision; })
      .def("__repr__", [](const FieldHandle& f) {
        return "Field(" + f.impl().study + ", " + f.impl().formulation + ", " + f.impl().precision + ")";
      });

}

/// nhs.System: its data (names, sizes, parameters).
py::class_<SystemHandle> bind_system_data(py::module_& m) {
  using namespace pybind11::literals;
  py::class_<SystemHandle> c(m, "System");
  c
      .def(py::init([](const py::object& name) {
             if (!PyUnicode_Check(name.ptr()) && !is_instance(name, "os", "PathLike"))
               throw nhs::UsageError("name: expected a str (a study id or a system file's path), got " +
                                     type_name(name));
             const py::object path = python_function("os", "fspath")(name);
             if (!PyUnicode_Check(path.ptr()))
               throw nhs::UsageError("name: expected a str path, got " + type_name(path));
             return SystemHandle(path.cast<std::string>());
           }),
           "name"_a,
           "A built-in study (its id) or a system file (its path); nhs.UsageError otherwise, with file:line:col "
           "for a file the loader refuses.")
      .def_property_readonly("name", &SystemHandle::name, "the study id or the file's path")
      .def_property_readonly("title", [](const SystemHandle& s) { return s.info().title; }, "one line")
      .def_property_readonly("source", [](const SystemHandle& s) { return s.info().source; },
                             "where the system comes from (docs/references.md keys)")
      .def_property_readonly("coordinates", [](const SystemHandle& s) { return s.info().coordinates; },
                             "the names of q^i (n); velocity columns are <name>_dot")
      .def_property_readonly("quasi_velocities", [](const SystemHandle& s) { return s.info().quasi_velocities; },
                             "the names of z^alpha (m; empty without a parametrization psi)")
      .def_property_readonly("constraints", [](const SystemHandle& s) { return s.info().constraint_names; },
                             "the names of C^a (r)")
      .def_property_readonly("n", [](const SystemHandle& s) { return s.info().coordinates.size(); })
      .def_property_readonly("r", [](const SystemHandle& s) { return s.info().constraint_names.size(); })
      .def_property_readonly("m", [](const SystemHandle& s) { return s.info().quasi_velocities.size(); })
      .def_property_readonly("parameters", &SystemHandle::parameters,
                             "name -> default value (decimal strings, exact in every precision)")
      .def_property_readonly("is_file", &SystemHandle::is_file, "True for a system file")
      .def("formulations", &SystemHandle::formulations,
           "The formulations that apply to the system at its default parameters (nhs list's names).");
  return c;
}

/// nhs.System: its commands (accel, run, field, check, the symbolic
/// equations, linearization and stability, the classification).
void bind_system_commands(py::class_<SystemHandle>& c) {
  using namespace pybind11::literals;
  c
      .def("_equations_tree", &equations_tree, "formulation"_a,
           "max_derivation_size"_a = nhs::symbolic::kDefaultDerivationBudget,
           "One formulation's equations as nested tuples (System.equations builds sympy objects from them).")
      .def("_linearize", &linearize_text, "steady"_a, "at"_a, "formulation"_a, "precision"_a, "params"_a,
           "The JSON text of `nhs linearize` (System.linearize).")
      .def("_stability", &stability_text, "steady"_a, "vary"_a, "start"_a, "stop"_a, "points"_a, "at"_a,
           "formulation"_a, "precision"_a, "params"_a, "csv"_a, "The JSON text of `nhs stability` (System.stability).")
      .def("_classify", &classification_dict,
           "The constraint classification of `nhs list SYSTEM` (nhs/constraint_classification.hpp) as a dict, "
           "its mp100 values as decimal strings (System.classify).")
      .def("accel", &SystemHandle::accel, "q"_a = py::none(), "qdot"_a = py::none(), "z"_a = py::none(),
           "formulation"_a = py::none(), "precision"_a = "double", "params"_a = py::none(),
           "field"_a = py::none(), "manifold_tol"_a = py::none(), "singular_margin"_a = py::none(),
           "jacobian"_a = false, "t"_a = py::none(), kAccelDoc)
      .def("_run", &SystemHandle::run, "t_end"_a, "dt_out"_a, "formulation"_a, "precision"_a, "stepper"_a,
           "rtol"_a, "atol"_a, "project"_a, "q0"_a, "qdot0"_a, "z0"_a, "params"_a, "field"_a,
           "max_rhs_calls"_a, "singular_margin"_a, "manifold_tol"_a, "step"_a = py::none(),
           "motion"_a = py::none(), "max_rows"_a = py::none(), "max_wall_time"_a = py::none(), "t0"_a = py::none(),
           "state_names"_a = std::array<std::string, 3>{"q0", "qdot0", "z0"})
      .def("motions", [](const SystemHandle& s) {
        const nhs::Study<double>& st = nhs::find_study<double>(s.name());
        py::list out;
        if (st.special_motions)
          for (const nhs::SpecialMotion<double>& m : st.special_motions()) out.append(m.name);
        return out;
      }, "The names of the system's special motions (a study's closed forms, a file's [[exact]] motions), "
         "in the order run(motion=1, 2, ...) numbers them.")
      .def("field", &SystemHandle::field, "formulation"_a = py::none(), "precision"_a = "double",
           "params"_a = py::none(), "field"_a = py::none(), kFieldDoc)
      .def("_bench_accel", &SystemHandle::bench_accel, "repeats"_a, "q"_a, "qdot"_a, "formulation"_a = py::none())
      .def("_check", &SystemHandle::check, "precision"_a, "states"_a, "quick"_a, "jobs"_a, "out_dir"_a);
}

}  // namespace

}  // namespace nhs::python

PYBIND11_MODULE(_core, m) {
  using namespace nhs::python;
  m.doc() = "The C++ half of the nhs module (see nhs/__init__.py).";

  // NumPy's C API, looked up here, at import. pybind11 (2.10) keeps it in
  // a function-local static (npy_api::get) whose initializer imports numpy,
  // which releases the GIL: threads making their first array at once (runs
  // in parallel threads, each ending with a GIL-less stretch) then wait on
  // the static's guard while holding the GIL, or hold the guard while waiting
  // for the GIL, and the process hangs. Under the import lock here, one
  // thread does it before any other can call the module.
  py::module_::import("numpy");
  py::detail::npy_api::get();

  register_errors(m);
  bind_functions(m);
  bind_acceleration(m);
  bind_field(m);
  py::class_<SystemHandle> system = bind_system_data(m);
  bind_system_commands(system);
}
