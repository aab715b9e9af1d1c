// A problem: what every command and the Python module evaluate or
// integrate. A system (a built-in study, a system file or a bundled
// system's name) at its parameters, a formulation with the field backend
// that evaluates it (library, generated, traced or compiled), and an
// initial state admitted on the constraint manifold C. ProblemSpec is the
// typed request; make_problem checks it and builds the Problem. The tool
// parses its options into a ProblemSpec (apps/nhs/setup.hpp), the Python
// module converts its arguments into one (python/src/module.cpp): neither
// goes through the other's text.
#pragma once

#include "nhs/errors.hpp"
#include "nhs/field_backend.hpp"
#include "nhs/formulation.hpp"
#include "nhs/studies/study.hpp"
#include "nhs/work_energy.hpp"
#include "nhs/system.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nhs {

/// How the messages of make_problem (and of accelerations_at, plan_run)
/// name the inputs: the front end gives every name, session/ has none of
/// its own. The tool passes its options (cli_input_names in
/// apps/nhs/names.hpp: --q, --qdot, ...), the Python module its
/// arguments' names (q, qdot, z, or q0, qdot0, z0 for a run).
struct InputNames {
  /// The state: q, qdot, z; the admission's tolerance; the parameter
  /// overrides (a motion's refusal names them).
  std::string q, qdot, z, manifold_tol, params;
  /// The state's time t: the tool's --t (accel) or --t0 (run); Python's t, t0.
  std::string t;
  /// How the field backends are asked for (requested_field's messages):
  /// the tool's --library, --generated, --compiled.
  std::string library, generated, compiled;
  /// The Jacobian asked for (accelerations_at: field_jacobian_at's
  /// messages), and the margin to the singular sets
  /// (require_singular_margin).
  std::string jacobian, singular_margin;
};

/// The request for a problem, typed.
template <class S>
struct ProblemSpec {
  /// A built-in study's id, a system file's path (is_system_file_name) or a
  /// bundled system's name (nhs/studies/bundled.hpp).
  std::string system;
  /// A formulation's name (nhs::formulations); empty: default_formulation_name.
  std::string formulation;
  /// The backend asked for; empty: the default (default_field).
  std::optional<FieldBackend> field;
  /// The precision's name (S's), for messages (e.g. that the compiled
  /// field exists for double and long-double only, not 'mp50').
  std::string precision = "double";
  /// Parameter overrides by name, applied in order to the defaults
  /// (parameters_with).
  std::vector<std::pair<std::string, S>> parameters;
  /// The state: q with qdot (each of size n), or q with z (size m; qdot =
  /// psi(q, z)), or none of them for the study's default state. For a
  /// rheonomic system (SystemInfo::clock_coordinate >= 0) q and qdot may
  /// leave out the clock coordinate (size n - 1): its value is then t (0 if
  /// not given) and its velocity 1 (with_time).
  std::optional<Vec<S>> q, qdot, z;
  /// The state's time t, for a rheonomic system only: the value of its
  /// clock coordinate (in the default state, or in a q of size n - 1).
  /// Empty: q's own clock entry, or the default state's (0 for a file).
  std::optional<S> t;
  /// The admission's tolerance on |C| (admit_state); empty: its default
  /// (default_manifold_tolerance<S>). Must be >= 0.
  std::optional<S> manifold_tol;
  InputNames names;
};

/// A problem, built: the study, its system at the parameters, the
/// formulation (checked applicable) and the admitted initial state (q,
/// qdot), size n each, with qdot projected onto C.
template <class S>
struct Problem {
  /// The system as named in ProblemSpec::system (a study's id, a file's
  /// path or a bundled name).
  std::string system;
  const Study<S>* study = nullptr;
  System<S> sys;
  /// The formulation whose field is evaluated: the library's, or the
  /// generated, traced or compiled one in owned_formulation.
  const Formulation<S>* formulation = nullptr;
  /// The library formulation's name (e.g. "second-kind", where
  /// formulation->name() may be "second-kind (generated)").
  std::string formulation_name;
  Vec<S> q, qdot;
  /// The generated, traced or compiled formulation behind `formulation`,
  /// else empty (the library's). Not to be shared between threads (a
  /// traced field's interpreter keeps registers): one Problem per thread.
  std::shared_ptr<const Formulation<S>> owned_formulation;
  /// The backend that evaluates `formulation`'s field (field_backend_of).
  FieldBackend field = FieldBackend::library;
  /// The names of the inputs, as the ProblemSpec gave them (for the
  /// messages of what is asked of the problem later: accelerations_at).
  InputNames names;
};

