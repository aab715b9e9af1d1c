// ctest-labels: unit cli mp files
// Holonomic constraints in system files ([holonomic], docs/system-files.md)
// on tests/systems/cartesian-pendulum.toml, a pendulum of length l in
// Cartesian coordinates held by x^2 + y^2 = l^2 (y its dependent
// coordinate), against the pendulum's closed forms:
//  - admission: y = -sqrt(l^2 - x^2) by Newton's method, to 1e-45 in mp50;
//  - accelerations: x = l sin(theta), y = -l cos(theta), theta'' = -(g/l)
//    sin(theta), in every formulation that applies, to 1e-40 in mp50;
//  - a run from theta = 0 with theta' = 2 k omega: theta(t) = 2 asin(k
//    sn(omega t, k)), k = sin(1/2), omega = sqrt(g/l), to 1e-9 in double,
//    with the drift column holonomic_rod;
//  - the refusals: q off f without dependent coordinates (exit 3, with the
//    residual), a velocity in f, a constant f, a wrong dependent_coordinates.
#include "cli_fixture.hpp"

#include "nhs/scalar.hpp"

#include <boost/math/special_functions/jacobi_elliptic.hpp>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace nhs;
using nhs::test::CliProcessTest;

namespace {

const std::string kPendulum = std::string(NHS_SOURCE_DIR) + "/tests/systems/cartesian-pendulum.toml";

class Holonomic : public CliProcessTest {
 protected:
  nlohmann::json accel(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"accel", kPendulum};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = nhs(args);
    EXPECT_EQ(r.code, 0) << r.err;
    return r.code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json{};
  }
  std::string copy_with(const std::vector<std::pair<std::string, std::string>>& edits, const std::string& name) {
    std::ifstream in(kPendulum);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    for (const auto& [from, to] : edits) {
      const auto at = text.find(from);
      EXPECT_NE(at, std::string::npos) << from;
      if (at != std::string::npos) text.replace(at, from.size(), to);
    }
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
};

const mp50 kM("1.3"), kL("0.9"), kG("9.81");

TEST_F(Holonomic, AdmissionSolvesForTheDependentCoordinate) {
  const auto j = accel({"--precision", "mp50", "--q", "0.5,-0.7", "--z", "1.2"});
  const mp50 y = -sqrt(kL * kL - mp50("0.25"));
  EXPECT_LE(abs(from_string<mp50>(j["q"][1].get<std::string>()) - y), mp50("1e-45"));
  EXPECT_EQ(j["q"][0], "0.5");
  // From the other side of the circle the same Newton's method finds +sqrt.
  const auto k = accel({"--precision", "double", "--q", "0.5,0.6", "--z", "1.2"});
  EXPECT_NEAR(std::stod(k["q"][1].get<std::string>()), std::sqrt(0.81 - 0.25), 1e-15);
}

TEST_F(Holonomic, AccelerationsAreThePendulumsInEveryFormulation) {
  const mp50 x("0.5"), y = -sqrt(kL * kL - x * x), w("1.2");
  const mp50 s = x / kL, c = -y / kL;
  const mp50 thdd = -kG / kL * s;
  const mp50 xdd = kL * (c * thdd - s * w * w), ydd = kL * (s * thdd + c * w * w);
  for (const std::string f : {"first-kind", "second-kind", "maggi", "udwadia-kalaba", "lagrange-multipliers"}) {
    const auto j = accel({"--precision", "mp50", "--formulation", f, "--q", "0.5,-0.7", "--z", "1.2"});
    ASSERT_TRUE(j.contains("qddot")) << f;
    EXPECT_LE(abs(from_string<mp50>(j["qddot"][0].get<std::string>()) - xdd), mp50("1e-40")) << f;
    EXPECT_LE(abs(from_string<mp50>(j["qddot"][1].get<std::string>()) - ydd), mp50("1e-40")) << f;
  }
}

TEST_F(Holonomic, RunFollowsThePendulumAndRecordsTheDrift) {
  const mp50 k = sin(mp50(1) / 2), omega = sqrt(kG / kL);
  const std::string w0 = to_string<mp50>(2 * k * omega);
  const std::string csv = (dir_ / "run.csv").string();
  const auto r = nhs({"run", kPendulum, "--q", "0,-0.9", "--z", w0, "--t-end", "3", "--dt-out", "0.5", "--out", csv});
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("t,x,y,x_dot,y_dot,energy,rod,holonomic_rod,", 0), 0u) << header;
  int rows = 0;
  while (std::getline(in, line)) {
    std::vector<double> v;
    std::stringstream ss(line);
    for (std::string item; std::getline(ss, item, ',');) v.push_back(std::stod(item));
    const double t = v[0];
    double cn = 0, dn = 0;
    const double sn = boost::math::jacobi_elliptic(std::sin(0.5), std::sqrt(9.81 / 0.9) * t, &cn, &dn);
    const double theta = 2 * std::asin(std::sin(0.5) * sn);
    EXPECT_NEAR(v[1], 0.9 * std::sin(theta), 1e-9) << t;
    EXPECT_NEAR(v[2], -0.9 * std::cos(theta), 1e-9) << t;
    EXPECT_LE(std::abs(v[7]), 1e-9) << t;  // holonomic_rod = x^2 + y^2 - l^2
    ++rows;
  }
  EXPECT_EQ(rows, 7);
}

