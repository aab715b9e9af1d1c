// A system file's traced field compiled at run time (nhs/codegen/compile.hpp,
// generated::make_compiled_formulation, `nhs run FILE --compiled`): the
// same bits as the interpreter (codegen::Interpreter) over the same graph,
// and so as the traced formulation, for every file of studies/files/ and each
// of its traced formulations, in double and long double, at the default state
// and 20 random states; constants computed by library functions (which GCC
// would fold, correctly rounded, where the C library may round otherwise);
// the errors (no compiler, a failing compiler, a broken cached file) and the
// cache (a cached field loads without the compiler); and the tool's
// --compiled. Every test compiles into its own fresh cache (XDG_CACHE_HOME
// in a temporary directory).
// ctest-labels: unit files cli
#include "process.hpp"

#include "nhs/codegen/compile.hpp"
#include "nhs/codegen/interpret.hpp"
#include "nhs/fnv1a.hpp"
#include "nhs/format.hpp"
#include "nhs/generated_formulation.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/system_file.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

namespace nhs {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> study_files() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(std::string(NHS_SOURCE_DIR) + "/studies/files"))
    if (e.path().extension() == ".toml") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// The same value bit for bit (any NaN equals any NaN): == tells all other
// values apart but +0 and -0, which the sign bit does.
template <class S>
bool same_bits(const S& a, const S& b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

class CompiledField : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "nhs_compiled_test_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    save("XDG_CACHE_HOME");
    save("NHS_CXX");
    setenv("XDG_CACHE_HOME", (dir_ / "cache").c_str(), 1);
    unsetenv("NHS_CXX");
  }
  void TearDown() override {
    for (const auto& [name, value] : saved_)
      if (value.second)
        setenv(name.c_str(), value.first.c_str(), 1);
      else
        unsetenv(name.c_str());
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  void save(const std::string& name) {
    const char* v = std::getenv(name.c_str());
    saved_.push_back({name, {v ? v : "", v != nullptr}});
  }
  fs::path cache() const { return dir_ / "cache" / "nhs" / "compiled"; }

  fs::path dir_;
  std::vector<std::pair<std::string, std::pair<std::string, bool>>> saved_;
};

// The compiled function against the interpreter, and the compiled
// formulation's field against the traced formulation's, at the default state
// and 20 random states (half at randomized parameters). Returns the number
// of states compared.
template <class S>
int compare_with_interpreter(const std::string& path, const codegen::TracedFormulation& traced,
                             const codegen::CompiledFunction& compiled) {
  const Study<S>& st = cached_file_study<S>(path);
  const Formulation<S>& library = find_formulation<S>(traced.formulation);
  const codegen::Interpreter<S> interpreter(traced.graph, traced.outputs, 2);
  const codegen::CompiledEntry<S> entry = compiled.entry<S>();
  const auto slow = generated::make_traced_formulation<S>(traced, library);
  const auto fast = generated::make_compiled_formulation<S>(traced, library);
  EXPECT_EQ(fast.name(), traced.formulation + " (compiled)");
  EXPECT_EQ(fast.generated().operations, interpreter.operations()) << path;
  std::mt19937_64 rng(20261124);
  const std::string where = path + " " + traced.formulation + " " + std::string(ScalarName<S>::value);
  int compared = 0;
  for (int k = 0; k <= 20; ++k) {
    const System<S> sys = k % 2 ? st.build(randomized_parameters(st, rng)) : st.build(st.default_parameters());
    State<S> x0;
    try {
      x0 = k == 0 ? st.default_state(sys) : st.random_state(sys, rng);
    } catch (const InvalidState&) {
      continue;
    }
    const Vec<S> x = library.to_state(sys, x0.q, x0.qdot);
    const std::size_t outputs = traced.outputs.size();
    std::vector<S> a(outputs, S(-7)), b(outputs, S(-7));
    const S* inputs[2] = {sys.parameters.data(), x.data()};
    const int ra = interpreter.run(inputs, a.data());
    const int rb = entry(sys.parameters.data(), x.data(), b.data());
    EXPECT_EQ(ra, rb) << where << " state " << k;
    if (ra == 0 && rb == 0)
      for (std::size_t i = 0; i < outputs; ++i)
        EXPECT_TRUE(same_bits(a[i], b[i])) << where << " state " << k << " output " << i << ": interpreter "
                                           << to_string<S>(a[i]) << ", compiled " << to_string<S>(b[i]);
    const Vec<S> fa = slow.field(sys, x), fb = fast.field(sys, x);
    EXPECT_EQ(fa.size(), fb.size());
    for (Eigen::Index i = 0; i < fa.size() && i < fb.size(); ++i)
      EXPECT_TRUE(same_bits(fa[i], fb[i])) << where << " state " << k << " field " << i;
    ++compared;
  }
  return compared;
}

