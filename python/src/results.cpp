// The results of the module's calls as bound classes (results.hpp).
#include "results.hpp"

#include "nhs/session/linearization_fields.hpp"

#include <pybind11/stl.h>

#include <cmath>

namespace nhs::python {

py::object AccelResult::get(int which) const {
  py::object& slot = cache_[which];
  if (!slot) slot = a_->has(which) ? a_->vector(which) : py::object(py::none());
  return slot;
}

py::dict AccelResult::strings() const {
  py::dict d;
  d["parameters"] = a_->parameters(true);
  static const char* names[] = {"q", "qdot", "qddot", "multipliers", "reaction"};
  for (int k = 0; k < kCount; ++k)
    if (a_->has(k)) d[names[k]] = a_->strings(k);
  d["gauss_z"] = a_->gauss_z().is_none() ? py::object(py::none()) : a_->strings(-1)[0];
  return d;
}

namespace {

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
  py::object vector(int which) const override { return to_python<S>(*pick(which)); }
  py::object gauss_z() const override { return to_python<S>(a.gauss_z); }
  py::list strings(int which) const override {
    py::list l;
    if (which < 0)
      l.append(to_string<S>(a.gauss_z));
    else
      for (const auto& x : *pick(which)) l.append(to_string<S>(x));
    return l;
  }
  py::object jacobian() const override { return a.jacobian ? to_python<S>(a.jacobian->J) : py::none(); }
  py::object eigenvalues() const override {
    return a.jacobian ? to_python<S>(a.jacobian->eigenvalues) : py::none();
  }
  py::object jacobian_state() const override {
    return a.jacobian ? py::object(py::cast(a.jacobian->state)) : py::object(py::none());
  }
  py::dict parameters(bool as_strings) const override {
    py::dict d;
    for (const auto& [n, v] : a.parameters)
      d[py::str(n)] = as_strings ? py::object(py::str(to_string<S>(v))) : to_python<S>(v);
    return d;
  }
};

/// The fields of a result (nhs/session/linearization_fields.hpp) as a
/// Python dict: values at S's precision (to_python), lists of values and
/// of names as lists, objects as dicts.
template <class S>
class DictWriter {
 public:
  DictWriter() { stack_.push_back(root); }
  py::dict root;

  void text(const std::string& key, const std::string& v) { put(key, py::str(v)); }
  void names(const std::string& key, const std::vector<std::string>& v) { put(key, py::cast(v)); }
  void count(const std::string& key, long long v) { put(key, py::int_(v)); }
  void number(const std::string& key, const S& v) { put(key, to_python<S>(v)); }
  void numbers(const std::string& key, const std::vector<S>& v) { put(key, to_list<S>(v)); }
  void vector(const std::string& key, const Vec<S>& v) { put(key, to_python<S>(v)); }
  void matrix(const std::string& key, const Mat<S>& m) { put(key, to_python<S>(m)); }
  void complex(const std::string& key, const std::vector<std::pair<S, S>>& v) { put(key, to_python<S>(v)); }
  void named(const std::string& key, const std::vector<std::string>& names, const Vec<S>& values) {
    py::dict d;
    for (std::size_t k = 0; k < names.size(); ++k)
      d[py::str(names[k])] = to_python<S>(values[static_cast<Eigen::Index>(k)]);
    put(key, d);
  }
  void begin(const std::string& key) {
    py::dict d;
    put(key, d);
    stack_.push_back(d);
  }
  void end() { stack_.pop_back(); }
  void begin_list(const std::string& key) {
    list_ = py::list();
    put(key, list_);
  }
  void end_list() { list_ = py::list(); }

 private:
  /// A field of the object open, or (key "") an item of the list open.
  void put(const std::string& key, const py::object& v) {
    if (key.empty())
      list_.append(v);
    else
      stack_.back()[py::str(key)] = v;
  }
  std::vector<py::dict> stack_;
  py::list list_;
};

/// summary.json's fields (check_summary_fields) as a Python dict: text as
/// str, numbers as float (None where not finite), counts as int.
class PySummary : public CheckSummaryWriter {
 public:
  PySummary() { open_.push_back(root); }
  py::dict root;

  void text(const std::string& key, const std::string& value) override { put(key, py::str(value)); }
  void flag(const std::string& key, bool value) override { put(key, py::bool_(value)); }
  void number(const std::string& key, double value) override {
    put(key, std::isfinite(value) ? py::object(py::float_(value)) : py::object(py::none()));
  }
  void count(const std::string& key, std::uint64_t value) override { put(key, py::int_(value)); }
  void names(const std::string& key, const std::vector<std::string>& value) override { put(key, py::cast(value)); }
  void flags(const std::string& key, const std::vector<bool>& value) override {
    py::list l;
    for (const bool b : value) l.append(py::bool_(b));
    put(key, l);
  }
  void begin(const std::string& key) override { open_.push_back(put(key, py::dict())); }
  void begin_list(const std::string& key) override { open_.push_back(put(key, py::list())); }
  void end() override { open_.pop_back(); }

 private:
  /// A field of the object open, or (key "") an item of the list open.
  py::object put(const std::string& key, const py::object& value) {
    const py::object& top = open_.back();
    if (key.empty())
      py::reinterpret_borrow<py::list>(top).append(value);
    else
      top[py::str(key)] = value;
    return value;
  }
  std::vector<py::object> open_;
};

}  // namespace

