// A library formulation whose vector field is evaluated by its generated
// code (nhs/generated.hpp), for `nhs run --generated` and `nhs accel
// --generated`: the same state coordinates, the same equations, in the same
// precision, at a small fraction of the cost per field evaluation.
#pragma once

#include "nhs/codegen/compile.hpp"
#include "nhs/codegen/trace.hpp"
#include "nhs/field_backend.hpp"
#include "nhs/formulation.hpp"
#include "nhs/generated.hpp"

#include <functional>
#include <memory>
#include <string>

namespace nhs::generated {

/// The formulation `library` ("second-kind", "first-kind" or
/// "gibbs-appell") of one study, with field() and acceleration() from the
/// generated function `field` (shapes: GeneratedField).
/// Where a guard of the generated code fails (a singular or non-finite
/// state), the library's formulation is evaluated instead, so the error
/// raised is the library's SingularState with the offending values (or its
/// result, in the margin where the two regularity criteria differ:
/// codegen/guarded_ldlt.hpp). The state maps (to_state, from_state,
/// including the first kind's chart check) are the library's.
template <class S>
class GeneratedFormulation final : public Formulation<S> {
 public:
  /// Throws UsageError when `field` is not the generated form of `library`
  /// (their formulation names differ).
  GeneratedFormulation(const GeneratedField<S>& field, const Formulation<S>& library);

  /// The same over a field evaluated by `evaluate` instead of
  /// field.evaluate (a traced graph run by codegen::Interpreter:
  /// make_traced_formulation; or compiled: make_compiled_formulation);
  /// `keep_alive` owns what `field`'s strings and `evaluate` refer to;
  /// `how` says which (name(), summary()): FieldBackend::traced or
  /// FieldBackend::compiled (UsageError for FieldBackend::library).
  GeneratedFormulation(const GeneratedField<S>& field,
                       std::function<int(const S*, const S*, S*)> evaluate,
                       std::shared_ptr<const void> keep_alive, const Formulation<S>& library,
                       FieldBackend how = FieldBackend::traced);

  /// The library's name and " (generated)", e.g. "second-kind (generated)",
  /// or " (traced)" for an interpreted field, " (compiled)" for a field
  /// compiled at run time.
  std::string name() const override;
  std::string summary() const override;
  /// The library's reason, or why the generated code does not fit sys: it
  /// is another study, or other sizes (the N-trailer is generated for
  /// N = kNTrailerDefault only).
  std::string not_applicable_reason(const System<S>& sys) const override;
  /// qddot (and, for the second kind, lambda_a and R_i = lambda_a C^a_i,
  /// + C_i for a non-ideal constraint)
  /// at (q, qdot) on C; the others take z from the library's chart.
  Acceleration<S> acceleration(const System<S>& sys, const Vec<S>& q,
                               const Vec<S>& qd) const override;
  /// The multipliers lambda_a (size r) at (q, qdot) on C of the second
  /// kind's generated code, without the reaction that acceleration() forms
  /// with an AD Jacobian of C: what the work-energy balance needs
  /// (power_of_forces_and_reactions, nhs/work_energy.hpp). The library's
  /// where a guard fails; empty for the first kind and Gibbs-Appell (no
  /// multipliers). Throws as acceleration().
  std::optional<Vec<S>> multipliers(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) const;
  /// The library's margins (Formulation::singular_margins): the same
  /// singular sets, watched by integrate the same way.
  std::vector<Margin<S>> singular_margins(const System<S>& sys, const Vec<S>& q,
                                          const Vec<S>& qd) const override {
    return library_.singular_margins(sys, q, qd);
  }
  Vec<S> to_state(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) const override;
  void from_state(const System<S>& sys, const Vec<S>& x, Vec<S>& q,
                  Vec<S>& qd) const override;
  /// dx/dt: (qdot, qddot) for the second kind, (qdot, zdot) for the first
  /// kind and Gibbs-Appell.
  /// One heap allocation, the returned vector (test_allocations).
  Vec<S> field(const System<S>& sys, const Vec<S>& x) const override;

  const GeneratedField<S>& generated() const { return field_; }
  /// generated, traced or compiled (never library).
  FieldBackend backend() const { return how_; }

 private:
  bool second_kind() const;
  // out (field_.outputs values) of the generated function at (p, x);
  // false when a guard failed.
  bool evaluate(const System<S>& sys, const Vec<S>& x, S* out) const;
  GeneratedField<S> field_;
  std::function<int(const S*, const S*, S*)> evaluate_;
  std::shared_ptr<const void> keep_alive_;
  const Formulation<S>& library_;
  FieldBackend how_;
};

/// The backend that evaluates f's field: a GeneratedFormulation's
/// (generated, traced or compiled), else FieldBackend::library.
template <class S>
FieldBackend field_backend_of(const Formulation<S>& f) {
  const auto* g = dynamic_cast<const GeneratedFormulation<S>*>(&f);
  return g ? g->backend() : FieldBackend::library;
}

/// The generated form of the formulation `library` for `study`; throws
/// UsageError naming the formulations that have one when there is none.
template <class S>
GeneratedFormulation<S> make_generated_formulation(const std::string& study,
                                                   const Formulation<S>& library);

/// The formulation `library` evaluated by an interpreter
/// (codegen::Interpreter, nhs/codegen/interpret.hpp) over `traced`, the
/// same formulation traced for the system (codegen::trace_formulation):
/// the fast path of systems known only at run time (system files). Throws
/// UsageError when `traced` is another formulation. Thread-safe (the
/// interpreter gives each concurrent evaluation its own registers).
template <class S>
GeneratedFormulation<S> make_traced_formulation(const codegen::TracedFormulation& traced,
                                                const Formulation<S>& library);

/// The formulation `library` evaluated by `traced` compiled to machine code
/// at run time (codegen::compile_function: the system's C++ compiler, a
/// cache on disk, dlopen; nhs/codegen/compile.hpp), for double and long
/// double only (codegen::has_compiled_field: not callable for the other
/// types). The same outputs, bit for bit, as make_traced_formulation's
/// interpreter, and the same fallback to the library on a failed guard.
/// Throws UsageError when `traced` is another formulation, or as
/// compile_function (no compiler, a failed compile, a library that cannot
/// be loaded). Thread-safe (the compiled code has no mutable state).
template <class S>
  requires codegen::has_compiled_field<S>
GeneratedFormulation<S> make_compiled_formulation(const codegen::TracedFormulation& traced,
                                                  const Formulation<S>& library);

#define NHS_GENERATED_FORMULATION_INSTANTIATE(EXTERN, S)                                  \
  EXTERN template class GeneratedFormulation<S>;                                         \
  EXTERN template GeneratedFormulation<S> make_generated_formulation<S>(const std::string&, \
                                                                        const Formulation<S>&); \
  EXTERN template GeneratedFormulation<S> make_traced_formulation<S>(                      \
      const codegen::TracedFormulation&, const Formulation<S>&);
#define NHS_EXTERN_GENERATED_FORMULATION_(S, NAME) NHS_GENERATED_FORMULATION_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_GENERATED_FORMULATION_)
#undef NHS_EXTERN_GENERATED_FORMULATION_
extern template GeneratedFormulation<double> make_compiled_formulation<double>(
    const codegen::TracedFormulation&, const Formulation<double>&);
extern template GeneratedFormulation<long double> make_compiled_formulation<long double>(
    const codegen::TracedFormulation&, const Formulation<long double>&);

}  // namespace nhs::generated
