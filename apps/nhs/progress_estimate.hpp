// The time left of a set of integrations (the runs of `nhs check` and
// `nhs verify`), estimated from the work done so far, not from simulated
// time alone: per run the RHS calls per unit of simulated time (with their
// trend along the run: a step size that shrinks), per task (a formulation:
// its runs one after another on one worker) the seconds per RHS call
// measured so far (before a task starts: its probe, the time of a few
// field calls, plus what a call in the started tasks' runs cost beyond
// their probes), and the tasks' queue over the workers (first free worker takes
// the next task, as nhs::parallel_for does). Header-only; driven by an
// injectable clock (tests/test_progress_estimate.cpp: a fake one). Not
// thread-safe: the caller serializes (CheckProgressLine locks a mutex).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nhs::cli {

/// The estimator of the time left (see the file's comment).
class RunsEstimate {
 public:
  /// Seconds on a monotone clock (any origin).
  using ClockFn = std::function<double()>;
  /// One planned run: its key (the same motion in every task has the same
  /// key) and the simulated time it integrates to (> 0).
  struct Run {
    std::string key;
    double t_end = 0;
  };
  /// One task: runs integrated one after another on one worker; probe:
  /// seconds of one call of its field measured before the runs (<= 0:
  /// unknown, the started tasks' mean cost per call is taken).
  struct Task {
    double probe = 0;
    std::vector<Run> runs;
  };

  /// tasks are queued in their order over `workers` (>= 1) workers.
  /// clock: now in seconds (default: the steady clock).
  RunsEstimate(std::vector<Task> tasks, unsigned workers, ClockFn clock = steady_seconds)
      : tasks_(std::move(tasks)), workers_(std::max(1u, workers)), clock_(std::move(clock)) {
    for (const Task& t : tasks_) state_.emplace_back(t.runs.size());
  }

  /// Run `run` of task `task` has reached simulated time t after `calls`
  /// RHS calls since its start (call it with t = 0, calls = 0 when the run
  /// starts; then after each step). Out-of-range indices are ignored.
  void advance(std::size_t task, std::size_t run, double t, std::uint64_t calls) {
    if (task >= tasks_.size() || run >= state_[task].size()) return;
    RunState& r = state_[task][run];
    const double now = clock_();
    if (!r.started) {
      r.started = true;
      r.start = now;
      r.history.push_back({0, 0});
    }
    if (r.first_t == 0 && t > 0) {
      r.first_t = t;
      r.first_calls = static_cast<double>(calls);
    }
    r.t = t;
    r.last_step = static_cast<double>(calls) - r.calls;
    r.calls = static_cast<double>(calls);
    r.seconds = now - r.start;
    const double spacing = tasks_[task].runs[run].t_end / 64;
    if (t - r.history.back().first >= spacing) r.history.push_back({t, r.calls});
  }
  /// Run `run` of task `task` has ended (reached its end, or failed).
  void finish(std::size_t task, std::size_t run, std::uint64_t calls) {
    if (task >= tasks_.size() || run >= state_[task].size()) return;
    RunState& r = state_[task][run];
    advance(task, run, r.t, calls);
    if (r.history.back().first < r.t) r.history.push_back({r.t, r.calls});
    r.done = true;
  }

  /// The seconds left until every task has ended; empty while no run has
  /// integrated any simulated time (nothing to extrapolate from).
  std::optional<double> seconds_left() const;