// --project maps q back onto f = 0 after every step (System::
// project_coordinates) before the velocities are projected: the second
// kind's field, only tangent to C, drifts off x^2 + y^2 = l^2 at the level
// of its local error without it.
TEST_F(Holonomic, ProjectKeepsTheRunOnTheConstraint) {
  const auto max_drift = [&](bool project) {
    const std::string csv = (dir_ / (project ? "p.csv" : "n.csv")).string();
    std::vector<std::string> args = {"run", kPendulum, "--formulation", "second-kind", "--rtol", "1e-6",
                                     "--t-end", "50", "--dt-out", "1", "--out", csv};
    if (project) args.push_back("--project");
    const auto r = nhs(args);
    EXPECT_EQ(r.code, 0) << r.err;
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line);
    double drift = 0;
    while (std::getline(in, line)) {
      std::vector<double> v;
      std::stringstream ss(line);
      for (std::string item; std::getline(ss, item, ',');) v.push_back(std::stod(item));
      drift = std::max(drift, std::abs(v[7]));  // holonomic_rod
    }
    return drift;
  };
  const double free = max_drift(false), projected = max_drift(true);
  EXPECT_GT(free, 1e-8);
  EXPECT_LE(projected, 1e-14);
}

TEST_F(Holonomic, Refusals) {
  // Without dependent coordinates, q off f is refused with the residual
  // (the file's own initial q must then be on f: 0.54^2 + 0.72^2 = 0.81).
  const std::string free = copy_with({{"dependent_coordinates = [\"y\"]\n", ""},
                                      {"q = [\"0.5\", \"-0.7\"]", "q = [\"0.54\", \"-0.72\"]"}},
                                     "free.toml");
  auto r = nhs({"accel", free, "--q", "0.5,-0.7", "--z", "1.2"});
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("q is off the holonomic constraints: rod = -0.070000000000000062"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("declare dependent_coordinates"), std::string::npos) << r.err;
  // On f it is taken as given.
  r = nhs({"accel", free, "--q", "0.54,-0.72", "--z", "1.2"});
  EXPECT_EQ(r.code, 0) << r.err;

  const std::string velocity = copy_with({{"rod = \"x^2 + y^2 - l^2\"", "rod = \"x^2 + y^2 - l^2 + x_dot\""}}, "v.toml");
  r = nhs({"list", velocity});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("v.toml:22:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("unknown name 'x_dot'"), std::string::npos) << r.err;

  const std::string constant = copy_with({{"rod = \"x^2 + y^2 - l^2\"", "rod = \"l^2 - 1\""}}, "c.toml");
  r = nhs({"list", constant});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("holonomic constraint rod involves no coordinate"), std::string::npos) << r.err;

  // psi must satisfy the holonomic constraint's velocity form too.
  const std::string psi = copy_with({{"y_dot = \"x*w\"", "y_dot = \"2*x*w\""}}, "psi.toml");
  r = nhs({"list", psi});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("the parametrization does not satisfy the constraints"), std::string::npos) << r.err;

  r = nhs({"list", kPendulum});
  EXPECT_NE(r.out.find("  holonomic: rod (f(q) = 0, in C as df/dq qdot = 0; q admitted onto f by Newton's method on y)"),
            std::string::npos)
      << r.out;

  const std::string wrong = copy_with({{"dependent_coordinates = [\"y\"]", "dependent_coordinates = [\"z\"]"}}, "w.toml");
  r = nhs({"list", wrong});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("dependent_coordinates: 'z' is not a coordinate (coordinates: x, y)"), std::string::npos)
      << r.err;
}

