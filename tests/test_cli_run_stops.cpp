// Runs that leave C, runs that grind and runs that stop at a chart's domain
// (issue 57, findings 5, 6 and 16), as `nhs run` and `nhs check` processes
// on tests/systems/rising-point.toml (a point rising with its horizontal
// speed, z_dot = k |u|: the speed v = 3/2 - (4/5) t vanishes at
// T = 15/8, where C is not smooth and psi, followed past it, leaves C),
// rising-point-domain.toml (the same with domain v > 1/2, reached at
// t = 5/4) and turning-blade.toml (Voronec's split singular at t = 1.588).
// ctest-labels: unit cli
#include "cli_fixture.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace nhs {
namespace {

namespace fs = std::filesystem;
using test::CliResult;
using test::lines_of;

const std::string kSystems = std::string(NHS_SOURCE_DIR) + "/tests/systems/";
const std::string kPoint = kSystems + "rising-point.toml";
const std::string kPointDomain = kSystems + "rising-point-domain.toml";
const std::string kBlade = kSystems + "turning-blade.toml";

// The closed forms of the files: v(t) = v0 - g k t / (1 + k^2), v0 = 3/2,
// g = 2, k = 1/2.
constexpr double kRate = 2.0 * 0.5 / (1 + 0.25);  // 4/5
constexpr double kStall = 1.5 / kRate;             // T = 15/8: v = 0
constexpr double kBoundary = (1.5 - 0.5) / kRate;   // 5/4: v = 1/2

// The step floor's documented bound (nhs/integrate.hpp, "Step-size
// collapse"): a collapsed run stops within about 1e5 RHS calls of the
// collapse. The motion before it is polynomial (a few hundred calls).
constexpr double kCollapseCalls = 1e5;

// The number after `key` in `text` (NaN when absent).
double number_after(const std::string& text, const std::string& key) {
  const std::size_t k = text.find(key);
  if (k == std::string::npos) return std::nan("");
  return std::stod(text.substr(k + key.size()));
}

// The RHS calls of a run's summary line ("..., 123 RHS calls").
double rhs_calls(const std::string& err) {
  const std::size_t k = err.find(" RHS calls");
  if (k == std::string::npos) return std::nan("");
  std::size_t b = k;
  while (b > 0 && std::isdigit(static_cast<unsigned char>(err[b - 1]))) --b;
  return std::stod(err.substr(b, k - b));
}

class RunStops : public test::CliProcessTest {};

// Finding 5: the formulations in (q, z) follow psi past v = 0, where
// psi(q, z) no longer satisfies C: each stops there with exit 3 naming the
// constraint and the time, in every precision; the rows before are kept.
TEST_F(RunStops, LeavingCIsAnInvalidState) {
  for (const char* precision : {"double", "long-double", "float128", "mp50"})
    for (const char* f : {"first-kind", "maggi"}) {
      if (std::string(precision) == "mp50" && std::string(f) == "maggi") continue;  // the same watch
      const fs::path csv = dir_ / "left.csv";
      const CliResult r = nhs({"run", kPoint, "--formulation", f, "--precision", precision, "--t-end", "3",
                               "--dt-out", "0.25", "--out", csv.string()});
      const std::string what = std::string(f) + " " + precision + ": " + r.err;
      EXPECT_EQ(r.code, 3) << what;
      EXPECT_NE(r.err.find("the constraint rise = "), std::string::npos) << what;
      EXPECT_NE(r.err.find("[parametrization] domain"), std::string::npos) << what;
      // |C| = 2 k |v| = (4/5) (t - T) passes the round-off bound (at most
      // 1e-9 x (1 + |qdot|^2)) within 1e-8 of T (read as a double: T
      // itself from long double on).
      const double t = number_after(r.err, "left the constraint manifold C at t = ");
      EXPECT_GE(t, kStall) << what;
      EXPECT_LT(t - kStall, 1e-8) << what;
      // The rows at 0, 0.25, ..., 1.75 (header first) are kept.
      const auto rows = lines_of(test::slurp(csv));
      ASSERT_EQ(rows.size(), 9u) << what;
      EXPECT_EQ(rows.back().rfind("1.75", 0), 0u) << rows.back();
    }
}

// Finding 6 (b): the fields in (q, qdot) chatter about u = 0 after T; the
// step floor stops them with exit 4 within the documented 1e5 RHS calls.
TEST_F(RunStops, GrindingIsAStepCollapse) {
  for (const char* precision : {"double", "long-double", "float128", "mp50"})
    for (const char* f : {"second-kind", "udwadia-kalaba", "lagrange-multipliers"}) {
      if (std::string(precision) == "mp50" && std::string(f) != "second-kind") continue;
      const fs::path csv = dir_ / "ground.csv";
      // verner87, the default up to long double: Bulirsch-Stoer, the
      // default above, steps over the point unseen (noted in
      // docs/numerics.md, "Step-size collapse").
      const CliResult r = nhs({"run", kPoint, "--formulation", f, "--precision", precision, "--stepper", "verner87",
                               "--t-end", "3", "--dt-out", "0.25", "--out", csv.string()});
      const std::string what = std::string(f) + " " + precision + ": " + r.err;
      EXPECT_EQ(r.code, 4) << what;
      const double t = number_after(r.err, "step size collapsed at t = ");
      EXPECT_NEAR(t, kStall, 1e-3) << what;
      EXPECT_NE(r.err.find("the field is not smooth or is stiff here"), std::string::npos) << what;
      EXPECT_LT(rhs_calls(r.err), 2 * kCollapseCalls) << what;
      const auto rows = lines_of(test::slurp(csv));
      ASSERT_EQ(rows.size(), 9u) << what;  // 0 .. 1.75, kept
    }
}

// Finding 6 (a): with domain v > 1/2, every formulation stops at the
// boundary, t = 5/4: those in (q, qdot) within the default
// --singular-margin 1e-6 of it (the watch names the time); those in (q, z)
// where psi refuses a z beyond it; the rows before (0, 0.5, 1) are kept.
TEST_F(RunStops, EveryFormulationStopsAtTheChartsDomain) {
  for (const char* f : {"first-kind", "maggi", "second-kind", "udwadia-kalaba", "lagrange-multipliers"}) {
    const fs::path csv = dir_ / "domain.csv";
    const CliResult r = nhs({"run", kPointDomain, "--formulation", f, "--t-end", "3", "--dt-out", "0.5", "--out",
                             csv.string()});
    const std::string what = std::string(f) + ": " + r.err;
    EXPECT_EQ(r.code, 3) << what;
    EXPECT_NE(r.err.find("v > 1/2"), std::string::npos) << what;
    const auto rows = lines_of(test::slurp(csv));
    ASSERT_EQ(rows.size(), 4u) << what;
    EXPECT_EQ(rows.back().rfind("1,", 0), 0u) << rows.back();
    if (std::string(f) == "first-kind" || std::string(f) == "maggi") {
      EXPECT_NE(r.err.find("z is outside the domain of the parametrization"), std::string::npos) << what;
      continue;
    }
    const double t = number_after(r.err, "reached at t = ");
    EXPECT_LE(t, kBoundary) << what;
    EXPECT_GT(t, kBoundary - 1e-5) << what;
  }
}

// `nhs check` of the file without a domain ends with a verdict: its runs
// through T fail by name (psi leaving C; the step collapse), exit 1.
TEST_F(RunStops, CheckEndsWithAVerdict) {
  const fs::path out = dir_ / "check";
  const CliResult r = nhs({"check", kPoint, "--precision", "double", "--quick", "--states", "4", "--jobs", "1",
                           "--no-report", "--out-dir", out.string()});
  EXPECT_EQ(r.code, 1) << r.err << r.out;
  const auto j = nlohmann::json::parse(test::slurp(out / "summary.json"));
  bool left = false, collapsed = false;
  for (const auto& line : j["failures"]) {
    const std::string s = line.get<std::string>();
    left = left || (s.find("first-kind") != std::string::npos && s.find("left the constraint manifold C") != std::string::npos);
    collapsed = collapsed || (s.find("second-kind") != std::string::npos && s.find("step size collapsed") != std::string::npos);
  }
  EXPECT_TRUE(left) << j["failures"].dump(1);
  EXPECT_TRUE(collapsed) << j["failures"].dump(1);
  for (const auto& run : j["runs"]) EXPECT_LT(run["t_last"].get<double>(), kStall + 1e-3) << run.dump();
}

// Finding 16: a Voronec run stopped on its split's singular set says how
// the file declares it. (`nhs check` runs without a margin: its Voronec run
// steps over this set and fails on its energy drift instead.)
TEST_F(RunStops, VoronecSplitSuggestsInitialExcluded) {
  const CliResult r = nhs({"run", kBlade, "--formulation", "voronec", "--t-end", "3"});
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("singular dependent block of dC/dqdot"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[initial] excluded = { voronec = "), std::string::npos) << r.err;
  EXPECT_NEAR(number_after(r.err, "reached at t = "), (M_PI / 2 - 0.3) / 0.8, 1e-5) << r.err;
}

}  // namespace
}  // namespace nhs
