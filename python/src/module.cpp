// nhs._core: the C++ half of the Python module `nhs` (pybind11). It binds
// the library's typed API beneath the `nhs` tool (nhs_session: problems,
// accelerations, fields, run plans, linearization; nhs_verification: the
// checks), never the tool's own code, so that System.accel returns what
// `nhs accel` prints and System.run integrates what `nhs run` integrates,
// by construction (the same typed requests, the same functions). By
// concern:
//   - convert.hpp: Python numbers and vectors to S and Vec<S>, and back;
//   - requests.hpp: the typed requests (ProblemSpec, RunSpec, SteadySpec)
//     made from a call's Python arguments;
//   - results.hpp: the typed results as bound classes (nhs.Acceleration,
//     nhs.Linearization, nhs.StabilityScan, nhs.CheckReport);
//   - field.hpp: nhs.Field; run.hpp: System.run, Run.animate; system.hpp: nhs.System
//     (bind_system.cpp binds it, equations.hpp its symbolic queries);
//   - errors.hpp: the library's typed errors as nhs.UsageError,
//     nhs.InvalidState (.condition), nhs.IntegrationError and nhs.IOError;
//     an interrupted call becomes KeyboardInterrupt.
// Long calls release the GIL.

#include "errors.hpp"
#include "field.hpp"
#include "results.hpp"
#include "run.hpp"
#include "system.hpp"

#include "nhs/session/precision.hpp"
#include "nhs/stepper.hpp"

#include <pybind11/stl.h>

#include <limits>

namespace nhs::python {

namespace {

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
  bind_results(m);
  bind_field(m);
  bind_system(m);
}
