// What the fuzz tests share (test_cli_fuzz, test_holonomic_fuzz,
// test_cli_linearize, test_equation_names): how a run of the `nhs` tool
// ended (its exit code or signal, what it printed, and whether that holds a
// number that is not finite), and the seed and case count of a run.
#pragma once

#include "process.hpp"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace nhs::test {

/// The end of one `nhs` process.
struct Outcome {
  int code = -1;       ///< exit code, or -1
  int signal = 0;      ///< terminating signal, or 0
  bool timed_out = false;
  std::string out, err, csv;  ///< stdout, stderr, and dir/out.csv when written
};

/// Runs nhs (NHS_CLI_PATH, set for the test's target in tests/CMakeLists.txt)
/// with args in dir (a mutated `--out` value such as "1.2.3" is a relative
/// path), stdout/stderr into files of dir; killed after `limit` seconds.
/// Without NHS_CLI_PATH, an Outcome that never started (code -1).
inline Outcome run_nhs(const std::vector<std::string>& args, const std::filesystem::path& dir, double limit) {
  Outcome o;
#ifdef NHS_CLI_PATH
  namespace fs = std::filesystem;
  const fs::path out = dir / "stdout", err = dir / "stderr";
  const ProcessEnd end = run_process(NHS_CLI_PATH, args, out, err, 0, limit, dir);
  if (!end.started) return o;
  o.code = end.code;
  o.signal = end.signal;
  o.timed_out = end.timed_out;
  o.out = slurp(out);
  o.err = slurp(err);
  const fs::path csv = dir / "out.csv";
  if (fs::exists(csv)) {
    o.csv = slurp(csv);
    fs::remove(csv);
  }
#else
  (void)args;
  (void)dir;
  (void)limit;
#endif
  return o;
}

/// True when text holds a token that prints a non-finite number: nan,
/// -nan, inf, -inf, infinity (any case), between separators of JSON, CSV
/// and messages.
inline bool has_non_finite(const std::string& text) {
  std::string tok;
  auto check = [&]() {
    std::string t;
    for (char c : tok) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) t = t.substr(1);
    tok.clear();
    return t == "nan" || t == "inf" || t == "infinity";
  };
  for (char c : text) {
    if (c == ',' || c == ' ' || c == '\n' || c == '"' || c == '(' || c == ')' || c == '[' ||
        c == ']' || c == ':' || c == ';' || c == '=' || c == '\t') {
      if (check()) return true;
    } else {
      tok += c;
    }
  }
  return check();
}

/// The number of fuzz cases: NHS_FUZZ_CASES when set, else `fallback`.
inline int fuzz_cases(int fallback) {
  const char* env = std::getenv("NHS_FUZZ_CASES");
  return env ? std::atoi(env) : fallback;
}

/// The seed of a *RandomSeed run: NHS_FUZZ_SEED when set (a replay), else
/// a new random one.
inline std::uint64_t fuzz_seed() {
  const char* env = std::getenv("NHS_FUZZ_SEED");
  return env ? std::strtoull(env, nullptr, 10) : std::random_device{}();
}

}  // namespace nhs::test
