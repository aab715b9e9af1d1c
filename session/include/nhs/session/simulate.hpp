// One run, owned whole: what `nhs run`, a sweep's case and the Python
// module's System.run integrate. simulate plans the run (plan_run: the
// problem, the motion, the options, the wall-clock budget), builds what it
// is measured against (plan_reference), integrates it (run_motion) with the
// interrupt check and the wall-clock budget after every step and sample,
// and classifies how it ended by the one error table
// (nhs/session/error_table.hpp). A front end keeps only its observers:
// where the samples go (a CSV, a table, a sweep's row) and its progress.
#pragma once

#include "nhs/session/error_table.hpp"
#include "nhs/session/run_plan.hpp"
#include "nhs/studies/motion_run.hpp"

#include <exception>
#include <functional>

namespace nhs {

/// What a front end sees of a run (each may be empty).
template <class S>
struct RunObservers {
  /// Once the run is planned, before its first step: the plan and the
  /// reference the samples are measured against (MotionReference, which
  /// refers to plan's system; both live until simulate returns). Where a
  /// front end opens what the samples go to (the tool's CSV, Python's
  /// table); what it throws is thrown by simulate, as a refusal.
  std::function<void(const RunPlan<S>&, const MotionReference<S>&)> planned;
  /// After every step and every sample, first: throws to stop the run
  /// (the tool's SIGINT as Interrupted, Python's signals), the samples so
  /// far delivered. Empty: the run is not interruptible.
  std::function<void(const S& t)> interrupt;
  /// After every accepted step, with the integrator's counts so far
  /// (IntegrationOptions::on_step): a progress line's figures.
  std::function<void(const S& t, const IntegrationStats& stats)> step;
  /// The samples and the time (MotionObservers, nhs/studies/motion_run.hpp):
  /// record (each sample, first), folded (after its figures), watch (after
  /// every step and sample, after the interrupt and the wall budget: a
  /// progress line).
  MotionObservers<S> motion;
};

/// How a run ended: its plan, the figures over the samples folded
/// (MotionCheck, with the integrator's IntegrationStats), and when it did
/// not reach t_end, the error that ended it with its classification.
template <class S>
struct Simulation {
  RunPlan<S> plan;
  MotionCheck<S> figures;
  /// Null when the run reached t_end.
  std::exception_ptr error;
  /// The error table's row of `error` (classify_run_error: a run that
  /// stopped over its RHS or wall-time budget is ErrorCategory::budget);
  /// meaningful only when error is set.
  ClassifiedError outcome;
  bool completed() const { return !error; }
};

/// The classification of `error`, the error that ended a run planned with
/// `options` after `stats`: classify_error's, except that an
/// IntegrationFailure over the wall-time budget (WallTimeExceeded) or past
/// options.max_rhs_calls is ErrorCategory::budget. Never throws.
template <class S>
ClassifiedError classify_run_error(const std::exception_ptr& error, const IntegrationStats& stats,
                                   const IntegrationOptions<S>& options) noexcept;

/// Plans and integrates the run of `spec` (plan_run, plan_reference,
/// run_motion), calling `observers` as RunObservers says, and checking
/// after every step and sample first observers.interrupt, then the plan's
/// wall-clock budget (WallBudget: WallTimeExceeded). Throws what plan_run
/// throws (UsageError, InvalidState, SingularState: the request refused
/// before anything ran) and what observers.planned throws; what ends the
/// run after that (a failure of the integrator, a singular set reached, a
/// value not finite, the interrupt, the budgets, an observer's exception,
/// a refusal of the stepper before its first step) is returned in
/// Simulation::error, classified in Simulation::outcome. Source: docs/cli.md, "run".
template <class S>
Simulation<S> simulate(const RunSpec<S>& spec, const RunObservers<S>& observers);

}  // namespace nhs
