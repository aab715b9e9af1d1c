// ctest-labels: unit
// The progress estimate of `nhs check` and `nhs verify` (apps/nhs/
// progress_estimate.hpp) on synthetic workloads, driven by a fake clock (no
// wall clock): seven tasks (formulations) of three runs each (two motions
// to t = 6, the default state to t = 20), their field's cost per call 1, 5
// or 10 units (10x apart) plus an overhead common to all, one task taking
// 1.2x the others' RHS calls per unit time, probes of the field alone off
// by up to 15% (a field call at the initial state is not a call inside a
// run), and a step size that shrinks along every run
// (RHS calls per unit time rising 4x from t = 0 to t_end; a run's first step
// takes 5x the calls of the others). Simulated step by
// step on one and on two workers (the first free worker takes the next
// task, as nhs::parallel_for does), with the expensive tasks queued first
// and last: after the first 10% of the work (CPU time), every estimate is
// within a factor 1.5 of the time actually left. Before any run has
// integrated time there is no estimate.
#include "progress_estimate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace nhs::cli {
namespace {

struct Workload {
  std::vector<double> cost;   ///< seconds per RHS call, per task
  std::vector<double> probe;  ///< the probe's seconds per call, per task
  std::vector<double> rate;   ///< the task's factor on the calls per unit time
};

const std::vector<RunsEstimate::Run> kRuns = {{"motion a", 6}, {"motion b", 6}, {"default state", 20}};
constexpr int kCallsPerStep = 12;

/// Calls per unit simulated time at t of a run to T: rising 4x (the step
/// shrinking 4x) along the run; 30 at t = 0 for the factor 1.
double calls_per_time(double factor, double t, double T) { return 30 * factor * (1 + 3 * t / T); }

struct Point {
  double now, work, estimate;
  double simulated;  ///< the simulated time integrated so far, over all runs
};

/// Simulates the workload on `workers` workers; returns the estimates with
/// the work done (CPU seconds) at each step, the total work and the end.
std::vector<Point> simulate(const Workload& w, unsigned workers, double& total_work, double& end) {
  double now = 0;
  std::vector<RunsEstimate::Task> tasks;
  for (std::size_t i = 0; i < w.cost.size(); ++i) tasks.push_back({w.probe[i], kRuns});
  RunsEstimate est(tasks, workers, [&now] { return now; });
  struct Worker {
    std::size_t task = 0, run = 0;
    double t = 0, next = 0;
    std::uint64_t calls = 0;
    bool busy = false;
  };
  std::vector<Worker> ws(workers);
  std::size_t queued = 0;
  double work = 0, simulated = 0;
  std::vector<Point> points;
  const auto start_task = [&](Worker& k) {
    k.busy = queued < tasks.size();
    if (!k.busy) return;
    k = Worker{queued++, 0, 0, now, 0, true};
    est.advance(k.task, 0, 0, 0);
  };
  for (Worker& k : ws) start_task(k);
  while (true) {
    auto it = std::min_element(ws.begin(), ws.end(), [](const Worker& a, const Worker& b) {
      return a.busy != b.busy ? a.busy : a.next < b.next;
    });
    if (!it->busy) break;
    Worker& k = *it;
    // One step from k.t: kCallsPerStep calls (the first step of a run 5
    // times that: a stepper's start), ending at k.next.
    const int calls = k.calls == 0 ? 5 * kCallsPerStep : kCallsPerStep;
    const double T = kRuns[k.run].t_end, step_cost = calls * w.cost[k.task];
    const double h = kCallsPerStep / calls_per_time(w.rate[k.task], k.t, T);
    now = k.next + step_cost;
    work += step_cost;
    k.next = now;
    simulated += std::min(T, k.t + h) - k.t;
    k.t = std::min(T, k.t + h);
    k.calls += calls;
    est.advance(k.task, k.run, k.t, k.calls);
    if (k.t >= T) {
      est.finish(k.task, k.run, k.calls);
      if (++k.run < kRuns.size()) {
        k.t = 0;
        k.calls = 0;
        est.advance(k.task, k.run, 0, 0);
      } else {
        start_task(k);
      }
    }
    points.push_back({now, work, est.seconds_left().value_or(-1), simulated});
  }
  total_work = work;
  end = now;
  return points;
}

/// The estimates after the first 10% of the work, within 1.5x of the truth.
void expect_honest(const Workload& w, unsigned workers, const std::string& what) {
  double total = 0, end = 0;
  const std::vector<Point> points = simulate(w, workers, total, end);
  ASSERT_GT(points.size(), 1000u) << what;
  double worst = 1;
  int checked = 0;
  for (const Point& p : points) {
    if (p.work < 0.1 * total || p.now >= end) continue;
    const double truth = end - p.now, ratio = p.estimate / truth;
    ASSERT_GT(p.estimate, 0) << what << " at " << p.now;
    worst = std::max({worst, ratio, 1 / ratio});
    EXPECT_LE(std::max(ratio, 1 / ratio), 1.5)
        << what << ": at " << p.now << " s (" << p.work / total << " of the work) estimate " << p.estimate
        << " s, truth " << truth << " s";
    ++checked;
  }
  EXPECT_GT(checked, 100) << what;
  std::printf("%s: worst estimate/truth %.3f over %d estimates\n", what.c_str(), worst, checked);
}

/// A run's call costs its field's call (1, 5 or 10 x 1e-4 s) plus an
/// overhead the same for every field (the stepper, the observers, the
/// work's power: 0.5e-4 s); the probe times the field's call alone, off by
/// up to 15% (another state than the runs').
Workload cheap_first() {
  const std::vector<double> field = {1e-4, 1e-4, 1e-4, 1e-3, 1e-3, 1e-3, 5e-4};
  const std::vector<double> off = {1.15, 0.9, 1.0, 0.85, 1.1, 1.15, 0.85};
  Workload w{{}, {}, {1, 1, 1, 1, 1, 1, 1.2}};
  for (std::size_t i = 0; i < field.size(); ++i) {
    w.cost.push_back(field[i] + 0.5e-4);
    w.probe.push_back(field[i] * off[i]);
  }
  return w;
}

Workload reversed(Workload w) {
  std::reverse(w.cost.begin(), w.cost.end());
  std::reverse(w.probe.begin(), w.probe.end());
  std::reverse(w.rate.begin(), w.rate.end());
  return w;
}

TEST(ProgressEstimate, WithinFactorOneAndAHalfAfterTenPercent) {
  for (unsigned workers : {1u, 2u}) {
    expect_honest(cheap_first(), workers, "cheap tasks first, " + std::to_string(workers) + " worker(s)");
    expect_honest(reversed(cheap_first()), workers,
                  "expensive tasks first, " + std::to_string(workers) + " worker(s)");
  }
}

// The estimate of simulated time alone (the elapsed time x time left / time
// done, the estimate before this one) fails the same bound on the same
// workload: the test can tell an honest estimate from the old one.
TEST(ProgressEstimate, SimulatedTimeAloneIsNotHonest) {
  double total = 0, end = 0;
  const std::vector<Point> points = simulate(cheap_first(), 1, total, end);
  double simulated_total = 0;
  for (const auto& r : kRuns) simulated_total += 7 * r.t_end;
  double worst = 1;
  for (const Point& p : points) {
    if (p.work < 0.1 * total || p.now >= end) continue;
    const double old = p.now / p.simulated * (simulated_total - p.simulated), truth = end - p.now;
    worst = std::max({worst, old / truth, truth / old});
  }
  EXPECT_GT(worst, 1.5);
}

TEST(ProgressEstimate, NoEstimateBeforeAnyTimeIsIntegrated) {
  double now = 0;
  RunsEstimate est({{1e-3, kRuns}, {0, kRuns}}, 2, [&now] { return now; });
  EXPECT_FALSE(est.seconds_left());
  est.advance(0, 0, 0, 0);
  now = 1;
  EXPECT_FALSE(est.seconds_left());
  est.advance(0, 0, 0.6, 120);  // 200 calls per unit time, 1/120 s per call
  const std::optional<double> left = est.seconds_left();
  ASSERT_TRUE(left);
  EXPECT_GT(*left, 0);
}

}  // namespace
}  // namespace nhs::cli
