// The set-up shared by `accel` and `run`: the study or system file, its
// system at the given parameters, the formulation (library, generated,
// traced or compiled field) and the admitted initial state.
#pragma once

#include "options.hpp"
#include "text.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/errors.hpp"
#include "nhs/formulation.hpp"
#include "nhs/generated_formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/manifold.hpp"
#include "nhs/norms.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/system_file.hpp"

#include <memory>
#include <string>

namespace nhs::cli {

/// The study, its system, the formulation (checked applicable) and the
/// admitted initial state (given or default; qdot projected onto C).
template <class S>
struct Setup {
  const Study<S>* study = nullptr;
  System<S> sys;
  const Formulation<S>* formulation = nullptr;
  Vec<S> q, qdot;
  /// The generated, traced or compiled formulation behind `formulation`,
  /// else empty (the library's).
  std::shared_ptr<const Formulation<S>> owned_formulation;
  /// The backend that evaluates `formulation`'s field (field_backend_of).
  FieldBackend field = FieldBackend::library;
};

/// `o` with its formulation named: --formulation as given, else the second
/// kind, or udwadia-kalaba (with M_A, seed 003) for a system with massless
/// parts (SystemInfo::semidefinite_metric), where the second kind does not
/// apply. Throws UsageError for an unknown study.
template <class S, class Options>
Options with_default_formulation(Options o) {
  if (o.formulation.empty())
    o.formulation = find_study<S>(o.study).info.semidefinite_metric ? "udwadia-kalaba" : "second-kind";
  return o;
}

/// The field that `nhs accel`, `nhs run` and `nhs check` evaluate by
/// default for the formulation `library` of `study` (a built-in study's id
/// or a system file's path): a built-in study's code generated at build
/// time where it has one for the formulation (FieldBackend::generated), a
/// system file's traced field, interpreted, where the formulation is
/// traceable and the file's field traces (FieldBackend::traced); nullptr
/// where there is none (the library's formulation is the field). The
/// library's formulation stays behind the others, for their guards.
/// `nhs verify` and `nhs check` cross-check these fields against every
/// formulation. Not thread-safe to share (a traced field has the registers
/// of its interpreter): one per thread. Throws UsageError for an unknown
/// study, or as loading the file does.
template <class S>
std::shared_ptr<const Formulation<S>> default_field(const std::string& study, const Formulation<S>& library) {
  if (!is_system_file_name(study)) {
    if (generated::find_generated<S>(study, library.name()) == nullptr) return nullptr;
    return std::make_shared<generated::GeneratedFormulation<S>>(
        generated::make_generated_formulation<S>(study, library));
  }
  const auto& t = codegen::traceable_formulations();
  if (std::find(t.begin(), t.end(), library.name()) == t.end()) return nullptr;
  try {
    const auto traced = cached_trace_file_formulation(study, library.name());
    return std::make_shared<generated::GeneratedFormulation<S>>(
        generated::make_traced_formulation<S>(*traced, library));
  } catch (const NotApplicable&) {  // the library's says why (require_applicable)
  } catch (const codegen::TracingError&) {  // branches on the state (abs): the library's runs
  }
  return nullptr;
}

/// The field of the formulation `library` of `study` by the backend `b`
/// asked for by name (--generated, --compiled, Python's field=...): every
/// reason it cannot be is a UsageError, never a silent fallback (the
/// default, default_field, falls back on the library's). nullptr for
/// FieldBackend::library. Throws UsageError: generated for a system file or
/// a study without generated code for the formulation; traced or compiled
/// for a built-in study, a formulation without a traced field or a field
/// that cannot be traced; compiled in a precision other than double and
/// long double.
template <class S>
std::shared_ptr<const Formulation<S>> requested_field(const std::string& study, const Formulation<S>& library,
                                                      FieldBackend b, const std::string& precision) {
  const std::string& f = library.name();
  switch (b) {
    case FieldBackend::library: return nullptr;
    case FieldBackend::generated:
      if (is_system_file_name(study))
        throw UsageError("--generated: a system file has no build-time generated code; its traced field "
                         "(second-kind, first-kind, gibbs-appell) is already the default, and --compiled "
                         "compiles it (double, long-double)");
      return std::make_shared<generated::GeneratedFormulation<S>>(
          generated::make_generated_formulation<S>(study, library));
    case FieldBackend::traced:
    case FieldBackend::compiled: break;
  }
  const bool compiled = b == FieldBackend::compiled;
  const std::string option = compiled ? "--compiled" : "the traced field";
  if (!is_system_file_name(study))
    throw UsageError(compiled ? "--compiled compiles a system file's traced field; the built-in study '" + study +
                                    "' has its field compiled with nhs: use --generated"
                              : "the traced field is a system file's; the built-in study '" + study +
                                    "' has generated code instead: use --generated (field 'generated')");
  if (compiled && !codegen::has_compiled_field<S>)
    throw UsageError("--compiled exists for the precisions double and long-double only, not '" + precision +
                     "' (without --compiled, the traced field runs in every precision)");
  const auto& t = codegen::traceable_formulations();
  if (std::find(t.begin(), t.end(), f) == t.end())
    throw UsageError(option + ": formulation '" + f + "' has no traced field (traced: " + join(t) + ")");
  try {
    const auto traced = cached_trace_file_formulation(study, f);
    if constexpr (codegen::has_compiled_field<S>) {
      if (compiled)
        return std::make_shared<generated::GeneratedFormulation<S>>(
            generated::make_compiled_formulation<S>(*traced, library));
    }
    return std::make_shared<generated::GeneratedFormulation<S>>(generated::make_traced_formulation<S>(*traced, library));
  } catch (const NotApplicable&) {  // the library's says why (require_applicable)
    return nullptr;
  } catch (const codegen::TracingError& e) {
    throw UsageError(option + ": the " + f + " field of '" + study + "' cannot be traced (" + e.what() +
                     "); run with --library (the library's formulation)");
  }
}

/// The state given by `o` (--q with --qdot or --z, or neither), parsed
/// and checked against the shapes of `info` (n = the coordinates' names,
/// m = the quasi-velocities'), which a study knows before its system is
/// built: a vector of the wrong length is refused here, before anything is
/// built (n-trailer-200 takes a minute in mp50) and before anything reads
/// it (a margin reading qdot[3] of a shorter vector would read outside it).
/// Empty vectors for the default state. Throws UsageError naming the
/// option, its length and the expected one; MalformedNumber as parse_vector.
template <class S>
struct GivenState {
  Vec<S> q, qdot, z;  ///< sizes n, n (empty with --z), m (empty without --z)
};

/// "a, b, c" for a message: at most 12 names, else the first 10, "...",
/// and the last (n-trailer-200 has 203 coordinates).
inline std::string names_text(const std::vector<std::string>& names) {
  if (names.size() <= 12) return join(names);
  return join(std::vector<std::string>(names.begin(), names.begin() + 10)) + ", ..., " + names.back();
}

template <class S>
GivenState<S> given_state(const StateOptions& o, const SystemInfo& info) {
  GivenState<S> g;
  if (!o.z.empty()) {
    if (o.q.empty() || !o.qdot.empty())
      throw UsageError("--z needs --q and replaces --qdot (qdot = psi(q, z))");
    if (info.quasi_velocities.empty())
      throw UsageError("study '" + info.name + "' has no parametric representation psi(q, z): give --qdot");
  } else if (o.q.empty() != o.qdot.empty()) {
    throw UsageError("give --q with --qdot or --z, or neither (for the study's default state)");
  }
  if (o.q.empty()) return g;
  const auto sized = [&](const char* option, const std::string& text, const std::vector<std::string>& names,
                         const char* dimension) {
    Vec<S> v = parse_vector<S>(option, text);
    if (static_cast<std::size_t>(v.size()) != names.size())
      throw UsageError(std::string(option) + " has " + count_of(static_cast<std::size_t>(v.size()), "value") +
                       ", study '" + info.name + "' has " + dimension + " = " + std::to_string(names.size()) +
                       " (" + names_text(names) + ")");
    return v;
  };
  g.q = sized("--q", o.q, info.coordinates, "n");
  if (o.z.empty())
    g.qdot = sized("--qdot", o.qdot, info.coordinates, "n");
  else
    g.z = sized("--z", o.z, info.quasi_velocities, "m");
  return g;
}

/// The set-up of `given`: the study (find_study), the formulation (named by
/// with_default_formulation; its field by the backend asked for,
/// requested_field, else by default_field), the system at --param, and the admitted state (admit_state: on C
/// within --manifold-tol, qdot projected onto C). The options that need no
/// system (the flags, the state's shape, --manifold-tol) are checked before
/// the system is built. Throws UsageError (bad options; a vector of the
/// wrong length, given_state), SingularState (a state on one of the
/// system's own singular sets, or where psi is not finite), InvalidState
/// (off C), NotApplicable (a formulation that does not apply).
template <class S>
Setup<S> make_setup(const StateOptions& given) {
  const StateOptions o = with_default_formulation<S>(given);
  Setup<S> s;
  s.study = &find_study<S>(o.study);
  s.formulation = &find_formulation<S>(o.formulation);
  GivenState<S> state = given_state<S>(o, s.study->info);
  const S tol = o.manifold_tol.empty() ? default_manifold_tolerance<S>()
                                       : parse_number<S>("--manifold-tol", o.manifold_tol);
  if (!(tol >= 0)) throw UsageError("--manifold-tol must be non-negative");
  // The field: the backend asked for, else the default (default_field);
  // the library's formulation stays behind it (its guards).
  if (auto field = o.field ? requested_field<S>(o.study, *s.formulation, *o.field, o.precision)
                           : default_field<S>(o.study, *s.formulation)) {
    s.owned_formulation = std::move(field);
    s.formulation = s.owned_formulation.get();
  }
  s.field = generated::field_backend_of(*s.formulation);
  s.sys = s.study->build(parameters_with(*s.study, parse_params(o.params)));
  s.formulation->require_applicable(s.sys);
  // The built system's shapes are the study's (given_state); checked again,
  // cheaply, so that nothing below can read outside a vector.
  const auto require_size = [&s](const Vec<S>& v, const char* option, int size, const char* dimension) {
    if (v.size() != size)
      throw UsageError(std::string(option) + " has " + count_of(static_cast<std::size_t>(v.size()), "value") +
                       ", study '" + s.sys.info.name + "' has " + dimension + " = " + std::to_string(size));
  };
  if (!o.z.empty() && !s.sys.has_parametrization())
    throw UsageError("study '" + s.sys.info.name + "' has no parametric representation psi(q, z): give --qdot");
  // SingularState naming the first of the system's own singular sets
  // (System::singular_margins) that (s.q, qd) is on: a margin of 0 or NaN
  // (require_margins at threshold 0, without sigma_min(dC/dqdot), which is
  // the admission's to judge).
  const auto refuse_on_own_singular_set = [&s](const Vec<S>& qd, const std::string& velocity) {
    if (!s.sys.singular_margins) return;
    for (const Margin<S>& mg : s.sys.singular_margins(s.q, qd))
      if (!(mg.value > 0))
        throw SingularState(mg.condition, "the state is on a singular set: " + mg.condition + " (" + mg.name +
                                              " = " + to_string(mg.value) + " at q = " + to_string(s.q) +
                                              velocity + ")");
  };
  if (o.q.empty()) {
    const State<S> st = s.study->default_state(s.sys);
    s.q = st.q;
    s.qdot = st.qdot;
    // The default state at other parameters (--param) may fall where psi is
    // singular (e.g. a division by a parameter set to 0): a singular state
    // (exit 3), not a malformed input.
    if (!s.q.allFinite() || !s.qdot.allFinite())
      throw SingularState("default state not finite",
                          "the default state is not finite at these parameters: q = " + to_string(s.q) +
                              ", qdot = " + to_string(s.qdot) + " (give --q and --qdot)");
  } else {
    s.q = std::move(state.q);
    require_size(s.q, "--q", s.sys.n, "n");
    // On the holonomic constraints (dependent coordinates solved for) before
    // the velocities are taken at q.
    if (s.study->holonomic) admit_holonomic<S>(*s.study->holonomic, s.sys, s.q, tol);
    if (o.z.empty()) {
      s.qdot = std::move(state.qdot);
      require_size(s.qdot, "--qdot", s.sys.n, "n");
    } else {
      const Vec<S>& z = state.z;
      require_size(z, "--z", s.sys.m, "m");
      s.qdot.resize(s.sys.n);
      s.sys.parametrization(s.q, z, s.qdot);
      if (!s.qdot.allFinite()) {
        // psi is singular at q: on one of the system's own singular sets
        // (named; their margins taken at zero velocity, psi having none),
        // or elsewhere; either way a singular state (exit 3).
        refuse_on_own_singular_set(Vec<S>::Zero(s.sys.n), "; psi(q, z) = " + to_string(s.qdot));
        throw SingularState("parametrization psi singular", "psi(q, z) is not finite: " + to_string(s.qdot) +
                                                                " at q = " + to_string(s.q) + ", z = " + to_string(z));
      }
    }
  }
  // On one of the system's own singular sets (a margin of exactly 0): said
  // by name here, before the admission's projection meets the singularity
  // under another name (e.g. a singular metric g).
  if (s.qdot.allFinite()) refuse_on_own_singular_set(s.qdot, ", qdot = " + to_string(s.qdot));
  s.qdot = admit_state(s.sys, s.q, s.qdot, tol);
  return s;
}

/// The --singular-margin of o, or `fallback` when not given; UsageError
/// when malformed or negative.
template <class S>
S singular_margin_option(const StateOptions& o, const S& fallback) {
  if (o.singular_margin.empty()) return fallback;
  const S margin = parse_number<S>("--singular-margin", o.singular_margin);
  if (!(margin >= 0)) throw UsageError("--singular-margin must be non-negative");
  return margin;
}

}  // namespace nhs::cli
