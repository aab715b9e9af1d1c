// ctest-labels: unit cli asan
// `nhs sweep` (docs/sweeps.md) as a user runs it: its rows against `nhs
// run` of the same case, the same rows on one thread and two, the axes'
// values, failed cases as rows with their reason, resumption after SIGKILL,
// and specs refused with file:line:column and exit 2. The MPI engine is
// tested by sweep_mpi_test.sh (label mpi).
#include "cli_fixture.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using nhs::test::CliProcessTest;
using nhs::test::CliResult;
using nhs::test::lines_of;
using nhs::test::slurp;

// A CSV line's cells (the sweep quotes cells holding a comma or a quote).
std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

// The rows of a sweep's cases.csv by column name.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  const std::string& at(std::size_t row, const std::string& column) const {
    const auto it = std::find(header.begin(), header.end(), column);
    if (it == header.end()) throw std::runtime_error("no column " + column);
    return rows.at(row).at(static_cast<std::size_t>(it - header.begin()));
  }
};
Table table_of(const fs::path& csv) {
  Table t;
  const auto ls = lines_of(slurp(csv));
  if (ls.empty()) return t;
  t.header = cells_of(ls[0]);
  for (std::size_t i = 1; i < ls.size(); ++i) t.rows.push_back(cells_of(ls[i]));
  return t;
}

class Sweep : public CliProcessTest {
 protected:
  fs::path write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p;
  }
  CliResult sweep(const std::string& system, const fs::path& spec, const fs::path& out,
                  std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"sweep", system, spec.string(), "--out", out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return nhs(args);
  }
};

// A case's row is `nhs run` of the same options: the final state is the
// last CSV row of the run, digit for digit, in double and in mp50.
TEST_F(Sweep, ACaseIsTheRunOfItsOptions) {
  const fs::path spec = write("spec.toml", R"([run]
t_end = 3
dt_out = 0.5
q = [0, 0, 0]
z = [1, 0.5]
[[axis]]
name = "precision"
values = ["double", "mp50"]
[[axis]]
name = "g"
values = [0, "1.5"]
[[axis]]
name = "rtol"
values = [1e-8]
)");
  const CliResult r = sweep("skate", spec, dir_ / "out");
  ASSERT_EQ(r.code, 0) << r.err;
  const Table t = table_of(dir_ / "out" / "cases.csv");
  ASSERT_EQ(t.rows.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(t.at(i, "case"), std::to_string(i));
    EXPECT_EQ(t.at(i, "status"), "ok") << t.at(i, "reason");
    const CliResult run = nhs({"run", "skate", "--precision", t.at(i, "precision"), "--param", "g=" + t.at(i, "g"),
                               "--rtol", "1e-8", "--q", "0,0,0", "--z", "1,0.5", "--t-end", "3", "--dt-out", "0.5"});
    ASSERT_EQ(run.code, 0) << run.err;
    const auto rows = lines_of(run.out);
    const auto header = cells_of(rows.front()), last = cells_of(rows.back());
    for (const char* c : {"x", "y", "theta", "x_dot", "y_dot", "theta_dot"}) {
      const auto k = static_cast<std::size_t>(std::find(header.begin(), header.end(), c) - header.begin());
      ASSERT_LT(k, header.size()) << c;
      EXPECT_EQ(t.at(i, std::string("final_") + c), last[k]) << "case " << i << " " << c;
    }
    // The summary's RHS calls are the row's.
    EXPECT_NE(run.err.find(" " + t.at(i, "rhs_calls") + " RHS calls"), std::string::npos) << run.err;
  }
  // The JSON lines hold the same rows.
  const auto json = lines_of(slurp(dir_ / "out" / "cases.jsonl"));
  ASSERT_EQ(json.size(), 4u);
  EXPECT_NE(json[3].find("\"final_theta\":\"" + t.at(3, "final_theta") + "\""), std::string::npos) << json[3];
}

