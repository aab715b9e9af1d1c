// The one run loop (nhs/studies/motion_run.hpp), instantiated for every
// scalar.
#include "nhs/studies/motion_run.hpp"

#include <string>
#include <utility>

namespace nhs {

template <class S>
MotionRun<S> run_motion(const System<S>& sys, const Formulation<S>& f, const State<S>& x0,
                        IntegrationOptions<S> options, const MotionReference<S>& reference,
                        const MotionObservers<S>& observers) {
  MotionFigures<S> figures(sys, reference);
  MotionCheck<S>& m = figures.figures();
  MotionRun<S> run;
  if (reference.power && !options.power) options.power = reference.power;  // the work W along the run
  if (observers.watch)
    options.on_step = [&, step = std::move(options.on_step)](const S& t, const IntegrationStats& stats) {
      if (step) step(t, stats);
      observers.watch(t);
    };
  try {
    integrate<S>(
        sys, f, x0.q, x0.qdot, options,
        [&](const Sample<S>& s) {
          if (observers.record) observers.record(s);
          figures.fold(s);
          if (observers.folded) observers.folded(s, m);
          if (observers.watch) observers.watch(s.t);
        },
        &m.stats);
  } catch (...) {
    run.error = std::current_exception();
    try {
      throw;
    } catch (const std::exception& e) {
      m.failure = "integration failed after " + std::to_string(m.samples) + " samples: " + e.what();
    } catch (...) {
    }
  }
  run.figures = std::move(m);
  return run;
}

#define NHS_MOTION_RUN_INSTANTIATE_(S, NAME)                                                                  \
  template MotionRun<S> run_motion<S>(const System<S>&, const Formulation<S>&, const State<S>&,              \
                                      IntegrationOptions<S>, const MotionReference<S>&,                      \
                                      const MotionObservers<S>&);
NHS_FOR_EACH_SCALAR(NHS_MOTION_RUN_INSTANTIATE_)
#undef NHS_MOTION_RUN_INSTANTIATE_

}  // namespace nhs