TEST_F(CompiledField, BitIdenticalToTheInterpreterForEveryStudyFile) {
  int fields = 0;
  for (const auto& path : study_files()) {
    const auto file = cached_system_file(path);
    for (const std::string& name : codegen::traceable_formulations()) {
      codegen::TracedFormulation traced;
      try {
        traced = trace_file_formulation(file, name);
      } catch (const NotApplicable&) {
        continue;
      } catch (const codegen::TracingError&) {
        continue;  // branches on the state: no traced field to compile
      }
      const codegen::CompiledFunction compiled = codegen::compile_function(traced);
      EXPECT_FALSE(compiled.loaded_from_cache()) << path << " " << name;
      EXPECT_GT(compare_with_interpreter<double>(path, traced, compiled), 10) << path << " " << name;
      EXPECT_GT(compare_with_interpreter<long double>(path, traced, compiled), 10) << path << " " << name;
      ++fields;
    }
  }
  EXPECT_GE(fields, 20);  // 8 files, most with all three formulations
}

// Constants computed by library functions (the functions of constants in
// the file below, and pi = 4 atan(1)): GCC folds them at compile time,
// correctly rounded, where the C library's sinh (double) and most long
// double functions round otherwise in a fair share of arguments; the
// compiled code computes them at run time, as the interpreter does.
TEST_F(CompiledField, ConstantsOfLibraryFunctionsAsTheInterpreter) {
  const fs::path path = dir_ / "constants.toml";
  std::ofstream(path)
      << "coordinates = [\"x\", \"y\", \"theta\"]\n"
         "quasi_velocities = [\"s\", \"omega\"]\n"
         "[parameters]\nm = \"1.5\"\nI = \"0.5\"\n"
         "[dynamics]\n"
         "kinetic_energy = \"m/2*(x_dot^2 + y_dot^2) + I*cosh(0.3)/2*theta_dot^2\"\n"
         "potential = \"-m*sinh(0.7)*x - log(3)*atan(0.4)*cos(theta) + exp(0.2)*tanh(0.9)*y\"\n"
         "forces = { x = \"-asinh(0.5)*acosh(1.7)*atanh(0.3)*x_dot\", theta = \"-asin(0.2)*acos(0.1)*tan(0.6)*theta_dot\","
         " y = \"-atan2(1, 3)*sin(1.1)*y_dot\" }\n"
         "[constraints]\nC1 = \"x_dot*sin(theta + pi/7) - y_dot*cos(theta + pi/7)\"\n"
         "[parametrization]\nx_dot = \"s*cos(theta + pi/7)\"\ny_dot = \"s*sin(theta + pi/7)\"\ntheta_dot = \"omega\"\n"
         "[chart]\ns = \"x_dot*cos(theta + pi/7) + y_dot*sin(theta + pi/7)\"\nomega = \"theta_dot\"\n"
         "[initial]\nq = [\"0.1\", \"-0.2\", \"0.3\"]\nz = [\"1\", \"0.5\"]\n";
  const std::string p = path.string();
  const auto file = cached_system_file(p);
  for (const std::string name : {"second-kind", "first-kind"}) {
    const codegen::TracedFormulation traced = trace_file_formulation(file, name);
    const std::string source = codegen::compiled_source(traced.graph, traced.outputs, "constants");
    EXPECT_NE(source.find("= sinh(nhs_runtime(t"), std::string::npos) << "no constant sinh in the source";
    const codegen::CompiledFunction compiled = codegen::compile_function(traced);
    EXPECT_GT(compare_with_interpreter<double>(p, traced, compiled), 10) << name;
    EXPECT_GT(compare_with_interpreter<long double>(p, traced, compiled), 10) << name;
  }
}

codegen::TracedFormulation skate(const std::string& formulation) {
  return trace_file_formulation(cached_system_file(std::string(NHS_SOURCE_DIR) + "/studies/files/skate.toml"),
                                formulation);
}

