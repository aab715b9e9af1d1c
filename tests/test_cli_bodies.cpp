// ctest-labels: unit cli files
// `nhs run` on the bodies examples (examples/bodies/: frames, inertias,
// [[rolling]] and gravity, nothing derived by hand), as a user runs them:
//  - the rattleback (Kane and Levinson's parameters) spun at +5 rad/s about
//    the vertical, slightly rocking, reverses: psi_dot passes 0 once and
//    ends below -4.5 rad/s by t = 10, with |C| and the energy drift at
//    rounding level; spun at -5 rad/s from the mirrored rocking it does not
//    reverse (|psi_dot| > 4.5 to t = 4). The asymmetry is what makes a
//    rattleback (Garcia and Hubbard, Proc. R. Soc. Lond. A 418 (1988) 165;
//    tests/references/rolling_bodies.py records the same run in its model);
//  - the rolling disc's run lists its derived singular margin margin_contact;
//  - the rounded rattleback (surface = "support") watches its smallest
//    radius of curvature at the contact, b^2/c + r at rest (the ellipsoid's
//    radii at its pole, a^2/c and b^2/c, each grown by the rounding ball's
//    r), in units of the smallest on the surface, c^2/a + r; every frame turned by an Euler-angle chart of three coordinates
//    has margin_chart_<frame>, |cos phi| for Rz Rx Ry;
//  - support functions that are not 1-homogeneous, not strictly convex, or
//    that name a coordinate or shadow u's components are refused with exit
//    2, naming rolling[1] support and its position.
#include "cli_fixture.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using nhs::test::CliProcessTest;
using nhs::test::lines_of;

namespace {

const std::string kBodies = std::string(NHS_SOURCE_DIR) + "/examples/bodies/";

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string f; std::getline(in, f, ',');) out.push_back(f);
  return out;
}

// Column `name` of a run's CSV on stdout.
std::vector<double> column(const std::string& csv, const std::string& name) {
  const auto lines = lines_of(csv);
  EXPECT_GT(lines.size(), 2u);
  if (lines.size() < 2) return {};
  const auto header = fields(lines[0]);
  const auto at = std::find(header.begin(), header.end(), name);
  EXPECT_NE(at, header.end()) << name << " in " << lines[0];
  if (at == header.end()) return {};
  std::vector<double> out;
  for (std::size_t i = 1; i < lines.size(); ++i)
    out.push_back(std::stod(fields(lines[i])[static_cast<std::size_t>(at - header.begin())]));
  return out;
}

class BodiesRun : public CliProcessTest {};

