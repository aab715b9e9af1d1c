// A run's wall-clock budget (`nhs run --max-wall-time`, a sweep's
// `max_wall_time`): the tool itself ends a run that takes longer, as it ends
// one over its RHS budget (--max-rhs-calls): exit 4, the rows written so far
// kept. A test or a batch job can then tell a slow run from a hung one by
// the tool's own answer, not by a wall clock of its own.
#pragma once

#include "nhs/errors.hpp"
#include "nhs/scalar.hpp"
#include "nhs/session/clock.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>
#include <utility>

namespace nhs {

/// The error of a run over its wall-clock budget: an IntegrationFailure
/// (exit 4; a sweep's status "budget").
struct WallTimeExceeded : IntegrationFailure {
  using IntegrationFailure::IntegrationFailure;
};

/// A limit on the wall time of one run, measured from the end of its set-up
/// (plan_run, nhs/session/run_plan.hpp: the system is built and the initial state admitted before the
/// clock starts) and checked where the run can stop:
/// after every accepted step and every output sample (IntegrationOptions::
/// on_step, the sample observer). A step in progress is not interrupted, so
/// a run overshoots its limit by at most one step and one sample.
class WallBudget {
 public:
  /// No limit.
  WallBudget() = default;
  /// At most `seconds` (> 0, finite: checked by the caller's option
  /// parser), asked for by the input `name` (the tool's --max-wall-time).
  WallBudget(double seconds, std::string name) : limit_(seconds), name_(std::move(name)), start_(Clock::now()) {}

  /// Throws WallTimeExceeded naming the limit, the elapsed time and the
  /// motion time `t` reached when the limit has passed.
  template <class S>
  void check(const S& t) const {
    if (!limit_) return;
    const double elapsed = seconds_since(start_);
    if (elapsed > *limit_)
      throw WallTimeExceeded(fmt::format("wall-time budget of {} s ({}) exceeded after {:.1f} s, at "
                                         "t = {}; the rows before it are kept",
                                         *limit_, name_, elapsed, to_string<S>(t)));
  }
  bool limited() const { return limit_.has_value(); }

 private:
  std::optional<double> limit_;
  std::string name_;
  Clock::time_point start_{};
};

}  // namespace nhs
