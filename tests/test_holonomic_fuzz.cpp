// ctest-labels: unit cli
// A fuzz test of holonomic constraints in system files ([holonomic],
// docs/system-files.md) through the tool: files drawn from a seed, each a
// particle in the plane or in space (T = m/2 |q_dot|^2) held by one or two
// random holonomic constraints f(q) = 0: polynomials and trigonometric
// terms in q, written times a scale from 1e-200 to 1e200, among them
// constraints whose gradient vanishes at their root (written squared or
// cubed), constraints with no real root, and initial states on, near or
// far from the constraint (with or without dependent_coordinates, with
// velocities off C). Each file goes through `nhs accel` (a random
// formulation and precision), now and then a short `nhs run` or a quick
// `nhs check`. The contract: the tool ends with a documented exit code (0,
// 2, 3, 4; 1 from check alone, a disagreement it reports), never a signal,
// a hang or 5; an exit 0 prints no NaN or infinity; an error exit says why.
//
// HolonomicFileFuzz.FixedSeeds (quick suite) replays kFixedSeeds;
// HolonomicFileFuzzRandomSeed.NewSeed draws a new seed on every run (labels
// fuzz and slow by its name, tests/CMakeLists.txt). NHS_FUZZ_SEED replays
// one, NHS_FUZZ_CASES changes the count; every failure prints its seed.
#include "cli_outcome.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kFixedSeeds[] = {20261207ULL};
// Each case is a process or two of about 0.1 s (a short file's load and
// one acceleration); a run or a check is bounded by its own budgets.
constexpr int kDefaultCases = 120;
// Only a process that outlives its own budgets by minutes is a hang.
constexpr double kWatchdog = 600;

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : rng_(seed) {}

  // The text of a system file and the coordinates' count.
  std::string file() {
    n_ = 2 + pick(2);
    const std::vector<std::string> all = {"x", "y", "z"};
    q_.assign(all.begin(), all.begin() + n_);
    std::string t = "coordinates = [" + names_list(q_) + "]\n[parameters]\nm = \"" + one({"1", "2.5", "1e-3"}) +
                    "\"\nl = \"" + one({"0.9", "1", "3", "1e-5"}) + "\"\n[dynamics]\nkinetic_energy = \"m/2*(";
    for (int i = 0; i < n_; ++i) t += (i ? " + " : "") + q_[i] + "_dot^2";
    t += ")\"\n";
    if (pick(2)) t += "potential = \"m*9.81*" + one(q_) + "\"\n";
    const int h = n_ == 3 && pick(3) == 0 ? 2 : 1;
    t += "[holonomic]\n";
    for (int k = 0; k < h; ++k) t += "f" + std::to_string(k) + " = \"" + constraint() + "\"\n";
    if (pick(4)) {
      std::vector<std::string> dep;
      for (int k = 0; k < h; ++k) dep.push_back(q_[static_cast<std::size_t>((k + pick(n_)) % n_)]);
      t += "dependent_coordinates = [" + names_list(dep) + "]\n";
    }
    // qdot = 0 is tangent to every level set (so the state is admitted
    // wherever Newton finds q); random velocities mostly are not (refused).
    t += "[initial]\nq = [" + numbers(n_) + "]\nqdot = [" + (pick(2) ? numbers(n_) : zeros(n_)) + "]\n";
    return t;
  }

  // The command for the file at path: accel mostly, now and then a short
  // run or a quick check (out under dir).
  std::vector<std::string> command(const std::string& path, const fs::path& dir) {
    const int kind = pick(10);
    const std::string precision = one({"double", "double", "long-double", "mp50"});
    if (kind == 0)
      return {"check", path, "--quick", "--states", "1", "--precision", "double", "--no-report", "--jobs", "1",
              "--out-dir", (dir / "check").string()};
    if (kind <= 2)
      return {"run", path, "--formulation", one({"second-kind", "udwadia-kalaba", "lagrange-multipliers"}),
              "--t-end", "0.5", "--precision", precision, "--max-rhs-calls", precision == "mp50" ? "2000" : "20000",
              "--max-wall-time", "20", "--out", (dir / "out.csv").string()};
    return {"accel", path, "--formulation", one({"second-kind", "udwadia-kalaba", "lagrange-multipliers"}),
            "--precision", precision};
  }

 private:
  int pick(int k) { return std::uniform_int_distribution<int>(0, k - 1)(rng_); }
  std::string one(const std::vector<std::string>& v) { return v[static_cast<std::size_t>(pick(static_cast<int>(v.size())))]; }
  static std::string names_list(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "\"" : ", \"") + x + "\"";
    return s;
  }
  std::string coefficient() { return one({"1", "2", "-1", "0.5", "3.25", "-7", "1e-8", "1e8"}); }
  // A term in q: a monomial or a trigonometric term.
  std::string term() {
    const std::string& a = one(q_);
    switch (pick(5)) {
      case 0: return coefficient() + "*" + a + "^" + one({"1", "2", "3"});
      case 1: return coefficient() + "*" + a + "*" + one(q_);
      case 2: return coefficient() + "*" + one({"sin", "cos"}) + "(" + a + ")";
      case 3: return coefficient() + "*exp(" + a + "/4)";
      default: return a;
    }
  }
  // f(q): a sum of terms and a constant, or the circle of radius l, maybe
  // raised to a power (a root where the gradient vanishes), times a scale.
  std::string constraint() {
    std::string body;
    if (pick(3) == 0) {
      for (int i = 0; i < n_; ++i) body += (i ? " + " : "") + q_[i] + "^2";
      body += " - l^2";
    } else {
      const int terms = 1 + pick(3);
      for (int i = 0; i < terms; ++i) body += (i ? " + " : "") + term();
      body += " - " + one({"0", "1", "0.25", "l", "100"});
    }
    if (pick(5) == 0) body = "(" + body + ")^" + one({"2", "3"});
    const std::string scale = one({"1", "1", "1e-200", "1e200", "1e-150", "3.5e150", "1e-20", "1e20", "1e100",
                                   "7e-300", "1e300"});
    return scale == "1" ? body : scale + "*(" + body + ")";
  }
  static std::string zeros(int k) {
    std::string s;
    for (int i = 0; i < k; ++i) s += std::string(i ? ", " : "") + "\"0\"";
    return s;
  }
  std::string numbers(int k) {
    std::string s;
    for (int i = 0; i < k; ++i)
      s += std::string(i ? ", " : "") + "\"" +
           (pick(6) ? std::to_string(pick(41) - 20) + "e-1" : one({"0", "1e-200", "1e30", "-3", "0.9"})) + "\"";
    return s;
  }

  std::mt19937_64 rng_;
  int n_ = 2;
  std::vector<std::string> q_;
};

