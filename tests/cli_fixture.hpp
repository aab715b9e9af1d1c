// The fixture of the tests that run the `nhs` tool as a process: a
// temporary directory per test and a runner that captures the exit code,
// stdout and stderr. Skips when the tool is not built (NHS_CLI_PATH unset:
// NHS_BUILD_APPS=OFF).
#pragma once

#include "process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace nhs::test {

/// The lines of a tool's output (stdout, a CSV file), without their newlines.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

/// What a run of the tool gave.
struct CliResult {
  int code = -1;  ///< exit code (-1: not run)
  std::string out, err;
};

class CliProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef NHS_CLI_PATH
    GTEST_SKIP() << "built without the nhs tool (NHS_BUILD_APPS=OFF)";
#else
    std::string tmpl = (std::filesystem::temp_directory_path() / "nhs_cli_test_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
#endif
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  /// `nhs args...` expected to exit 0 with JSON on stdout: the parsed
  /// JSON, or a test failure (the exit code, stderr, the parse error) and {}.
  nlohmann::json json_of(const std::vector<std::string>& args) {
    const auto r = nhs(args);
    EXPECT_EQ(r.code, 0) << r.err;
    try {
      return nlohmann::json::parse(r.out);
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what() << "\n" << r.out;
      return {};
    }
  }

  /// Runs `nhs args...` (no shell), capturing stdout and stderr through
  /// files in dir_. stdout_to: another file for stdout (e.g. /dev/full);
  /// "-": stdout closed. sigint_after: when positive, SIGINT is sent after
  /// this many seconds.
  CliResult nhs(const std::vector<std::string>& args, const std::string& stdout_to = "",
                double sigint_after = 0) {
    CliResult r;
#ifdef NHS_CLI_PATH
    const std::filesystem::path out = stdout_to.empty() ? dir_ / "stdout" : std::filesystem::path(stdout_to),
                                err = dir_ / "stderr";
    const ProcessEnd end = run_process(NHS_CLI_PATH, args, out, err, sigint_after);
    if (!end.started) {
      ADD_FAILURE() << "cannot start " << NHS_CLI_PATH;
      return r;
    }
    r.code = end.code;
    r.out = stdout_to.empty() ? slurp(out) : std::string();
    r.err = slurp(err);
#endif
    (void)args;
    (void)stdout_to;
    (void)sigint_after;
    return r;
  }

  std::filesystem::path dir_;
};

}  // namespace nhs::test
