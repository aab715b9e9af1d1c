// `nhs findings --quick` as a process: every CSV it writes is complete and
// holds no NaN or infinity; a series that ends early (the incline motion of
// the energy separation stays regular to t = 2 only) has empty fields
// after its end.
// ctest-labels: unit cli
#include "process.hpp"

#include <gtest/gtest.h>

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
  fs::remove_all(dir);
#endif
}

}  // namespace
