// Wall time of the long requests (a run, the checks of `nhs verify` and
// `nhs check`, a sweep): elapsed seconds for their summaries, progress and
// timings. Never a budget for a gate (docs/testing.md): the wall-time
// budget of a run is WallBudget (nhs/session/wall_budget.hpp).
#pragma once

#include <chrono>

namespace nhs {

/// The clock of every elapsed time in the session and above: steady, so
/// that a change of the system clock does not change a duration.
using Clock = std::chrono::steady_clock;

/// Seconds since t0, as a double.
inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace nhs
