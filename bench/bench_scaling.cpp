// Cost of one right-hand side (one `acceleration` call) against the size n of
// the system: the N-trailer (studies/n_trailer.cpp, n = N + 3, r = N + 1,
// m = 2) for N in {1, 2, 5, 10, 20, 50, 100}, formulations first-kind,
// second-kind and udwadia-kalaba (and gibbs-appell), in double, at a random regular state of
// the chart (fixed seed). The system and the state are built once per
// benchmark (fixture pattern); only the call is timed. The `part/...`
// benchmarks time the derived quantities one RHS is made of (inertia: g and
// Gamma by AD2 of T; constraint and parametrization Jacobians by AD1; the
// bodies' kinematics for gibbs-appell; the active force), to show where the
// time goes.
//
//   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DNHS_BUILD_BENCH=ON && cmake --build build -j2
//   ./build/bench/bench_scaling --benchmark_out=reports/bench/scaling.json --benchmark_out_format=json
//   /usr/bin/python3 bench/fit_scaling.py reports/bench/scaling.json   # fitted exponents
#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/gibbs_appell.hpp"
#include "nhs/studies/all.hpp"

#include <benchmark/benchmark.h>

#include <functional>
#include <memory>

namespace {

using S = double;

constexpr int kTrailers[] = {1, 2, 5, 10, 20, 50, 100};
// The three of the issue, and gibbs-appell for contrast: it never forms g or
// Gamma (its AD runs over the bodies' positions with one inner direction).
constexpr const char* kFormulations[] = {"first-kind", "second-kind", "udwadia-kalaba",
                                         "gibbs-appell"};

/// A built N-trailer system and one random regular state (seed fixed per N).
struct Fixture {
  nhs::System<S> sys;
  nhs::State<S> x;
  nhs::Vec<S> z;
  explicit Fixture(int N) {
    const nhs::Study<S> st = nhs::n_trailer_study<S>(N);
    sys = st.build(st.default_parameters());
    std::mt19937_64 rng(1000 + static_cast<unsigned>(N));
    x = st.random_state(sys, rng);
    z.resize(sys.m);
    sys.chart(x.q, x.qdot, z);
  }
};

/// The call under test, never inlined into the timing loop.
[[gnu::noinline]] nhs::Vec<S> rhs(const nhs::Formulation<S>& f, const Fixture& fx) {
  return f.acceleration(fx.sys, fx.x.q, fx.x.qdot).qddot;
}

void set_counters(benchmark::State& state, const Fixture& fx, int N) {
  state.counters["N"] = N;
  state.counters["n"] = fx.sys.n;
}

void register_benchmarks() {
  for (const char* fname : kFormulations)
    for (int N : kTrailers) {
      const std::string name = std::string("scaling/") + fname + "/N=" + std::to_string(N);
      benchmark::RegisterBenchmark(name.c_str(), [fname, N](benchmark::State& state) {
        const Fixture fx(N);
        const nhs::Formulation<S>& f = nhs::find_formulation<S>(fname);
        for (auto _ : state) benchmark::DoNotOptimize(rhs(f, fx));
        set_counters(state, fx, N);
      })->Unit(benchmark::kMicrosecond);
    }

  // The parts of one RHS (second kind: inertia, constraint Jacobians, active
  // force; first kind adds the parametrization Jacobians).
  using Part = std::function<void(const Fixture&)>;
  const std::vector<std::pair<std::string, Part>> parts = {
      {"inertia", [](const Fixture& fx) {
         benchmark::DoNotOptimize(nhs::inertia(fx.sys, fx.x.q, fx.x.qdot));
       }},
      {"constraint_jacobians", [](const Fixture& fx) {
         benchmark::DoNotOptimize(nhs::constraint_jacobians(fx.sys, fx.x.q, fx.x.qdot));
       }},
      {"parametrization_jacobians", [](const Fixture& fx) {
         benchmark::DoNotOptimize(nhs::parametrization_jacobians(fx.sys, fx.x.q, fx.z));
       }},
      {"body_kinematics", [](const Fixture& fx) {
         benchmark::DoNotOptimize(nhs::body_kinematics(fx.sys, fx.x.q, fx.x.qdot));
       }},
      {"active_force", [](const Fixture& fx) {
         benchmark::DoNotOptimize(nhs::active_force(fx.sys, fx.x.q, fx.x.qdot));
       }},
      {"kinetic_energy_value", [](const Fixture& fx) {
         benchmark::DoNotOptimize(fx.sys.kinetic_energy(fx.x.q, fx.x.qdot));
       }},
  };
  for (const auto& [pname, part] : parts)
    for (int N : kTrailers) {
      const std::string name = "part/" + pname + "/N=" + std::to_string(N);
      benchmark::RegisterBenchmark(name.c_str(), [part = part, N](benchmark::State& state) {
        const Fixture fx(N);
        for (auto _ : state) part(fx);
        set_counters(state, fx, N);
      })->Unit(benchmark::kMicrosecond);
    }
}

}  // namespace

int main(int argc, char** argv) {
  register_benchmarks();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