// An axis over the field backend (nhs::FieldBackend): the generated case is
// `nhs run --generated` digit for digit, the library's `nhs run --library`,
// and the two agree to the tolerance; a backend the study cannot have is a
// refused row naming it.
TEST_F(Sweep, AFieldAxisRunsEachBackend) {
  const fs::path spec = write("spec.toml", R"([run]
t_end = 2
dt_out = 1
rtol = 1e-12
atol = 1e-12
[[axis]]
name = "field"
values = ["library", "generated", "traced", "default"]
)");
  const CliResult r = sweep("skate", spec, dir_ / "out");
  ASSERT_EQ(r.code, 0) << r.err;
  const Table t = table_of(dir_ / "out" / "cases.csv");
  ASSERT_EQ(t.rows.size(), 4u);
  const char* flags[] = {"--library", "--generated"};
  for (std::size_t i = 0; i < 2; ++i) {
    ASSERT_EQ(t.at(i, "status"), "ok") << t.at(i, "reason");
    const CliResult run = nhs({"run", "skate", flags[i], "--rtol", "1e-12", "--atol", "1e-12", "--t-end", "2",
                               "--dt-out", "1"});
    ASSERT_EQ(run.code, 0) << run.err;
    const auto rows = lines_of(run.out);
    const auto header = cells_of(rows.front()), last = cells_of(rows.back());
    const auto k = static_cast<std::size_t>(std::find(header.begin(), header.end(), "x") - header.begin());
    ASSERT_LT(k, header.size());
    EXPECT_EQ(t.at(i, "final_x"), last[k]) << flags[i];
  }
  EXPECT_NEAR(std::stod(t.at(0, "final_x")), std::stod(t.at(1, "final_x")), 1e-10);
  EXPECT_EQ(t.at(2, "status"), "refused");
  EXPECT_NE(t.at(2, "reason").find("built-in study 'skate'"), std::string::npos) << t.at(2, "reason");
  EXPECT_EQ(t.at(3, "status"), "ok") << t.at(3, "reason");
  EXPECT_EQ(t.at(3, "final_x"), t.at(1, "final_x"));  // the default is the generated code
}

// Ranges are decimal (0.1 steps are exact), log ranges hit their decades,
// random samples depend on the seed only; the grid's last axis varies
// fastest and a group varies together; --dry-run lists the same cases.
TEST_F(Sweep, AxesValuesAndTheirGrid) {
  const fs::path spec = write("spec.toml", R"([run]
t_end = 0.1
[[axis]]
name = "m"
range = { from = 0.1, to = 0.5, step = 0.1 }
[[axis]]
name = "tol"
range = { from = 1e-6, to = 1e-9, count = 4, log = true }
group = "g"
[[axis]]
name = "I"
random = { from = 0.5, to = 2, count = 4, seed = 11 }
group = "g"
[sweep]
metrics = ["rhs_calls"]
)");
  const CliResult r = sweep("skate", spec, dir_ / "out", {"--jobs", "2"});
  ASSERT_EQ(r.code, 0) << r.err;
  const Table t = table_of(dir_ / "out" / "cases.csv");
  ASSERT_EQ(t.rows.size(), 20u);
  const std::vector<std::string> m = {"0.1", "0.2", "0.3", "0.4", "0.5"}, tol = {"1e-6", "1e-7", "1e-8", "1e-9"};
  std::set<std::string> random_values;
  for (std::size_t i = 0; i < 20; ++i) {
    EXPECT_EQ(t.at(i, "m"), m[i / 4]);
    EXPECT_EQ(t.at(i, "tol"), tol[i % 4]);
    EXPECT_EQ(t.at(i, "I"), t.at(i % 4, "I"));
    const double I = std::stod(t.at(i, "I"));
    EXPECT_GE(I, 0.5);
    EXPECT_LT(I, 2.0);
    random_values.insert(t.at(i, "I"));
    EXPECT_EQ(t.at(i, "status"), "ok");
  }
  EXPECT_EQ(random_values.size(), 4u);
  // --dry-run lists the same cases and values, runs nothing, writes nothing.
  const CliResult dry = nhs({"sweep", "skate", spec.string(), "--dry-run"});
  ASSERT_EQ(dry.code, 0) << dry.err;
  const auto listed = lines_of(dry.out);
  ASSERT_EQ(listed.size(), 21u);
  EXPECT_EQ(listed[0], "case,m,tol,I");
  for (std::size_t i = 0; i < 20; ++i)
    EXPECT_EQ(listed[i + 1], t.at(i, "case") + "," + t.at(i, "m") + "," + t.at(i, "tol") + "," + t.at(i, "I"));
  EXPECT_NE(dry.err.find("20 cases"), std::string::npos) << dry.err;
  const CliResult no_out = nhs({"sweep", "skate", spec.string()});
  EXPECT_EQ(no_out.code, 2);
  EXPECT_NE(no_out.err.find("--out DIR is required"), std::string::npos) << no_out.err;
  // The same seed in another sweep: the same samples; another seed: others.
  std::string text = slurp(spec);
  const fs::path same = write("same.toml", text + "\n# another file, the same axes\n");
  ASSERT_EQ(sweep("skate", same, dir_ / "same").code, 0);
  EXPECT_EQ(table_of(dir_ / "same" / "cases.csv").at(3, "I"), t.at(3, "I"));
  text.replace(text.find("seed = 11"), 9, "seed = 12");
  const fs::path other = write("other.toml", text);
  ASSERT_EQ(sweep("skate", other, dir_ / "other").code, 0);
  EXPECT_NE(table_of(dir_ / "other" / "cases.csv").at(3, "I"), t.at(3, "I"));
}