std::string error_of(const codegen::TracedFormulation& traced) {
  try {
    (void)codegen::compile_function(traced);
  } catch (const UsageError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no UsageError";
  return {};
}

TEST_F(CompiledField, FailingCompilerIsAUsageErrorNamingIt) {
  setenv("NHS_CXX", "/bin/false", 1);
  const std::string e = error_of(skate("second-kind"));
  EXPECT_NE(e.find("compiler '/bin/false' exited with status 1"), std::string::npos) << e;
  EXPECT_NE(e.find("command: /bin/false -O2"), std::string::npos) << e;
  EXPECT_NE(e.find("log " + cache().string()), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << "one line: " << e;
  // The source is kept for the command, the shared object was never made.
  int sources = 0, libraries = 0;
  for (const auto& f : fs::directory_iterator(cache())) {
    sources += f.path().extension() == ".cpp";
    libraries += f.path().extension() == ".so";
  }
  EXPECT_EQ(sources, 1);
  EXPECT_EQ(libraries, 0);
}

TEST_F(CompiledField, MissingCompilerIsAUsageErrorNamingIt) {
  const std::string missing = (dir_ / "no-such-compiler").string();
  setenv("NHS_CXX", missing.c_str(), 1);
  const std::string e = error_of(skate("first-kind"));
  EXPECT_NE(e.find("cannot run the compiler '" + missing + "'"), std::string::npos) << e;
  EXPECT_NE(e.find("command: " + missing), std::string::npos) << e;
}

// A compiler's errors reach the message: a "compiler" that writes an error
// and fails.
TEST_F(CompiledField, CompilerErrorsAreQuoted) {
  const fs::path cxx = dir_ / "cxx";
  std::ofstream(cxx) << "#!/bin/sh\necho 'x.cpp:1:1: error: something is wrong' >&2\nexit 3\n";
  fs::permissions(cxx, fs::perms::owner_all);
  setenv("NHS_CXX", cxx.c_str(), 1);
  const std::string e = error_of(skate("second-kind"));
  EXPECT_NE(e.find("exited with status 3"), std::string::npos) << e;
  EXPECT_NE(e.find("error: something is wrong"), std::string::npos) << e;
}

// The cache: a field compiled once loads in a later call without the
// compiler. NHS_CXX keeps its path (the compiler is part of the cache key):
// a script that runs the compiler, then fails as /bin/false does; another
// field, not in the cache, then fails, which shows the compiler would have
// run.
TEST_F(CompiledField, CachedFieldLoadsWithoutTheCompiler) {
  const fs::path cxx = dir_ / "cxx";
  std::ofstream(cxx) << "#!/bin/sh\nexec '" << codegen::field_compiler() << "' \"$@\"\n";
  fs::permissions(cxx, fs::perms::owner_all);
  setenv("NHS_CXX", cxx.c_str(), 1);
  const auto traced = skate("second-kind");
  std::vector<double> first(traced.outputs.size()), second(traced.outputs.size());
  const std::vector<double> p = {1.2, 0.3, 3}, x = {0.5, -0.2, 0.4, 0.7, 0.1, -0.3};
  {
    const codegen::CompiledFunction f = codegen::compile_function(traced);
    EXPECT_FALSE(f.loaded_from_cache());
    EXPECT_EQ(f.entry<double>()(p.data(), x.data(), first.data()), 0);
  }
  std::ofstream(cxx, std::ios::trunc) << "#!/bin/sh\nexit 1\n";
  const codegen::CompiledFunction f = codegen::compile_function(traced);
  EXPECT_TRUE(f.loaded_from_cache());
  EXPECT_EQ(f.entry<double>()(p.data(), x.data(), second.data()), 0);
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_TRUE(same_bits(first[i], second[i])) << i;
  EXPECT_NE(error_of(skate("first-kind")).find("exited with status 1"), std::string::npos);
}

// The side file of a cached shared object as compile_function writes it
// (compile.hpp): its size and FNV-1a checksum.
std::string side_file_of(const std::string& library) {
  const std::string bytes = test::slurp(library);
  Fnv1a h;
  h.add(bytes);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h.h));
  return "nhs compiled field: " + std::to_string(bytes.size()) + " bytes, FNV-1a " + hex + "\n";
}

fs::path side_path(const std::string& library) {
  fs::path p = library;
  return p.replace_extension(".sum");
}

