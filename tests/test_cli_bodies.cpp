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
//  - the rolling disc's run lists its derived singular margin margin_contact.
#include "cli_fixture.hpp"

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

}  // namespace