/// Parameter overrides given as text, (name, decimal text) pairs, as typed
/// overrides (ProblemSpec::parameters), each read exactly in S and in the
/// order given. Throws UsageError as parameters_with does: an unknown name
/// (listing the known), a malformed value ("parameter <name>: ...").
template <class S>
std::vector<std::pair<std::string, S>> parameter_overrides(
    const Study<S>& study, const std::vector<std::pair<std::string, std::string>>& items);

/// The formulation used when none is named: the second kind, or
/// udwadia-kalaba (with M_A, seed 003) for a system with massless parts
/// (SystemInfo::semidefinite_metric), where the second kind does not apply.
/// Throws UsageError for an unknown system, or as loading its file does.
template <class S>
std::string default_formulation_name(const std::string& system);

/// The field that `nhs accel`, `nhs run`, `nhs check` and the Python module
/// evaluate by default for the formulation `library` of `system`: a
/// built-in study's code generated at build time where it has one for the
/// formulation (FieldBackend::generated), a system file's traced field,
/// interpreted, where the formulation is traceable and the file's field
/// traces (FieldBackend::traced); nullptr where there is none (the
/// library's formulation is the field). The library's formulation stays
/// behind the others, for their guards. `nhs verify` and `nhs check`
/// cross-check these fields against every formulation. One per thread.
/// Throws UsageError for an unknown system, or as loading the file does.
template <class S>
std::shared_ptr<const Formulation<S>> default_field(const std::string& system, const Formulation<S>& library);

/// The multipliers lambda_a that the work-energy balance of a run of
/// `system` uses (MotionReference::power, power_of_forces_and_reactions in
/// nhs/work_energy.hpp): those of the second kind's default field
/// (default_field: generated or traced, about the cost of one field
/// evaluation; GeneratedFormulation::multipliers), at the system the call
/// is given (any parameters of this study); empty where it has none (a
/// semidefinite metric, a description that does not trace), and the
/// balance then takes the KKT system's reaction. The function owns its
/// field; one thread at a time. Throws as default_field.
template <class S>
MultipliersAt<S> reaction_multipliers(const std::string& system);

/// The field of the formulation `library` of `system` by the backend `b`
/// asked for by name (names.generated, names.compiled: the tool's options,
/// Python's field=...; names.library for the way out): every
/// reason it cannot be is a UsageError, never a silent fallback (the
/// default, default_field, falls back on the library's). nullptr for
/// FieldBackend::library, and where the formulation does not apply (the
/// library's NotApplicable then says why). Throws UsageError: generated for
/// a system file or a study without generated code for the formulation;
/// traced or compiled for a built-in study, a formulation without a traced
/// field or a field that cannot be traced; compiled in a precision
/// (named `precision`) other than double and long double.
template <class S>
std::shared_ptr<const Formulation<S>> requested_field(const std::string& system, const Formulation<S>& library,
                                                      FieldBackend b, const std::string& precision,
                                                      const InputNames& names);

/// Whether the state given (q, qdot, z present or not) is one of the three
/// forms of ProblemSpec; UsageError naming the inputs (names) otherwise, or
/// when z is given for a system `info` without quasi-velocities (no psi).
void require_state_form(bool q, bool qdot, bool z, const SystemInfo& info, const InputNames& names);

/// `spec` with the clock coordinate of a rheonomic system `info`
/// (SystemInfo::clock_coordinate) put into q and qdot where they leave it
/// out (size n - 1): q's clock entry t (spec.t, else 0) and qdot's 1, at
/// the clock's index. Unchanged for q, qdot of size n (the sizes are
/// require_input_size's to judge). Throws UsageError naming names.t when
/// t is given for a scleronomic system (no clock: nothing depends on t),
/// or together with a q of size n that has its own clock entry.
/// Source: docs/affine-constraints.md, "Time as a coordinate" (A5).
template <class S>
ProblemSpec<S> with_time(ProblemSpec<S> spec, const SystemInfo& info);

