// Cost of one acceleration evaluation (the vector field's core) for every
// study x formulation x precision, at the study's default state. The system
// is built once per benchmark (fixture pattern); only the call is timed.
//
//   cmake --preset bench && cmake --build --preset bench
//   ./build/bench/bench/bench_rhs --benchmark_out=reports/bench/rhs.json
#include "nhs/formulation.hpp"
#include "nhs/studies/all.hpp"

#include <benchmark/benchmark.h>

namespace {

template <class S>
void register_rhs_benchmarks() {
  for (const nhs::Study<S>& st : nhs::studies<S>()) {
    for (const auto& f : nhs::formulations<S>()) {
      const std::string name = "rhs/" + st.info.name + "/" + f->name() + "/" +
                               std::string(nhs::ScalarName<S>::value);
      const nhs::Formulation<S>* fp = f.get();
      const nhs::Study<S>* sp = &st;
      benchmark::RegisterBenchmark(name.c_str(), [fp, sp](benchmark::State& state) {
        const nhs::System<S> sys = sp->build(sp->default_parameters());
        if (!fp->not_applicable_reason(sys).empty()) {
          state.SkipWithError("formulation does not apply");
          return;
        }
        const nhs::State<S> x = sp->default_state(sys);
        for (auto _ : state) benchmark::DoNotOptimize(fp->acceleration(sys, x.q, x.qdot));
      });
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
#define NHS_REGISTER_(S, NAME) register_rhs_benchmarks<S>();
  NHS_FOR_EACH_SCALAR(NHS_REGISTER_)
#undef NHS_REGISTER_
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
