// The results of the module's calls as bound classes (results.hpp).
#include "results.hpp"

#include <pybind11/stl.h>

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

template <class S>
py::dict named(const std::vector<std::string>& names, const Vec<S>& values) {
  py::dict d;
  for (std::size_t k = 0; k < names.size(); ++k) d[py::str(names[k])] = to_python<S>(values[static_cast<Eigen::Index>(k)]);
  return d;
}

std::vector<std::string> names_of(const std::vector<std::string>& state, const std::vector<int>& idx) {
  std::vector<std::string> out;
  for (const int i : idx) out.push_back(state[static_cast<std::size_t>(i)]);
  return out;
}

}  // namespace

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
  const Linearization<S>& L = s.lin;
  py::dict d;
  d["system"] = s.system;
  d["formulation"] = s.formulation;
  d["precision"] = precision;
  d["steady"] = s.family;
  d["source"] = s.source;
  d["at"] = named<S>(s.family_parameters, s.mu);
  py::dict parameters;
  for (const auto& [name, value] : s.parameters) parameters[py::str(name)] = to_python<S>(value);
  d["parameters"] = parameters;
  d["state"] = s.state;
  d["x"] = to_python<S>(s.x);
  d["field"] = to_python<S>(L.f);
  d["cyclic"] = names_of(s.state, L.cyclic);
  d["reduced"] = names_of(s.state, L.reduced);
  d["eigenvalues"] = to_python<S>(L.eigenvalues);
  d["error_bounds"] = to_python<S>(Vec<S>(Eigen::Map<const Vec<S>>(L.bounds.data(), static_cast<Eigen::Index>(L.bounds.size()))));
  d["unstable"] = L.unstable;
  d["marginal"] = L.marginal;
  d["undecided"] = L.undecided;
  d["verdict"] = stability_verdict(L);
  d["zero_eigenvalues"] = py::dict(py::arg("family") = to_python<S>(L.family_eigenvalues),
                                   py::arg("cyclic") = to_python<S>(L.cyclic_eigenvalues),
                                   py::arg("holonomic") = to_python<S>(L.holonomic_eigenvalues));
  d["residuals"] = py::dict(py::arg("steady") = to_python<S>(L.steady_residual),
                            py::arg("family") = to_python<S>(L.family_residual),
                            py::arg("holonomic") = to_python<S>(L.holonomic_residual),
                            py::arg("tolerance") = to_python<S>(L.tolerance));
  d["tangent"] = to_python<S>(L.tangent);
  d["reduced_matrix"] = to_python<S>(L.D);
  d["jacobian"] = to_python<S>(L.J);
  return LinearizationResult{{d}};
}

template <class S>
StabilityResult stability_result(const StabilityScan<S>& scan, const std::string& precision, const std::string& csv) {
  py::dict d;
  d["system"] = scan.system;
  d["formulation"] = scan.formulation;
  d["precision"] = precision;
  d["steady"] = scan.family;
  d["vary"] = scan.vary;
  d["from"] = to_python<S>(scan.from);
  d["to"] = to_python<S>(scan.to);
  d["points"] = scan.grid.size();
  if (!csv.empty()) d["csv"] = csv;
  py::list crossings;
  for (const Crossing<S>& c : scan.crossings)
    crossings.append(py::dict(py::arg("at") = to_python<S>(c.at), py::arg("kind") = c.kind,
                              py::arg("frequency") = to_python<S>(c.frequency),
                              py::arg("unstable_below") = c.unstable_before,
                              py::arg("unstable_above") = c.unstable_after, py::arg("method") = c.method,
                              py::arg("bracket") = py::list(py::make_tuple(to_python<S>(c.lo), to_python<S>(c.hi)))));
  d["crossings"] = crossings;
  d["undecided"] = to_list<S>(scan.undecided);
  return StabilityResult{{d}};
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
}

#define NHS_PY_RESULTS_INSTANTIATE_(S, NAME)                                                             \
  template AccelResult accel_result<S>(AccelAnswer<S>, const std::string&);                             \
  template LinearizationResult linearization_result<S>(const SteadyLinearization<S>&, const std::string&); \
  template StabilityResult stability_result<S>(const StabilityScan<S>&, const std::string&, const std::string&);
NHS_FOR_EACH_SCALAR(NHS_PY_RESULTS_INSTANTIATE_)
#undef NHS_PY_RESULTS_INSTANTIATE_

}  // namespace nhs::python
