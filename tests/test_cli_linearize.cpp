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
//    takes a name of the system (with the file position).
#include "cli_fixture.hpp"

#include "nhs/scalar.hpp"

#include <nlohmann/json.hpp>

#include <fstream>

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
  EXPECT_EQ(lines[0], "V,unstable,marginal,re_1,im_1,re_2,im_2,re_3,im_3");
  EXPECT_EQ(lines[1].rfind("1,1,1,", 0), 0u) << lines[1];  // V = 1 < V_c: one unstable, the zero
  EXPECT_EQ(lines[5].rfind("3,0,3,", 0), 0u) << lines[5];  // V = 3: all on the imaginary axis
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

}  // namespace
