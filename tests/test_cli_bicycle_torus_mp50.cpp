// ctest-labels: cli mp slow
// The Whipple bicycle with toroidal wheels (examples/bicycle/whipple-bicycle-
// torus.toml) in mp50, under `slow` (about 10 s per `nhs stability` run):
//  - at crown radii 0 its weave and capsize speeds are the knife-edge bodies
//    file's (whipple-bicycle.toml) to 1e-40, as
//    Linearize.BicycleAsBodiesHasMeijaardsSpeeds holds those to the
//    generated file's;
//  - the gravity stiffness at v = 0 is the closed form of bicycle_torus.hpp
//    to 1e-40 (relative to the block's largest entry).
#include "bicycle_torus.hpp"

using namespace nhs;
using namespace nhs::test;

TEST_F(LinearizeTorusBicycle, Mp50AtCrownZeroItIsTheKnifeEdgeBicycle) {
  const auto torus = speeds("whipple-bicycle-torus.toml", "mp50", "0", "0");
  const auto disc = speeds("whipple-bicycle.toml", "mp50");
  ASSERT_EQ(torus.size(), 2u);
  ASSERT_EQ(disc.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k)
    EXPECT_LE(abs(from_string<mp50>(torus[k]) - from_string<mp50>(disc[k])), linearization_tolerance<mp50>())
        << torus[k] << " vs " << disc[k];
}

TEST_F(LinearizeTorusBicycle, Mp50GravityStiffnessIsTheKnifeEdgesAtTheTubeCentres) {
  expect_gravity_stiffness<mp50>("0.02", "0.03");
}
