// System.run (nhs._core): a motion integrated as `nhs run` integrates it
// (plan_run, then run_motion), its rows kept in memory for Python.
#pragma once

#include "requests.hpp"

#include "nhs/session/output_budget.hpp"

#include <cstdint>

namespace nhs::python {

/// The most rows System.run keeps by default (its max_rows=): a run's rows
/// are all in memory, so that a fine grid (dt_out = 1e-9 to t = 0.5: 5e8
/// rows) is refused up front rather than growing until the system kills the
/// process. The budget of `nhs run` (kMaxOutputRows, 10 million rows:
/// 0.96 GB for a system of 12 columns in double, row_bytes).
inline constexpr std::uint64_t kMaxRunRows = kMaxOutputRows;

/// The motion of `in` as {columns, data, summary}: data a 2-D NumPy array
/// (float64 or np.longdouble, NaN where an invariant is undefined) or,
/// above long double, a list of rows of decimal strings ("" where
/// undefined); summary the run's figures, its stepper and counts, and how
/// it ended (failure_kind "", "integration" or "singular", with the
/// condition: the caller raises). At most max_rows rows: a grid of more
/// (t_end / dt_out + 1) is UsageError before any step. The GIL is released
/// while it runs; Python's signals are checked every 20 ms
/// (KeyboardInterrupt).
py::dict run_system(const RunInput& in, std::uint64_t max_rows);

/// The motion of `in` drawn as an animation folder (Run.animate;
/// nhs/session/animation.hpp, animate_run: the folder `nhs animate` writes
/// for the same run, its dt_out 1 / fps). `request` holds path (str), fps
/// (a number), three (str: three.js r111's directory) and command (str: what
/// data.js records). Returns {path (absolute), samples, t_last, bodies,
/// contacts, stopped ("" when the run completed, else the reason it stopped,
/// which the page shows)}. UsageError before any step for a bad path, fps or
/// three, a system without bodies, or more than kMaxAnimationItems
/// body-samples; IOError when the folder cannot be written;
/// KeyboardInterrupt after the folder of what was integrated is written.
py::dict animate_system(const RunInput& in, const std::string& system, const py::dict& request);

}  // namespace nhs::python
