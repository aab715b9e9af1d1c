// The common interface of the formulations, and their registry by name.
// Every formulation gives, at a state (q, qdot) on C, the accelerations
// qddot; that common output is what every comparison uses. For integration
// each formulation chooses its own state coordinates x (e.g. (q, z) for the
// first kind, (q, qdot) for the second).
#pragma once

#include "nhs/system.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nhs {

/// Accelerations at a state, with the multipliers lambda_a (size r) and the
/// Lagrangian reactive forces R_i (size n) where the formulation defines them.
/// R_i is the total constraint force, g qddot + Gamma minus the applied
/// force (applied_force): R_i = lambda_a dC^a/dqdot^i + C_i, C_i the
/// non-ideal constraint force (System::nonideal_constraint_force; 0 for
/// ideal constraints). lambda_a are the ideal part's multipliers, the same
/// in every formulation (docs/numerics.md, non-ideal constraints).
template <class S>
struct Acceleration {
  Vec<S> qddot;
  std::optional<Vec<S>> multipliers;
  std::optional<Vec<S>> reaction;
};

template <class S>
class Formulation {
 public:
  virtual ~Formulation() = default;
  /// Command-line name, e.g. "first-kind".
  virtual std::string name() const = 0;
  /// One line for `nhs list`, with the seed source.
  virtual std::string summary() const = 0;
  /// True for a deliberately wrong procedure kept as a negative control
  /// (naive-reduced, 002 eq. 6): comparisons report it apart and expect it
  /// to disagree; it is never one of the formulations that must agree.
  virtual bool is_negative_control() const { return false; }
  /// True when the field's round-off grows with the speed rather than
  /// staying a few eps of its size: Voronec's equations (and the naive
  /// reduced procedure built the same way) give ~5 eps v^2 in an
  /// acceleration that is exactly 0 on a straight motion
  /// (reports/README.md, "Voronec's round-off grows with speed").
  /// integrate's `auto` keeps dopri5 for such a field in double and long
  /// double (default_stepper, nhs/stepper.hpp): Verner's weights amplify
  /// the field's noise (sum |b_i| = 60, sum |e_i| = 57, against dopri5's
  /// 1.6 and 0.16), and on the skate's straight motion to t = 20 verner87
  /// took 13.6k RHS calls to an error of 4.7e-9 where dopri5 took 5 steps.
  virtual bool round_off_grows_with_speed() const { return false; }
  /// Empty when the formulation applies to sys; otherwise why it does not.
  virtual std::string not_applicable_reason(const System<S>& sys) const {
    (void)sys;
    return {};
  }
  /// Throws NotApplicable with the reason when it does not apply.
  void require_applicable(const System<S>& sys) const {
    const std::string why = not_applicable_reason(sys);
    if (!why.empty())
      throw NotApplicable("formulation '" + name() + "' does not apply to '" + sys.info.name +
                          "': " + why);
  }
  /// qddot at (q, qdot) on C (both size n). Throws SingularState/InvalidState.
  virtual Acceleration<S> acceleration(const System<S>& sys, const Vec<S>& q,
                                       const Vec<S>& qd) const = 0;
  /// The margins of (q, qdot) (size n each, on C) to the singular sets of
  /// this formulation's own construction, beyond the system's
  /// (regularity_margins, singular_set.hpp): each >= 0, 0 on its set,
  /// dimensionless where it can be, with the condition its field raises
  /// there (SingularState). integrate watches them with the system's, at
  /// the same threshold (IntegrationOptions::singular_margin). Empty (the
  /// default) for a formulation singular only where the system is; Voronec
  /// and the naive reduced procedure give the conditioning of their
  /// velocity split (split_margin, voronec.hpp). Throws only what the
  /// system's functions throw (NotApplicable when f does not apply).
  virtual std::vector<Margin<S>> singular_margins(const System<S>& sys, const Vec<S>& q,
                                                  const Vec<S>& qd) const {
    (void)sys;
    (void)q;
    (void)qd;
    return {};
  }

  /// Integration coordinates x of the state (q, qdot) on C.
  virtual Vec<S> to_state(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) const {
    Vec<S> x(2 * sys.n);
    x << q, qd;
    return x;
  }
  /// (q, qdot) from the integration coordinates x.
  virtual void from_state(const System<S>& sys, const Vec<S>& x, Vec<S>& q, Vec<S>& qd) const {
    q = x.head(sys.n);
    qd = x.tail(sys.n);
  }
  /// dx/dt, the formulation's vector field (size of x).
  virtual Vec<S> field(const System<S>& sys, const Vec<S>& x) const {
    Vec<S> q, qd;
    from_state(sys, x, q, qd);
    // Evaluated before the comma initializer: an exception thrown inside
    // one trips Eigen's "too few coefficients" assertion as it unwinds.
    const Vec<S> qdd = acceleration(sys, q, qd).qddot;
    Vec<S> dx(x.size());
    dx << qd, qdd;
    return dx;
  }
};

/// All formulations, in the order `nhs list` shows them.
template <class S>
const std::vector<std::unique_ptr<const Formulation<S>>>& formulations();

/// The formulation with this name; UsageError listing the known names otherwise.
template <class S>
const Formulation<S>& find_formulation(const std::string& name);

#define NHS_FORMULATION_INSTANTIATE(EXTERN, S)                                      \
  EXTERN template const std::vector<std::unique_ptr<const Formulation<S>>>&       \
  formulations<S>();                                                                \
  EXTERN template const Formulation<S>& find_formulation<S>(const std::string&);
#define NHS_EXTERN_FORMULATION_(S, NAME) NHS_FORMULATION_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_FORMULATION_)
#undef NHS_EXTERN_FORMULATION_

}  // namespace nhs
