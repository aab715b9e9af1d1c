// The problem of a ProblemSpec (nhs/session/problem.hpp), instantiated for
// every scalar.
#include "nhs/session/problem.hpp"

#include "nhs/codegen/trace.hpp"
#include "nhs/format.hpp"
#include "nhs/generated.hpp"
#include "nhs/generated_formulation.hpp"
#include "nhs/manifold.hpp"
#include "nhs/singular_set.hpp"
#include "nhs/studies/system_file.hpp"
#include "nhs/studies/traced.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <mutex>

namespace nhs {

template <class S>
std::vector<std::pair<std::string, S>> parameter_overrides(
    const Study<S>& study, const std::vector<std::pair<std::string, std::string>>& items) {
  std::vector<std::pair<std::string, S>> out;
  for (const auto& [name, text] : items)
    out.emplace_back(name, parameters_with<S>(study, {{name, text}})[parameter_index(study.info, name)]);
  return out;
}

template <class S>
std::string default_formulation_name(const std::string& system) {
  return find_study<S>(system).info.semidefinite_metric ? "udwadia-kalaba" : "second-kind";
}

template <class S>
std::shared_ptr<const Formulation<S>> default_field(const std::string& system, const Formulation<S>& library) {
  if (!is_system_file_name(system)) {
    if (generated::find_generated<S>(system, library.name()) == nullptr) return nullptr;
    return std::make_shared<generated::GeneratedFormulation<S>>(
        generated::make_generated_formulation<S>(system, library));
  }
  const auto& t = codegen::traceable_formulations();
  if (std::find(t.begin(), t.end(), library.name()) == t.end()) return nullptr;
  try {
    const auto traced = cached_trace_file_formulation(system, library.name());
    return std::make_shared<generated::GeneratedFormulation<S>>(
        generated::make_traced_formulation<S>(*traced, library));
  } catch (const NotApplicable&) {  // the library's says why (require_applicable)
  } catch (const codegen::TracingError&) {  // branches on the state (abs): the library's runs
  }
  return nullptr;
}

template <class S>
MultipliersAt<S> reaction_multipliers(const std::string& system) {
  const std::shared_ptr<const Formulation<S>> f = default_field<S>(system, find_formulation<S>("second-kind"));
  const auto* g = dynamic_cast<const generated::GeneratedFormulation<S>*>(f.get());
  if (!g) return {};
  return [f, g](const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) { return g->multipliers(sys, q, qd); };
}

template <class S>
std::shared_ptr<const Formulation<S>> requested_field(const std::string& system, const Formulation<S>& library,
                                                      FieldBackend b, const std::string& precision,
                                                      const InputNames& names) {
  const std::string& f = library.name();
  switch (b) {
    case FieldBackend::library: return nullptr;
    case FieldBackend::generated:
      if (is_system_file_name(system))
        throw UsageError(names.generated + ": a system file has no build-time generated code; its traced field "
                         "(second-kind, first-kind, gibbs-appell) is already the default, and " + names.compiled +
                         " compiles it (double, long-double)");
      return std::make_shared<generated::GeneratedFormulation<S>>(
          generated::make_generated_formulation<S>(system, library));
    case FieldBackend::traced:
    case FieldBackend::compiled: break;
  }
  const bool compiled = b == FieldBackend::compiled;
  const std::string option = compiled ? names.compiled : "the traced field";
  if (!is_system_file_name(system))
    throw UsageError(compiled ? names.compiled + " compiles a system file's traced field; the built-in study '" +
                                    system + "' has its field compiled with nhs: use " + names.generated
                              : "the traced field is a system file's; the built-in study '" + system +
                                    "' has generated code instead: use " + names.generated + " (field 'generated')");
  if (compiled && !codegen::has_compiled_field<S>)
    throw UsageError(names.compiled + " exists for the precisions double and long-double only, not '" + precision +
                     "' (without " + names.compiled + ", the traced field runs in every precision)");
  const auto& t = codegen::traceable_formulations();
  if (std::find(t.begin(), t.end(), f) == t.end())
    throw UsageError(option + ": formulation '" + f + "' has no traced field (traced: " + join(t) + ")");
  try {
    const auto traced = cached_trace_file_formulation(system, f);
    if constexpr (codegen::has_compiled_field<S>) {
      if (compiled)
        return std::make_shared<generated::GeneratedFormulation<S>>(
            generated::make_compiled_formulation<S>(*traced, library));
    }
    return std::make_shared<generated::GeneratedFormulation<S>>(generated::make_traced_formulation<S>(*traced, library));
  } catch (const NotApplicable&) {  // the library's says why (require_applicable)
    return nullptr;
  } catch (const codegen::TracingError& e) {
    throw UsageError(option + ": the " + f + " field of '" + system + "' cannot be traced (" + e.what() +
                     "); run with " + names.library +
                     " (the library's formulation)");
  }
}

void require_state_form(bool q, bool qdot, bool z, const SystemInfo& info, const InputNames& names) {
  if (z) {
    if (!q || qdot)
      throw UsageError(names.z + " needs " + names.q + " and replaces " + names.qdot + " (qdot = psi(q, z))");
    if (info.quasi_velocities.empty())
      throw UsageError("study '" + info.name + "' has no parametric representation psi(q, z): give " + names.qdot);
  } else if (q != qdot) {
    throw UsageError("give " + names.q + " with " + names.qdot + " or " + names.z +
                     ", or neither (for the study's default state)");
  }
}

namespace {

/// "a, b, c" for a message: at most 12 names, else the first 10, "...",
/// and the last (n-trailer-200 has 203 coordinates).
std::string names_text(const std::vector<std::string>& names) {
  if (names.size() <= 12) return join(names);
  return join(std::vector<std::string>(names.begin(), names.begin() + 10)) + ", ..., " + names.back();
}

}  // namespace

template <class S>
void require_input_size(const Vec<S>& v, const std::string& name, const SystemInfo& info,
                        const std::vector<std::string>& names, const char* dimension) {
  const auto size = static_cast<std::size_t>(v.size());
  const bool clock = info.clock_coordinate >= 0 && &names == &info.coordinates;
  if (size == names.size() || (clock && size + 1 == names.size())) return;
  throw UsageError(name + " has " + count_of(size, "value") + ", study '" + info.name + "' has " + dimension +
                   " = " + std::to_string(names.size()) + " (" + names_text(names) + ")" +
                   (clock ? ", or " + std::to_string(names.size() - 1) + " without its clock coordinate " +
                                names[static_cast<std::size_t>(info.clock_coordinate)]
                          : std::string()));
}

template <class S>
ProblemSpec<S> with_time(ProblemSpec<S> spec, const SystemInfo& info) {
  const int clock = info.clock_coordinate;
  const InputNames& names = spec.names;
  if (clock < 0) {
    if (spec.t)
      throw UsageError(names.t + ": study '" + info.name + "' does not depend on the time t (scleronomic: no "
                                 "clock coordinate), so a state has no time to set");
    return spec;
  }
  const auto n = static_cast<Eigen::Index>(info.coordinates.size());
  // v with `value` put in at the clock's index, when v leaves the clock out.
  const auto insert = [&](std::optional<Vec<S>>& v, const S& value) {
    if (!v || v->size() != n - 1) return false;
    Vec<S> out(n);
    out << v->head(clock), value, v->tail(n - 1 - clock);
    v = std::move(out);
    return true;
  };
  const bool q_without_clock = insert(spec.q, spec.t ? *spec.t : S(0));
  if (spec.q && spec.q->size() == n && !q_without_clock && spec.t)
    throw UsageError(names.t + " sets t, which " + names.q + " gives already as its clock coordinate " +
                     info.coordinates[static_cast<std::size_t>(clock)] + " (entry " + std::to_string(clock + 1) +
                     "): give " + names.q + " without it (" + std::to_string(n - 1) + " values) or leave out " +
                     names.t);
  insert(spec.qdot, S(1));
  return spec;
}

namespace {

/// p.q and p.qdot from spec (the study's default state when none is given):
/// q onto the holonomic constraints, qdot = psi(q, z) with z, refused on
/// one of the system's own singular sets, then admitted on C within tol
/// (admit_state: qdot projected onto C). p's system and formulation are
/// built. Throws as make_problem does.
template <class S>
void admit_initial_state(Problem<S>& p, const ProblemSpec<S>& spec, const S& tol) {
  const InputNames& names = spec.names;
  // The built system's shapes are the study's; checked again, cheaply, so
  // that nothing below can read outside a vector.
  const auto require_size = [&p](const Vec<S>& v, const std::string& name, int size, const char* dimension) {
    if (v.size() != size)
      throw UsageError(name + " has " + count_of(static_cast<std::size_t>(v.size()), "value") + ", study '" +
                       p.sys.info.name + "' has " + dimension + " = " + std::to_string(size));
  };
  if (spec.z && !p.sys.has_parametrization())
    throw UsageError("study '" + p.sys.info.name + "' has no parametric representation psi(q, z): give " +
                     names.qdot);
  // SingularState naming the first of the system's own singular sets
  // (System::singular_margins) that (q, qd) is on: a margin of 0 or NaN
  // (require_margins at threshold 0, without sigma_min(dC/dqdot), which is
  // the admission's to judge). velocity_text() gives the message's
  // velocity part, formatted only for a refusal (not on every admission).
  const auto refuse_on_own_singular_set = [&p](const Vec<S>& qd, const auto& velocity_text) {
    if (!p.sys.singular_margins) return;
    for (const Margin<S>& mg : p.sys.singular_margins(p.q, qd))
      if (!(mg.value > 0))
        throw SingularState(mg.condition, "the state is on a singular set: " + mg.condition + " (" + mg.name +
                                              " = " + to_string(mg.value) + " at q = " + to_string(p.q) +
                                              velocity_text() + ")");
  };
  if (!spec.q) {
    const State<S> st = p.study->default_state(p.sys);
    p.q = st.q;
    p.qdot = st.qdot;
    if (spec.t) p.q[p.sys.info.clock_coordinate] = *spec.t;  // with_time: a rheonomic system's
    // The default state at other parameters may fall where psi is singular
    // (e.g. a division by a parameter set to 0): a singular state, not a
    // malformed input.
    if (!p.q.allFinite() || !p.qdot.allFinite())
      throw SingularState("default state not finite",
                          "the default state is not finite at these parameters: q = " + to_string(p.q) +
                              ", qdot = " + to_string(p.qdot) + " (give " + names.q + " and " + names.qdot + ")");
  } else {
    p.q = *spec.q;
    require_size(p.q, names.q, p.sys.n, "n");
    // On the holonomic constraints (dependent coordinates solved for) before
    // the velocities are taken at q.
    if (p.study->holonomic) admit_holonomic<S>(*p.study->holonomic, p.sys, p.q, tol);
    if (!spec.z) {
      p.qdot = *spec.qdot;
      require_size(p.qdot, names.qdot, p.sys.n, "n");
    } else {
      const Vec<S>& z = *spec.z;
      require_size(z, names.z, p.sys.m, "m");
      p.qdot.resize(p.sys.n);
      p.sys.parametrization(p.q, z, p.qdot);
      if (!p.qdot.allFinite()) {
        // psi is singular at q: on one of the system's own singular sets
        // (named; their margins taken at zero velocity, psi having none),
        // or elsewhere; either way a singular state.
        refuse_on_own_singular_set(Vec<S>::Zero(p.sys.n), [&] { return "; psi(q, z) = " + to_string(p.qdot); });
        throw SingularState("parametrization psi singular", "psi(q, z) is not finite: " + to_string(p.qdot) +
                                                                " at q = " + to_string(p.q) + ", z = " + to_string(z));
      }
    }
  }
  // On one of the system's own singular sets (a margin of exactly 0): said
  // by name here, before the admission's projection meets the singularity
  // under another name (e.g. a singular metric g).
  if (p.qdot.allFinite()) refuse_on_own_singular_set(p.qdot, [&] { return ", qdot = " + to_string(p.qdot); });
  p.qdot = admit_state(p.sys, p.q, p.qdot, tol);
}

}  // namespace

template <class S>
ProblemSpec<S> checked_problem_request(const ProblemSpec<S>& given) {
  const Study<S>& study = find_study<S>(given.system);
  find_formulation<S>(given.formulation.empty() ? default_formulation_name<S>(given.system) : given.formulation);
  // The state's form and sizes, checked against the study's shapes before
  // anything is built or reads it.
  const SystemInfo& info = study.info;
  require_state_form(given.q.has_value(), given.qdot.has_value(), given.z.has_value(), info, given.names);
  ProblemSpec<S> spec = with_time(given, info);
  const InputNames& names = spec.names;
  if (spec.q) require_input_size(*spec.q, names.q, info, info.coordinates, "n");
  if (spec.qdot) require_input_size(*spec.qdot, names.qdot, info, info.coordinates, "n");
  if (spec.z) require_input_size(*spec.z, names.z, info, info.quasi_velocities, "m");
  if (spec.manifold_tol && !(*spec.manifold_tol >= 0)) throw UsageError(names.manifold_tol + " must be non-negative");
  return spec;
}

template <class S>
Problem<S> make_problem_model(const ProblemSpec<S>& spec) {
  Problem<S> p;
  p.system = spec.system;
  p.study = &find_study<S>(spec.system);
  p.formulation_name = spec.formulation.empty() ? default_formulation_name<S>(spec.system) : spec.formulation;
  p.formulation = &find_formulation<S>(p.formulation_name);
  // The field: the backend asked for, else the default (default_field);
  // the library's formulation stays behind it (its guards).
  p.names = spec.names;
  if (auto field = spec.field ? requested_field<S>(spec.system, *p.formulation, *spec.field, spec.precision, spec.names)
                              : default_field<S>(spec.system, *p.formulation)) {
    p.owned_formulation = std::move(field);
    p.formulation = p.owned_formulation.get();
  }
  p.field = generated::field_backend_of(*p.formulation);
  p.sys = p.study->build(parameters_with_values(*p.study, spec.parameters));
  p.formulation->require_applicable(p.sys);
  return p;
}

template <class S>
void admit_problem_state(Problem<S>& p, const ProblemSpec<S>& spec) {
  p.names = spec.names;
  admit_initial_state(p, spec, spec.manifold_tol ? *spec.manifold_tol : default_manifold_tolerance<S>());
}

namespace {

/// Whether a and b hold the same numbers, sign of zero included.
template <class S>
bool same_values(const Vec<S>& a, const Vec<S>& b) {
  if (a.size() != b.size()) return false;
  using std::signbit;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i]) || signbit(a[i]) != signbit(b[i])) return false;
  return true;
}

