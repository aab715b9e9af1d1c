// Against the limit: one acceleration evaluation of every applicable generic
// formulation next to the hand-written closed form of the same study
// (nhs/studies/closed_forms.hpp: 001 §9.1-9.4, 000 eqs. 80-82), at the
// study's default state and parameters, in every precision
// (NHS_FOR_EACH_SCALAR; filter with e.g. --benchmark_filter=/double), in one run.
//
//   closed-form/<study>/<scalar>                 qddot = x_rhs(p, q, qdot), fixed-size, no heap
//   generic/<study>/<formulation>/<scalar>       Formulation::acceleration(sys, q, qdot)
//   generated/<study>/<formulation>/<scalar>     the generated field (nhs/generated.hpp):
//                                                second-kind at (q, qdot), first-kind at (q, z)
//
// Each benchmark reports the counter rel_diff_vs_closed_form (the relative
// max-norm difference of the two qddot at that state), so the table is of
// the same quantity. bench/closed_form_ratios.py turns the JSON into
// reports/bench/closed_form_ratios.{md,json}:
//
//   ./build/bench/bench_closed_form --benchmark_repetitions=5 \
//       --benchmark_report_aggregates_only=true \
//       --benchmark_out=reports/bench/closed_form.json --benchmark_out_format=json
//   /usr/bin/python3 bench/closed_form_ratios.py reports/bench/closed_form.json
#include "nhs/formulation.hpp"
#include "nhs/generated.hpp"
#include "nhs/norms.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/closed_forms.hpp"

#include <benchmark/benchmark.h>

#include <iostream>
#include <string>

namespace {

template <class S>
const nhs::Study<S>* find_or_null(std::string_view id) {
  for (const auto& st : nhs::studies<S>())
    if (st.info.name == id) return &st;
  return nullptr;
}

// The generated fields of the study (nhs/generated.hpp): second-kind from
// (q, qdot), first-kind and gibbs-appell from (q, z) with z = chart(q, qdot) computed once (a
// run in (q, z) never needs the chart). Raw arrays, as the closed form's
// fixed-size vectors: no allocation in the loop in the hardware types.
template <class S, class Rhs, class Tag>
void register_generated_benchmarks(const nhs::Study<S>* sp, const std::string& study,
                                   const std::string& scalar, Rhs rhs, Tag) {
  using P = typename Tag::type;
  using Q = typename P::Q;
  for (const char* formulation : {"second-kind", "first-kind", "gibbs-appell"}) {
    const nhs::generated::GeneratedField<S>* gf =
        nhs::generated::find_generated<S>(study, formulation);
    if (!gf) continue;
    benchmark::RegisterBenchmark(
        ("generated/" + study + "/" + formulation + "/" + scalar).c_str(),
        [sp, gf, rhs](benchmark::State& state) {
          const nhs::System<S> sys = sp->build(sp->default_parameters());
          const nhs::State<S> s = sp->default_state(sys);
          const std::vector<S> p = sys.parameters;
          nhs::Vec<S> x(gf->inputs), out(gf->outputs);
          if (std::string(gf->formulation) == "second-kind") {
            x << s.q, s.qdot;
          } else {
            nhs::Vec<S> z(sys.m);
            sys.chart(s.q, s.qdot, z);
            x << s.q, z;
          }
          if (gf->evaluate(p.data(), x.data(), out.data()) != 0) {
            state.SkipWithError("a guard failed at the default state");
            return;
          }
          const nhs::Vec<S> qddot = std::string(gf->formulation) == "second-kind"
                                             ? nhs::Vec<S>(out.head(sys.n))
                                             : nhs::Vec<S>(out.tail(sys.n));
          const nhs::Vec<S> reference = rhs(P::from(sys.parameters), Q(s.q), Q(s.qdot));
          for (auto _ : state) {
            benchmark::DoNotOptimize(gf->evaluate(p.data(), x.data(), out.data()));
            benchmark::ClobberMemory();
          }
          state.counters["rel_diff_vs_closed_form"] =
              static_cast<double>(nhs::relative_difference<S>(qddot, reference));
        });
  }
}

template <class S>
void register_closed_form_benchmarks() {
  const std::string scalar(nhs::ScalarName<S>::value);
  nhs::closed_form::for_each_closed_form<S>([&](std::string_view id, auto params_tag, auto rhs) {
    using P = typename decltype(params_tag)::type;
    using Q = typename P::Q;
    const nhs::Study<S>* sp = find_or_null<S>(id);
    if (!sp) {
      std::cerr << "bench_closed_form: no study '" << id << "' in this build; skipped\n";
      return;
    }
    const std::string study(id);
    benchmark::RegisterBenchmark(
        ("closed-form/" + study + "/" + scalar).c_str(), [sp, rhs](benchmark::State& state) {
          const nhs::System<S> sys = sp->build(sp->default_parameters());
          const nhs::State<S> x = sp->default_state(sys);
          const P p = P::from(sys.parameters);
          const Q q = x.q, qd = x.qdot;
          for (auto _ : state) {
            Q out = rhs(p, q, qd);  // through a function pointer: not inlined into the loop
            benchmark::DoNotOptimize(out);
          }
        });
    register_generated_benchmarks<S>(sp, study, scalar, rhs, params_tag);
    for (const auto& f : nhs::formulations<S>()) {
      if (f->is_negative_control()) continue;  // not a way to the true qddot
      const nhs::Formulation<S>* fp = f.get();
      benchmark::RegisterBenchmark(
          ("generic/" + study + "/" + f->name() + "/" + scalar).c_str(),
          [sp, fp, rhs](benchmark::State& state) {
            const nhs::System<S> sys = sp->build(sp->default_parameters());
            if (!fp->not_applicable_reason(sys).empty()) {
              state.SkipWithError("formulation does not apply");
              return;
            }
            const nhs::State<S> x = sp->default_state(sys);
            const nhs::Vec<S> reference = rhs(P::from(sys.parameters), Q(x.q), Q(x.qdot));
            const nhs::Vec<S> generic = fp->acceleration(sys, x.q, x.qdot).qddot;
            for (auto _ : state) benchmark::DoNotOptimize(fp->acceleration(sys, x.q, x.qdot));
            state.counters["rel_diff_vs_closed_form"] =
                static_cast<double>(nhs::relative_difference<S>(generic, reference));
          });
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
#define NHS_REGISTER_(S, NAME) register_closed_form_benchmarks<S>();
  NHS_FOR_EACH_SCALAR(NHS_REGISTER_)
#undef NHS_REGISTER_
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
