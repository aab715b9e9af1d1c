// One run, owned whole (nhs/session/simulate.hpp): planned, integrated,
// its end classified; instantiated for every scalar.
#include "nhs/session/simulate.hpp"

#include "nhs/session/wall_budget.hpp"

#include <utility>

namespace nhs {

template <class S>
ClassifiedError classify_run_error(const std::exception_ptr& error, const IntegrationStats& stats,
                                   const IntegrationOptions<S>& options) noexcept {
  ClassifiedError e = classify_error(error);
  if (e.category != ErrorCategory::integration_failure) return e;
  bool wall = false;
  try {
    std::rethrow_exception(error);
  } catch (const WallTimeExceeded&) {
    wall = true;
  } catch (...) {
  }
  if (wall || stats.rhs_calls > options.max_rhs_calls) e.category = ErrorCategory::budget;
  return e;
}

template <class S>
Simulation<S> simulate(const RunSpec<S>& spec, const RunObservers<S>& observers) {
  Simulation<S> out{.plan = plan_run<S>(spec), .figures = {}, .error = nullptr, .outcome = {}};
  RunPlan<S>& plan = out.plan;
  const MotionReference<S> reference = plan_reference(plan);
  if (observers.planned) observers.planned(plan, reference);
  if (observers.step) plan.options.on_step = observers.step;
  MotionObservers<S> motion = observers.motion;
  motion.watch = [&](const S& t) {
    if (observers.interrupt) observers.interrupt(t);
    plan.wall.check(t);
    if (observers.motion.watch) observers.motion.watch(t);
  };
  const Problem<S>& p = plan.problem;
  MotionRun<S> run = run_motion<S>(p.sys, *p.formulation, State<S>{p.q, p.qdot}, plan.options, reference, motion);
  out.figures = std::move(run.figures);
  out.error = run.error;
  if (out.error) out.outcome = classify_run_error<S>(out.error, out.figures.stats, plan.options);
  return out;
}

#define NHS_SIMULATE_INSTANTIATE_(S, NAME)                                                                     \
  template ClassifiedError classify_run_error<S>(const std::exception_ptr&, const IntegrationStats&,         \
                                                 const IntegrationOptions<S>&) noexcept;                     \
  template Simulation<S> simulate<S>(const RunSpec<S>&, const RunObservers<S>&);
NHS_FOR_EACH_SCALAR(NHS_SIMULATE_INSTANTIATE_)
#undef NHS_SIMULATE_INSTANTIATE_

}  // namespace nhs