// Why an outcome breaks the contract, or "".
std::string broken(const nhs::test::Outcome& o, const std::string& command) {
  if (o.code == -1 && !o.timed_out && o.signal == 0) return "did not start";
  if (o.timed_out) return "hung: still running after " + std::to_string(kWatchdog) + " s, past its own budgets";
  if (o.signal) return "killed by signal " + std::to_string(o.signal);
  const bool documented = o.code == 0 || o.code == 2 || o.code == 3 || o.code == 4 || (o.code == 1 && command == "check");
  if (!documented) return "exit code " + std::to_string(o.code);
  if (o.code == 0 && (nhs::test::has_non_finite(o.out) || nhs::test::has_non_finite(o.csv)))
    return "exit 0 with a non-finite number in its output";
  if (o.code != 0 && o.code != 1 && o.err.find("nhs: error") == std::string::npos)
    return "exit " + std::to_string(o.code) + " without an error line";
  return "";
}

// Runs `cases` files of `seed` on two workers; a failure for each that
// breaks the contract (at most 20 shown), with its case number, seed and file.
void fuzz(std::uint64_t seed, int cases) {
  std::printf("holonomic fuzz: seed %llu, %d cases (NHS_FUZZ_SEED=%llu replays it)\n",
              static_cast<unsigned long long>(seed), cases, static_cast<unsigned long long>(seed));
  std::string tmpl = (fs::temp_directory_path() / "nhs_holonomic_fuzz_XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  const fs::path root = tmpl;
  std::atomic<int> next{0};
  std::mutex mutex;
  std::vector<std::string> failures;
  int exit_counts[256] = {};
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < 2; ++w) {
    threads.emplace_back([&, w] {
      const fs::path dir = root / std::to_string(w);
      fs::create_directories(dir);
      for (int k; (k = next++) < cases;) {
        Generator gen(seed * 1000003ULL + static_cast<std::uint64_t>(k));
        const std::string text = gen.file();
        const std::string path = (dir / ("case_" + std::to_string(k) + ".toml")).string();
        std::ofstream(path) << text;
        const std::vector<std::string> args = gen.command(path, dir);
        const nhs::test::Outcome o = nhs::test::run_nhs(args, dir, kWatchdog);
        const std::string why = broken(o, args[0]);
        const std::lock_guard<std::mutex> lock(mutex);
        if (o.code >= 0) ++exit_counts[o.code];
        if (!why.empty() && failures.size() < 20)
          failures.push_back(why + ": nhs " + args[0] + " (case " + std::to_string(k) + ", NHS_FUZZ_SEED=" +
                             std::to_string(seed) + ")\nstderr: " + o.err.substr(0, 500) + "\nthe file:\n" + text);
        fs::remove(path);
      }
    });
  }
  for (auto& t : threads) t.join();
  fs::remove_all(root);
  for (const auto& f : failures) ADD_FAILURE() << f;
  std::string counts;
  for (int c = 0; c < 256; ++c)
    if (exit_counts[c]) counts += " exit " + std::to_string(c) + ": " + std::to_string(exit_counts[c]) + ";";
  std::printf("holonomic fuzz: %d cases, seed %llu;%s\n", cases, static_cast<unsigned long long>(seed),
              counts.c_str());
  // The files must reach the dynamics: some give accelerations, some are refused.
  EXPECT_GT(exit_counts[0], cases / 20) << counts << " (NHS_FUZZ_SEED=" << seed << ")";
  EXPECT_GT(exit_counts[2] + exit_counts[3], cases / 20) << counts << " (NHS_FUZZ_SEED=" << seed << ")";
}

// The quick suite's gate: the committed seeds, the same verdict every run.
TEST(HolonomicFileFuzz, FixedSeeds) {
#ifndef NHS_CLI_PATH
  GTEST_SKIP() << "built without the nhs tool";
#endif
  for (const std::uint64_t seed : kFixedSeeds) fuzz(seed, nhs::test::fuzz_cases(kDefaultCases));
}

// A new seed on every run (labels fuzz and slow: `ctest -L fuzz`), or
// NHS_FUZZ_SEED's.
TEST(HolonomicFileFuzzRandomSeed, NewSeed) {
#ifndef NHS_CLI_PATH
  GTEST_SKIP() << "built without the nhs tool";
#endif
  fuzz(nhs::test::fuzz_seed(), nhs::test::fuzz_cases(kDefaultCases));
}

}  // namespace