// A series has its header's cells on every line, also where an invariant
// is not conserved at a case's parameters (the skate's s on the incline):
// those cells are empty, as in the row. A case refused before its first
// sample has no series; a series is refused beyond 1e6 samples.
TEST_F(Sweep, SeriesLinesHaveTheHeadersCells) {
  const fs::path spec = write("spec.toml", R"([run]
t_end = 2
q = [0, 0, 0]
z = [1, 0.9]
[[axis]]
name = "g"
values = [0, 3]
[[axis]]
name = "dt_out"
values = [0.5, 1e-7]
[sweep]
series = true
)");
  const CliResult r = sweep("skate", spec, dir_ / "out");
  ASSERT_EQ(r.code, 0) << r.err;
  const Table t = table_of(dir_ / "out" / "cases.csv");
  ASSERT_EQ(t.rows.size(), 4u);
  for (std::size_t i : {0u, 2u}) {
    EXPECT_EQ(t.at(i, "status"), "ok");
    const auto ls = lines_of(slurp(dir_ / "out" / "series" / (std::to_string(i) + ".csv")));
    ASSERT_EQ(ls.size(), 6u);
    EXPECT_EQ(ls[0], "t,max_C,energy_error,drift_omega,drift_s");
    for (const auto& l : ls) EXPECT_EQ(cells_of(l).size(), 5u) << l;
    EXPECT_EQ(cells_of(ls[5])[4].empty(), t.at(i, "drift_s").empty()) << i;
  }
  EXPECT_FALSE(t.at(0, "drift_s").empty());
  EXPECT_TRUE(t.at(2, "drift_s").empty());  // g = 3: s is not conserved
  for (std::size_t i : {1u, 3u}) {
    EXPECT_EQ(t.at(i, "status"), "refused");
    EXPECT_NE(t.at(i, "reason").find("at most 1e6 samples a case"), std::string::npos) << t.at(i, "reason");
    EXPECT_FALSE(fs::exists(dir_ / "out" / "series" / (std::to_string(i) + ".csv")));
  }
}

