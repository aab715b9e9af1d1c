// System.field (field.hpp).
#include "field.hpp"

#include "nhs/session/clock.hpp"
#include "nhs/session/field_jacobian.hpp"

#include <mutex>

namespace nhs::python {

namespace {

using namespace pybind11::literals;

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
      return to_python<S>(out);
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
      return to_python<S>(Mat<S>(Eigen::Map<const Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
          out.data(), rows, n)));
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
      J = field_jacobian_at<S>(source, "second-kind", s_.sys, q, qd, "Field.jac").J;
    }
    return to_python<S>(J);
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
  static constexpr bool kFlat = python::kFlat<S>;

  Vec<S> sized(Vec<S> v, const std::string& what) const {
    if (v.size() != n)
      throw UsageError(what + " has " + std::to_string(v.size()) + " values, the system has n = " + std::to_string(n));
    return v;
  }
  // (q, qdot) from x of size 2n: a float64 (long double) array read from
  // its buffer, else item by item as accel reads a vector (to_vector).
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
    if (x.is_none()) throw UsageError(std::string(what) + ": expected a list, tuple or 1-D NumPy array of numbers, got NoneType");
    const Vec<S> v = to_vector<S>(x, {what, what});
    if (v.size() != 2 * n)
      throw UsageError(std::string(what) + " has " + std::to_string(v.size()) + " values, expected 2n = " +
                       std::to_string(2 * n) + " (q, qdot)");
    q = v.head(n);
    qd = v.tail(n);
  }
  // The rows of a batch argument (rows, n), one after the other: a NumPy
  // array of integers or floats converted to S as a whole (double, long
  // double), anything else row by row as accel reads a vector (to_vector:
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
      const Vec<S> v = sized(to_vector<S>(py::reinterpret_borrow<py::object>(row), {name, name}), name);
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

}  // namespace

FieldHandle make_field(const ProblemInput& in, std::shared_ptr<const SystemFile> file) {
  std::shared_ptr<FieldHandle::Impl> impl;
  with_precision(in.precision, [&]<class S>() {
    impl = std::make_shared<FieldOf<S>>(make_problem<S>(problem_request<S>(in)));
    return py::object();
  });
  impl->precision = in.precision;
  impl->source = in.system;
  impl->file = std::move(file);
  return FieldHandle(std::move(impl));
}

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


}  // namespace nhs::python