CheckResult check_result(const CheckReport& report, const CheckSpec& spec, const std::string& command,
                         const std::string& date) {
  PySummary out;
  check_summary_fields(report, spec, command, date, out);
  return CheckResult{{out.root}};
}

template <class S>
AccelResult accel_result(AccelAnswer<S> a, const std::string& precision) {
  auto answer = std::make_shared<AccelAnswerOf<S>>(std::move(a));
  answer->study = answer->a.study;
  answer->formulation = answer->a.formulation;
  answer->field = answer->a.field;
  answer->precision = precision;
  return AccelResult(std::move(answer));
}

template <class S>
LinearizationResult linearization_result(const SteadyLinearization<S>& s, const std::string& precision) {
  DictWriter<S> out;
  linearization_fields<S>(s, precision, out);
  return LinearizationResult{{out.root}};
}

template <class S>
StabilityResult stability_result(const StabilityScan<S>& scan, const std::string& precision, const std::string& csv) {
  DictWriter<S> out;
  stability_fields<S>(scan, precision, csv, out);
  return StabilityResult{{out.root}};
}

namespace {

/// The Python class `name` of a FieldsResult type T: its fields as
/// attributes and items.
template <class T>
void bind_fields(py::module_& m, const char* name, const char* doc) {
  py::class_<T>(m, name, doc)
      .def("__getattr__", [name](const T& r, const std::string& key) -> py::object {
             if (!r.values.contains(key)) throw py::attribute_error(std::string(name) + " has no field '" + key + "'");
             return r.values[py::str(key)];
           })
      .def("__getitem__", [name](const T& r, const std::string& key) -> py::object {
             if (!r.values.contains(key)) throw py::key_error(std::string(name) + " has no field '" + key + "'");
             return r.values[py::str(key)];
           })
      .def("__contains__", [](const T& r, const py::object& key) { return r.values.contains(key); })
      .def("__iter__", [](const T& r) { return py::iter(r.values); })
      .def("__len__", [](const T& r) { return r.values.size(); })
      .def("__dir__", [](const T& r) { return py::list(r.values); })
      .def("keys", [](const T& r) { return r.values.attr("keys")(); })
      .def("items", [](const T& r) { return r.values.attr("items")(); })
      .def("get", [](const T& r, const py::object& key, const py::object& fallback) {
             return r.values.attr("get")(key, fallback);
           }, py::arg("key"), py::arg("default") = py::none())
      .def("to_dict", [](const T& r) { return py::dict(r.values); }, "the fields as a dict (a shallow copy)")
      .def("__repr__", [name](const T& r) {
        std::string s = std::string(name) + "(";
        for (const char* k : {"system", "steady", "precision", "verdict"})
          if (r.values.contains(k)) s += (s.back() == '(' ? "" : ", ") + py::str(r.values[k]).cast<std::string>();
        return s + ")";
      });
}

void bind_acceleration(py::module_& m) {
  py::class_<AccelResult>(m, "Acceleration", "The accelerations at a state (System.accel).")
      .def_property_readonly("qddot", [](const AccelResult& r) { return r.get(AccelResult::kQddot); },
                             "q'' (size n)")
      .def_property_readonly("multipliers", [](const AccelResult& r) { return r.get(AccelResult::kMultipliers); },
                             "the multipliers lambda_a (size r), or None where the formulation has none")
      .def_property_readonly("reaction", [](const AccelResult& r) { return r.get(AccelResult::kReaction); },
                             "the reactive forces R_i (size n), or None where the formulation has none")
      .def_property_readonly("gauss_z", [](const AccelResult& r) { return r.answer().gauss_z(); },
                             "Gauss's Z at qddot (nhs/gauss.hpp)")
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
      .def_property_readonly("parameters", [](const AccelResult& r) { return r.answer().parameters(false); },
                             "name -> value, every parameter")
      .def_property_readonly("strings", &AccelResult::strings,
                             "every number as `nhs accel` prints it (decimal strings, same keys as its JSON)")
      .def("__repr__", [](const AccelResult& r) {
        return "Acceleration(" + r.answer().study + ", " + r.answer().formulation + ", " + r.answer().precision +
               ", qddot=" + py::repr(r.get(AccelResult::kQddot)).cast<std::string>() + ")";
      });
}

}  // namespace

void bind_results(py::module_& m) {
  bind_acceleration(m);
  bind_fields<LinearizationResult>(m, "Linearization",
                                   "A linearized steady motion (System.linearize): its fields as attributes and "
                                   "items, numbers at the request's precision.");
  bind_fields<StabilityResult>(m, "StabilityScan",
                               "The stability of a family of steady motions (System.stability): its fields as "
                               "attributes and items, numbers at the request's precision.");
  bind_fields<CheckResult>(m, "CheckReport",
                           "The result of System.check: summary.json's fields as attributes and items "
                           "(report[\"pass\"], report.rows, report.failures, ...; to_dict()), from the "
                           "typed report, not from a file.");
}

#define NHS_PY_RESULTS_INSTANTIATE_(S, NAME)                                                             \
  template AccelResult accel_result<S>(AccelAnswer<S>, const std::string&);                             \
  template LinearizationResult linearization_result<S>(const SteadyLinearization<S>&, const std::string&); \
  template StabilityResult stability_result<S>(const StabilityScan<S>&, const std::string&, const std::string&);
NHS_FOR_EACH_SCALAR(NHS_PY_RESULTS_INSTANTIATE_)
#undef NHS_PY_RESULTS_INSTANTIATE_

}  // namespace nhs::python