// Cases that fail are rows with their status and reason, and the sweep goes
// on and exits 0: a singular set reached (its name and time), a formulation
// that does not apply, a tolerance below the stepper's floor, the RHS
// budget, and the cases skipped after it along stop_after_budget.
TEST_F(Sweep, FailedCasesAreRowsWithTheirReason) {
  const fs::path singular = write("singular.toml", R"([run]
t_end = 4
dt_out = 1.5
q = [0, 1, 0, 3]
qdot = [-1, 0, -1, 0]
[[axis]]
name = "g"
values = [0.5, 0]
)");
  CliResult r = sweep("parallel-points", singular, dir_ / "singular");
  ASSERT_EQ(r.code, 0) << r.err;
  Table t = table_of(dir_ / "singular" / "cases.csv");
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.at(0, "status"), "singular");
  EXPECT_EQ(t.at(0, "singular_set"), "rank loss of dC/dqdot");
  // Both points, sent against g = 0.5 at speed 1, stop at t = 2.
  EXPECT_NEAR(std::stod(t.at(0, "t_singular")), 2.0, 1e-5);
  EXPECT_EQ(t.at(0, "t_reached"), t.at(0, "t_singular"));
  EXPECT_NE(t.at(0, "reason").find("rank loss of dC/dqdot"), std::string::npos);
  EXPECT_FALSE(t.at(0, "max_C").empty());  // the figures up to the stop are kept
  EXPECT_EQ(t.at(1, "status"), "ok");
  EXPECT_EQ(t.at(1, "singular_set"), "");

  const fs::path budget = write("budget.toml", R"([run]
t_end = 20
max_rhs_calls = 3000
[[axis]]
name = "formulation"
values = ["voronec", "second-kind"]
[[axis]]
name = "precision"
values = ["double", "mp50"]
[[axis]]
name = "tol"
values = ["1e-6", "1e-12", "1e-20", "1e-30"]
[sweep]
stop_after_budget = "tol"
metrics = ["rhs_calls"]
)");
  r = sweep("bipendulum", budget, dir_ / "budget");
  ASSERT_EQ(r.code, 0) << r.err;
  t = table_of(dir_ / "budget" / "cases.csv");
  ASSERT_EQ(t.rows.size(), 16u);
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(t.at(i, "status"), "refused");
    EXPECT_NE(t.at(i, "reason").find("does not apply to 'bipendulum'"), std::string::npos) << t.at(i, "reason");
  }
  EXPECT_EQ(t.at(8, "status"), "ok");
  EXPECT_EQ(t.at(9, "status"), "ok");
  EXPECT_EQ(t.at(10, "status"), "refused");  // 1e-20 in double
  EXPECT_NE(t.at(10, "reason").find("below what"), std::string::npos) << t.at(10, "reason");
  EXPECT_EQ(t.at(12, "status"), "ok");
  EXPECT_EQ(t.at(13, "status"), "budget");  // mp50 at 1e-12 needs more than 3000 calls
  EXPECT_EQ(t.at(13, "rhs_calls"), "3001");
  for (std::size_t i : {14u, 15u}) {
    EXPECT_EQ(t.at(i, "status"), "skipped");
    EXPECT_NE(t.at(i, "reason").find("case 13 before it along tol exceeded the RHS budget"), std::string::npos);
    EXPECT_EQ(t.at(i, "rhs_calls"), "");
  }
  EXPECT_NE(r.err.find("16 of 16 cases done"), std::string::npos) << r.err;
  // No NaN, no inf anywhere in an output that exits 0.
  const std::string all = slurp(dir_ / "budget" / "cases.csv") + slurp(dir_ / "singular" / "cases.csv");
  EXPECT_EQ(all.find("nan"), std::string::npos);
  EXPECT_EQ(all.find("inf"), std::string::npos);
}