// A cached shared object that matches its side file but is the shared
// object of another field under this one's name, or not a shared object at
// all: UsageError naming the file (and dlerror()'s text), never a crash.
TEST_F(CompiledField, BrokenCachedFileIsAUsageError) {
  const auto second = skate("second-kind"), first = skate("first-kind");
  std::string second_path, first_path;
  {
    const codegen::CompiledFunction a = codegen::compile_function(second);
    const codegen::CompiledFunction b = codegen::compile_function(first);
    second_path = a.library_path();
    first_path = b.library_path();
  }  // both unloaded
  EXPECT_EQ(test::slurp(side_path(second_path)), side_file_of(second_path));
  fs::copy_file(second_path, first_path, fs::copy_options::overwrite_existing);
  fs::copy_file(side_path(second_path), side_path(first_path), fs::copy_options::overwrite_existing);
  std::string e = error_of(first);
  EXPECT_NE(e.find("cannot load the compiled field"), std::string::npos) << e;
  EXPECT_NE(e.find("compiled from another source"), std::string::npos) << e;
  EXPECT_NE(e.find("remove it to compile again"), std::string::npos) << e;
  std::ofstream(second_path, std::ios::trunc) << "not a shared object\n";
  std::ofstream(side_path(second_path), std::ios::trunc) << side_file_of(second_path);
  e = error_of(second);
  EXPECT_NE(e.find("cannot load the compiled field"), std::string::npos) << e;
  EXPECT_NE(e.find(second_path), std::string::npos) << e;
  EXPECT_NE(e.find("file too short"), std::string::npos) << "dlerror()'s text: " << e;
}

