// The progress line of the long commands (`sweep`, `check`, `verify`) on
// stderr, with the time elapsed and an estimate of the time left: on a
// terminal one line rewritten in place (every 0.25 s, from 0.5 s on),
// otherwise one line every 10 s (a command that ends sooner prints none).
#pragma once

#include "clock.hpp"

#include <atomic>
#include <mutex>
#include <optional>
#include <string>

namespace nhs::cli {

/// One progress line; thread-safe (its methods lock one mutex of its own).
class ProgressLine {
 public:
  /// prefix: the line's start, e.g. "nhs sweep". quiet: print nothing.
  explicit ProgressLine(std::string prefix, bool quiet = false);
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// Prints "<prefix>: <what()>, <elapsed> elapsed, about <left> left" when
  /// a line is due (see the file's comment; what() is called only then).
  /// The time left is the time since construction x left / done, in any
  /// unit of work (cases, integrated time) done since construction and
  /// still to do; "time left unknown" while done is 0. Cheap when no line
  /// is due (one clock reading, no lock): callable after every step.
  template <class What>
  void tick(const What& what, double done, double left) {
    if (!quiet_ && elapsed() >= due_.load(std::memory_order_relaxed)) emit(what(), done, left);
  }
  /// As tick, with the time left given by left() in seconds (empty:
  /// "time left unknown"), called only when a line is due: an estimate
  /// from the work done so far (progress_estimate.hpp).
  template <class What, class Left>
  void tick_estimate(const What& what, const Left& left) {
    if (!quiet_ && elapsed() >= due_.load(std::memory_order_relaxed)) emit_line(what(), left());
  }
  /// Prints `line` and a newline on stderr, the line rewritten in place
  /// cleared first (the next tick draws it again).
  void print(const std::string& line);
  /// Clears the line rewritten in place, if one is shown.
  void clear();
  /// Seconds since construction.
  double elapsed() const { return seconds_since(t0_); }

 private:
  void emit(const std::string& what, double done, double left);
  /// Prints the line with `left` seconds left (empty: unknown) when due.
  void emit_line(const std::string& what, std::optional<double> left);
  void clear_locked();
  std::mutex mutex_;
  std::string prefix_;
  Clock::time_point t0_;
  bool quiet_, tty_, shown_ = false;
  std::atomic<double> due_;  ///< the elapsed time at which the next line is due
};

}  // namespace nhs::cli