TEST_F(BodiesRun, TheRattlebackReversesOneWayOnly) {
  const auto r = nhs({"run", kBodies + "rattleback.toml", "--t-end", "10"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto spin = column(r.out, "psi_dot");
  ASSERT_FALSE(spin.empty());
  EXPECT_EQ(spin.front(), 5);
  int sign_changes = 0;
  for (std::size_t i = 1; i < spin.size(); ++i) sign_changes += (spin[i - 1] > 0) != (spin[i] > 0);
  EXPECT_EQ(sign_changes, 1);
  EXPECT_LT(spin.back(), -4.5);
  for (const std::string c : {"contact_x", "contact_y"})  // the derived no-slip constraints stay at rounding level
    for (const double v : column(r.out, c)) EXPECT_LT(std::abs(v), 1e-12) << c;
  // The other way: -5 rad/s with the rocking mirrored (x_dot = (c - h)
  // theta_dot, y_dot = -(c - h) phi_dot keep the state on C).
  const auto back = nhs({"run", kBodies + "rattleback.toml", "--t-end", "4", "--q", "0,0,0,0,0", "--qdot",
                         "0.0005,-0.0005,-5,0.05,0.05"});
  ASSERT_EQ(back.code, 0) << back.err;
  for (const double w : column(back.out, "psi_dot")) EXPECT_LT(w, -4.5);
}

TEST_F(BodiesRun, TheDiscListsItsDerivedMargin) {
  const auto r = nhs({"run", kBodies + "rolling-disc.toml", "--t-end", "2"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto margin = column(r.out, "margin_contact");
  const auto theta = column(r.out, "theta");
  ASSERT_EQ(margin.size(), theta.size());
  for (std::size_t i = 0; i < margin.size(); ++i) EXPECT_NEAR(margin[i], std::abs(std::cos(theta[i])), 1e-14);
}

TEST_F(BodiesRun, TheRoundedRattlebackWatchesItsCurvatureAndItsChart) {
  const auto r = nhs({"run", kBodies + "rounded-rattleback.toml", "--t-end", "2"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto curvature = column(r.out, "margin_contact");
  ASSERT_FALSE(curvature.empty());
  // In units of the smallest radius on the surface, c^2/a + r at the ends of the long axis.
  const double a = 0.2, b = 0.03, c = 0.02, rounding = 0.005, smallest = c * c / a + rounding;
  EXPECT_NEAR(curvature.front(), (b * b / c + rounding) / smallest, 1e-14);
  for (const double k : curvature) {  // between the smallest and largest radius of the rounded ellipsoid
    EXPECT_GT(k, 1);
    EXPECT_LT(k, (a * a / c + rounding) / smallest);
  }
  const auto chart = column(r.out, "margin_chart_shell"), phi = column(r.out, "phi");
  ASSERT_EQ(chart.size(), phi.size());
  for (std::size_t i = 0; i < chart.size(); ++i) EXPECT_NEAR(chart[i], std::abs(std::cos(phi[i])), 1e-15);
  for (const std::string k : {"contact_x", "contact_y"})
    for (const double v : column(r.out, k)) EXPECT_LT(std::abs(v), 1e-12) << k;
}

TEST_F(BodiesRun, HostileSupportFunctionsAreRefusedByName) {
  std::ifstream in(kBodies + "rounded-rattleback.toml");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string h = "sqrt(a^2*ux^2 + b^2*uy^2 + c^2*uz^2) + r*sqrt(ux^2 + uy^2 + uz^2)";
  ASSERT_NE(text.find(h), std::string::npos);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"a^2*ux^2 + b^2*uy^2 + c^2*uz^2", "is not 1-homogeneous"},
      // the ellipsoid's smallest radius c^2/a = 0.002 less 0.025: not convex at the long axis' ends
      {"sqrt(a^2*ux^2 + b^2*uy^2 + c^2*uz^2) - 0.025*sqrt(ux^2 + uy^2 + uz^2)", "radii of curvature"},
      {"sqrt(ux^2 + uy^2 + uz^2)*(1 + phi)", "unknown name 'phi'"},
      // 1-homogeneous, but sqrt of a negative number about u = -x
      {"sqrt(ux^2 + uy^2 + uz^2)*sqrt(ux/sqrt(ux^2 + uy^2 + uz^2) + 0.5)", "is not defined"},
  };
  for (const auto& [support, reason] : cases) {
    std::string bad = text;
    bad.replace(bad.find(h), h.size(), support);
    const auto path = dir_ / "bad.toml";
    std::ofstream(path) << bad;
    const auto r = nhs({"accel", path.string()});
    EXPECT_EQ(r.code, 2) << support << "\n" << r.err;
    EXPECT_NE(r.err.find("bad.toml:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("rolling[1] support"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(reason), std::string::npos) << support << "\n" << r.err;
  }
  std::string shadow = text;
  shadow.replace(shadow.find("g = {"), 0, "ux = { default = \"1\" }\n");
  std::ofstream(dir_ / "shadow.toml") << shadow;
  const auto r = nhs({"accel", (dir_ / "shadow.toml").string()});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("'ux' is already the name of a parameter"), std::string::npos) << r.err;
}

}  // namespace
