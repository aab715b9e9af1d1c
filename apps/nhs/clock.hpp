// Wall time of the long commands (`run`, `verify`, `sweep`): elapsed
// seconds for their summaries and progress lines.
#pragma once

#include <chrono>
#include <string>

namespace nhs::cli {

using Clock = std::chrono::steady_clock;

/// Seconds since t0.
inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// s seconds for people: "12.3 s", "3 min 05 s", "2 h 07 min".
std::string duration_text(double s);

}  // namespace nhs::cli