// One thread and two write the same files (without wall_time), in case
// order; a rerun of a complete sweep runs nothing.
TEST_F(Sweep, TheSameRowsOnOneThreadAndTwo) {
  const fs::path spec = write("spec.toml", R"([run]
t_end = 5
[[axis]]
name = "formulation"
values = ["second-kind", "first-kind", "gibbs-appell", "maggi"]
[[axis]]
name = "q.theta"
range = { from = 0, to = 1, count = 3 }
[[axis]]
name = "project"
values = [false, true]
[sweep]
metrics = ["t_reached", "steps", "rhs_calls", "max_C", "energy_drift", "invariants", "final_state"]
series = true
)");
  ASSERT_EQ(sweep("rolling-disc", spec, dir_ / "one", {"--jobs", "1"}).code, 0);
  const CliResult two = sweep("rolling-disc", spec, dir_ / "two", {"--jobs", "2"});
  ASSERT_EQ(two.code, 0) << two.err;
  EXPECT_EQ(slurp(dir_ / "one" / "cases.csv"), slurp(dir_ / "two" / "cases.csv"));
  EXPECT_EQ(slurp(dir_ / "one" / "cases.jsonl"), slurp(dir_ / "two" / "cases.jsonl"));
  const Table t = table_of(dir_ / "one" / "cases.csv");
  EXPECT_EQ(t.rows.size(), 24u);
  // Each case's series: a line per sample (t = 0 ... 5 by 0.1), its max |C|
  // and |E - E0| those of the row, the same on both engines.
  for (std::size_t i = 0; i < 24; ++i) {
    const std::string name = std::to_string(i) + ".csv";
    const std::string one = slurp(dir_ / "one" / "series" / name);
    EXPECT_EQ(one, slurp(dir_ / "two" / "series" / name)) << name;
    const auto ls = lines_of(one);
    ASSERT_EQ(ls.size(), 52u) << name;
    EXPECT_EQ(ls[0], "t,max_C,energy_error,drift_psi_dot") << name;
    EXPECT_EQ(cells_of(ls[51])[0], "5");
    double max_C = 0, max_E = 0;
    for (std::size_t k = 1; k < ls.size(); ++k) {
      max_C = std::max(max_C, std::stod(cells_of(ls[k])[1]));
      max_E = std::max(max_E, std::stod(cells_of(ls[k])[2]));
    }
    EXPECT_EQ(max_C, std::stod(t.at(i, "max_C"))) << name;
    if (!t.at(i, "energy_drift").empty()) EXPECT_EQ(max_E, std::stod(t.at(i, "energy_drift"))) << name;
  }
  const CliResult again = sweep("rolling-disc", spec, dir_ / "two");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.err.find("24 of 24 cases done (0 this run, 24 done before"), std::string::npos) << again.err;
  EXPECT_EQ(slurp(dir_ / "one" / "cases.csv"), slurp(dir_ / "two" / "cases.csv"));
}

// A sweep killed (SIGKILL) mid-way keeps its rows; run again, it completes
// with every case exactly once and the rows of an uninterrupted sweep. A
// second sweep into the directory while one runs is refused, a partial
// last line (a kill inside a write) is dropped, a changed spec is not
// resumed, and --restart starts over.
TEST_F(Sweep, ResumesAfterSigkillWithEachCaseOnce) {
  const std::string text = R"([run]
t_end = 400
rtol = 1e-12
[[axis]]
name = "q.theta"
range = { from = 0, to = 1.5, count = 16 }
[sweep]
metrics = ["rhs_calls", "max_C", "energy_drift", "final_state"]
)";
  const fs::path spec = write("spec.toml", text);
  const fs::path out = dir_ / "killed";
#ifdef NHS_CLI_PATH
  const std::string cli = NHS_CLI_PATH;
  std::vector<std::string> args = {cli, "sweep", "rolling-disc", spec.string(), "--out", out.string(), "--jobs", "1"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, (dir_ / "killed.err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, cli.c_str(), &fa, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&fa);
  // Killed once 4 rows (and the header) are on disk.
  const auto t0 = std::chrono::steady_clock::now();
  bool finished = false;
  int status = 0;
  while (lines_of(fs::exists(out / "cases.csv") ? slurp(out / "cases.csv") : "").size() < 5) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      finished = true;
      break;
    }
    ASSERT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 120.0);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (!finished) {
    // A second sweep into the same directory meanwhile: refused, not mixed in.
    const CliResult second = sweep("rolling-disc", spec, out, {"--jobs", "1"});
    EXPECT_EQ(second.code, 2) << second.err;
    EXPECT_NE(second.err.find("another nhs sweep is writing to"), std::string::npos) << second.err;
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  ASSERT_FALSE(finished) << "the sweep ended before it could be killed";
  const std::size_t kept = lines_of(slurp(out / "cases.csv")).size() - 1;
  ASSERT_GE(kept, 4u);
  ASSERT_LT(kept, 16u);
  // A kill inside a write leaves a partial line: one is added here.
  { std::ofstream(out / "cases.csv", std::ios::app) << "15,1.5,ok,,12"; }
  const CliResult resumed = sweep("rolling-disc", spec, out, {"--jobs", "2"});
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("16 of 16 cases done (" + std::to_string(16 - kept) + " this run, " +
                             std::to_string(kept) + " done before"),
            std::string::npos)
      << resumed.err;
  const Table t = table_of(out / "cases.csv");
  ASSERT_EQ(t.rows.size(), 16u);
  for (std::size_t i = 0; i < 16; ++i) EXPECT_EQ(t.at(i, "case"), std::to_string(i));
  EXPECT_EQ(lines_of(slurp(out / "cases.jsonl")).size(), 16u);
  ASSERT_EQ(sweep("rolling-disc", spec, dir_ / "whole").code, 0);
  EXPECT_EQ(slurp(out / "cases.csv"), slurp(dir_ / "whole" / "cases.csv"));
  EXPECT_EQ(slurp(out / "cases.jsonl"), slurp(dir_ / "whole" / "cases.jsonl"));