// The constraint's scale does not matter (the admission judges |f| by
// |df/dq|; the rank of the constraints' directions is taken row by row):
// rod written times 4e150 or 3e-160 gives the root and the accelerations of
// rod as written, to the precision, where an absolute residual test refused
// the first after Newton's method had found the root and a rank test
// against 1 took the second for rank 0.
TEST_F(Holonomic, TheConstraintsScaleDoesNotMatter) {
  const std::vector<std::string> state = {"--q", "0.3,-0.8", "--z", "0.7", "--precision", "mp50"};
  const std::vector<std::string> formulations = {"first-kind", "maggi", "udwadia-kalaba"};
  std::vector<nlohmann::json> reference;
  for (const std::string& f : formulations) {
    std::vector<std::string> args = state;
    args.insert(args.end(), {"--formulation", f});
    reference.push_back(accel(args));
  }
  const auto close = [](const nlohmann::json& a, const nlohmann::json& b, const char* key, const char* bound) {
    for (std::size_t i = 0; i < a[key].size(); ++i)
      if (!(abs(from_string<mp50>(a[key][i].get<std::string>()) - from_string<mp50>(b[key][i].get<std::string>())) <=
            mp50(bound)))
        return false;
    return a[key].size() == b[key].size() && !a[key].empty();
  };
  int k = 0;
  for (const std::string scale : {"4e150", "3e-160", "1"}) {
    const std::string path =
        copy_with({{"rod = \"x^2 + y^2 - l^2\"", "rod = \"" + scale + "*(x^2 + y^2 - l^2)\""}},
                  "scaled-" + std::to_string(k++) + ".toml");
    for (std::size_t i = 0; i < formulations.size(); ++i) {
      std::vector<std::string> args = {"accel", path, "--formulation", formulations[i]};
      args.insert(args.end(), state.begin(), state.end());
      // sigma_min(dC/dqdot) is absolute (docs/numerics.md): 3e-160 * 1.7 is
      // within accel's default margin, so it is given as 0 for all scales.
      args.insert(args.end(), {"--singular-margin", "0"});
      const auto r = nhs(args);
      ASSERT_EQ(r.code, 0) << scale << " " << formulations[i] << ": " << r.err;
      const auto j = nlohmann::json::parse(r.out);
      EXPECT_TRUE(close(j, reference[i], "q", "1e-48")) << scale << " " << formulations[i] << ": " << j["q"];
      EXPECT_TRUE(close(j, reference[i], "qddot", "1e-45")) << scale << " " << formulations[i] << ": " << j["qddot"];
    }
    // In double too, by the default formulation and margin for the large scale.
    if (std::string(scale) == "3e-160") continue;
    const auto d = nhs({"accel", path, "--q", "0.3,-0.8", "--z", "0.7"});
    ASSERT_EQ(d.code, 0) << scale << ": " << d.err;
    const auto j = nlohmann::json::parse(d.out);
    EXPECT_NEAR(std::stod(j["q"][1].get<std::string>()), -std::sqrt(0.81 - 0.09), 1e-15) << scale;
  }
}

