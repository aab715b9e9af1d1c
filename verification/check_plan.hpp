// The plan of a study's runs in `nhs verify` and `nhs check` (check.cpp),
// for the progress estimate (CheckProgress::runs_started,
// apps/nhs/progress_estimate.hpp): per formulation its runs (each special
// motion it is not excluded from, then the default state) with their end
// times, and the cost of one call of the field it integrates.
#pragma once

#include "nhs/verification/check.hpp"

#include "nhs/formulation.hpp"
#include "nhs/session/clock.hpp"
#include "nhs/session/figures.hpp"
#include "nhs/studies/study.hpp"
#include "nhs/studies/verification.hpp"

#include <algorithm>

namespace nhs {

/// Seconds per call of f.field at x0 (sys: the system of x0): the mean of
/// up to 64 calls within about 10 ms, after one untimed call (a field's
/// caches fill on its first use). 0 where the field throws at x0 (the runs
/// will say why), or for the negative control (not integrated).
template <class S>
double field_seconds_per_call(const System<S>& sys, const Formulation<S>& f, const State<S>& x0) {
  if (f.is_negative_control()) return 0;
  try {
    const Vec<S> x = f.to_state(sys, x0.q, x0.qdot);
    (void)f.field(sys, x);
    const auto t0 = Clock::now();
    int calls = 0;
    while (calls < 64 && (calls < 2 || seconds_since(t0) < 0.01)) {
      (void)f.field(sys, x);
      ++calls;
    }
    return seconds_since(t0) / calls;
  } catch (const std::exception&) {
    return 0;
  }
}

/// The runs of check_motions with formulation f in their order (each
/// special motion f is not excluded from, then the default state unless
/// excluded; none for the negative control), with their end times as
/// integrated (quick: cut at t = 2). The same motion has the same name in
/// every formulation's list.
template <class S>
std::vector<CheckPlannedRun> planned_runs(const CheckSpec& opts, const Study<S>& st, const Formulation<S>& f) {
  std::vector<CheckPlannedRun> runs;
  if (f.is_negative_control()) return runs;
  for (const SpecialMotion<S>& mo : st.special_motions())
    if (!mo.excluded.count(f.name()))
      runs.push_back({mo.name, opts.quick ? std::min(to_double(mo.t_end), 2.0) : to_double(mo.t_end)});
  if (!st.default_run_excluded.count(f.name())) runs.push_back({"default state", opts.quick ? 2.0 : 20.0});
  return runs;
}

/// The task of formulation f (integrating `field`, or f where null) for
/// the progress: its runs and, when `probe`, its field's cost per call at
/// st's default state of sys0.
template <class S>
CheckPlannedTask planned_task(const CheckSpec& opts, const Study<S>& st, const System<S>& sys0,
                              const Formulation<S>& f, const Formulation<S>* field, bool probe) {
  CheckPlannedTask task{f.name(), 0, planned_runs(opts, st, f)};
  if (probe && !task.runs.empty()) task.seconds_per_call = field_seconds_per_call(sys0, field ? *field : f, st.default_state(sys0));
  return task;
}

/// The order in which the tasks run (indices into tasks): on one worker
/// as given; on several, the longest first (seconds per call x simulated
/// time; unprobed ones last, in their order), so that the last tasks to
/// start are short ones. The runs and their figures are the same in any
/// order.
inline std::vector<std::size_t> task_order(const std::vector<CheckPlannedTask>& tasks, unsigned jobs) {
  std::vector<std::size_t> order(tasks.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (jobs <= 1) return order;
  const auto cost = [&](std::size_t i) {
    double t = 0;
    for (const CheckPlannedRun& r : tasks[i].runs) t += r.t_end;
    return tasks[i].seconds_per_call * t;
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return cost(a) > cost(b); });
  return order;
}

}  // namespace nhs
