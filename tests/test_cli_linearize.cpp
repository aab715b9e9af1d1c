// ctest-labels: unit cli mp
// `nhs linearize` and `nhs stability` (docs/linearization.md) against
// closed forms, in double (1e-12) and mp50 (1e-40):
//  - the rolling coin (examples/rolling-coin.toml) upright at speed V:
//    eigenvalues 0 and +-sqrt(-k(V)), k(V) = (A (A + m R^2) Omega^2/B -
//    m g R)/(B + m R^2), Omega = V/R; its ignorable coordinates x, y, psi,
//    phi; the same spectrum from first-kind and gibbs-appell; the threshold
//    V_c = R sqrt(m g R B/(A (A + m R^2))) found by `nhs stability`;
//  - the Chaplygin sleigh's straight line (examples/chaplygin-sleigh.toml):
//    the eigenvalue -m a V/(I + m a^2) and the crossing at V = 0;
//  - a linear system (tests/systems/damped-leaf.toml): the roots of
//    m (1 + a^2) l^2 + c (1 + a^2) l + (k1 + k2 a^2);
//  - the refusals: an unknown family, a missing --at, second-kind, a state
//    that is not steady (exit 3), a bad range, a family parameter that
//    takes a name of the system (with the file position);
//  - the sleigh beside a decoupled stiff spring (k = 1e6, 1e10, 1e14): the
//    unstable eigenvalue is decided unstable in double, within its bound of
//    the closed form and of mp50, and `stability` finds the crossing at 0;
//  - a family written at a scale of 1e12 or 1e-8 (z = (1e12 U, 0));
//  - overflow (exit 4, no inf printed), huge and overflowing grids (exit 2),
//    the wall-time budget (exit 4) and SIGINT (exit 130), the rows so far
//    kept; the user's --to echoed; maggi refused for its own reason;
//  - `linearize --animate` (ModeAnimation): the bicycle's weave at 4 m/s
//    drawn at eps and eps/2 is linear in eps, its front contact's height
//    (the holonomic constraint) O(eps^2), and `nhs run` from the drawn
//    initial state grows by e^(Re lambda T) over the period; the refusals;
//  - a fuzz generator of linearize/stability arguments (LinearizeFuzz:
//    fixed seeds; LinearizeFuzzRandomSeed: a new one, labels fuzz;slow):
//    every exit code is documented, and an exit 0 prints no NaN or inf.
#include "cli_fixture.hpp"
#include "cli_outcome.hpp"

#include "nhs/scalar.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <sstream>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <cmath>
#include <random>

using namespace nhs;
using nhs::test::CliProcessTest;

namespace {

const std::string kSource = NHS_SOURCE_DIR;
const std::string kCoin = kSource + "/examples/rolling-coin.toml";
const std::string kSleigh = kSource + "/examples/chaplygin-sleigh.toml";
const std::string kLeaf = kSource + "/tests/systems/damped-leaf.toml";

// Coin parameters away from the uniform disc's, so that no coincidence hides a wrong term.
const std::vector<std::string> kCoinParams = {"--param", "m=1.3", "--param", "R=0.8", "--param", "A=0.37",
                                              "--param", "B=0.21", "--param", "g=9.81"};

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

template <class S>
S num(const nlohmann::json& j) {
  return from_string<S>(j.get<std::string>());
}

template <class S>
S tolerance() {
  if constexpr (std::is_same_v<S, double>) return S(1e-12);
  else return S(1) / S("1e40");
}

template <class S>
std::string precision() {
  return std::is_same_v<S, double> ? "double" : "mp50";
}

// k(V) of the coin with kCoinParams: lambda^2 = -k on the tilt-heading block.
template <class S>
S coin_k(const S& V) {
  const S m = S(13) / 10, R = S(8) / 10, A = S(37) / 100, B = S(21) / 100, g = S(981) / 100;
  const S Omega = V / R;
  return (A * (A + m * R * R) * Omega * Omega / B - m * g * R) / (B + m * R * R);
}

class Linearize : public CliProcessTest {
 protected:
  template <class S>
  void coin_spectrum(const std::string& formulation, const std::string& V) {
    const auto j = json_of(std::vector<std::string>{"linearize", kCoin, "--steady", "upright", "--at", "V=" + V,
                                                    "--formulation", formulation, "--precision", precision<S>()} +
                           kCoinParams);
    ASSERT_TRUE(j.contains("eigenvalues"));
    EXPECT_EQ(j["cyclic"], nlohmann::json({"x", "y", "psi", "phi"}));
    EXPECT_EQ(j["reduced"], nlohmann::json({"theta", "thetad", "psid", "phid"}));
    const S k = coin_k<S>(from_string<S>(V));
    using std::sqrt;
    const S w = sqrt(abs(k));
    const auto& ev = j["eigenvalues"];
    ASSERT_EQ(ev.size(), 3u);
    // Sorted by real part, then imaginary part, decreasing.
    std::vector<std::pair<S, S>> expected;
    if (k > 0) expected = {{S(0), w}, {S(0), S(0)}, {S(0), -w}};
    else expected = {{w, S(0)}, {S(0), S(0)}, {-w, S(0)}};
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_LE(abs(num<S>(ev[i]["re"]) - expected[i].first), tolerance<S>() * (1 + w)) << formulation << " " << i;
      EXPECT_LE(abs(num<S>(ev[i]["im"]) - expected[i].second), tolerance<S>() * (1 + w)) << formulation << " " << i;
    }
    EXPECT_EQ(j["verdict"], k > 0 ? "linearly stable, not asymptotically: eigenvalues on the imaginary axis"
                                  : "unstable");
    for (const auto& z : j["zero_eigenvalues"]["family"]) EXPECT_LE(abs(num<S>(z["re"])), tolerance<S>());
    for (const auto& z : j["zero_eigenvalues"]["cyclic"]) EXPECT_LE(abs(num<S>(z["re"])), tolerance<S>());
    EXPECT_LE(num<S>(j["residuals"]["steady"]), tolerance<S>());
    EXPECT_LE(num<S>(j["residuals"]["family"]), tolerance<S>());
  }

