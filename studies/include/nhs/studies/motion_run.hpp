// One motion, integrated and measured: the one run loop of nhs. `nhs run`
// (its CSV rows and progress line), `nhs check` and `nhs verify`
// (check_motion), a sweep's case (its row and series) and the Python
// module's System.run (its kept rows) all integrate through run_motion;
// they differ only in what they do at each sample and step
// (MotionObservers), and each reads the same figures (MotionCheck).
#pragma once

#include "nhs/formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/studies/verification.hpp"
#include "nhs/system.hpp"

#include <exception>
#include <functional>

namespace nhs {

/// What watches a motion while run_motion integrates it; every member may
/// be empty. Whatever one throws ends the motion (run_motion returns it as
/// MotionRun::error), so an interruption or a budget is a watch that throws.
template <class S>
struct MotionObservers {
  /// At every output sample, first (a CSV row, a row kept in memory): a
  /// sample it throws at is neither folded nor counted.
  std::function<void(const Sample<S>&)> record;
  /// At every output sample, after it was folded into the figures (size n
  /// vectors in the sample): a sweep's series line, the last state.
  std::function<void(const Sample<S>&, const MotionCheck<S>&)> folded;
  /// After every accepted step and after every output sample, with its
  /// time: an interruption, a wall-time budget, a progress line.
  std::function<void(const S&)> watch;
};

/// How a motion ended: its figures (MotionCheck, with the integrator's
/// IntegrationStats) and, when it did not reach t_end, the exception that
/// ended it: the integrator's (IntegrationFailure, SingularState,
/// NonFiniteValue, InvalidState, UsageError before the first step), a
/// sample's figures' (NonFiniteValue) or an observer's. Classify it with
/// classify_error (the error table, nhs/session/error_table.hpp, a layer
/// above) or rethrow it; simulate (nhs/session/simulate.hpp) does.
template <class S>
struct MotionRun {
  /// The figures of the samples folded; `failure` is "integration failed
  /// after <N> samples: <what>" when error holds a std::exception.
  MotionCheck<S> figures;
  std::exception_ptr error;
  bool completed() const { return !error; }
};

/// Integrates the motion of sys from x0 = (q, qdot), each of size n, with
/// formulation f (integrate, nhs/integrate.hpp) under `options` (its
/// on_step, when set, is called after every step before observers.watch),
/// and at every output sample
/// calls observers.record, folds the figures against `reference`
/// (MotionFigures) and calls observers.folded, then observers.watch. With
/// reference.power (and no options.power of the caller's), the steppers
/// carry the work W of the forces and reactions (IntegrationOptions::power)
/// and the figures fold the work-energy balance.
/// Never throws what the motion throws: see MotionRun::error (only memory
/// exhausted while setting up propagates). Preconditions: integrate's
/// (x0 on C, options checked by it), reference.exact of size n when given;
/// sys and f outlive the call. Source: the run of docs/cli.md ("nhs run"),
/// the motion checks of "nhs verify" (2) and (3).
template <class S>
MotionRun<S> run_motion(const System<S>& sys, const Formulation<S>& f, const State<S>& x0,
                        IntegrationOptions<S> options, const MotionReference<S>& reference,
                        const MotionObservers<S>& observers = {});

}  // namespace nhs
