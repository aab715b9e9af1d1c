// The verification of a study: the cross-check of its formulations at its
// random regular states, and the check of one integrated motion (max |C|,
// energy and invariant drift, error against an exact motion). What `nhs
// verify` / `nhs check` run for every study, formulation and precision, and
// what the tests run; the bounds are precision_policy<S>()
// (nhs/precision_policy.hpp), the per-state cross-check is
// cross_check_state (nhs/verification.hpp).
//
// Here, in nhs_studies, because it needs a Study (random_state,
// randomized_parameters, Invariant, SpecialMotion::exact), and nhs_studies
// links nhs, never the reverse; the per-state cross-check, which needs only
// a System, is in the library (nhs/verification.hpp) for users with a
// system of their own.
#pragma once

#include "nhs/errors.hpp"
#include "nhs/integrate.hpp"
#include "nhs/studies/study.hpp"
#include "nhs/verification.hpp"
#include "nhs/work_energy.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace nhs {

/// Draws `count` random states of study st from rng and calls body(k, sys,
/// x) for k = 0 .. count - 1: state k is at st's default parameters
/// (default_system, which must be st.build(st.default_parameters())) for
/// even k and at randomized_parameters(st, rng) for odd k, then x =
/// st.random_state(sys, rng), in that order (so that one seed names the
/// same states in `nhs verify` and the tests). When st.random_state throws
/// InvalidState (a system file's random state on a singular set of psi or
/// C): on_invalid(k, e) and the next k when on_invalid is set, else the
/// exception propagates. Throws UsageError when st has no random_state;
/// whatever body throws. The generator is the caller's: `nhs verify` seeds
/// one per study (20261122 + the study's index in its selection), the
/// tests one for every study in turn (random_states.hpp, 20261122); each
/// keeps the states it always drew.
template <class S>
void for_each_random_state(const Study<S>& st, const System<S>& default_system, std::mt19937_64& rng,
                           int count,
                           const std::function<void(int, const System<S>&, const State<S>&)>& body,
                           const std::function<void(int, const InvalidState&)>& on_invalid = {});

/// The cross-check figures of one formulation over random states.
template <class S>
struct RandomStateFigures {
  /// The largest qddot disagreement with the valid formulations
  /// (FormulationResult::disagreement) over the states; empty: none.
  std::optional<S> qddot;
  /// Where it is largest: with which formulation, at which state (k, and
  /// the state itself).
  std::string worst_with;
  int worst_state = -1;
  State<S> worst_at;
  /// The largest reaction/multiplier disagreement (compare_reactions);
  /// empty: none.
  std::optional<S> reaction;
};

/// A formulation that threw at a random state (not skipped as singular).
struct RandomStateError {
  int state = 0;                ///< k
  std::size_t formulation = 0;  ///< index in RandomStatesCheck::formulations
  std::string message;          ///< what()
};

/// cross_check_random_states: the figures per formulation and the count
/// of states.
template <class S>
struct RandomStatesCheck {
  std::vector<const Formulation<S>*> formulations;  ///< as given
  std::vector<RandomStateFigures<S>> figures;       ///< one per formulation, same order
  std::vector<RandomStateError> errors;             ///< by state, then formulation
  int states = 0;   ///< states asked for
  int skipped = 0;  ///< of them, skipped (skip_singular only)
};

/// The cross-check of `formulations` (applicable at st's default system;
/// negative controls included and reported, never a reference) at `count`
/// random states of st drawn from rng as for_each_random_state draws them:
/// at each, cross_check_state (negative controls included) and
/// compare_reactions, folded into the largest figure per formulation with
/// where it was reached. skip_singular (a system file, whose random states
/// are not designed regular): a state where st.random_state throws
/// InvalidState or some formulation throws SingularState is skipped and
/// counted; otherwise the former propagates and the latter is an error of
/// that formulation at that state. Throws what for_each_random_state and
/// compare_reactions throw. Source: `nhs verify` (docs/cli.md), check (1).
template <class S>
RandomStatesCheck<S> cross_check_random_states(const Study<S>& st, const System<S>& default_system,
                                               std::mt19937_64& rng, int count,
                                               const std::vector<const Formulation<S>*>& formulations,
                                               bool skip_singular);