  template <class S>
  void coin_threshold() {
    const auto j = json_of(std::vector<std::string>{"stability", kCoin, "--steady", "upright", "--from", "0.5", "--to",
                                                    "4", "--points", "12", "--precision", precision<S>()} +
                           kCoinParams);
    ASSERT_TRUE(j.contains("crossings"));
    ASSERT_EQ(j["crossings"].size(), 1u) << j.dump(2);
    const auto& c = j["crossings"][0];
    const S m = S(13) / 10, R = S(8) / 10, A = S(37) / 100, B = S(21) / 100, g = S(981) / 100;
    using std::sqrt;
    const S Vc = R * sqrt(m * g * R * B / (A * (A + m * R * R)));
    EXPECT_LE(abs(num<S>(c["at"]) - Vc), tolerance<S>() * Vc) << c.dump();
    EXPECT_EQ(c["kind"], "real");
    EXPECT_EQ(c["unstable_below"], 1);
    EXPECT_EQ(c["unstable_above"], 0);
  }
};

TEST_F(Linearize, CoinSpectrumStableAndUnstableInDoubleAndMp50) {
  for (const std::string f : {"first-kind", "gibbs-appell"}) {
    coin_spectrum<double>(f, "3");
    coin_spectrum<double>(f, "1.1");
    coin_spectrum<mp50>(f, "3");
    coin_spectrum<mp50>(f, "1.1");
  }
}

TEST_F(Linearize, CoinThresholdInDoubleAndMp50) {
  coin_threshold<double>();
  coin_threshold<mp50>();
}

// The uniform disc written as a body (examples/bodies/rolling-disc.toml: a
// frame, its inertia, a rolling knife-edge and gravity; nhs derives T, V,
// the height and the no-slip constraints): its upright rolling turns stable
// at V_c^2 = g R/3 whatever m (O'Reilly 1996), found by `nhs stability`.
template <class S>
void disc_threshold(const nlohmann::json& j) {
  ASSERT_EQ(j["crossings"].size(), 1u) << j.dump(2);
  const auto& c = j["crossings"][0];
  using std::sqrt;
  const S Vc = sqrt(S(981) / 100 * S(8) / 10 / 3);
  EXPECT_LE(abs(num<S>(c["at"]) - Vc), tolerance<S>() * Vc) << c.dump();
  EXPECT_EQ(c["unstable_below"], 1);
  EXPECT_EQ(c["unstable_above"], 0);
}

TEST_F(Linearize, UniformDiscAsABodyTurnsStableAtTheClosedFormSpeed) {
  const std::string disc = kSource + "/examples/bodies/rolling-disc.toml";
  for (const std::string p : {"double", "mp50"}) {
    const auto j = json_of({"stability", disc, "--steady", "upright", "--from", "0.5", "--to", "4", "--points", "12",
                            "--precision", p, "--param", "m=1.3", "--param", "R=0.8", "--param", "g=9.81"});
    ASSERT_TRUE(j.contains("crossings")) << j.dump(2);
    if (p == "double") disc_threshold<double>(j);
    else disc_threshold<mp50>(j);
  }
}

// A holonomic constraint on a coordinate that is cyclic in the rest of the
// field (issue 59): the rolling disc with its centre's height zc as a
// coordinate, held by `height` = zc - R cos(theta)
// (tests/systems/hoop-height.toml), was refused ("depends on the ignorable
// coordinate 'zc'"). zc now stays with its constraint: the same eigenvalues
// as the coin without zc (examples/rolling-coin.toml) at V = 2, zc not
// cyclic, and the uniform disc's upright threshold V_c^2 = g R/3 (A = m
// R^2/2, B = m R^2/4 at R = 0.8), in double and mp50.
TEST_F(Linearize, HoopWithItsHeightAsACoordinateHasTheCoinsSpectrum) {
  const std::string hoop = kSource + "/tests/systems/hoop-height.toml", coin = kSource + "/examples/rolling-coin.toml";
  for (const std::string p : {"double", "mp50"}) {
    const auto h = json_of({"linearize", hoop, "--steady", "upright", "--at", "V=2", "--precision", p});
    const auto c = json_of({"linearize", coin, "--steady", "upright", "--at", "V=2", "--precision", p});
    ASSERT_TRUE(h.contains("eigenvalues")) << h.dump(2);
    EXPECT_EQ(h["cyclic"], nlohmann::json({"x", "y", "psi", "phi"}));
    ASSERT_EQ(h["eigenvalues"].size(), c["eigenvalues"].size()) << h.dump(2);
    for (std::size_t k = 0; k < c["eigenvalues"].size(); ++k)
      for (const char* part : {"re", "im"}) {
        if (p == "double")
          EXPECT_NEAR(num<double>(h["eigenvalues"][k][part]), num<double>(c["eigenvalues"][k][part]), 1e-12) << k;
        else
          EXPECT_LE(abs(num<mp50>(h["eigenvalues"][k][part]) - num<mp50>(c["eigenvalues"][k][part])), mp50("1e-40"));
      }
    const auto s = json_of({"stability", hoop, "--steady", "upright", "--from", "0.5", "--to", "4", "--points", "12",
                            "--precision", p, "--param", "R=0.8", "--param", "A=0.32", "--param", "B=0.16"});
    if (p == "double") disc_threshold<double>(s);
    else disc_threshold<mp50>(s);
  }
}

