// Independent jobs on threads: `nhs verify` and the benchmark programs run
// their trajectories with it.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace nhs {

/// Calls body(i) for every i in [0, count), on min(jobs, count) threads that
/// take the next index as they free up (jobs <= 1: in order, on this
/// thread). A thread that cannot be created leaves its share to the others
/// (to this thread when none could be). The first exception a body throws
/// is rethrown here once every thread has stopped; the other indices still
/// run. The caller chooses jobs (e.g. std::thread::hardware_concurrency()).
template <class F>
void parallel_for(std::size_t count, unsigned jobs, const F& body) {
  if (jobs <= 1) {
    for (std::size_t i = 0; i < count; ++i) body(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::mutex error_mutex;
  std::exception_ptr error;
  const auto work = [&] {
    for (std::size_t i; (i = next++) < count;) {
      try {
        body(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
      }
    }
  };
  std::vector<std::thread> workers;
  const std::size_t threads = std::min<std::size_t>(jobs, count);
  for (std::size_t w = 0; w < threads; ++w) {
    try {
      workers.emplace_back(work);
    } catch (const std::system_error&) {
      break;
    }
  }
  if (workers.empty()) work();
  for (auto& w : workers) w.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace nhs
