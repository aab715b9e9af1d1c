// A system file's traced field (its trace run by codegen::Interpreter)
// against the build-time generated code of the same study, per field
// evaluation (GeneratedFormulation::field at the default state), in double
// and mp50, and in double the same trace compiled at run time
// (codegen::compile_function, `--compiled`; compiled before the timed
// loop); the cost of loading a file and tracing its second-kind field; and
// of compiling the N-trailer's second-kind field into an empty cache and of
// loading it from the cache. The compiled fields go to a temporary cache
// (XDG_CACHE_HOME), removed at exit. The goals (issue "system files"): double within 3x of the
// generated code (stretch 1.5x), mp50 within 1.2x, N-trailer (N = 3) loaded
// and traced in under 100 ms.
//
//   cmake --preset bench && cmake --build --preset bench --target bench_file_field
//   ./build/bench/bench/bench_file_field --benchmark_out=reports/bench/file_field.json
// Files are looked up under NHS_SOURCE_DIR/studies/files.
#include "nhs/generated_formulation.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/system_file.hpp"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <unistd.h>

namespace {

const std::string kFiles = std::string(NHS_SOURCE_DIR) + "/studies/files/";

// (study id, file): the pairs whose file mirrors the study with the same
// parameters and coordinates.
const std::vector<std::pair<std::string, std::string>> kPairs = {
    {"skate", "skate.toml"},
    {"rolling-disc", "rolling_disc.toml"},
    {"coaxial-discs", "coaxial_discs.toml"},
    {"n-trailer", "n_trailer.toml"}};

// The timed part of every field benchmark: f.field at the state x0 (in the
// formulation's own state coordinates), with the generated code's operation
// count as the counter "operations".
template <class S, class F>
void time_field(benchmark::State& state, const nhs::System<S>& sys, const F& f,
                const nhs::State<S>& x0) {
  const nhs::Vec<S> x = f.to_state(sys, x0.q, x0.qdot);
  for (auto _ : state) benchmark::DoNotOptimize(f.field(sys, x));
  state.counters["operations"] = f.generated().operations;
}

// Registers `name`: the system file at `path` with its field of
// `formulation` traced and made a formulation by make(traced, library)
// (the interpreter or the compiled trace), timed at the file's default state.
template <class S, class Make>
void register_file_field(const std::string& name, const std::string& path,
                         const std::string& formulation, Make make) {
  benchmark::RegisterBenchmark(name.c_str(), [path, formulation, make](benchmark::State& state) {
    const auto sf = nhs::cached_system_file(path);
    const nhs::Study<S>& st = nhs::cached_file_study<S>(path);
    const nhs::System<S> sys = st.build(st.default_parameters());
    const auto f = make(nhs::trace_file_formulation(sf, formulation), nhs::find_formulation<S>(formulation));
    time_field<S>(state, sys, f, st.default_state(sys));
  });
}

template <class S>
void register_field_benchmarks() {
  for (const auto& [study, file] : kPairs) {
    for (const std::string formulation : {"second-kind", "first-kind"}) {
      const std::string suffix = study + "/" + formulation + "/" + std::string(nhs::ScalarName<S>::value);
      benchmark::RegisterBenchmark(("field/generated/" + suffix).c_str(), [study, formulation](benchmark::State& state) {
        const nhs::Study<S>& st = nhs::find_study<S>(study);
        const nhs::System<S> sys = st.build(st.default_parameters());
        const auto f = nhs::generated::make_generated_formulation<S>(study, nhs::find_formulation<S>(formulation));
        time_field<S>(state, sys, f, st.default_state(sys));
      });
      const std::string path = kFiles + file;
      register_file_field<S>("field/traced-file/" + suffix, path, formulation,
                             [](const nhs::codegen::TracedFormulation& traced, const nhs::Formulation<S>& library) {
                               return nhs::generated::make_traced_formulation<S>(traced, library);
                             });
      if constexpr (nhs::codegen::has_compiled_field<S>) {
        register_file_field<S>("field/compiled-file/" + suffix, path, formulation,
                               [](const nhs::codegen::TracedFormulation& traced, const nhs::Formulation<S>& library) {
                                 return nhs::generated::make_compiled_formulation<S>(traced, library);
                               });
      }
    }
  }
}

void BM_LoadAndTrace(benchmark::State& state, const std::string& file) {
  for (auto _ : state) {
    const auto sf = nhs::load_system_file(kFiles + file);
    benchmark::DoNotOptimize(nhs::trace_file_formulation(sf, "second-kind"));
  }
}

// The N-trailer's second-kind field compiled into an empty cache (each
// iteration), or loaded from the cache (warm: compiled once before).
void BM_CompileNTrailer(benchmark::State& state, bool warm) {
  const auto traced = nhs::trace_file_formulation(nhs::cached_system_file(kFiles + "n_trailer.toml"), "second-kind");
  const std::filesystem::path cache = nhs::codegen::compiled_cache_directory();
  if (warm) (void)nhs::codegen::compile_function(traced);
  for (auto _ : state) {
    if (!warm) {
      state.PauseTiming();
      std::filesystem::remove_all(cache);
      state.ResumeTiming();
    }
    const nhs::codegen::CompiledFunction f = nhs::codegen::compile_function(traced);
    if (f.loaded_from_cache() != warm) state.SkipWithError("the cache did not behave as expected");
    benchmark::DoNotOptimize(f.entry<double>());
  }
}

}  // namespace

int main(int argc, char** argv) {
  // A cache of compiled fields of its own, removed at exit.
  std::string cache_home = (std::filesystem::temp_directory_path() / "nhs_bench_cache_XXXXXX").string();
  if (!mkdtemp(cache_home.data())) return 1;
  setenv("XDG_CACHE_HOME", cache_home.c_str(), 1);
  register_field_benchmarks<double>();
  register_field_benchmarks<nhs::mp50>();
  benchmark::RegisterBenchmark("load-and-trace/n_trailer.toml", BM_LoadAndTrace, std::string("n_trailer.toml"))
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("load-and-trace/skate.toml", BM_LoadAndTrace, std::string("skate.toml"))
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("compile/n_trailer.toml/second-kind/cold", BM_CompileNTrailer, false)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("compile/n_trailer.toml/second-kind/warm", BM_CompileNTrailer, true)
      ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::filesystem::remove_all(cache_home);
  return 0;
}