/// v as the input `name` of a system `info` whose dimension `dimension`
/// ("n" or "m") has the names `names`: UsageError "<name> has k values,
/// study '<id>' has n = 3 (x, y, theta)" when v.size() differs. For a
/// rheonomic system, q and qdot (`names` being info.coordinates) may also
/// have n - 1 values, without the clock coordinate (with_time).
template <class S>
void require_input_size(const Vec<S>& v, const std::string& name, const SystemInfo& info,
                        const std::vector<std::string>& names, const char* dimension);

/// A margin to the singular sets (a state within it is refused, a run
/// stops before it: require_margins), as the input `name` (the tool's
/// --singular-margin): UsageError "<name> must be non-negative" unless
/// margin >= 0.
template <class S>
void require_singular_margin(const S& margin, const std::string& name) {
  if (!(margin >= 0)) throw UsageError(name + " must be non-negative");
}

/// The problem of `spec`: the study (find_study), the formulation (named,
/// else default_formulation_name; its field by the backend asked for,
/// requested_field, else default_field), the system at the parameters,
/// and the admitted state: q on the holonomic constraints and (q, qdot) on
/// C within manifold_tol (admit_state: qdot projected onto C); the study's
/// default state when none is given. What needs no system (the state's
/// form and sizes, the tolerance) is checked before the system is built
/// (n-trailer-200 takes a minute to build in mp50). A rheonomic system's
/// clock coordinate is put in by with_time. Throws UsageError (an
/// unknown system, formulation or parameter, a state of the wrong form or
/// size, a time t for a scleronomic system, a negative tolerance, a field that cannot be had), SingularState
/// (a state on one of the system's own singular sets, psi not finite, a
/// default state not finite at these parameters), InvalidState (off C),
/// NotApplicable (a formulation that does not apply to the system).
/// Source: the admission of docs/cli.md, "States".
template <class S>
Problem<S> make_problem(const ProblemSpec<S>& spec);

/// make_problem in its three steps, for a caller that admits many states
/// on one model (the Python module's System.accel; docs/python.md): a
/// Problem built once by make_problem_model answers any number of states,
/// each admitted by admit_problem_state and evaluated by accelerations_at,
/// with the same numbers as make_problem of each state (tests/
/// test_session.cpp, ProblemReuse). The model depends on spec's system,
/// formulation, field, precision and parameters only; a caller that keeps
/// it must make it again when any of these changes, or when the system
/// file was loaded again (cached_system_file returns another SystemFile).
///
/// checked_problem_request: `given` with what needs no system checked as
/// make_problem checks it first (the system and formulation known, the
/// state's form and sizes, the tolerance >= 0) and the clock coordinate
/// put in (with_time). Throws UsageError as make_problem does.
template <class S>
ProblemSpec<S> checked_problem_request(const ProblemSpec<S>& given);

/// The model of `spec` (from checked_problem_request): make_problem without
/// the state (q, qdot empty): the study, the formulation and its field,
/// the system at the parameters, the formulation checked applicable. Not to
/// be shared between threads (Problem::owned_formulation). Throws
/// UsageError (a field that cannot be had), NotApplicable, as make_problem.
template <class S>
Problem<S> make_problem_model(const ProblemSpec<S>& spec);

/// The state of `spec` (from checked_problem_request, with the model's
/// system, formulation, field and parameters) admitted on the model `p`
/// (make_problem_model): p.q, p.qdot and p.names set as make_problem sets
/// them. Throws SingularState, InvalidState (off C) as make_problem; p
/// stays a valid model either way (its q, qdot are then not admitted).
template <class S>
void admit_problem_state(Problem<S>& p, const ProblemSpec<S>& spec);

/// Makes the system of the model `p` (make_problem_model) evaluate its
/// metric and Christoffel terms (System::Derivations::inertia) and its
/// constraint Jacobians (::constraint_jacobians) once per state: each keeps
/// the last (q, qdot) it was asked at, compared bit for bit (value and
/// sign), and its answer. One admitted state asks for them several times
/// at the same (q, qdot) (admit_state, its projection, the margins, the
/// reaction, Gauss's Z): on the Whipple bicycle the library's metric by
/// nested AD is about 1 ms, twice per state, and the Jacobians four
/// times. The numbers are those of the functions themselves (the same
/// function at the same arguments). Copies of p.sys share what is kept,
/// under a lock (safe between threads, but one thread at a time is
/// faster). For a caller that admits many states on one model
/// (System.accel); make_problem does not do it.
template <class S>
void share_state_derivations(Problem<S>& p);

}  // namespace nhs
