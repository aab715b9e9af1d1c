// `nhs findings --quick` as a process: every CSV it writes is complete and
// holds no NaN or infinity; a series that ends early (the incline motion of
// the energy separation stays regular to t = 2 only) has empty fields
// after its end; bipendulum_findings.json gives every CSV's title and the
// parameters it was made with (what the report's captions read).
// ctest-labels: unit cli
#include "process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(item);
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

TEST(CliFindings, CsvFilesHoldNoNonFiniteNumbers) {
#ifndef NHS_CLI_PATH
  GTEST_SKIP() << "built without the nhs tool";
#else
  std::string tmpl = (fs::temp_directory_path() / "nhs_findings_XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  const fs::path dir = tmpl;
  const nhs::test::ProcessEnd end = nhs::test::run_process(
      NHS_CLI_PATH, {"findings", "--quick", "--out-dir", dir.string()}, dir / "stdout",
      dir / "stderr");
  ASSERT_EQ(end.code, 0) << nhs::test::slurp(dir / "stderr");
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir / "studies")) {
    if (entry.path().extension() != ".csv") continue;
    ++files;
    const std::string text = nhs::test::slurp(entry.path());
    std::istringstream in(text);
    std::string header, line;
    ASSERT_TRUE(std::getline(in, header)) << entry.path();
    const std::size_t columns = split(header, ',').size();
    int rows = 0;
    while (std::getline(in, line)) {
      ++rows;
      const auto cells = split(line, ',');
      ASSERT_EQ(cells.size(), columns) << entry.path() << ": " << line;
      for (const auto& c : cells) {
        if (c.empty()) continue;
        char* stop = nullptr;
        const double v = std::strtod(c.c_str(), &stop);
        if (*stop != '\0') continue;  // a label (formulation or precision name)
        EXPECT_TRUE(std::isfinite(v)) << entry.path() << ": '" << c << "' in " << line;
      }
    }
    EXPECT_GT(rows, 0) << entry.path();
  }
  EXPECT_EQ(files, 6);
  // The energy separation: t = 0 .. 20 by 0.1 in double; the incline
  // series (columns 2, 3) ends at t = 2 and is empty after it.
  std::istringstream in(nhs::test::slurp(dir / "studies" / "bipendulum_energy_separation.csv"));
  std::string line;
  std::getline(in, line);
  int empty_after_2 = 0, rows = 0;
  while (std::getline(in, line)) {
    const auto cells = split(line, ',');
    ++rows;
    if (std::stod(cells[0]) > 2.05) {
      EXPECT_TRUE(cells[1].empty() && cells[2].empty()) << line;
      empty_after_2 += cells[1].empty();
    } else {
      EXPECT_FALSE(cells[1].empty()) << line;
    }
  }
  EXPECT_GT(empty_after_2, 100) << rows << " rows";

  // The metadata: one entry per CSV, each with its parameters; spot checks
  // against docs/special-motions.md bipendulum (a), (b), (e) and the runs.
  const auto meta =
      nlohmann::json::parse(nhs::test::slurp(dir / "studies" / "bipendulum_findings.json"));
  EXPECT_EQ(meta.at("command"), "nhs findings --quick");
  const auto& tables = meta.at("tables");
  EXPECT_EQ(tables.size(), 6u);
  for (const auto& [file, table] : tables.items()) {
    EXPECT_TRUE(fs::exists(dir / "studies" / file)) << file;
    EXPECT_FALSE(table.at("title").get<std::string>().empty()) << file;
    EXPECT_FALSE(table.at("parameters").empty()) << file;
  }
  const auto par = [&](const char* file, const char* key) {
    return tables.at(file).at("parameters").at(key).get<std::string>();
  };
  EXPECT_EQ(par("bipendulum_energy_separation.csv", "incline.g"), "2.2");
  EXPECT_EQ(par("bipendulum_energy_separation.csv", "incline.P1"), "(1.2, 0.3)");
  EXPECT_EQ(par("bipendulum_energy_separation.csv", "harmonic.k"), "1");
  EXPECT_EQ(par("bipendulum_energy_separation.csv", "harmonic.t_end_mp50"), "2");
  EXPECT_EQ(par("bipendulum_linear_nonlinear.csv", "setup.z"), "(0.4, 0.6, -0.8)");
  EXPECT_EQ(par("bipendulum_symmetric_pendulum.csv", "l"), "1.5");
  EXPECT_EQ(par("bipendulum_near_singular.csv", "rtol.mp50"), "1e-42");
  EXPECT_EQ(par("bipendulum_epsilon_circle.csv", "epsilons"), "1e-2, 1e-3, 1e-4");
  EXPECT_EQ(par("bipendulum_epsilon_circle_paths.csv", "P0"), "(0, -0.4)");
  fs::remove_all(dir);
#endif
}

}  // namespace
