// interrupt.hpp: the SIGINT flag of the long commands.
#include "interrupt.hpp"

#include <atomic>
#include <csignal>

#include <signal.h>

namespace nhs::cli {

namespace {

// Set by the handler, read by every worker thread of the command.
volatile std::sig_atomic_t g_interrupt = 0;

extern "C" void on_sigint(int) { g_interrupt = 1; }

}  // namespace

struct InterruptGuard::Saved {
  struct sigaction action {};
  bool installed = false;
};

bool interrupt_requested() {
  std::atomic_signal_fence(std::memory_order_acquire);
  return g_interrupt != 0;
}

InterruptGuard::InterruptGuard() : previous_(new Saved) {
  g_interrupt = 0;
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  previous_->installed = sigaction(SIGINT, &sa, &previous_->action) == 0;
}

InterruptGuard::~InterruptGuard() {
  if (previous_->installed) sigaction(SIGINT, &previous_->action, nullptr);
  delete previous_;
}

}  // namespace nhs::cli