#endif
  // Another spec in the same directory: refused, then restarted.
  write("spec.toml", text + "[[axis]]\nname = \"dt_out\"\nvalues = [0.5]\n");
  const CliResult changed = sweep("rolling-disc", spec, out);
  EXPECT_EQ(changed.code, 2);
  EXPECT_NE(changed.err.find("holds another sweep"), std::string::npos) << changed.err;
  EXPECT_NE(changed.err.find("--restart"), std::string::npos) << changed.err;
  const CliResult restarted = sweep("rolling-disc", spec, out, {"--restart"});
  EXPECT_EQ(restarted.code, 0) << restarted.err;
  EXPECT_NE(restarted.err.find("16 of 16 cases done (16 this run;"), std::string::npos) << restarted.err;
}

// Specs that cannot be run are refused before any case, with the file, the
// line and the column of the offending value, and exit 2.
TEST_F(Sweep, BadSpecsAreRefusedWithFileLineAndColumn) {
  struct Bad {
    const char* text;
    const char* where;  // line:column
    const char* says;
  };
  const std::vector<Bad> bad = {
      {"[[axis]]\nname = \"mass\"\nvalues = [1]\n", "2:8", "unknown axis 'mass'"},
      {"[[axis]]\nname = \"parameters.mass\"\nvalues = [1]\n", "2:8", "unknown parameter 'mass'"},
      {"[run.parameters]\nmass = 1\n", "2:1", "unknown parameter 'mass'"},
      {"[[axis]]\nname = \"m\"\nvalues = []\n", "3:10", "no values (an empty list)"},
      {"[[axis]]\nname = \"m\"\nrange = { from = 1, to = 0, step = 0.1 }\n", "3:9", "an empty range"},
      {"[[axis]]\nname = \"m\"\nrange = { from = 1, to = 2, count = 0 }\n", "3:37", "an empty axis"},
      {"[[axis]]\nname = \"m\"\nrange = { from = 1, to = 2 }\n", "3:9", "exactly one of count or step"},
      {"[[axis]]\nname = \"m\"\nrandom = { from = 0, to = 1, count = 3 }\n", "3:10", "needs 'seed'"},
      {"[[axis]]\nname = \"tol\"\nrange = { from = 0, to = 1e-6, count = 3, log = true }\n", "3:9",
       "log needs from > 0"},
      {"[[axis]]\nname = \"m\"\nvalues = [1, \"x1\"]\n", "3:14", "malformed number 'x1'"},
      {"[[axis]]\nname = \"m\"\nvalues = [\"1e999\"]\n", "3:11", "not finite in double"},
      {"[[axis]]\nname = \"m\"\nvalues = [1]\n[[axis]]\nname = \"m\"\nvalues = [2]\n", "5:8", "set twice"},
      {"[[axis]]\nname = \"stepper\"\nvalues = [\"rk4\"]\n", "3:11", "unknown stepper 'rk4'"},
      {"[[axis]]\nname = \"q.phi\"\nvalues = [1]\n", "2:8", "unknown coordinate 'phi'"},
      {"[[axis]]\nname = \"m\"\nvalues = [1, 2]\ngroup = \"a\"\n[[axis]]\nname = \"g\"\nvalues = [1]\ngroup = \"a\"\n",
       "5:1", "axes of a group vary together"},
      {"[run]\nmotion = 1\n[[axis]]\nname = \"g\"\nvalues = [1]\n", "3:1", "a motion sets the parameters"},
      {"[run]\ntol = 1e-8\nrtol = 1e-9\n", "3:8", "give tol, or rtol and atol"},
      {"[run]\nq = [0, 0]\n", "2:5", "has 2 values, the system has 3"},
      {"[run]\nsteps = 3\n", "2:1", "unknown key 'steps' in [run]"},
      {"[sweep]\nmetrics = [\"energy\"]\n", "2:12", "unknown metric 'energy'"},
      {"[axis]\nname = \"m\"\n", "1:1", "axes are [[axis]] tables"},
      {"[[axis]]\nname = \"m\"\nvalues = [1\n", "3:13", "TOML syntax"},
      {"[run]\nt_end = -1\n", "2:9", "[run] t_end must be positive, got -1"},
      {"[[axis]]\nname = \"tol\"\nvalues = [1e-8, 0]\n", "3:17", "must be positive, got 0"},
      {"[run]\nmax_rhs_calls = 1.5\n", "2:17", "must be an integer, got 1.5"},
      {"[run]\nmotion = 0\n", "2:10", "must be at least 1, got 0"},
      {"[[axis]]\nname = \"m\"\nvalues = [\"1e-999\"]\n", "3:11", "is 0 in double"},
      {"[[axis]]\nname = \"m\"\nvalues = [1]\ngroup = \"\"\n", "4:9", "non-empty name"},
      {"[[axis]]\nname = \"m\"\nrange = { from = 0, to = 1, count = 1000 }\n[[axis]]\nname = \"g\"\n"
       "range = { from = 0, to = 1, count = 1000 }\n[[axis]]\nname = \"I\"\nrange = { from = 1, to = 2, count = 11 }\n",
       "7:1", "more than the 1e7 a sweep may have"},
      {"[[axis]]\nname = \"m\"\nrange = { from = 0, to = 1, count = 1000000001 }\n", "3:37", "must be at most 1000000"},
      {"[sweep]\nstop_after_budget = \"tol\"\n", "2:21", "which is no axis of this spec"},
  };
  for (const Bad& b : bad) {
    const fs::path spec = write("bad.toml", b.text);
    const CliResult r = sweep("skate", spec, dir_ / "never");
    EXPECT_EQ(r.code, 2) << b.text << "\n" << r.err;
    EXPECT_NE(r.err.find(spec.string() + ":" + b.where + ": "), std::string::npos) << b.text << "\n" << r.err;
    EXPECT_NE(r.err.find(b.says), std::string::npos) << b.text << "\n" << r.err;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "never")) << b.text;
  }
  const CliResult directory = sweep("skate", dir_, dir_ / "never");
  EXPECT_EQ(directory.code, 2);
  EXPECT_NE(directory.err.find("not a regular file"), std::string::npos) << directory.err;
  const CliResult missing = sweep("skate", dir_ / "missing.toml", dir_ / "never");
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("cannot read the sweep spec"), std::string::npos) << missing.err;
  const fs::path ok = write("ok.toml", "[[axis]]\nname = \"m\"\nvalues = [1]\n");
  const CliResult unknown = sweep("no-such-study", ok, dir_ / "never");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("unknown study 'no-such-study'"), std::string::npos) << unknown.err;
}

// Started by an MPI launcher without the MPI engine, nhs sweep refuses
// (every rank would otherwise run the whole sweep into the same files).
TEST_F(Sweep, UnderAnMpiLauncherWithoutItsEngineItRefuses) {
  const fs::path spec = write("spec.toml", "[[axis]]\nname = \"m\"\nvalues = [1]\n");
  setenv("OMPI_COMM_WORLD_SIZE", "3", 1);
  setenv("NHS_SWEEP_MPI_PLUGIN", (dir_ / "no-plugin.so").c_str(), 1);
  const CliResult r = sweep("skate", spec, dir_ / "out");
  unsetenv("OMPI_COMM_WORLD_SIZE");
  unsetenv("NHS_SWEEP_MPI_PLUGIN");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("started by an MPI launcher with 3 ranks"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no-plugin.so: no such file"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

}  // namespace