/// f, keeping its last arguments (q, qdot) and answer (share_state_derivations).
template <class S, class R>
std::function<R(const Vec<S>&, const Vec<S>&)> last_answer_kept(std::function<R(const Vec<S>&, const Vec<S>&)> f) {
  if (!f) return f;
  struct Kept {
    std::mutex mutex;
    std::optional<std::pair<Vec<S>, Vec<S>>> at;
    R answer;
  };
  return [f = std::move(f), kept = std::make_shared<Kept>()](const Vec<S>& q, const Vec<S>& qd) {
    const std::lock_guard<std::mutex> lock(kept->mutex);
    if (kept->at && same_values(kept->at->first, q) && same_values(kept->at->second, qd)) return kept->answer;
    kept->at.reset();  // until the answer is in (f may throw)
    kept->answer = f(q, qd);
    kept->at.emplace(q, qd);
    return kept->answer;
  };
}

}  // namespace

template <class S>
void share_state_derivations(Problem<S>& p) {
  auto& d = p.sys.derivations;
  d.inertia = last_answer_kept<S>(std::move(d.inertia));
  d.constraint_jacobians = last_answer_kept<S>(std::move(d.constraint_jacobians));
}

template <class S>
Problem<S> make_problem(const ProblemSpec<S>& given) {
  const ProblemSpec<S> spec = checked_problem_request(given);
  Problem<S> p = make_problem_model(spec);
  admit_problem_state(p, spec);
  return p;
}