// The bundled Whipple bicycle, written as bodies (examples/bicycle/
// whipple-bicycle.toml, psi derived from its dependent velocities):
// Meijaard et al. (2007) Table 2's weave and capsize speeds,
// 4.29238253634111 and 6.02426201538837, to 1e-13 in double; in mp50 the
// crossings of the file generated by sympy (whipple-bicycle-generated.toml)
// to 1e-40 (python/tests/test_bicycle.py holds the bundled file's to
// Appendix A's closed form).
TEST_F(Linearize, BicycleAsBodiesHasMeijaardsSpeeds) {
  const std::string dir = kSource + "/examples/bicycle/";
  const auto speeds = [&](const std::string& file, const std::string& precision) {
    const auto j = json_of({"stability", dir + file, "--steady", "upright", "--from", "4", "--to", "6.5", "--points",
                            "6", "--precision", precision});
    std::vector<std::string> at;
    for (const auto& c : j["crossings"]) at.push_back(c["at"].get<std::string>());
    return at;
  };
  const auto d = speeds("whipple-bicycle.toml", "double");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_NEAR(std::stod(d[0]), 4.29238253634111, 1e-13);
  EXPECT_NEAR(std::stod(d[1]), 6.02426201538837, 1e-13);
  const auto mp = speeds("whipple-bicycle.toml", "mp50"), generated = speeds("whipple-bicycle-generated.toml", "mp50");
  ASSERT_EQ(mp.size(), 2u);
  ASSERT_EQ(generated.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k)
    EXPECT_LE(abs(num<mp50>(nlohmann::json(mp[k])) - num<mp50>(nlohmann::json(generated[k]))), tolerance<mp50>())
        << mp[k] << " vs " << generated[k];
}

TEST_F(Linearize, SleighStraightLine) {
  for (const std::string p : {"double", "mp50"}) {
    const auto j = json_of({"linearize", kSleigh, "--steady", "straight", "--at", "V=2", "--precision", p, "--param",
                            "m=1.7", "--param", "I=0.3", "--param", "a=0.45"});
    ASSERT_EQ(j["eigenvalues"].size(), 1u);
    EXPECT_EQ(j["cyclic"], nlohmann::json({"x", "y", "theta"}));
    const mp50 expected = -mp50("1.7") * mp50("0.45") * 2 / (mp50("0.3") + mp50("1.7") * mp50("0.45") * mp50("0.45"));
    const mp50 tol = p == "double" ? mp50("1e-12") : mp50("1e-40");
    EXPECT_LE(abs(num<mp50>(j["eigenvalues"][0]["re"]) - expected), tol) << p;
    EXPECT_EQ(j["verdict"], "asymptotically stable");
  }
  const auto s = json_of({"stability", kSleigh, "--steady", "straight", "--from", "-1", "--to", "1.3", "--points",
                          "8", "--precision", "mp50"});
  ASSERT_EQ(s["crossings"].size(), 1u);
  EXPECT_LE(abs(num<mp50>(s["crossings"][0]["at"])), mp50("1e-40"));
  EXPECT_EQ(s["crossings"][0]["unstable_below"], 1);
  // A grid through V = 0 exactly: the crossing is that grid point.
  const auto d = json_of({"stability", kSleigh, "--steady", "straight", "--from", "-1", "--to", "1", "--points", "21"});
  ASSERT_EQ(d["crossings"].size(), 1u);
  EXPECT_EQ(d["crossings"][0]["at"], "0");
}

TEST_F(Linearize, LinearSystemSpectrum) {
  for (const std::string p : {"double", "mp50"}) {
    const auto j = json_of({"linearize", kLeaf, "--steady", "rest", "--at", "h=0.7", "--precision", p});
    ASSERT_EQ(j["eigenvalues"].size(), 2u);
    // Defaults m = 1.5, a = 1/2, k1 = 2, k2 = 3, c = 2/5: l = -c/(2m) +- i sqrt(K/M - (c/2m)^2),
    // M = m (1 + a^2), K = k1 + k2 a^2.
    const mp50 m("1.5"), a("0.5"), k1(2), k2(3), c("0.4");
    const mp50 M = m * (1 + a * a), K = k1 + k2 * a * a, re = -c / (2 * m);
    const mp50 im = sqrt(K / M - re * re);
    const mp50 tol = p == "double" ? mp50("1e-12") : mp50("1e-40");
    EXPECT_LE(abs(num<mp50>(j["eigenvalues"][0]["re"]) - re), tol);
    EXPECT_LE(abs(num<mp50>(j["eigenvalues"][0]["im"]) - im), tol);
    EXPECT_LE(abs(num<mp50>(j["eigenvalues"][1]["im"]) + im), tol);
    EXPECT_EQ(j["cyclic"], nlohmann::json::array());
  }
}

TEST_F(Linearize, StabilityWritesTheCsv) {
  const std::string csv = (dir_ / "coin.csv").string();
  const auto j = json_of(std::vector<std::string>{"stability", kCoin, "--steady", "upright", "--from", "1", "--to", "3",
                                                  "--points", "5", "--csv", csv});
  EXPECT_EQ(j["csv"], csv);
  std::ifstream in(csv);
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0], "V,unstable,marginal,undecided,re_1,im_1,re_2,im_2,re_3,im_3");
  EXPECT_EQ(lines[1].rfind("1,1,1,0,", 0), 0u) << lines[1];  // V = 1 < V_c: one unstable, the zero
  EXPECT_EQ(lines[5].rfind("3,0,3,0,", 0), 0u) << lines[5];  // V = 3: all on the imaginary axis
}

