// SIGINT in the long commands (`nhs run`, `nhs sweep`): the handler only
// sets a flag, which the command checks after every step and sample; it
// then stops with Interrupted (exit 130), keeping what it wrote.
#pragma once

namespace nhs::cli {

/// Whether SIGINT arrived since the innermost InterruptGuard was made.
bool interrupt_requested();

/// Installs the flag-setting SIGINT handler for its lifetime (clearing the
/// flag), then restores the previous action.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct Saved;
  Saved* previous_;
};

}  // namespace nhs::cli
