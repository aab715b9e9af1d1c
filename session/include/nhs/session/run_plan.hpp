// A run: what `nhs run`, a sweep's case and the Python module's System.run
// integrate. RunSpec is the typed request (a problem, a special motion or
// not, the integration options, the budgets); plan_run checks it and builds
// the RunPlan (the problem, the integration options, the motion, the wall
// budget) that run_motion (nhs/studies/motion_run.hpp) integrates. The tool
// parses its options into a RunSpec (apps/nhs/run.cpp), the Python module
// converts its arguments into one (python/src/module.cpp).
#pragma once

#include "nhs/integrate.hpp"
#include "nhs/session/problem.hpp"
#include "nhs/session/wall_budget.hpp"
#include "nhs/stepper.hpp"
#include "nhs/studies/study.hpp"
#include "nhs/studies/verification.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace nhs {

/// How the messages of plan_run name the run's inputs (those of its
/// problem: ProblemSpec::names): the front end gives every name, session/
/// has none of its own. The tool passes its options (cli_run_names in
/// apps/nhs/names.hpp: --t-end, --dt-out, ...), the Python module its own.
struct RunNames {
  std::string t_end, dt_out, rtol, atol, step, motion, max_rows, max_wall_time;
};

/// The request for a run, typed.
template <class S>
struct RunSpec {
  /// The system, formulation, field, parameters and initial state. With a
  /// motion, no parameter and no state may be given (the motion's own).
  ProblemSpec<S> problem;
  /// A special motion of the study (or an [[exact]] motion of a file), by
  /// name or 1-based number (find_motion): its parameters, its initial
  /// state, its t_end unless t_end is given, and the error against its
  /// closed form. Empty: none.
  std::string motion;
  /// The end of the run; empty: 10, or the motion's t_end. > 0.
  std::optional<S> t_end;
  /// The spacing of the output samples (> 0).
  S dt_out = S(1) / S(10);
  /// Tolerances per step: rtol > 0 (empty: default_tolerance<S>), atol >= 0
  /// (empty: rtol).
  std::optional<S> rtol, atol;
  Stepper stepper = Stepper::automatic;
  /// The fixed step of dla, nh-rattle and nh-midpoint (> 0); empty: their
  /// default. Refused with an adaptive stepper.
  std::optional<S> step;
  /// The margin to a singular set within which the initial state is
  /// refused and the run stops (>= 0); empty: 1e-6.
  std::optional<S> singular_margin;
  bool project = false;  ///< IntegrationOptions::project
  /// The RHS budget (IntegrationOptions::max_rhs_calls); empty: its default.
  std::optional<std::uint64_t> max_rhs_calls;
  /// The most output rows (require_output_rows), checked before the system
  /// is built; empty: the library's IntegrationOptions::max_samples only.
  std::optional<std::uint64_t> max_rows;
  /// The wall-time budget in seconds (> 0, finite; WallBudget); empty: none.
  std::optional<double> max_wall_time;
  RunNames names;
};

/// A run, planned: the problem (system, formulation and field, admitted
/// initial state), the integration options, the special motion run (whose
/// closed form gives the "error" column) and the wall budget, whose clock
/// starts when plan_run returns. Whoever integrates the plan checks the
/// budget after every step and sample (WallBudget::check).
template <class S>
struct RunPlan {
  Problem<S> problem;
  IntegrationOptions<S> options;
  std::optional<SpecialMotion<S>> motion;
  WallBudget wall;
};

/// The special motion of `study` named `name`, or numbered `name` (1-based,
/// in the order `nhs list SYSTEM` prints them); UsageError (naming the
/// input `option`: the tool's --motion) listing them otherwise.
template <class S>
SpecialMotion<S> find_motion(const Study<S>& study, const std::string& name, const std::string& option);

/// UsageError "<motion> sets the parameters and the initial state: give
/// no <params>, <q>, <qdot>, <z> or <t> with it" (names: the tool's
/// --motion, --param, --q, ...) when a motion is asked for (`motion` not
/// empty) with parameters or a state given.
void refuse_state_with_motion(const std::string& motion, bool state_or_parameters_given, const RunNames& names,
                              const InputNames& state_names);

/// Checks the options of `spec` that need no system (exactly what
/// plan_run checks first): with a motion, no parameter or state given; t_end
/// (the given one; a motion's is checked by plan_run), dt_out and rtol
/// positive, atol and the singular margin non-negative, the grid within
/// max_rows, a step only for a fixed-step stepper and positive. Throws
/// UsageError naming the input (RunNames).
template <class S>
void require_run_options(const RunSpec<S>& spec);

/// The plan of `spec`: require_run_options; the motion's parameters,
/// initial state and t_end (find_motion); the problem (make_problem: a
/// built-in study's generated field by default where it has one); the
/// motion refused for a formulation it excludes; the initial state refused
/// within the singular margin (require_margins); the stepper's tolerance
/// floor and the output grid (validated_stepper). Throws UsageError naming
/// the input, or as make_problem and require_margins (SingularState) do.
/// Source: docs/cli.md, "run".
template <class S>
RunPlan<S> plan_run(const RunSpec<S>& spec);

/// What a run of `plan` is measured against (MotionFigures, MotionTable):
/// the study's invariants and energy declaration, the motion's closed
/// form when it runs one, and the power of the forces and reactions where
/// energy is not conserved (with reaction_multipliers'). The reference
/// refers to plan's system: plan must outlive it.
template <class S>
MotionReference<S> plan_reference(const RunPlan<S>& plan) {
  const Problem<S>& p = plan.problem;
  return motion_reference(*p.study, p.sys, plan.motion ? plan.motion->exact : std::function<State<S>(const S&)>(),
                          p.study->energy_is_conserved(p.sys) ? MultipliersAt<S>() : reaction_multipliers<S>(p.system));
}

/// How a run with `stepper` computes its motion, for its summary: the
/// formulation's name, or for the fixed-step steppers (which discretize
/// the principle itself, no formulation's field) "the discrete
/// Lagrange-d'Alembert principle".
inline std::string integrated_by(Stepper stepper, const std::string& formulation) {
  return is_discrete_stepper(stepper) ? std::string("the discrete Lagrange-d'Alembert principle") : formulation;
}

}  // namespace nhs