#define NHS_SESSION_PROBLEM_INSTANTIATE_(S, NAME)                                                              \
  template std::vector<std::pair<std::string, S>> parameter_overrides<S>(                                    \
      const Study<S>&, const std::vector<std::pair<std::string, std::string>>&);                             \
  template std::string default_formulation_name<S>(const std::string&);                                      \
  template std::shared_ptr<const Formulation<S>> default_field<S>(const std::string&, const Formulation<S>&); \
  template MultipliersAt<S> reaction_multipliers<S>(const std::string&);                                      \
  template std::shared_ptr<const Formulation<S>> requested_field<S>(const std::string&, const Formulation<S>&, \
                                                                    FieldBackend, const std::string&,        \
                                                                    const InputNames&);                      \
  template ProblemSpec<S> with_time<S>(ProblemSpec<S>, const SystemInfo&);                                  \
  template void require_input_size<S>(const Vec<S>&, const std::string&, const SystemInfo&,                  \
                                      const std::vector<std::string>&, const char*);                         \
  template ProblemSpec<S> checked_problem_request<S>(const ProblemSpec<S>&);                                  \
  template Problem<S> make_problem_model<S>(const ProblemSpec<S>&);                                          \
  template void admit_problem_state<S>(Problem<S>&, const ProblemSpec<S>&);                                  \
  template void share_state_derivations<S>(Problem<S>&);                                                     \
  template Problem<S> make_problem<S>(const ProblemSpec<S>&);
NHS_FOR_EACH_SCALAR(NHS_SESSION_PROBLEM_INSTANTIATE_)
#undef NHS_SESSION_PROBLEM_INSTANTIATE_

}  // namespace nhs
