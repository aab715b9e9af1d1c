// The Python class nhs.System's C++ half (system.hpp): its data and
// commands as bound methods, with their docstrings.
#include "equations.hpp"
#include "system.hpp"

#include "nhs/studies/study.hpp"
#include "nhs/studies/system_file.hpp"
#include "nhs/symbolic/print.hpp"

#include <pybind11/stl.h>

namespace nhs::python {

namespace {

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
        nhs.IntegrationError where a value is not finite.

        Repeated calls reuse the admitted model (the formulation, its field
        and the system at its parameters), one per precision, formulation and
        field, made again when the parameters change or the system file was
        edited: a call then costs the state's admission, the margins, the
        field and Gauss's Z, with the same numbers as a fresh call.)doc";

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
      .def_static("_text_key", [](const std::string& text, const std::string& name) {
             py::gil_scoped_release release;
             return nhs::cached_system_text(text, name);
           }, "text"_a, "name"_a,
           "The key naming the system file `text` (loaded from memory, errors naming `name`; "
           "nhs/studies/system_file.hpp, cached_system_text): System(key) is that system.")
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
      .def("_linearize", &SystemHandle::linearize, "steady"_a, "at"_a, "formulation"_a, "precision"_a, "params"_a,
           "The linearized steady motion of `nhs linearize` as an nhs.Linearization (System.linearize).")
      .def("_stability", &SystemHandle::stability, "steady"_a, "vary"_a, "start"_a, "stop"_a, "points"_a, "at"_a,
           "formulation"_a, "precision"_a, "params"_a, "csv"_a,
           "The scan of `nhs stability` as an nhs.StabilityScan (System.stability).")
      .def("_classify", &classification_dict,
           "The constraint classification of `nhs list SYSTEM` (nhs/constraint_classification.hpp) as a dict, "
           "its mp100 values as exact mpmath.mpf (System.classify).")
      .def("accel", &SystemHandle::accel, "q"_a = py::none(), "qdot"_a = py::none(), "z"_a = py::none(),
           "formulation"_a = py::none(), "precision"_a = "double", "params"_a = py::none(),
           "field"_a = py::none(), "manifold_tol"_a = py::none(), "singular_margin"_a = py::none(),
           "jacobian"_a = false, "t"_a = py::none(), kAccelDoc)
      .def("_run", &SystemHandle::run, "t_end"_a, "dt_out"_a, "formulation"_a, "precision"_a, "stepper"_a,
           "rtol"_a, "atol"_a, "project"_a, "q0"_a, "qdot0"_a, "z0"_a, "params"_a, "field"_a,
           "max_rhs_calls"_a, "singular_margin"_a, "manifold_tol"_a, "step"_a = py::none(),
           "motion"_a = py::none(), "max_rows"_a = py::none(), "max_wall_time"_a = py::none(), "t0"_a = py::none(),
           "state_names"_a = std::array<std::string, 3>{"q0", "qdot0", "z0"}, "animate"_a = py::none())
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
      .def("_check", &SystemHandle::check, "precision"_a, "states"_a, "quick"_a, "jobs"_a, "out_dir"_a,
           "`nhs check` on the system as an nhs.CheckReport (System.check); out_dir None writes nothing.");
}


}  // namespace

void bind_system(py::module_& m) {
  py::class_<SystemHandle> system = bind_system_data(m);
  bind_system_commands(system);
}

}  // namespace nhs::python