TEST_F(Linearize, Refusals) {
  auto r = nhs({"linearize", kCoin, "--steady", "sideways", "--at", "V=1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("has no steady family 'sideways' (known: upright)"), std::string::npos) << r.err;
  r = nhs({"linearize", kCoin, "--steady", "upright"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("needs a value of 'V'"), std::string::npos) << r.err;
  r = nhs({"linearize", kCoin, "--steady", "upright", "--at", "W=1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("has no parameter 'W' (its parameters: V)"), std::string::npos) << r.err;
  r = nhs({"linearize", kCoin, "--steady", "upright", "--at", "V=1", "--formulation", "second-kind"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("directions off C"), std::string::npos) << r.err;
  r = nhs({"linearize", "skate", "--steady", "upright", "--at", "V=1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("it declares none"), std::string::npos) << r.err;
  r = nhs({"stability", kCoin, "--steady", "upright", "--from", "2", "--to", "1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("need from < to"), std::string::npos) << r.err;

  // A "family" that is not steady: a tilted disc rolling straight falls.
  std::string text;
  {
    std::ifstream in(kCoin);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string tilted = (dir_ / "tilted.toml").string();
  std::ofstream(tilted) << text << "\n[[steady]]\nname = \"tilted\"\nparameters = [\"V\"]\n"
                        << "q = [\"0\", \"0\", \"0.2\", \"0\", \"0\"]\nz = [\"0\", \"0\", \"V/R\"]\n";
  r = nhs({"linearize", tilted, "--steady", "tilted", "--at", "V=2"});
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("not a steady motion: the field outside the ignorable coordinates is not 0 (thetad' = "),
            std::string::npos)
      << r.err;
  // A family parameter named like a parameter of the system.
  const std::string clash = (dir_ / "clash.toml").string();
  std::ofstream(clash) << text << "\n[[steady]]\nname = \"clash\"\nparameters = [\"m\"]\n"
                       << "q = [\"0\", \"0\", \"0\", \"0\", \"0\"]\nz = [\"0\", \"0\", \"m\"]\n";
  r = nhs({"linearize", clash, "--steady", "clash", "--at", "m=2"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("clash.toml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("steady[2] parameter 'm' is already in use as a name of the system"), std::string::npos) << r.err;
}

// `nhs linearize --animate DIR` (docs/animation.md, "Eigenmodes"): the
// bicycle's weave mode at v = 4 m/s drawn as x + t f + eps Re(v e^(lambda t)).
class ModeAnimation : public Linearize {
 protected:
  const std::string bike_ = kSource + "/examples/bicycle/whipple-bicycle.toml";

  // window.NHS_ANIMATION of DIR/data.js.
  static nlohmann::json data_of(const std::filesystem::path& dir) {
    std::ifstream in(dir / "data.js");
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    const auto eq = text.find('='), end = text.rfind(';');
    return nlohmann::json::parse(text.substr(eq + 1, end - eq - 1));
  }
  // The weave at --epsilon eps: the linearization's JSON and data.js.
  std::pair<nlohmann::json, nlohmann::json> weave(const std::string& eps) {
    const std::filesystem::path dir = dir_ / ("weave-" + eps);
    const auto j = json_of({"linearize", bike_, "--steady", "upright", "--at", "v=4", "--animate", dir.string(),
                            "--epsilon", eps});
    return {j, data_of(dir)};
  }
  // The poses of sample k (12 per body, then 3 per contact).
  static std::vector<double> poses(const nlohmann::json& d, std::size_t k) {
    const std::size_t stride = 12 * d["bodies"].size() + 3 * d["contacts"].size();
    const auto& p = d["poses"];
    std::vector<double> out;
    for (std::size_t i = 0; i < stride; ++i) out.push_back(p[k * stride + i].get<double>());
    return out;
  }
  static double max_diff(const std::vector<double>& a, const std::vector<double>& b, double scale_b = 1) {
    double m = 0;
    for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - scale_b * b[i]));
    return m;
  }
  // The largest height of a contact point above the floor (z, the file's
  // up being -z) over the samples: the holonomic constraint's residual (the
  // front wheel's contact height) and the rear's, 0 by construction.
  // `nhs run` from the drawn initial state of d (data.js's mode.x0) to its
  // window T, with the poses: |P_run(T) - P_drawn(T)|, and growth_ the
  // ratio of the run's deviation from the steady motion d0 at T and at 0.
  double distance_at_end(const nlohmann::json& d, const nlohmann::json& d0) {
    const nlohmann::json& mode = d["mode"];
    const std::size_t n = mode["coordinates"].size(), last = d["t"].size() - 1;
    std::string q, z;
    for (std::size_t i = 0; i < mode["x0"].size(); ++i)
      (i < n ? q : z) += (i == 0 || i == n ? "" : ",") + mode["x0"][i].get<std::string>();
    const std::string csv = (dir_ / "mode.csv").string(), T = mode["window"].get<std::string>();
    const auto run = nhs({"run", bike_, "--q", q, "--z", z, "--t-end", T, "--dt-out", T, "--poses", "--rtol", "1e-12",
                          "--atol", "1e-12", "--out", csv});
    EXPECT_EQ(run.code, 0) << run.err;
    const auto rows = nhs::test::lines_of(nhs::test::slurp(csv));
    if (rows.size() < 3) {
      ADD_FAILURE() << "no rows in " << csv;
      return 0;
    }
    const auto cells = [](const std::string& line) {
      std::vector<std::string> out;
      std::stringstream l(line);
      for (std::string c; std::getline(l, c, ',');) out.push_back(c);
      return out;
    };
    const std::vector<std::string> header = cells(rows[0]);
    std::vector<std::size_t> cols;  // data.js's order of the poses
    const auto col = [&](const std::string& name) {
      const auto it = std::find(header.begin(), header.end(), name);
      EXPECT_NE(it, header.end()) << name;
      cols.push_back(static_cast<std::size_t>(it - header.begin()));
    };
    for (const auto& b : d["bodies"]) {
      const std::string name = b["name"].get<std::string>();
      for (const std::string a : {"x", "y", "z"}) col(name + "_" + a);
      for (const std::string a : {"11", "12", "13", "21", "22", "23", "31", "32", "33"}) col(name + "_R" + a);
    }
    for (const auto& c : d["contacts"])
      for (const std::string a : {"x", "y", "z"}) col(c.get<std::string>() + "_point_" + a);
    const auto row = [&](std::size_t r) {
      const std::vector<std::string> c = cells(rows[r]);
      std::vector<double> out;
      for (std::size_t k : cols) out.push_back(std::stod(c.at(k)));
      return out;
    };
    const auto norm = [](const std::vector<double>& a, const std::vector<double>& b) {
      double s2 = 0;
      for (std::size_t i = 0; i < a.size(); ++i) s2 += (a[i] - b[i]) * (a[i] - b[i]);
      return std::sqrt(s2);
    };
    const std::vector<double> start = row(1), end = row(rows.size() - 1);
    growth_ = norm(end, poses(d0, last)) / norm(start, poses(d0, 0));
    return max_diff(end, poses(d, last));
  }
  double growth_ = 0;
  static double contact_residual(const nlohmann::json& d) {
    const std::size_t nb = d["bodies"].size();
    double worst = 0;
    for (std::size_t k = 0; k < d["t"].size(); ++k) {
      const std::vector<double> p = poses(d, k);
      for (std::size_t c = 0; c < d["contacts"].size(); ++c) worst = std::max(worst, std::abs(p[12 * nb + 3 * c + 2]));
    }
    return worst;
  }
};

// The mode is the eigenvalue printed first (the weave, growing), shown over
// one period; halving eps halves the deviation from the steady motion and
// quarters the holonomic residual (the front contact's height: the pitch
// solved to first order); and `nhs run` from the drawn initial state, the
// nonlinear motion, grows over one period by e^(Re lambda T) within 1% and
// ends within 1% of the drawn pose's deviation.
TEST_F(ModeAnimation, WeaveIsTheLinearizedMotion) {
  const auto [j, d] = weave("0.01");
  const auto [jh, dh] = weave("0.005");
  const auto [j0, d0] = weave("0");
  const nlohmann::json& mode = d["mode"];
  EXPECT_EQ(mode["index"], 1);
  EXPECT_EQ(mode["re"], j["eigenvalues"][0]["re"]);
  EXPECT_EQ(mode["im"], j["eigenvalues"][0]["im"]);
  const double re = std::stod(mode["re"].get<std::string>()), im = std::stod(mode["im"].get<std::string>());
  ASSERT_GT(re, 0.3);  // Meijaard et al. (2007): the weave grows at 4 m/s
  const double T = 2 * std::acos(-1.0) / im;
  EXPECT_NEAR(d["t"].back().get<double>(), T, 1e-14 * T);
  EXPECT_LT(std::stod(mode["residual"].get<std::string>()), 1e-12);
  const std::size_t last = d["t"].size() - 1;

  // Linear in eps: P(eps) - P(0) = 2 (P(eps/2) - P(0)) + O(eps^2), at every sample.
  double dev = 0, remainder = 0;
  for (std::size_t k = 0; k <= last; ++k) {
    const auto p = poses(d, k), ph = poses(dh, k), p0 = poses(d0, k);
    std::vector<double> a, b;
    for (std::size_t i = 0; i < p.size(); ++i) {
      a.push_back(p[i] - p0[i]);
      b.push_back(ph[i] - p0[i]);
    }
    dev = std::max(dev, max_diff(a, std::vector<double>(a.size(), 0.0)));
    remainder = std::max(remainder, max_diff(a, b, 2));
  }
  EXPECT_GT(dev, 1e-3);
  EXPECT_LT(remainder, 0.05 * dev) << "dev " << dev;
  // The holonomic residual: 0 on the steady motion, O(eps^2) on the mode.
  const double r = contact_residual(d), rh = contact_residual(dh);
  EXPECT_LT(contact_residual(d0), 1e-12);
  EXPECT_GT(r, 1e-9);
  EXPECT_NEAR(r / rh, 4.0, 0.2) << r << " " << rh;

  // The nonlinear motion from each drawn initial state (x0 = x + eps Re v):
  // it grows over the period as e^(Re lambda T), and it ends at the drawn
  // pose within O(eps^2) (halving eps quarters the distance).
  const double e = distance_at_end(d, d0), eh = distance_at_end(dh, d0);
  EXPECT_LT(e, 0.05 * max_diff(poses(d, last), poses(d0, last)));
  EXPECT_NEAR(e / eh, 4.0, 0.4) << e << " " << eh;
  EXPECT_NEAR(growth_ / std::exp(re * T), 1.0, 0.01) << "growth " << growth_ << " e^(re T) " << std::exp(re * T);
}

// The refusals (exit 2, nothing written): --mode out of range, a zero
// eigenvalue, a system without bodies, --mode without --animate, over the
// size bound (2.04 s at 1e6 per second, 4 bodies and 2 contacts), a file.
TEST_F(ModeAnimation, Refusals) {
  const std::string out = (dir_ / "mode").string();
  auto r = nhs({"linearize", bike_, "--steady", "upright", "--at", "v=4", "--animate", out, "--mode", "5"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--mode 5: the steady motion has 4 eigenvalues, numbered 1 to 4"), std::string::npos) << r.err;
  r = nhs({"linearize", bike_, "--steady", "upright", "--at", "v=4", "--animate", out, "--mode", "0"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--mode: expected a positive integer, got '0'"), std::string::npos) << r.err;
  // The upright disc above its threshold: 0 and +-i omega.
  const std::string disc = kSource + "/examples/bodies/rolling-disc.toml";
  r = nhs({"linearize", disc, "--steady", "upright", "--at", "V=2", "--animate", out, "--mode", "2"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("eigenvalue 2 of 3 (lambda = 0 + 0 i) is zero within its bound"), std::string::npos) << r.err;
  r = nhs({"linearize", kLeaf, "--steady", "rest", "--at", "h=0.7", "--animate", out});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("system 'damped-leaf' has no bodies to draw"), std::string::npos) << r.err;
  r = nhs({"linearize", bike_, "--steady", "upright", "--at", "v=4", "--mode", "1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--mode is an option of --animate DIR"), std::string::npos) << r.err;
  r = nhs({"linearize", bike_, "--steady", "upright", "--at", "v=4", "--animate", out, "--fps", "1e6"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("2040588 samples of 6 bodies and contacts over the mode's window of 2.04058608"),
            std::string::npos) << r.err;
  r = nhs({"linearize", bike_, "--steady", "upright", "--at", "v=4", "--animate", kLeaf});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("damped-leaf.toml' exists and is not a directory"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  // The disc's oscillation, drawn: eps brings the largest excursion to 0.2 rad.
  const auto j = json_of({"linearize", disc, "--steady", "upright", "--at", "V=2", "--animate", out});
  const nlohmann::json d = data_of(out);
  EXPECT_EQ(d["mode"]["index"], 1);
  EXPECT_EQ(d["mode"]["im"], j["eigenvalues"][0]["im"]);
}

}  // namespace

namespace {

TEST_F(Linearize, ListNamesTheFamilies) {
  const auto r = nhs({"list", kCoin});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("steady families (nhs linearize, nhs stability --steady NAME): \n  upright (V)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(nhs({"list", "skate"}).out.find("steady families (nhs linearize, nhs stability --steady NAME): none"),
            std::string::npos);
}

// The Chaplygin sleigh with a decoupled spring s of mass ms and stiffness
// k (`nhs linearize --param k=...`), family "ahead": moving straight at
// speed U. Its eigenvalues: -m a U/(I + m a^2) and +-i sqrt(k/ms).
std::string stiff_sleigh_text() {
  return "name = \"sleigh-and-spring\"\n"
         "coordinates = [\"x\", \"y\", \"theta\", \"s\"]\n"
         "quasi_velocities = [\"v\", \"omega\", \"ws\"]\n"
         "[parameters]\nm = \"1.7\"\nI = \"0.3\"\na = \"0.45\"\nms = \"2\"\nk = \"1\"\n"
         "[dynamics]\n"
         "kinetic_energy = \"m/2*(x_dot^2 + y_dot^2) + I/2*theta_dot^2 + ms/2*s_dot^2\"\n"
         "potential = \"k/2*s^2\"\n"
         "[constraints]\nblade = \"-x_dot*sin(theta) + y_dot*cos(theta) - a*theta_dot\"\n"
         "[parametrization]\n"
         "x_dot = \"v*cos(theta) - a*omega*sin(theta)\"\n"
         "y_dot = \"v*sin(theta) + a*omega*cos(theta)\"\n"
         "theta_dot = \"omega\"\ns_dot = \"ws\"\n"
         "[chart]\nv = \"x_dot*cos(theta) + y_dot*sin(theta)\"\nomega = \"theta_dot\"\nws = \"s_dot\"\n"
         "[initial]\nq = [\"0\", \"0\", \"0\", \"0\"]\nz = [\"1\", \"0\", \"0\"]\n"
         "[[steady]]\nname = \"ahead\"\nparameters = [\"U\"]\n"
         "q = [\"0\", \"0\", \"0\", \"0\"]\nz = [\"U\", \"0\", \"0\"]\n";
}

TEST_F(Linearize, UnstableSleighBesideAStiffSpring) {
  const std::string file = (dir_ / "sleigh-and-spring.toml").string();
  std::ofstream(file) << stiff_sleigh_text();
  // U = -1.25: the sleigh's eigenvalue m a 1.25/(I + m a^2) > 0.
  const mp50 expected = mp50("1.7") * mp50("0.45") * mp50("1.25") / (mp50("0.3") + mp50("1.7") * mp50("0.45") * mp50("0.45"));
  for (const std::string k : {"1e6", "1e10", "1e14"}) {
    const auto d = json_of({"linearize", file, "--steady", "ahead", "--at", "U=-1.25", "--param", "k=" + k});
    const auto m = json_of({"linearize", file, "--steady", "ahead", "--at", "U=-1.25", "--param", "k=" + k,
                            "--precision", "mp50"});
    ASSERT_EQ(d["eigenvalues"].size(), 3u) << d.dump();
    EXPECT_EQ(d["verdict"], "unstable") << k;
    EXPECT_EQ(d["unstable"], 1) << k;
    EXPECT_EQ(d["undecided"], 0) << k;
    EXPECT_EQ(m["verdict"], "unstable") << k;
    const mp50 bound = num<mp50>(d["error_bounds"][0]);
    EXPECT_LE(abs(num<mp50>(d["eigenvalues"][0]["re"]) - expected), bound) << k;
    EXPECT_LE(abs(num<mp50>(d["eigenvalues"][0]["re"]) - num<mp50>(m["eigenvalues"][0]["re"])), bound) << k;
    EXPECT_LE(bound, mp50("1e-6")) << k;
    EXPECT_LE(abs(num<mp50>(m["eigenvalues"][0]["re"]) - expected), mp50("1e-40")) << k;
  }
  // The crossing at U = 0, between grid values, with the stiff spring present.
  const auto s = json_of({"stability", file, "--steady", "ahead", "--from", "-0.7", "--to", "1.1", "--points", "7",
                          "--param", "k=1e10"});
  ASSERT_EQ(s["crossings"].size(), 1u) << s.dump();
  EXPECT_LE(abs(num<double>(s["crossings"][0]["at"])), 1e-12) << s.dump();
  EXPECT_EQ(s["crossings"][0]["unstable_below"], 1);
  EXPECT_EQ(s["crossings"][0]["unstable_above"], 0);
  EXPECT_EQ(s["undecided"], nlohmann::json::array());
}

TEST_F(Linearize, FamilyWrittenAtAnyScale) {
  std::string text;
  {
    std::ifstream in(kSleigh);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  // v = 1e12 U and v = 1e-8 U, both at v = 2.
  const std::string file = (dir_ / "scaled.toml").string();
  std::ofstream(file) << text << "\n[[steady]]\nname = \"tera\"\nparameters = [\"U\"]\n"
                      << "q = [\"0\", \"0\", \"0\"]\nz = [\"1e12*U\", \"0\"]\n"
                      << "\n[[steady]]\nname = \"small\"\nparameters = [\"U\"]\n"
                      << "q = [\"0\", \"0\", \"0\"]\nz = [\"1e-8*U\", \"0\"]\n";
  const mp50 expected = -mp50("0.4") * 2 / (mp50("0.5") + mp50("0.4") * mp50("0.4"));  // m = 1, I = 0.5, a = 0.4
  for (const auto& [family, at] : {std::pair<std::string, std::string>{"tera", "U=2e-12"}, {"small", "U=2e8"}}) {
    const auto j = json_of({"linearize", file, "--steady", family, "--at", at});
    ASSERT_EQ(j["eigenvalues"].size(), 1u) << family;
    EXPECT_LE(abs(num<mp50>(j["eigenvalues"][0]["re"]) - expected), mp50("1e-12")) << family;
  }
}

TEST_F(Linearize, OverflowIsRefusedNotPrinted) {
  // V = 1e160: the eigenvalues +-i sqrt(k(V)) ~ 1e160 are finite, though
  // the squares of the Schur block's entries are not: printed finite and
  // right (they once came out as inf with exit 0).
  const auto j = json_of(std::vector<std::string>{"linearize", kCoin, "--steady", "upright", "--at", "V=1e160"} +
                         kCoinParams);
  ASSERT_EQ(j["eigenvalues"].size(), 3u) << j.dump();
  const mp50 w = sqrt(coin_k<mp50>(mp50("1e160")));
  EXPECT_LE(abs(num<mp50>(j["eigenvalues"][0]["im"]) - w), mp50("1e-12") * w) << j.dump();
  // V = 1e308: the Jacobian itself is not finite: exit 4, naming V.
  auto r = nhs(std::vector<std::string>{"linearize", kCoin, "--steady", "upright", "--at", "V=1e308"} + kCoinParams);
  EXPECT_EQ(r.code, 4) << r.out << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("(V = 1e+308)"), std::string::npos) << r.err;
  // A scan up there: finite rows, or exit 4; never inf.
  const std::string csv = (dir_ / "big.csv").string();
  r = nhs(std::vector<std::string>{"stability", kCoin, "--steady", "upright", "--from", "1e140", "--to", "1e165",
                                   "--points", "4", "--csv", csv} +
          kCoinParams);
  EXPECT_TRUE(r.code == 0 || r.code == 4) << r.err;
  EXPECT_EQ(nhs::test::slurp(csv).find("inf"), std::string::npos) << nhs::test::slurp(csv);
  EXPECT_EQ(r.out.find("inf"), std::string::npos) << r.out;
}

TEST_F(Linearize, GridsBeyondTheCapOrTheRangeAreRefused) {
  auto r = nhs({"stability", kCoin, "--steady", "upright", "--from", "1", "--to", "2", "--points", "20001"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--points 20001: need 2 .. 10000"), std::string::npos) << r.err;
  r = nhs({"stability", kCoin, "--steady", "upright", "--from=-9e307", "--to", "9e307", "--points", "3"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("overflows"), std::string::npos) << r.err;
  r = nhs({"stability", kCoin, "--steady", "upright", "--from", "1", "--to", "inf", "--points", "3"});
  EXPECT_EQ(r.code, 2) << r.err;
  r = nhs({"stability", kCoin, "--steady", "upright", "--from", "1e20", "--to", "1.0000000000000002e20",
           "--points", "50"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("resolution"), std::string::npos) << r.err;
}

// The rows of a CSV table all have the header's number of fields (none cut
// short), and the error names how many were kept.
void expect_whole_rows(const std::string& csv, const std::string& err) {
  const auto rows = nhs::test::lines_of(nhs::test::slurp(csv));
  for (const auto& row : rows)
    EXPECT_EQ(std::count(row.begin(), row.end(), ','), std::count(rows[0].begin(), rows[0].end(), ',')) << row;
  const std::size_t kept = rows.empty() ? 0 : rows.size() - 1;
  EXPECT_NE(err.find(std::to_string(kept) + " rows of '" + csv + "' kept"), std::string::npos) << err;
}

TEST_F(Linearize, BudgetAndInterruptionKeepTheRows) {
  // 10,000 linearizations in mp100 take minutes: the budget of 2 s ends it
  // (exit 4), SIGINT after 3 s too (exit 130); the rows so far are kept.
  const std::string csv = (dir_ / "budget.csv").string();
  auto r = nhs({"stability", kCoin, "--steady", "upright", "--from", "0.5", "--to", "4", "--points", "10000",
                "--precision", "mp100", "--max-wall-time", "2", "--csv", csv});
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_NE(r.err.find("--max-wall-time"), std::string::npos) << r.err;
  expect_whole_rows(csv, r.err);
  const std::string csv2 = (dir_ / "interrupted.csv").string();
  r = nhs({"stability", kCoin, "--steady", "upright", "--from", "0.5", "--to", "4", "--points", "10000",
           "--precision", "mp100", "--csv", csv2},
          "", 3);
  EXPECT_EQ(r.code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted (SIGINT)"), std::string::npos) << r.err;
  EXPECT_GE(nhs::test::lines_of(nhs::test::slurp(csv2)).size(), 2u);
  expect_whole_rows(csv2, r.err);
}

TEST_F(Linearize, EchoesTheRangeAndRefusesMaggiForItsReason) {
  const auto j = json_of({"stability", kSleigh, "--steady", "straight", "--from", "-0.3", "--to", "2.7", "--points",
                          "4"});
  EXPECT_EQ(j["from"], "-0.3");
  EXPECT_EQ(j["to"], "2.7");
  const auto r = nhs({"linearize", kSleigh, "--steady", "straight", "--at", "V=1", "--formulation", "maggi"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.find("second-kind"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not traced"), std::string::npos) << r.err;
}

// x with 17 significant digits.
std::string fmt_number(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

// The fuzz generator's values of --at, --from and --to: ordinary,
// huge, tiny, negative, malformed, non-finite text.
std::string fuzz_value(std::mt19937_64& rng) {
  static const std::vector<std::string> odd = {"1e308", "-1e308", "1e-320", "1e999", "-1e999", "inf", "-inf", "nan",
                                               "NaN", "1e", "abc", "", "1..2", "0x10", "--", "1e+400", "0", "-0",
                                               "4.9e-324", "1.7976931348623157e308"};
  std::uniform_int_distribution<int> kind(0, 3), exponent(-320, 320);
  std::uniform_real_distribution<double> unit(-5, 5);
  std::uniform_int_distribution<std::size_t> pick(0, odd.size() - 1);
  switch (kind(rng)) {
    case 0:
    case 1: return fmt_number(unit(rng));
    case 2: return fmt_number(unit(rng)) + "e" + std::to_string(exponent(rng));
    default: return odd[pick(rng)];
  }
}

class LinearizeFuzzTest : public Linearize {
 protected:
  // One case of `seed`: linearize or stability on a shipped file with a
  // steady family, with fuzzed values.
  void fuzz_case(std::mt19937_64& rng, std::uint64_t seed, int i) {
    static const std::vector<std::array<std::string, 3>> targets = {
        {kCoin, "upright", "V"}, {kSleigh, "straight", "V"}, {kLeaf, "rest", "h"}};
    const auto& [file, family, mu] = targets[std::uniform_int_distribution<std::size_t>(0, 2)(rng)];
    std::vector<std::string> args;
    std::uniform_int_distribution<int> coin(0, 1), die(0, 9);
    if (coin(rng)) {
      args = {"linearize", file, "--steady", family, "--at", mu + "=" + fuzz_value(rng)};
    } else {
      static const std::vector<std::string> points = {"2", "3", "7", "1", "0", "-4", "10001", "1e3", "x", ""};
      args = {"stability", file, "--steady", family, "--from", fuzz_value(rng), "--to", fuzz_value(rng),
              "--points", points[std::uniform_int_distribution<std::size_t>(0, points.size() - 1)(rng)],
              "--max-wall-time", "20"};
      if (die(rng) == 0) args.insert(args.end(), {"--csv", (dir_ / ("f" + std::to_string(i) + ".csv")).string()});
    }
    if (die(rng) == 0) args.insert(args.end(), {"--precision", "mp50"});
    if (die(rng) == 0) args.insert(args.end(), {"--param", "m=" + fuzz_value(rng)});
    const auto r = nhs(args);
    std::string line;
    for (const auto& a : args) line += " '" + a + "'";
    const std::string where = "seed " + std::to_string(seed) + " case " + std::to_string(i) + ":" + line;
    EXPECT_TRUE(r.code == 0 || r.code == 2 || r.code == 3 || r.code == 4) << where << "\n" << r.err;
    if (r.code != 0) return;
    std::string out = r.out;
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    EXPECT_EQ(out.find("inf"), std::string::npos) << where << "\n" << r.out;
    EXPECT_EQ(out.find("nan"), std::string::npos) << where << "\n" << r.out;
    ++succeeded_;
  }

  void fuzz(std::uint64_t seed, int cases) {
    std::mt19937_64 rng(seed);
    for (int i = 0; i < cases; ++i) fuzz_case(rng, seed, i);
    std::printf("linearize fuzz: seed %llu, %d of %d cases exit 0\n", static_cast<unsigned long long>(seed),
                succeeded_, cases);
  }

  int succeeded_ = 0;
};

// The quick suite's gate: fixed seeds, few cases (each a process).
TEST_F(LinearizeFuzzTest, FixedSeeds) {
  for (const std::uint64_t seed : {20261207ULL, 577ULL}) fuzz(seed, nhs::test::fuzz_cases(24));
  EXPECT_GT(succeeded_, 0);  // some vectors reach the linearization
}

class LinearizeFuzzRandomSeed : public LinearizeFuzzTest {};

// A new seed on every run (labels fuzz and slow), or NHS_FUZZ_SEED's.
TEST_F(LinearizeFuzzRandomSeed, NewSeed) {
  fuzz(nhs::test::fuzz_seed(), nhs::test::fuzz_cases(200));
}

}  // namespace
