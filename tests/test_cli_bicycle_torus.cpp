// ctest-labels: unit cli
// The Whipple bicycle with toroidal wheels (examples/bicycle/whipple-bicycle-
// torus.toml; docs/bicycle.md, "Toroidal wheels"), in double:
//  - at crown radii 0 it is Meijaard et al. (2007)'s benchmark: Table 2's
//    weave and capsize speeds 4.29238253634111 and 6.02426201538837;
//  - small crowns lower both speeds, to first order in the crown: the shift
//    at 1e-3 m is ten times the shift at 1e-4 m within 5 % (the second-order
//    term, read off the table between 1e-3 and 1e-2 m, changes that ratio by
//    about 2 %), and the speeds at 1e-3 m are the table's;
//  - independently of the rolling constraints' derivation: the gravity
//    stiffness at v = 0 is the closed form of bicycle_torus.hpp (the
//    knife-edge bicycle with the ground raised to the tube centres).
// The mp50 checks are in test_cli_bicycle_torus_mp50.cpp (label slow).
#include "bicycle_torus.hpp"

#include <cmath>

using namespace nhs;
using namespace nhs::test;

TEST_F(LinearizeTorusBicycle, AtCrownZeroItHasMeijaardsSpeeds) {
  const auto d = speeds("whipple-bicycle-torus.toml", "double", "0", "0");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_NEAR(std::stod(d[0]), 4.29238253634111, 1e-13);
  EXPECT_NEAR(std::stod(d[1]), 6.02426201538837, 1e-13);
}

TEST_F(LinearizeTorusBicycle, SmallCrownsLowerBothSpeedsToFirstOrder) {
  const auto s0 = speeds("whipple-bicycle-torus.toml", "double", "0", "0");
  const auto s1 = speeds("whipple-bicycle-torus.toml", "double", "1e-4", "1e-4");
  const auto s2 = speeds("whipple-bicycle-torus.toml", "double", "1e-3", "1e-3");
  ASSERT_EQ(s0.size(), 2u);
  ASSERT_EQ(s1.size(), 2u);
  ASSERT_EQ(s2.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    const double d1 = std::stod(s1[k]) - std::stod(s0[k]), d2 = std::stod(s2[k]) - std::stod(s0[k]);
    EXPECT_LT(d1, 0) << k;
    EXPECT_LT(d2, d1) << k;
    EXPECT_GT(d2 / d1, 9.5) << k;
    EXPECT_LT(d2 / d1, 10.5) << k;
  }
  // docs/bicycle.md's table (reports/bicycle-torus.md) at 1e-3 m.
  EXPECT_NEAR(std::stod(s2[0]), 4.27488606736238, 1e-11);
  EXPECT_NEAR(std::stod(s2[1]), 5.91777067331920, 1e-11);
}

// Rear and front crowns apart and together (each term of the closed form).
TEST_F(LinearizeTorusBicycle, GravityStiffnessIsTheKnifeEdgesAtTheTubeCentres) {
  expect_gravity_stiffness<double>("0.02", "0.03");
  expect_gravity_stiffness<double>("0.05", "0");
  expect_gravity_stiffness<double>("0", "0.05");
}
