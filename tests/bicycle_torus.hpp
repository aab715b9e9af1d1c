// Shared by tests/test_cli_bicycle_torus.cpp (double, quick) and
// tests/test_cli_bicycle_torus_mp50.cpp (mp50, slow): the Whipple bicycle
// with toroidal wheels (examples/bicycle/whipple-bicycle-torus.toml; docs/
// bicycle.md, "Toroidal wheels"), run through `nhs stability` and
// `nhs linearize`, and the closed form of its gravity stiffness K0.
#pragma once

#include "cli_fixture.hpp"

#include "nhs/scalar.hpp"

#include <boost/math/constants/constants.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <type_traits>
#include <vector>

namespace nhs::test {

inline const std::string kBicycleDir = std::string(NHS_SOURCE_DIR) + "/examples/bicycle/";

template <class S>
std::string precision_of() {
  return std::is_same_v<S, double> ? "double" : "mp50";
}

/// The project's linearization tolerances: 1e-12 in double, 1e-40 in mp50.
template <class S>
S linearization_tolerance() {
  if constexpr (std::is_same_v<S, double>) return S(1e-12);
  else return S(1) / S("1e40");
}

template <class S>
using Mat2 = std::array<std::array<S, 2>, 2>;

/// Meijaard et al. (2007) Appendix A's gravity stiffness K0 (z down) of the
/// benchmark bicycle, K0 = [[m_T z_T, -S_A], [-S_A, -S_A sin(lambda)]],
/// S_A = m_A u_A + mu m_T x_T, with toroidal tyres of crown radii tR, tF
/// (total radii rR, rF kept): the knife-edge bicycle whose ground is raised
/// to the tube centres. The lean pivots about the line through the two
/// tubes' lowest centres, at the height tR + (tF - tR) x/w, so m_T z_T
/// becomes m_T (z_T + tR + (tF - tR) x_T/w); the steer axis meets the
/// front tube centre's level tF tan(lambda) closer to the wheel, so the
/// trail in mu = c cos(lambda)/w becomes c - tF tan(lambda):
/// mu = (c cos(lambda) - tF sin(lambda))/w. u_A, the front assembly's
/// offset from the steer axis, does not change. Derived in docs/bicycle.md
/// and, independently, by tests/references/bicycle_torus_stiffness.py
/// (sympy: V(phi, delta) with the pitch solved from the front contact).
template <class S>
Mat2<S> torus_bicycle_stiffness(const S& tR, const S& tF) {
  using std::cos;
  using std::sin;
  const S w = S(102) / 100, c = S(8) / 100, rR = S(3) / 10, rF = S(35) / 100;
  const S lambda = boost::math::constants::pi<S>() / 10;
  const S mR(2), mB(85), mH(4), mF(3), xB = S(3) / 10, zB = S(-9) / 10, xH = S(9) / 10, zH = S(-7) / 10;
  const S mT = mR + mB + mH + mF, xT = (mB * xB + mH * xH + mF * w) / mT;
  const S zT = (-mR * rR + mB * zB + mH * zH - mF * rF) / mT;
  const S mA = mH + mF, xA = (mH * xH + mF * w) / mA, zA = (mH * zH - mF * rF) / mA;
  const S uA = (xA - w - c) * cos(lambda) - zA * sin(lambda);
  const S SA = mA * uA + (c * cos(lambda) - tF * sin(lambda)) / w * mT * xT;
  return {{{mT * (zT + tR + (tF - tR) * xT / w), -SA}, {-SA, -SA * sin(lambda)}}};
}

template <class S>
Mat2<S> product(const Mat2<S>& a, const Mat2<S>& b) {
  Mat2<S> p{};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) p[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j];
  return p;
}

template <class S>
Mat2<S> inverse(const Mat2<S>& a) {
  const S d = a[0][0] * a[1][1] - a[0][1] * a[1][0];
  return {{{a[1][1] / d, -a[0][1] / d}, {-a[1][0] / d, a[0][0] / d}}};
}

class LinearizeTorusBicycle : public CliProcessTest {
 protected:
  /// The crossings (weave, capsize) of `nhs stability FILE --steady upright`
  /// over 4-6.5 m/s (the grid of BicycleAsBodiesHasMeijaardsSpeeds), at the
  /// crown radii given (none for the knife-edge file).
  std::vector<std::string> speeds(const std::string& file, const std::string& precision,
                                  const std::string& tR = "", const std::string& tF = "") {
    std::vector<std::string> args = {"stability", kBicycleDir + file, "--steady", "upright", "--from", "4",
                                     "--to", "6.5", "--points", "6", "--precision", precision};
    if (!tR.empty()) args.insert(args.end(), {"--param", "tR=" + tR, "--param", "tF=" + tF});
    const auto j = json_of(args);
    std::vector<std::string> at;
    for (const auto& c : j["crossings"]) at.push_back(c["at"].get<std::string>());
    return at;
  }

  /// The (phi, delta) rows of the reduced matrix at v = 0, the columns of
  /// (phi, delta): -g M^-1 K0, and the pitch thetaB of the upright state.
  template <class S>
  Mat2<S> gravity_block(const std::string& tR, const std::string& tF, S& thetaB) {
    const auto j = json_of({"linearize", kBicycleDir + "whipple-bicycle-torus.toml", "--steady", "upright", "--at",
                            "v=0", "--precision", precision_of<S>(), "--param", "tR=" + tR, "--param", "tF=" + tF});
    EXPECT_EQ(j["reduced"], nlohmann::json({"phi", "thetaB", "delta", "phid", "deltad", "thetaRd"}));
    const auto& m = j["reduced_matrix"];
    const auto at = [&](int i, int k) { return from_string<S>(m[i][k].template get<std::string>()); };
    thetaB = from_string<S>(j["x"][4].template get<std::string>());
    return {{{at(2, 0), at(2, 1)}, {at(3, 0), at(3, 1)}}};
  }

  /// At v = 0 the linearized bicycle is M qddot + g K0 q = 0 in q = (phi,
  /// delta), and M, the kinetic energy's matrix at the upright state, does
  /// not depend on the crowns (the same material points touch the ground,
  /// so the constraints at that state are the knife-edge's). So the
  /// reduced block at crowns (tR, tF) is A_0 K0(0, 0)^-1 K0(tR, tF), A_0
  /// the knife-edge's (crowns 0): held to the closed form above.
  template <class S>
  void expect_gravity_stiffness(const std::string& tR, const std::string& tF) {
    using std::abs;
    S pitch0(1), pitch(1);
    const Mat2<S> a0 = gravity_block<S>("0", "0", pitch0), at = gravity_block<S>(tR, tF, pitch);
    const Mat2<S> expected = product(product(a0, inverse(torus_bicycle_stiffness<S>(S(0), S(0)))),
                                     torus_bicycle_stiffness<S>(from_string<S>(tR), from_string<S>(tF)));
    S scale(0);
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 2; ++k) scale = std::max<S>(scale, abs(at[i][k]));
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 2; ++k)
        EXPECT_LE(abs(at[i][k] - expected[i][k]), linearization_tolerance<S>() * scale)
            << precision_of<S>() << " tR=" << tR << " tF=" << tF << " entry " << i << k << ": " << at[i][k]
            << " vs " << expected[i][k];
    // The crowns change the block (the check is not of a no-op), and the
    // upright state has the pitch 0 that the file's [[steady]] states.
    EXPECT_GT(S(abs(at[1][0] - a0[1][0])), S(1) / 10);
    EXPECT_LE(S(abs(pitch)), linearization_tolerance<S>());
  }
};

}  // namespace nhs::test
