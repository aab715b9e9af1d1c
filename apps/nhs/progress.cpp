// progress.hpp: the progress line of the long commands.
#include "progress.hpp"

#include <fmt/core.h>

#include <cstdio>

#include <unistd.h>

namespace nhs::cli {

ProgressLine::ProgressLine(std::string prefix, bool quiet)
    : prefix_(std::move(prefix)), t0_(Clock::now()), quiet_(quiet), tty_(isatty(STDERR_FILENO) != 0),
      due_(tty_ ? 0.5 : 10.0) {}

void ProgressLine::emit(const std::string& what, double done, double left) {
  emit_line(what, done > 0 ? std::optional<double>(elapsed() / done * (left > 0 ? left : 0)) : std::nullopt);
}

void ProgressLine::emit_line(const std::string& what, std::optional<double> left) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const double el = elapsed();
  if (el < due_.load()) return;  // another thread printed it
  due_.store(el + (tty_ ? 0.25 : 10.0));
  const std::string estimate =
      left ? "about " + duration_text(*left > 0 ? *left : 0) + " left" : std::string("time left unknown");
  const std::string line = fmt::format("{}: {}, {} elapsed, {}", prefix_, what, duration_text(el), estimate);
  if (tty_) {
    shown_ = true;
    fmt::print(stderr, "\r{}\033[K", line);
  } else {
    fmt::print(stderr, "{}\n", line);
  }
  std::fflush(stderr);
}

void ProgressLine::print(const std::string& line) {
  if (quiet_) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  clear_locked();
  fmt::print(stderr, "{}\n", line);
  std::fflush(stderr);
}

void ProgressLine::clear() {
  const std::lock_guard<std::mutex> lock(mutex_);
  clear_locked();
}

void ProgressLine::clear_locked() {
  if (!shown_) return;
  fmt::print(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace nhs::cli