  /// The steady clock in seconds.
  static double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }

 private:
  struct RunState {
    bool started = false, done = false;
    double start = 0, t = 0, calls = 0, seconds = 0;
    double last_step = 0;  ///< the calls of the last step (the least a run not at its end still takes)
    /// The end of the first step and its calls: a stepper's start (an
    /// order search, a first step size) is left out of the rates.
    double first_t = 0, first_calls = 0;
    double steady_calls() const { return calls - first_calls; }
    double steady_t() const { return t - first_t; }
    std::vector<std::pair<double, double>> history;  ///< (t, calls), about t_end / 64 apart
  };
  /// Calls per unit of simulated time of key's runs outside task `skip` (0: none).
  double key_rate(const std::string& key, std::size_t skip) const;
  /// The calls of run r at simulated time t (its history, interpolated).
  static double calls_at(const RunState& r, double t);
  /// A finished run of `key` outside task `skip` (null: none).
  const RunState* reference(const std::string& key, std::size_t skip) const;
  /// Task i's calls against other tasks' on the same motions, over its
  /// runs but `skip` (1: none to compare).
  double task_factor(std::size_t i, std::size_t skip) const;
  /// The calls per unit time expected of run k of task i from the other runs.
  double prior_rate(std::size_t i, std::size_t k, double global_rate) const;
  /// RHS calls left in run k of task i.
  double calls_left(std::size_t i, std::size_t k, double global_rate) const;
  /// Seconds per RHS call of task i: measured, else its probe plus the
  /// overhead measured on the other tasks (at least half the probe), else
  /// the mean.
  double seconds_per_call(std::size_t i, double overhead, double mean) const;
  /// When the last task ends, given each task's seconds left.
  double makespan(const std::vector<double>& left) const;

  std::vector<Task> tasks_;
  unsigned workers_;
  ClockFn clock_;
  std::vector<std::vector<RunState>> state_;
};

inline double RunsEstimate::key_rate(const std::string& key, std::size_t skip) const {
  double calls = 0, t = 0;
  for (std::size_t i = 0; i < tasks_.size(); ++i)
    for (std::size_t k = 0; k < tasks_[i].runs.size(); ++k)
      if (i != skip && tasks_[i].runs[k].key == key && state_[i][k].steady_t() > 0) {
        calls += state_[i][k].steady_calls();
        t += state_[i][k].steady_t();
      }
  return t > 0 ? calls / t : 0;
}

inline double RunsEstimate::calls_at(const RunState& r, double t) {
  auto it = std::lower_bound(r.history.begin(), r.history.end(), std::make_pair(t, -1.0));
  if (it == r.history.end()) return r.calls;
  if (it == r.history.begin()) return it->second;
  const auto& [t1, c1] = *(it - 1);
  const auto& [t2, c2] = *it;
  return t2 > t1 ? c1 + (c2 - c1) * (t - t1) / (t2 - t1) : c2;
}

inline const RunsEstimate::RunState* RunsEstimate::reference(const std::string& key, std::size_t skip) const {
  for (std::size_t i = 0; i < tasks_.size(); ++i)
    for (std::size_t k = 0; k < tasks_[i].runs.size(); ++k)
      if (i != skip && tasks_[i].runs[k].key == key && state_[i][k].done && state_[i][k].calls > 0)
        return &state_[i][k];
  return nullptr;
}

inline double RunsEstimate::task_factor(std::size_t i, std::size_t skip) const {
  double mine = 0, theirs = 0;
  for (std::size_t j = 0; j < tasks_[i].runs.size(); ++j)
    if (j != skip && state_[i][j].t > 0)
      if (const RunState* other = reference(tasks_[i].runs[j].key, i)) {
        mine += state_[i][j].calls;
        theirs += calls_at(*other, state_[i][j].t);
      }
  return theirs > 0 ? mine / theirs : 1;
}

inline double RunsEstimate::prior_rate(std::size_t i, std::size_t k, double global_rate) const {
  if (const double rate = key_rate(tasks_[i].runs[k].key, i); rate > 0) return rate * task_factor(i, k);
  double calls = 0, t = 0;
  for (std::size_t j = 0; j < tasks_[i].runs.size(); ++j)
    if (j != k && state_[i][j].steady_t() > 0) {
      calls += state_[i][j].steady_calls();
      t += state_[i][j].steady_t();
    }
  return t > 0 ? calls / t : global_rate;
}