// A cached shared object that does not match its side file is compiled
// again and replaced, never loaded: truncated (a disk error, an interrupted
// copy: dlopen of it crashed the process with SIGBUS), replaced by another
// field's shared object, or without its side file (a copy of the .so alone).
TEST_F(CompiledField, DamagedCacheEntryIsCompiledAgain) {
  const auto traced = skate("second-kind");
  const std::vector<double> p = {1.2, 0.3, 3}, x = {0.5, -0.2, 0.4, 0.7, 0.1, -0.3};
  std::vector<double> expected(traced.outputs.size());
  std::string path, other;
  {
    const codegen::CompiledFunction f = codegen::compile_function(traced);
    const codegen::CompiledFunction g = codegen::compile_function(skate("first-kind"));
    path = f.library_path();
    other = g.library_path();
    EXPECT_EQ(f.entry<double>()(p.data(), x.data(), expected.data()), 0);
  }  // unloaded
  const std::vector<std::pair<std::string, std::function<void()>>> damages = {
      {"truncated to 1000 bytes", [&] { fs::resize_file(path, 1000); }},
      {"truncated to 0 bytes", [&] { fs::resize_file(path, 0); }},
      {"without its side file", [&] { fs::remove(side_path(path)); }},
      {"replaced by another field's", [&] { fs::copy_file(other, path, fs::copy_options::overwrite_existing); }}};
  for (const auto& [how, damage] : damages) {
    damage();
    {
      const codegen::CompiledFunction f = codegen::compile_function(traced);
      EXPECT_FALSE(f.loaded_from_cache()) << how;
      std::vector<double> got(traced.outputs.size(), -7);
      EXPECT_EQ(f.entry<double>()(p.data(), x.data(), got.data()), 0) << how;
      for (std::size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(same_bits(expected[i], got[i])) << how << " " << i;
    }
    EXPECT_TRUE(codegen::compile_function(traced).loaded_from_cache()) << how << ": the entry is whole again";
    EXPECT_EQ(test::slurp(side_path(path)), side_file_of(path)) << how;
  }
}

TEST_F(CompiledField, OtherFormulationIsAUsageError) {
  EXPECT_THROW((void)generated::make_compiled_formulation<double>(skate("second-kind"),
                                                                 find_formulation<double>("first-kind")),
               UsageError);
}

struct Output {
  int code = -1;
  std::string out, err;
};

// `nhs args...` with stdout and stderr through files in dir.
Output nhs_tool(const fs::path& dir, const std::vector<std::string>& args) {
  Output r;
  const test::ProcessEnd end = test::run_process(NHS_CLI_PATH, args, dir / "stdout", dir / "stderr");
  if (!end.started) {
    ADD_FAILURE() << "cannot start " << NHS_CLI_PATH;
    return r;
  }
  r.code = end.code;
  r.out = test::slurp(dir / "stdout");
  r.err = test::slurp(dir / "stderr");
  return r;
}

// The "qddot": [...] block of `nhs accel`'s JSON.
std::string qddot_of(const std::string& json) {
  const std::size_t at = json.find("\"qddot\"");
  if (at == std::string::npos) return "(none)";
  return json.substr(at, json.find(']', at) - at + 1);
}

TEST_F(CompiledField, ToolAccelAndRun) {
  const std::string file = std::string(NHS_SOURCE_DIR) + "/studies/files/rolling_disc.toml";
  for (const std::string precision : {"double", "long-double"}) {
    for (const std::string formulation : {"second-kind", "first-kind"}) {
      const std::vector<std::string> args = {"accel", file, "--precision", precision, "--formulation", formulation};
      std::vector<std::string> compiled_args = args;
      compiled_args.push_back("--compiled");
      const Output traced = nhs_tool(dir_, args);
      const Output compiled = nhs_tool(dir_, compiled_args);
      ASSERT_EQ(traced.code, 0) << traced.err;
      ASSERT_EQ(compiled.code, 0) << compiled.err;
      // The formulation by its name, the backend by the field key.
      EXPECT_NE(traced.out.find("\"formulation\": \"" + formulation + "\""), std::string::npos) << traced.out;
      EXPECT_NE(traced.out.find("\"field\": \"traced\""), std::string::npos) << traced.out;
      EXPECT_NE(compiled.out.find("\"formulation\": \"" + formulation + "\""), std::string::npos) << compiled.out;
      EXPECT_NE(compiled.out.find("\"field\": \"compiled\""), std::string::npos) << compiled.out;
      EXPECT_NE(qddot_of(compiled.out), "(none)");
      EXPECT_EQ(qddot_of(compiled.out), qddot_of(traced.out)) << precision << " " << formulation;
    }
  }
  // A run: the same CSV, bit for bit, and "(compiled)" in the summary.
  const Output traced = nhs_tool(dir_, {"run", file, "--t-end", "2"});
  const Output compiled = nhs_tool(dir_, {"run", file, "--t-end", "2", "--compiled"});
  ASSERT_EQ(traced.code, 0) << traced.err;
  ASSERT_EQ(compiled.code, 0) << compiled.err;
  EXPECT_NE(compiled.err.find("second-kind (compiled)"), std::string::npos) << compiled.err;
  EXPECT_GT(compiled.out.size(), 1000u);
  EXPECT_EQ(compiled.out, traced.out);
}

// `nhs accel FILE --compiled` after the cached shared object was truncated
// (it crashed with SIGBUS, exit 135): compiled again, the same answer.
TEST_F(CompiledField, ToolCompilesATruncatedCacheEntryAgain) {
  const std::string file = std::string(NHS_SOURCE_DIR) + "/studies/files/skate.toml";
  const Output first = nhs_tool(dir_, {"accel", file, "--compiled"});
  ASSERT_EQ(first.code, 0) << first.err;
  int truncated = 0;
  for (const auto& f : fs::directory_iterator(cache()))
    if (f.path().extension() == ".so") {
      fs::resize_file(f.path(), 1000);
      ++truncated;
    }
  EXPECT_EQ(truncated, 1);
  const Output again = nhs_tool(dir_, {"accel", file, "--compiled"});
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.out, first.out);
}

TEST_F(CompiledField, ToolUsageErrors) {
  const std::string file = std::string(NHS_SOURCE_DIR) + "/studies/files/skate.toml";
  const auto expect = [&](const std::vector<std::string>& args, const std::string& what) {
    const Output r = nhs_tool(dir_, args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("nhs: error: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
  };
  expect({"accel", "skate", "--compiled"}, "use --generated");
  expect({"run", file, "--compiled", "--precision", "mp50"}, "double and long-double only");
  expect({"accel", file, "--compiled", "--precision", "float128"}, "double and long-double only");
  expect({"accel", file, "--compiled", "--formulation", "maggi"}, "has no traced field");
  expect({"accel", file, "--compiled", "--library"}, "exclude each other");
  setenv("NHS_CXX", "/bin/false", 1);
  expect({"accel", file, "--compiled"}, "compiler '/bin/false'");
}

}  // namespace
}  // namespace nhs