/// What a motion is checked against: the quantities to follow and what is
/// known of them.
template <class S>
struct MotionReference {
  /// The study's invariants at the system (Study::invariants(sys)); the
  /// drift of the conserved ones is measured.
  std::vector<Invariant<S>> invariants;
  /// Whether T + V is declared a first integral (Study::energy_is_conserved).
  bool energy_conserved = true;
  /// The exact motion (q(t), qdot(t)), size n each; empty: none.
  std::function<State<S>(const S&)> exact;
  /// The power of the forces and reactions, (F + R) . qdot
  /// (power_of_forces_and_reactions, nhs/work_energy.hpp), where T + V is
  /// not declared a first integral (energy_conserved false); empty where it
  /// is (W = 0 there, and the energy drift says all). run_motion integrates its work W
  /// along the motion (IntegrationOptions::power) and MotionFigures folds
  /// the work-energy balance |E - E0 - W|.
  std::function<S(const Vec<S>&, const Vec<S>&)> power;
};

/// The study's reference for sys: its invariants (none when st has no
/// invariants function), energy_is_conserved, `exact` (e.g.
/// SpecialMotion::exact; empty for none), and the power of the forces and
/// reactions where energy is not declared conserved (a moving support, a
/// clock, a push, friction), with the multipliers of `multipliers` when
/// given (power_of_forces_and_reactions: the second kind's fast field,
/// reaction_multipliers in nhs/session/problem.hpp; used by one thread at a
/// time), else the KKT system's reaction; sys must outlive the reference
/// (its power refers to it). Throws what st.invariants throws.
template <class S>
MotionReference<S> motion_reference(const Study<S>& st, const System<S>& sys,
                                    std::function<State<S>(const S&)> exact = {},
                                    MultipliersAt<S> multipliers = {});

/// The drift of one invariant along a motion.
template <class S>
struct InvariantDrift {
  std::string name;
  bool conserved = true;    ///< Invariant::conserved (only those are held to a bound)
  S drift = S(0);           ///< max |I - I0|, I0 its first finite value
  S scale = S(0);           ///< max |I|
  std::uint64_t undefined = 0;  ///< samples where I is not finite (left out of drift and scale)
  /// |I - I0| at the last sample folded; empty where I is not finite there.
  std::optional<S> last_change;
};

/// The figures of one integrated motion (check_motion), over its samples.
template <class S>
struct MotionCheck {
  std::uint64_t samples = 0;  ///< samples folded
  S t_last = S(0);            ///< time of the last one
  S max_C = S(0);             ///< max over samples and a of |C^a|
  S last_C = S(0);            ///< max over a of |C^a| at the last sample folded
  S last_energy_error = S(0); ///< |E - E0| at the last sample folded
  S max_qdot2 = S(0);         ///< max |qdot|^2 (the scale of max_C)
  S E0 = S(0);                ///< the energy at the first sample
  S energy_drift = S(0);      ///< max |E - E0|, E = T + V
  S energy_scale = S(0);      ///< max |T| + |V|
  bool energy_declared = true;  ///< MotionReference::energy_conserved
  S nonconservative_power = S(0);  ///< max |(F + C) . qdot|: non-conservative forces F, non-ideal C
  /// Samples that carried the work W (Sample::work; MotionReference::power
  /// given and a continuous stepper). The balance figures are over them.
  std::uint64_t work_samples = 0;
  S balance_drift = S(0);     ///< max |E - E0 - W|, the work-energy balance (work_energy.hpp)
  S work_scale = S(0);        ///< max |W|
  bool exact = false;         ///< an exact motion was given
  S max_error = S(0);         ///< max-norm error over (q, qdot) against it
  S exact_scale = S(0);       ///< max-norm of its (q, qdot) over the samples
  std::vector<InvariantDrift<S>> invariants;  ///< one per MotionReference::invariants
  /// The smallest margin to a singular set over the samples
  /// (regularity_margins, nhs/singular_set.hpp) and its name; the name is
  /// empty when the system defines none.
  S min_margin = S(0);
  std::string min_margin_name;
  IntegrationStats stats;
  /// Empty: the motion reached t_end. Else "integration failed after <N>
  /// samples: <what>" or "no sample recorded".
  std::string failure;