inline double RunsEstimate::calls_left(std::size_t i, std::size_t k, double global_rate) const {
  const RunState& r = state_[i][k];
  const double T = tasks_[i].runs[k].t_end, span = std::max(0.0, T - r.t);
  if (r.done) return 0;
  const RunState* ref = reference(tasks_[i].runs[k].key, i);
  if (r.t <= 0) return ref ? task_factor(i, k) * ref->calls : prior_rate(i, k, global_rate) * T;
  if (ref) {
    // The same motion done by another task: its calls from t on, scaled by
    // this run's calls against its own so far, trusted from 10% of the run
    // on (before, a step's calls, spent ahead of the time it reaches, make
    // the ratio large): until then blended with the task's other runs'.
    const double at = calls_at(*ref, r.t), w = std::min(1.0, 10 * r.t / T);
    const double factor = (1 - w) * task_factor(i, k) + w * (at > 0 ? r.calls / at : 1);
    return std::max(r.last_step, factor * std::max(0.0, ref->calls - at));
  }
  // The rate over [0, t/2] and over [t/2, t]; a rising rate (a shrinking
  // step) is extrapolated linearly, a falling one is not (the rate of
  // [t/2, t] is kept). Until half-way, blended with the prior rate.
  const double half = r.t / 2, calls_half = calls_at(r, half);
  const double r2 = (r.calls - calls_half) / half;
  const double r1 = half > r.first_t ? (calls_half - r.first_calls) / (half - r.first_t) : r2;
  const double slope = r.history.size() >= 4 ? std::max(0.0, (r2 - r1) / half) : 0.0;
  const double trend = (r2 + slope * half / 2) * span + slope * span * span / 2;
  const double w = std::min(1.0, 2 * r.t / T);
  return std::max(r.last_step, (1 - w) * prior_rate(i, k, global_rate) * span + w * trend);
}

inline double RunsEstimate::seconds_per_call(std::size_t i, double overhead, double mean) const {
  double calls = 0, seconds = 0;
  for (const RunState& r : state_[i]) {
    calls += r.calls;
    seconds += r.seconds;
  }
  if (calls > 0 && seconds > 0) return seconds / calls;
  const double probe = tasks_[i].probe;
  return probe > 0 ? std::max(probe + overhead, probe / 2) : mean;
}

inline double RunsEstimate::makespan(const std::vector<double>& left) const {
  // Workers: the started, unfinished tasks' ends, then free ones at 0; the
  // queued tasks go in order to the first free worker.
  std::vector<double> free_at;
  std::vector<std::size_t> queued;
  for (std::size_t i = 0; i < tasks_.size(); ++i) {
    const bool started = std::any_of(state_[i].begin(), state_[i].end(), [](const RunState& r) { return r.started; });
    const bool done = std::all_of(state_[i].begin(), state_[i].end(), [](const RunState& r) { return r.done; });
    if (done) continue;
    if (started)
      free_at.push_back(left[i]);
    else
      queued.push_back(i);
  }
  while (free_at.size() < workers_) free_at.push_back(0);
  for (std::size_t i : queued) {
    auto first = std::min_element(free_at.begin(), free_at.end());
    *first += left[i];
  }
  return free_at.empty() ? 0 : *std::max_element(free_at.begin(), free_at.end());
}

inline std::optional<double> RunsEstimate::seconds_left() const {
  // The measured runs: calls per unit time over all, what a call cost in a
  // run beyond its probe (overhead: the stepper, the observers, the work's
  // power; the same for every field) and on average (mean).
  double calls = 0, t = 0, seconds = 0, probed_calls = 0, beyond = 0;
  for (std::size_t i = 0; i < tasks_.size(); ++i)
    for (const RunState& r : state_[i]) {
      calls += r.calls;
      t += r.t;
      seconds += r.seconds;
      if (tasks_[i].probe > 0) {
        probed_calls += r.calls;
        beyond += r.seconds - r.calls * tasks_[i].probe;
      }
    }
  if (!(t > 0) || !(calls > 0)) return std::nullopt;
  const double overhead = probed_calls > 0 ? beyond / probed_calls : 0, mean = seconds / calls;
  std::vector<double> left(tasks_.size(), 0);
  for (std::size_t i = 0; i < tasks_.size(); ++i) {
    double c = 0;
    for (std::size_t k = 0; k < tasks_[i].runs.size(); ++k) c += calls_left(i, k, calls / t);
    left[i] = c * seconds_per_call(i, overhead, mean);
  }
  return makespan(left);
}

}  // namespace nhs::cli
