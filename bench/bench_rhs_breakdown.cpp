// Where the time of a generic acceleration goes: the pieces every
// formulation is assembled from, timed one by one in double at the study's
// default state (the state of bench_closed_form):
//   inertia                    g and Gamma(qdot, qdot) by nested AD (AD2) on T
//   constraint_jacobians       C, dC/dqdot, dC/dq by AD1
//   active_force               -dV/dq by AD1 (+ non-conservative force)
//   parametrization_jacobians  psi, dpsi/dz, dpsi/dq by AD1 (systems with psi)
//   require_full_rank          the JacobiSVD regularity check of dC/dqdot
//   factor_positive_definite   the LDLT of g with its pivot check
//   kinetic_energy_std_function T in double through System's std::function
//   state_context              the error-message context "at q = ..., qdot = ..."
//                              that second_kind builds eagerly (3 times a call)
//   second_kind_total          the whole second_kind(), for the sum
//
//   ./build/bench/bench_rhs_breakdown --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/regularity.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/studies/all.hpp"

#include <benchmark/benchmark.h>

#include <functional>
#include <string>

namespace {

using nhs::Vec;

void register_breakdown() {
  for (const nhs::Study<double>& st : nhs::studies<double>()) {
    const nhs::Study<double>* sp = &st;
    const auto add = [&](const std::string& piece,
                         std::function<void(const nhs::System<double>&, const Vec<double>&,
                                            const Vec<double>&, benchmark::State&)>
                             body) {
      benchmark::RegisterBenchmark(("piece/" + st.info.name + "/" + piece).c_str(),
                                   [sp, body](benchmark::State& state) {
                                     const nhs::System<double> sys =
                                         sp->build(sp->default_parameters());
                                     const nhs::State<double> x = sp->default_state(sys);
                                     body(sys, x.q, x.qdot, state);
                                   });
    };
    add("inertia", [](const auto& sys, const auto& q, const auto& qd, auto& state) {
      for (auto _ : state) benchmark::DoNotOptimize(nhs::inertia(sys, q, qd));
    });
    add("constraint_jacobians", [](const auto& sys, const auto& q, const auto& qd, auto& state) {
      for (auto _ : state) benchmark::DoNotOptimize(nhs::constraint_jacobians(sys, q, qd));
    });
    add("active_force", [](const auto& sys, const auto& q, const auto& qd, auto& state) {
      for (auto _ : state) benchmark::DoNotOptimize(nhs::active_force(sys, q, qd));
    });
    add("parametrization_jacobians",
        [](const auto& sys, const auto& q, const auto& qd, auto& state) {
          if (!sys.has_parametrization()) {
            state.SkipWithError("no psi");
            return;
          }
          Vec<double> z(sys.m);
          sys.chart(q, qd, z);
          for (auto _ : state) benchmark::DoNotOptimize(nhs::parametrization_jacobians(sys, q, z));
        });
    add("require_full_rank", [](const auto& sys, const auto& q, const auto& qd, auto& state) {
      const nhs::Mat<double> Cq = nhs::constraint_jacobians(sys, q, qd).C_qdot;
      for (auto _ : state) {
        nhs::require_full_rank<double>(Cq, "rank loss of dC/dqdot", [] { return std::string(); });
        benchmark::ClobberMemory();
      }
    });
    add("factor_positive_definite", [](const auto& sys, const auto& q, const auto& qd,
                                       auto& state) {
      const nhs::Mat<double> g = nhs::inertia(sys, q, qd).g;
      for (auto _ : state)
        benchmark::DoNotOptimize(nhs::factor_positive_definite<double>(g, "singular metric g", [] { return std::string(); }));
    });
    add("kinetic_energy_std_function",
        [](const auto& sys, const auto& q, const auto& qd, auto& state) {
          for (auto _ : state) benchmark::DoNotOptimize(sys.kinetic_energy(q, qd));
        });
    add("state_context", [](const auto& sys, const auto& q, const auto& qd, auto& state) {
      (void)sys;
      for (auto _ : state) benchmark::DoNotOptimize(nhs::state_context(q, qd));
    });
    add("second_kind_total", [](const auto& sys, const auto& q, const auto& qd, auto& state) {
      for (auto _ : state) benchmark::DoNotOptimize(nhs::second_kind(sys, q, qd));
    });
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_breakdown();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