  bool completed() const { return failure.empty(); }
  /// Energy is checked: declared a first integral and no non-conservative
  /// force did work at any sample.
  bool energy_checked() const { return energy_declared && nonconservative_power == S(0); }
  /// The bounds of `nhs verify`, each figure's bound b scaled as the
  /// integrators scale theirs (atol + rtol |x|): b (1 + exact_scale) for
  /// max_error, b (1 + energy_scale) for energy_drift, b (1 + max_qdot2)
  /// for max_C, b (1 + scale) for invariant k.
  S error_bound(const S& b) const { return b * (S(1) + exact_scale); }
  S energy_bound(const S& b) const { return b * (S(1) + energy_scale); }
  /// b (1 + energy_scale + work_scale) for balance_drift.
  S balance_bound(const S& b) const { return b * (S(1) + energy_scale + work_scale); }
  /// The work-energy balance was folded (some sample carried W).
  bool balance_checked() const { return work_samples > 0; }
  S constraint_bound(const S& b) const { return b * (S(1) + max_qdot2); }
  S invariant_bound(std::size_t k, const S& b) const { return b * (S(1) + invariants[k].scale); }
};

/// The figures of a motion folded sample by sample (MotionCheck, without
/// stats and failure): what check_motion reports and what `nhs run`
/// summarises. sys must outlive it.
template <class S>
class MotionFigures {
 public:
  MotionFigures(const System<S>& sys, MotionReference<S> reference);
  /// Folds sample s (q, qdot of size n): T + V, |C^a|, |qdot|^2, the
  /// invariants (a non-finite value is counted as undefined, not folded),
  /// the error against reference.exact, the power of the non-conservative
  /// forces, the work-energy balance E - E0 - s.work (when s carries the
  /// work) and the margins to the singular sets. Throws NonFiniteValue,
  /// naming the quantity, the time and the state, when the energy, a
  /// constraint residual or a margin is not finite; the sample is then not
  /// folded.
  void fold(const Sample<S>& s);
  const MotionCheck<S>& figures() const { return m_; }
  MotionCheck<S>& figures() { return m_; }

 private:
  const System<S>& sys_;
  MotionReference<S> ref_;
  MotionCheck<S> m_;
  std::vector<std::optional<S>> invariant0_;  ///< each invariant's first finite value
};

/// Integrates the motion of sys from x0 with formulation f and options
/// (integrate, nhs/integrate.hpp) and folds, at every output sample, the
/// figures of MotionCheck against `reference`. record(sample), when set, is
/// called first at each sample (the CLI writes its CSV row there): a
/// sample it throws at is not folded. An exception of the integration or
/// of record ends the motion: its message goes to `failure` with the
/// number of samples folded, never thrown. A non-finite energy or
/// constraint residual at a sample throws NonFiniteValue there (so it is a
/// failure too). Preconditions: x0 on C (integrate's; a failure
/// otherwise), reference.exact of size n. Source: `nhs verify` (2) and (3),
/// docs/cli.md.
template <class S>
MotionCheck<S> check_motion(const System<S>& sys, const Formulation<S>& f, const State<S>& x0,
                            const IntegrationOptions<S>& options, const MotionReference<S>& reference,
                            const std::function<void(const Sample<S>&)>& record = {});

}  // namespace nhs
