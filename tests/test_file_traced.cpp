// A system file's traced fields (trace_file_formulation run by
// codegen::Interpreter: the default of `nhs run FILE`) against the library's
// evaluation of the same file: second-kind (001 eq. 8.12), first-kind (000
// eq. 27), Gibbs-Appell (001 eq. 5.2), at random states of every file in
// studies/files/, examples/ and examples/bodies/, in double and mp50 (Tolerance<S>::cross, as
// the build-time generated code is held to: test_generated.cpp); and the
// interpreter against the emitted C++ of the same graph's semantics on
// guards (a singular state falls back to the library, which names it).
// ctest-labels: unit files
#include "scalar_test.hpp"

#include "nhs/generated_formulation.hpp"
#include "nhs/norms.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/system_file.hpp"

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace nhs {
namespace {

std::vector<std::string> system_files() {
  std::vector<std::string> out;
  for (const char* dir : {"/studies/files", "/examples", "/examples/bodies"})
    for (const auto& e : std::filesystem::directory_iterator(std::string(NHS_SOURCE_DIR) + dir))
      if (e.path().extension() == ".toml") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

template <class S>
void check_traced_against_library(const std::string& path) {
  const auto file = cached_system_file(path);
  const Study<S>& st = cached_file_study<S>(path);
  std::mt19937_64 rng(20261124);
  int compared = 0;
  for (const std::string& name : codegen::traceable_formulations()) {
    const Formulation<S>& library = find_formulation<S>(name);
    const System<S> sys0 = st.build(st.default_parameters());
    if (!library.not_applicable_reason(sys0).empty()) continue;
    codegen::TracedFormulation traced;
    try {
      traced = trace_file_formulation(file, name);
    } catch (const codegen::TracingError& e) {
      ADD_FAILURE() << path << " " << name << ": not traceable: " << e.what();
      continue;
    }
    const auto fast = generated::make_traced_formulation<S>(traced, library);
    for (int k = 0; k < 20; ++k) {
      const System<S> sys = k % 2 ? st.build(randomized_parameters(st, rng)) : sys0;
      State<S> x;
      try {
        x = st.random_state(sys, rng);
        (void)library.acceleration(sys, x.q, x.qdot);
      } catch (const InvalidState&) {
        continue;  // singular or outside psi's domain: not a comparison
      }
      const Vec<S> xs = library.to_state(sys, x.q, x.qdot);
      const Vec<S> a = library.field(sys, xs);
      const Vec<S> b = fast.field(sys, xs);
      EXPECT_LE(relative_difference<S>(a, b), Tolerance<S>::cross)
          << path << " " << name << " state " << k;
      ++compared;
    }
  }
  EXPECT_GT(compared, 0) << path;
}

TEST(FileTraced, AgreesWithTheLibraryInDouble) {
  for (const auto& path : system_files()) check_traced_against_library<double>(path);
}

TEST(FileTraced, AgreesWithTheLibraryInMp50) {
  for (const auto& path : system_files()) check_traced_against_library<mp50>(path);
}

// T from [[bodies]] alone (the kinetic energy written out by the loader)
// traces like a file's own T: every file of system_files() with [[bodies]],
// copied without its kinetic_energy line.
TEST(FileTraced, KineticEnergyFromBodiesAgreesWithTheLibrary) {
  const auto dir = std::filesystem::temp_directory_path() / ("nhs_traced_bodies_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  int copies = 0;
  for (const auto& path : system_files()) {
    std::ifstream in(path);
    std::ostringstream out;
    std::string line;
    bool bodies = false, removed = false;
    while (std::getline(in, line)) {
      bodies = bodies || line == "[[bodies]]";
      if (line.rfind("kinetic_energy = \"", 0) == 0) {
        removed = true;
        continue;
      }
      out << line << '\n';
    }
    if (!bodies || !removed) continue;
    const std::string copy = (dir / std::filesystem::path(path).filename()).string();
    std::ofstream(copy) << out.str();
    ASSERT_TRUE(cached_system_file(copy)->kinetic_energy_from_bodies) << copy;
    check_traced_against_library<double>(copy);
    check_traced_against_library<mp50>(copy);
    ++copies;
  }
  EXPECT_GE(copies, 12);
  std::filesystem::remove_all(dir);
}

// The interpreter's guards: at a state where the metric of a file's
// system is singular, the traced second kind falls back to the library,
// which raises SingularState naming g, as the generated code does.
TEST(FileTraced, SingularStateIsReportedByName) {
  const std::string dir = (std::filesystem::temp_directory_path() / "nhs_file_traced").string();
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/degenerate.toml";
  {
    std::ofstream f(path);
    // The metric diag(1, x^2) is singular at x = 0.
    f << "coordinates = [\"x\", \"y\", \"z\"]\n"
         "[dynamics]\nkinetic_energy = \"(x_dot^2 + x^2*y_dot^2 + z_dot^2)/2\"\n"
         "[constraints]\nC = \"z_dot - x*y_dot\"\n"
         "[initial]\nq = [\"1\", \"0\", \"0\"]\nqdot = [\"0.5\", \"1\", \"1\"]\n";
  }
  const auto file = load_system_file(path);
  const Study<double> st = file_study<double>(file);
  const System<double> sys = st.build({});
  const Formulation<double>& library = find_formulation<double>("second-kind");
  const auto fast = generated::make_traced_formulation<double>(trace_file_formulation(file, "second-kind"), library);
  Vec<double> q(3), qd(3);
  q << 0, 0, 0;
  qd << 1, 0.5, 0;
  try {
    (void)fast.acceleration(sys, q, qd);
    ADD_FAILURE() << "a singular metric must be reported";
  } catch (const SingularState& e) {
    EXPECT_NE(std::string(e.what()).find("metric"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace nhs
