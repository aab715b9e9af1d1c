// `nhs accel` and `nhs run` on systems whose metric g is only positive
// semidefinite (issue 23): the linear bipendulum at m0 = 0, where y0dd is
// undetermined and every formulation refuses by name (exit 3), and the
// Chaplygin sleigh with I = 0 (a massless turning, fixed by the blade),
// where the formulations that do not invert g answer (exit 0) and the
// second kind refuses; and the massless-trailer study, where udwadia-kalaba
// is the default.
// ctest-labels: unit cli
#include "cli_fixture.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace nhs {
namespace {

namespace fs = std::filesystem;

using Result = test::CliResult;
using CliSemidefinite = test::CliProcessTest;

// The Chaplygin sleigh of examples/chaplygin-sleigh.toml, without its
// invariants and exact motion: T = m/2 |v|^2 + I/2 thetad^2, the blade a
// behind the point (x, y). With I = 0, g = diag(m, m, 0), and the blade
// fixes thetad: [g; A] has full rank.
const char* const kSleigh =
    "name = \"sleigh\"\n"
    "coordinates = [\"x\", \"y\", \"theta\"]\n"
    "quasi_velocities = [\"v\", \"omega\"]\n"
    "dependent_velocities = [\"theta\"]\n"
    "[parameters]\n"
    "m = { default = \"1\", meaning = \"mass\" }\n"
    "I = { default = \"0.5\", meaning = \"moment of inertia\" }\n"
    "a = { default = \"0.4\", meaning = \"blade distance\" }\n"
    "[dynamics]\n"
    "kinetic_energy = \"m/2*(x_dot^2 + y_dot^2) + I/2*theta_dot^2\"\n"
    "[constraints]\n"
    "blade = \"-x_dot*sin(theta) + y_dot*cos(theta) - a*theta_dot\"\n"
    "[parametrization]\n"
    "x_dot = \"v*cos(theta) - a*omega*sin(theta)\"\n"
    "y_dot = \"v*sin(theta) + a*omega*cos(theta)\"\n"
    "theta_dot = \"omega\"\n"
    "[chart]\n"
    "v = \"x_dot*cos(theta) + y_dot*sin(theta)\"\n"
    "omega = \"theta_dot\"\n"
    "[initial]\n"
    "q = [\"0.3\", \"-0.2\", \"0.7\"]\n"
    "z = [\"-1\", \"0.8\"]\n"
    "[[bodies]]\n"
    "mass = \"m\"\n"
    "position = [\"x\", \"y\"]\n"
    "angular_velocity = \"theta_dot\"\n"
    "inertia = \"I\"\n";

// The values of the JSON array "key": [...] of accel's output.
std::vector<double> json_vector(const std::string& out, const std::string& key) {
  std::vector<double> v;
  std::size_t at = out.find("\"" + key + "\": [");
  if (at == std::string::npos) return v;
  const std::size_t end = out.find(']', at);
  at = out.find('[', at);
  while (true) {
    const std::size_t open = out.find('"', at + 1);
    if (open == std::string::npos || open > end) break;
    const std::size_t close = out.find('"', open + 1);
    v.push_back(std::stod(out.substr(open + 1, close - open - 1)));
    at = close;
  }
  return v;
}

TEST_F(CliSemidefinite, LinearBipendulumAtZeroM0IsRefusedByNameInEveryFormulation) {
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"udwadia-kalaba", "accelerations undetermined"},
      {"first-kind", "singular G = psi^T g psi"},
      {"maggi", "singular Maggi matrix"},
      {"gibbs-appell", "singular Appellian Hessian"},
      {"second-kind", "singular metric g"},
      {"lagrange-multipliers", "singular KKT matrix"},
      {"voronec", "singular reduced metric Gbar"}};
  for (const auto& [formulation, condition] : expected) {
    const Result r = nhs({"accel", "linear-bipendulum", "--param", "m0=0", "--formulation",
                          formulation});
    EXPECT_EQ(r.code, 3) << formulation << ": " << r.err;
    EXPECT_EQ(r.err.rfind("nhs: error: singular state: " + condition, 0), 0u)
        << formulation << ": " << r.err;
    EXPECT_EQ(r.err.find("nan"), std::string::npos) << r.err;
  }
  const Result uk_named = nhs({"accel", "linear-bipendulum", "--param", "m0=0", "--formulation",
                               "udwadia-kalaba"});
  EXPECT_NE(uk_named.err.find("free along the direction (y0 = 1)"), std::string::npos)
      << uk_named.err;
  const Result run = nhs({"run", "linear-bipendulum", "--param", "m0=0", "--formulation",
                          "udwadia-kalaba", "--t-end", "1", "--out",
                          (dir_ / "lb.csv").string()});
  EXPECT_EQ(run.code, 3) << run.err;
  EXPECT_NE(run.err.find("accelerations undetermined"), std::string::npos) << run.err;
}

