// A library formulation whose vector field is evaluated by its generated
// code (nhs/generated.hpp), for `nhs run --generated` and `nhs accel
// --generated`: the same state coordinates, the same equations, about 100x
// less time per field evaluation in double.
#pragma once

#include "nhs/formulation.hpp"
#include "nhs/generated.hpp"

#include <string>

namespace nhs::generated {

/// The formulation `library` ("second-kind" or "first-kind") of one study,
/// with field() and acceleration() from the generated function `field`.
/// Where a guard of the generated code fails (a singular or non-finite
/// state), the library's formulation is evaluated instead, so the error
/// raised is the library's SingularState with the offending values (or its
/// result, in the margin where the two regularity criteria differ:
/// codegen/guarded_ldlt.hpp). The state maps (to_state, from_state,
/// including the first kind's chart check) are the library's.
class GeneratedFormulation final : public Formulation<double> {
 public:
  /// Throws UsageError when `field` is not the generated form of `library`
  /// (their formulation names differ).
  GeneratedFormulation(const GeneratedField& field, const Formulation<double>& library);

  /// The library's name and " (generated)", e.g. "second-kind (generated)".
  std::string name() const override;
  std::string summary() const override;
  /// The library's reason, or why the generated code does not fit sys: it
  /// is another study, or other sizes (the N-trailer is generated for
  /// N = kNTrailerDefault only).
  std::string not_applicable_reason(const System<double>& sys) const override;
  /// qddot (and, for the second kind, lambda_a and R_i = lambda_a C^a_i)
  /// at (q, qdot) on C; the first kind takes z from the library's chart.
  Acceleration<double> acceleration(const System<double>& sys, const Vec<double>& q,
                                    const Vec<double>& qd) const override;
  Vec<double> to_state(const System<double>& sys, const Vec<double>& q,
                       const Vec<double>& qd) const override;
  void from_state(const System<double>& sys, const Vec<double>& x, Vec<double>& q,
                  Vec<double>& qd) const override;
  /// dx/dt: (qdot, qddot) for the second kind, (qdot, zdot) for the first.
  /// One heap allocation, the returned vector (test_allocations).
  Vec<double> field(const System<double>& sys, const Vec<double>& x) const override;

  const GeneratedField& generated() const { return field_; }

 private:
  bool second_kind() const;
  // out (field_.outputs values) of the generated function at (p, x);
  // false when a guard failed.
  bool evaluate(const System<double>& sys, const Vec<double>& x, double* out) const;
  const GeneratedField& field_;
  const Formulation<double>& library_;
};

/// The generated form of the formulation `library` for `study`; throws
/// UsageError naming the formulations that have one when there is none.
GeneratedFormulation make_generated_formulation(const std::string& study,
                                                const Formulation<double>& library);

}  // namespace nhs::generated
