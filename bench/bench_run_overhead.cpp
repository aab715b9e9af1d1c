// What a run costs around its field (issue 61, item 1): microseconds per
// RHS call inside a run of fixed length, its set-up (plan_run,
// plan_reference) timed apart, against the bare field's C++ loop
// (Formulation::field at the run's initial state), in one process.
//
//   cmake -S . -B build -DNHS_BUILD_BENCH=ON && cmake --build build --target bench_run_overhead
//   ./build/bench/bench_run_overhead [t_end] [repeats]
//
// Cases: the bundled Whipple bicycle (second kind; traced, the default, and
// compiled at run time) and the skate (second kind, generated), each with
// the default singular margin (1e-6: the singular-set watch on) and with
// none (the watch off), dt_out 0.1. Prints one line per case: field µs,
// run µs per RHS call, their ratio, RHS calls, steps, set-up ms. Medians
// of `repeats` rounds (default 5), interleaved.
#include "nhs/session/simulate.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Case {
  std::string label, system;
  std::optional<nhs::FieldBackend> field;
  double margin;  // singular margin; < 0: the default
};

struct Figures {
  std::vector<double> field_us, run_us, setup_ms;
  std::uint64_t rhs = 0, steps = 0;
};

// One round of case c: set-up, the run (timed apart) and the bare field.
void round(const Case& c, double t_end, Figures& out) {
  nhs::RunSpec<double> spec;
  spec.problem.system = c.system;
  spec.problem.formulation = "second-kind";
  spec.problem.field = c.field;
  spec.t_end = t_end;
  if (c.margin >= 0) spec.singular_margin = c.margin;
  const auto t0 = Clock::now();
  nhs::RunPlan<double> plan = nhs::plan_run<double>(spec);
  const nhs::MotionReference<double> reference = nhs::plan_reference(plan);
  out.setup_ms.push_back(1e3 * seconds_since(t0));
  const nhs::Problem<double>& p = plan.problem;
  const auto t1 = Clock::now();
  const nhs::MotionRun<double> run =
      nhs::run_motion<double>(p.sys, *p.formulation, nhs::State<double>{p.q, p.qdot}, plan.options, reference, {});
  const double wall = seconds_since(t1);
  if (run.error) std::rethrow_exception(run.error);
  out.rhs = run.figures.stats.rhs_calls;
  out.steps = run.figures.stats.steps;
  out.run_us.push_back(1e6 * wall / static_cast<double>(out.rhs));
  const nhs::Vec<double> x = p.formulation->to_state(p.sys, p.q, p.qdot);
  const int calls = static_cast<int>(std::max<std::uint64_t>(out.rhs, 1000));
  double sink = 0;
  const auto t2 = Clock::now();
  for (int k = 0; k < calls; ++k) sink += p.formulation->field(p.sys, x)[0];
  out.field_us.push_back(1e6 * seconds_since(t2) / calls);
  if (sink == 12345.678) std::puts("");
}

}  // namespace

int main(int argc, char** argv) {
  const double t_end = argc > 1 ? std::atof(argv[1]) : 5.0;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
  const std::vector<Case> cases = {
      {"bicycle traced", "whipple-bicycle", nhs::FieldBackend::traced, -1},
      {"bicycle traced, no watch", "whipple-bicycle", nhs::FieldBackend::traced, 0},
      {"bicycle compiled", "whipple-bicycle", nhs::FieldBackend::compiled, -1},
      {"bicycle compiled, no watch", "whipple-bicycle", nhs::FieldBackend::compiled, 0},
      {"skate generated", "skate", std::nullopt, -1},
      {"skate generated, no watch", "skate", std::nullopt, 0},
  };
  std::vector<Figures> figures(cases.size());
  for (int r = 0; r <= repeats; ++r)  // round 0: warm-up (caches, compilation), not kept
    for (std::size_t i = 0; i < cases.size(); ++i) {
      Figures f;
      round(cases[i], t_end, r == 0 ? f : figures[i]);
    }
  std::printf("t_end %g, dt_out 0.1, double, second kind, medians of %d rounds\n", t_end, repeats);
  std::printf("%-28s %10s %12s %7s %9s %7s %10s\n", "case", "field us", "run us/RHS", "ratio", "RHS", "steps",
              "set-up ms");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Figures& f = figures[i];
    const double fu = median(f.field_us), ru = median(f.run_us);
    std::printf("%-28s %10.3f %12.3f %7.2f %9llu %7llu %10.2f\n", cases[i].label.c_str(), fu, ru, ru / fu,
                static_cast<unsigned long long>(f.rhs), static_cast<unsigned long long>(f.steps),
                median(f.setup_ms));
  }
}