TEST_F(CliSemidefinite, SleighWithoutInertiaAnswersWhereGIsNotInverted) {
  const fs::path file = dir_ / "sleigh.toml";
  std::ofstream(file) << kSleigh;
  std::vector<double> reference;
  for (const char* formulation : {"udwadia-kalaba", "first-kind", "maggi", "gibbs-appell",
                                  "lagrange-multipliers", "voronec"}) {
    const Result r =
        nhs({"accel", file.string(), "--param", "I=0", "--formulation", formulation});
    ASSERT_EQ(r.code, 0) << formulation << ": " << r.err;
    const std::vector<double> qdd = json_vector(r.out, "qddot");
    ASSERT_EQ(qdd.size(), 3u) << r.out;
    for (double x : qdd) EXPECT_TRUE(std::isfinite(x)) << formulation << ": " << r.out;
    if (reference.empty()) reference = qdd;
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(qdd[i], reference[i], 1e-12 * (1 + std::abs(reference[i])))
          << formulation << " qddot[" << i << "]";
  }
  // With I = 0 the theta row reads 0 = -a lambda: no reaction, the point
  // moves uniformly (xdd = ydd = 0), and the blade turns the heading:
  // differentiating xdot = v cos - a omega sin (and ydot) at xdd = ydd = 0
  // gives omega_dot = -v omega / a = -(-1)(0.8)/0.4 = 2.
  ASSERT_EQ(reference.size(), 3u);
  EXPECT_NEAR(reference[0], 0, 1e-14);
  EXPECT_NEAR(reference[1], 0, 1e-14);
  EXPECT_NEAR(reference[2], 2, 1e-13);
  const Result second =
      nhs({"accel", file.string(), "--param", "I=0", "--formulation", "second-kind"});
  EXPECT_EQ(second.code, 3) << second.err;
  EXPECT_EQ(second.err.rfind("nhs: error: singular state: singular metric g", 0), 0u) << second.err;
  EXPECT_NE(second.err.find("udwadia-kalaba"), std::string::npos) << second.err;
  for (const char* formulation : {"udwadia-kalaba", "first-kind", "lagrange-multipliers"}) {
    const Result run = nhs({"run", file.string(), "--param", "I=0", "--formulation", formulation,
                            "--t-end", "2", "--dt-out", "1", "--out",
                            (dir_ / "sleigh.csv").string()});
    EXPECT_EQ(run.code, 0) << formulation << ": " << run.err;
    EXPECT_NE(run.err.find("integrated sleigh"), std::string::npos) << run.err;
  }
}

// The massless-trailer study and its system file (g = diag(m, m, 0)
// everywhere): without --formulation, accel and run use udwadia-kalaba
// (M_A), and the second kind is refused as not applicable (exit 2) with
// the formulations that apply. At the default state (q = (0, 0, 0.5),
// qdot = psi(q, (1, 0.3))) the theta row 0 = -k sin(theta) + lambda L gives
// lambda = k sin(theta)/L, and P's rows m xdd = m g + lambda sin(theta),
// m ydd = -lambda cos(theta) (docs/studies.md, massless-trailer).
TEST_F(CliSemidefinite, MasslessTrailerDefaultsToUdwadiaKalaba) {
  const double m = 1.3, L = 0.7, k = 0.9, g = 0.4, theta = 0.5;
  const double lambda = k * std::sin(theta) / L;
  for (const std::string system :
       {std::string("massless-trailer"), std::string(NHS_SOURCE_DIR) + "/studies/files/massless_trailer.toml"}) {
    const Result r = nhs({"accel", system});
    ASSERT_EQ(r.code, 0) << system << ": " << r.err;
    EXPECT_NE(r.out.find("\"formulation\": \"udwadia-kalaba\""), std::string::npos) << r.out;
    const std::vector<double> qdd = json_vector(r.out, "qddot"), lam = json_vector(r.out, "multipliers");
    ASSERT_EQ(qdd.size(), 3u) << r.out;
    ASSERT_EQ(lam.size(), 1u) << r.out;
    EXPECT_NEAR(lam[0], lambda, 1e-14) << system;
    EXPECT_NEAR(qdd[0], g + lambda * std::sin(theta) / m, 1e-14) << system;
    EXPECT_NEAR(qdd[1], -lambda * std::cos(theta) / m, 1e-14) << system;
    const Result second = nhs({"accel", system, "--formulation", "second-kind"});
    EXPECT_EQ(second.code, 2) << system << ": " << second.err;
    EXPECT_NE(second.err.find("only positive semidefinite"), std::string::npos) << second.err;
    EXPECT_NE(second.err.find("udwadia-kalaba"), std::string::npos) << second.err;
    const Result run = nhs({"run", system, "--t-end", "2", "--dt-out", "1", "--out",
                            (dir_ / "trailer.csv").string()});
    EXPECT_EQ(run.code, 0) << system << ": " << run.err;
    EXPECT_NE(run.err.find("with udwadia-kalaba"), std::string::npos) << run.err;
  }
}

}  // namespace
}  // namespace nhs