// At the ends of double's exponent range: a gradient of size 1e-195 has
// squares below the smallest double and one of size 1e195 squares above
// the largest, so that norms taken naively gave 0 (a "singular" root) and
// inf (a "rank loss" of dC/dqdot). The first kind, which never squares
// the constraints, gives the unscaled file's root and accelerations.
TEST_F(Holonomic, TheConstraintsScaleDoesNotMatterInDouble) {
  const std::vector<std::string> state = {"--q", "0.3,-0.8", "--z", "0.7", "--formulation", "first-kind",
                                          "--singular-margin", "0"};
  std::vector<std::string> args = state;
  args.insert(args.begin(), "accel");
  args.insert(args.begin() + 1, kPendulum);
  const auto plain = nhs(args);
  ASSERT_EQ(plain.code, 0) << plain.err;
  const auto reference = nlohmann::json::parse(plain.out);
  int k = 0;
  for (const std::string scale : {"7e195", "2e-195"}) {
    const std::string path =
        copy_with({{"rod = \"x^2 + y^2 - l^2\"", "rod = \"" + scale + "*(x^2 + y^2 - l^2)\""}},
                  "double-scaled-" + std::to_string(k++) + ".toml");
    args[1] = path;
    const auto r = nhs(args);
    ASSERT_EQ(r.code, 0) << scale << ": " << r.err;
    const auto j = nlohmann::json::parse(r.out);
    for (const char* key : {"q", "qddot"})
      for (std::size_t i = 0; i < j[key].size(); ++i) {
        const double a = std::stod(j[key][i].get<std::string>()), b = std::stod(reference[key][i].get<std::string>());
        EXPECT_NEAR(a, b, 1e-14 * (1 + std::abs(b))) << scale << " " << key << "[" << i << "]";
      }
  }
}

// A root where the constraint's gradient vanishes (rod written squared):
// Newton's steps shrink only linearly there (by 1/2 at a double root). The
// file's own initial state is refused (exit 2, the file's error) as a
// singular root, naming the constraint, the state and the shrink factor,
// not as "did not converge" (mp50 needs more steps than Newton is given),
// nor admitted.
TEST_F(Holonomic, AZeroGradientRootIsSingular) {
  const std::string squared =
      copy_with({{"rod = \"x^2 + y^2 - l^2\"", "rod = \"(x^2 + y^2 - l^2)^2\""}}, "squared.toml");
  for (const std::string precision : {"double", "mp50"}) {
    const auto r = nhs({"accel", squared, "--precision", precision});
    EXPECT_EQ(r.code, 2) << precision << ": " << r.err;
    EXPECT_NE(r.err.find("the initial state cannot be evaluated: the holonomic constraint rod has a singular root: "
                         "its gradient df/dq on the dependent coordinates y vanishes there"),
              std::string::npos)
        << precision << ": " << r.err;
    EXPECT_NE(r.err.find("by a factor 0.4999"), std::string::npos) << precision << ": " << r.err;
    EXPECT_NE(r.err.find("multiplicity about 2"), std::string::npos) << precision << ": " << r.err;
    EXPECT_NE(r.err.find("at q = (0.5, -0.7483314773547882"), std::string::npos) << precision << ": " << r.err;
    EXPECT_EQ(r.err.find("did not converge"), std::string::npos) << r.err;
  }
  // Given exactly at such a root, without dependent coordinates: the
  // gradient vanishes at q, a singular state too.
  const std::string at_root = (dir_ / "at-root.toml").string();
  std::ofstream(at_root) << "coordinates = [\"x\", \"y\"]\n[parameters]\nm = \"2\"\n[dynamics]\n"
                            "kinetic_energy = \"m/2*(x_dot^2 + y_dot^2)\"\n[holonomic]\nrod = \"(x - y - 1)^2\"\n"
                            "[initial]\nq = [\"0.25\", \"-0.75\"]\nqdot = [\"1\", \"1\"]\n";
  const auto r = nhs({"accel", at_root, "--formulation", "udwadia-kalaba"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("the holonomic constraint rod is singular at q = (0.25, -0.75): its gradient df/dq vanishes"),
            std::string::npos)
      << r.err;
}

}  // namespace
