// ctest-labels: unit mp
// The linear-stability toolkit (nhs/eigenvalues.hpp, nhs/linearization.hpp)
// on matrices whose answers are known in closed form, in double and mp50:
//  - characteristic_coefficients of a companion matrix return its
//    polynomial, and of a random matrix the product and sum of its
//    eigenvalues (det and trace);
//  - eigenvalues_of: a block matrix with eigenvalues -1, 2, 1/3 +- 2i;
//  - ignorable_coordinates: the greatest set on hand-made structures;
//  - linearize: the deflation of a family's tangent, and the refusals
//    (not steady, a tangent that lies in the ignorable coordinates); the
//    restriction to a holonomic constraint's level set (trace and product
//    of the remaining eigenvalues), and its refusals;
//  - find_crossings: a real eigenvalue through 0 at 3/10, a complex pair
//    crossing at 1/3 with frequency 2, a reversible pair +-sqrt(2 - mu^2)
//    turning imaginary at sqrt 2, and the same with an extra zero
//    eigenvalue (the rolling disc's structure): each to the digits of S;
//  - decided_spectrum: an unstable eigenvalue beside a decoupled stiff
//    oscillator (k = 1e6, 1e10, 1e14) is decided unstable, to within its
//    own bound of its value; a perturbed Jordan block of size 3 at +1e-7
//    is "undecided" in double (never decided stable) and unstable in mp50;
//  - the family's tangents written at scales 1e-8 and 1e12 deflate as at
//    scale 1 (a relative rank test);
//  - find_crossings reports the frequency of the pair that crosses, not of
//    another pair on the imaginary axis, and brackets no crossing by a grid
//    value it cannot decide.
#include "nhs/linearization.hpp"

#include "scalar_test.hpp"

#include <gtest/gtest.h>

using namespace nhs;

namespace {

template <class S>
class Linearization : public ::testing::Test {};
using Scalars = ::testing::Types<double, mp50>;
TYPED_TEST_SUITE(Linearization, Scalars);

// 1e-13 in double, 1e-45 in mp50: a few hundred epsilon.
template <class S>
S tight() {
  return S(1000) * epsilon<S>();
}

TYPED_TEST(Linearization, CharacteristicCoefficientsOfACompanionMatrix) {
  using S = TypeParam;
  // lambda^4 - 2 lambda^3 + 3/7 lambda^2 + 5 lambda - 11/3.
  const std::vector<S> c = {S(-11) / 3, S(5), S(3) / 7, S(-2), S(1)};
  Mat<S> M = Mat<S>::Zero(4, 4);
  for (int i = 1; i < 4; ++i) M(i, i - 1) = S(1);
  for (int i = 0; i < 4; ++i) M(i, 3) = -c[static_cast<std::size_t>(i)];
  const std::vector<S> got = characteristic_coefficients<S>(M);
  ASSERT_EQ(got.size(), 5u);
  for (std::size_t k = 0; k < 5; ++k) EXPECT_LE(abs(got[k] - c[k]), tight<S>() * 10) << k;
}

TYPED_TEST(Linearization, CharacteristicCoefficientsGiveDeterminantAndTrace) {
  using S = TypeParam;
  Mat<S> M(5, 5);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) M(i, j) = S((i * 7 + j * 3) % 11) / 5 - S(1);
  const std::vector<S> c = characteristic_coefficients<S>(M);
  EXPECT_LE(abs(c[4] + M.trace()), tight<S>() * 10);
  EXPECT_LE(abs(c[0] + M.fullPivLu().determinant()), tight<S>() * 100);  // (-1)^5 det
}

TYPED_TEST(Linearization, EigenvaluesOfABlockMatrix) {
  using S = TypeParam;
  // Similar (by an invertible T) to diag(-1, 2, [1/3 2; -2 1/3]).
  Mat<S> B = Mat<S>::Zero(4, 4);
  B(0, 0) = S(-1);
  B(1, 1) = S(2);
  B(2, 2) = B(3, 3) = S(1) / 3;
  B(2, 3) = S(2);
  B(3, 2) = S(-2);
  Mat<S> T = Mat<S>::Identity(4, 4);
  T(0, 1) = S(1) / 2;
  T(1, 2) = S(-3);
  T(3, 0) = S(2);
  const Mat<S> M = T * B * T.inverse();
  const auto ev = eigenvalues_of<S>(M);
  ASSERT_EQ(ev.size(), 4u);
  EXPECT_LE(abs(ev[0].first - 2) + abs(ev[0].second), tight<S>() * 10);
  EXPECT_LE(abs(ev[1].first - S(1) / 3) + abs(ev[1].second - 2), tight<S>() * 10);
  EXPECT_LE(abs(ev[2].first - S(1) / 3) + abs(ev[2].second + 2), tight<S>() * 10);
  EXPECT_LE(abs(ev[3].first + 1) + abs(ev[3].second), tight<S>() * 10);
}

TYPED_TEST(Linearization, EmptyMatrix) {
  using S = TypeParam;
  EXPECT_TRUE(eigenvalues_of<S>(Mat<S>(0, 0)).empty());
  EXPECT_EQ(characteristic_coefficients<S>(Mat<S>(0, 0)), std::vector<S>{S(1)});
}

TEST(IgnorableCoordinates, GreatestSet) {
  // x = (q0, q1, q2, v0, v1), n = 3. The velocities depend on q2 only
  // through q2's own row... f_q0 depends on q2 and v0; f_q1 on q0; f_q2 on
  // v1; f_v0 on v1; f_v1 on v0. No component outside {q0, q1, q2} depends
  // on them: all three are ignorable.
  const int N = 5;
  std::vector<char> d(N * N, 0);
  auto set = [&](int i, int j) { d[static_cast<std::size_t>(i * N + j)] = 1; };
  set(0, 2), set(0, 3), set(1, 0), set(2, 4), set(3, 4), set(4, 3);
  EXPECT_EQ(ignorable_coordinates(d, N, 3), (std::vector<int>{0, 1, 2}));
  // An excluded coordinate (held by a holonomic constraint) is never in
  // the set, nor is what its row depends on: without q0, q2 goes (f_q0
  // depends on it) and q1 stays.
  EXPECT_EQ(ignorable_coordinates(d, N, 3, {0}), (std::vector<int>{1}));
  // Now f_v1 depends on q1: q1 is not ignorable; then q1's row is outside
  // the set and depends on q0, so q0 is not either; then q0's row depends
  // on q2: none is left.
  set(4, 1);
  EXPECT_EQ(ignorable_coordinates(d, N, 3), (std::vector<int>{}));
  // Without f_q0's dependence on q2, q2 stays.
  d[static_cast<std::size_t>(0 * N + 2)] = 0;
  EXPECT_EQ(ignorable_coordinates(d, N, 3), (std::vector<int>{2}));
  EXPECT_THROW(ignorable_coordinates(d, N, 6), UsageError);
  EXPECT_THROW(ignorable_coordinates(d, N, 3, {3}), UsageError);
  EXPECT_THROW(ignorable_coordinates(std::vector<char>(3), N, 3), UsageError);
}

TYPED_TEST(Linearization, DeflatesTheFamilyAndRefusesWhatIsNotSteady) {
  using S = TypeParam;
  // x = (q, v1, v2); q ignorable (nothing depends on it). The reduced
  // matrix on (v1, v2) is J_rr = -3 u w^T with u = (1, -1/2), w = (4/5,
  // -2/5): w^T u = 1, so its eigenvalues are -3 and 0, and w^T t = 0 for
  // the family's tangent t = (1, 2), a null vector.
  Mat<S> J = Mat<S>::Zero(3, 3);
  J(0, 1) = S(1);  // q' = v1
  J(1, 1) = S(-12) / 5, J(1, 2) = S(6) / 5, J(2, 1) = S(6) / 5, J(2, 2) = S(-3) / 5;
  std::vector<char> d(9, 1);
  d[1 * 3 + 0] = d[2 * 3 + 0] = 0;
  Vec<S> f(3);
  f << S(7), S(0), S(0);
  Mat<S> t(3, 1);
  t << S(0), S(1), S(2);
  const std::vector<std::string> names = {"q", "v1", "v2"};
  const auto L = linearize<S>(J, f, d, 1, t, names);
  EXPECT_EQ(L.cyclic, (std::vector<int>{0}));
  ASSERT_EQ(L.eigenvalues.size(), 1u);
  EXPECT_LE(abs(L.eigenvalues[0].first + 3), tight<S>() * 10);
  EXPECT_LE(abs(L.family_eigenvalues[0].first), tight<S>() * 10);
  EXPECT_LE(L.family_residual, tight<S>() * 10);
  EXPECT_EQ(L.unstable, 0);
  // Not steady: v1' = 2^-10.
  Vec<S> g = f;
  g[1] = S(1) / 1024;
  try {
    (void)linearize<S>(J, g, d, 1, t, names);
    ADD_FAILURE() << "accepted a state that is not steady";
  } catch (const InvalidState& e) {
    EXPECT_NE(std::string(e.what()).find("not a steady motion"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("v1' = 0.0009765625"), std::string::npos) << e.what();
  }
  // A tangent along the ignorable coordinate only.
  Mat<S> tq(3, 1);
  tq << S(1), S(0), S(0);
  EXPECT_THROW((void)linearize<S>(J, f, d, 1, tq, names), UsageError);
}

// |x - y| within `tol` relative to 1 + |y|.
template <class S>
::testing::AssertionResult near(const S& x, const S& y, const S& tol) {
  if (abs(x - y) <= tol * (1 + abs(y))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << to_string<S>(x) << " vs " << to_string<S>(y);
}

template <class S>
std::vector<S> grid(const S& a, const S& b, int points) {
  std::vector<S> g;
  for (int i = 0; i < points; ++i) g.push_back(a + (b - a) * S(i) / S(points - 1));
  return g;
}

TYPED_TEST(Linearization, RestrictsToTheLevelSetOfAHolonomicConstraint) {
  using S = TypeParam;
  // x = (q1, q2, q3, v), no ignorable coordinate; a holonomic gradient
  // g = (1, 2, -1, 0) and the family's tangent t = (0, 0, 0, 1), g . t = 0.
  // J = P R K R P with P = I - g g^T/|g|^2 and R = I - t t^T, for a fixed
  // K: then g^T J = 0 (f is a first integral) and J t = 0 (steady family),
  // and J acts on W = ker g^T and t-perp (2-dimensional). The motion's two
  // eigenvalues are those of J on W: their sum is tr J and their product
  // the sum of J's 2 x 2 principal minors (its other two eigenvalues are 0).
  Vec<S> g(4), t(4);
  g << S(1), S(2), S(-1), S(0);
  t << S(0), S(0), S(0), S(1);
  Mat<S> K(4, 4);
  K << S(1), S(-2), S(3) / 7, S(5), S(2) / 3, S(-1), S(4), S(-3), S(-5) / 2, S(1) / 9, S(2), S(7), S(3), S(-1), S(6),
      S(1) / 5;
  const Mat<S> I = Mat<S>::Identity(4, 4);
  const Mat<S> P = I - g * g.transpose() / g.squaredNorm(), R = I - t * t.transpose();
  const Mat<S> J = P * R * K * R * P;
  S minors(0);
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) minors += J(i, i) * J(j, j) - J(i, j) * J(j, i);
  const std::vector<char> d(16, 1);
  const Vec<S> f = Vec<S>::Zero(4);
  const std::vector<std::string> names = {"q1", "q2", "q3", "v"};
  const Mat<S> G = S(3) * g.transpose();  // any scale
  const auto L = linearize<S>(J, f, d, 3, Mat<S>(t), names, G);
  ASSERT_EQ(L.eigenvalues.size(), 2u);
  const auto& [r1, i1] = L.eigenvalues[0];
  const auto& [r2, i2] = L.eigenvalues[1];
  EXPECT_TRUE(near<S>(r1 + r2, J.trace(), tight<S>() * 10));
  EXPECT_LE(abs(i1 + i2), tight<S>() * 10);
  EXPECT_TRUE(near<S>(r1 * r2 - i1 * i2, minors, tight<S>() * 10));
  ASSERT_EQ(L.holonomic_eigenvalues.size(), 1u);
  EXPECT_LE(abs(L.holonomic_eigenvalues[0].first), tight<S>() * 10);
  EXPECT_LE(L.holonomic_residual, tight<S>() * 10);
  EXPECT_LE(L.family_residual, tight<S>() * 10);
  // Without the constraint, its zero stays among the motion's eigenvalues.
  const auto L0 = linearize<S>(J, f, d, 3, Mat<S>(t), names);
  EXPECT_EQ(L0.eigenvalues.size(), 3u);
  EXPECT_EQ(L0.marginal, 1);
  // Two dependent gradients are refused, naming the second constraint.
  Mat<S> G2(2, 4);
  G2 << g.transpose(), S(2) * g.transpose();
  try {
    (void)linearize<S>(J, f, d, 3, Mat<S>(t), names, G2, {"rod", "rod2"});
    ADD_FAILURE() << "dependent gradients accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("holonomic constraint 'rod2' depends on those before it"),
              std::string::npos) << e.what();
  }
  // A coordinate that nothing else depends on (q3) but the constraint
  // does stays out of the cyclic set, with its constraint: without the
  // constraint it is cyclic.
  std::vector<char> dq3 = d;
  for (int i = 0; i < 4; ++i) dq3[static_cast<std::size_t>(i * 4 + 2)] = i == 2;
  Mat<S> Jq3 = J;
  Jq3.col(2).setZero();
  EXPECT_EQ(linearize<S>(Jq3, f, dq3, 3, Mat<S>(t), names).cyclic, (std::vector<int>{2}));
  EXPECT_EQ(linearize<S>(Jq3, f, dq3, 3, Mat<S>(t), names, G).cyclic, (std::vector<int>{}));
}

TYPED_TEST(Linearization, CrossingOfARealEigenvalue) {
  using S = TypeParam;
  const std::function<Mat<S>(const S&)> D = [](const S& mu) {
    Mat<S> M(2, 2);
    M << mu - S(3) / 10, S(5), S(0), S(-2);
    return M;
  };
  const auto c = find_crossings<S>(D, grid<S>(S(0), S(1), 7));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_TRUE(near<S>(c[0].at, S(3) / 10, tight<S>()));
  EXPECT_EQ(c[0].kind, "real");
  EXPECT_EQ(c[0].unstable_before, 0);
  EXPECT_EQ(c[0].unstable_after, 1);
}

TYPED_TEST(Linearization, TwoCrossingsInOneGridCellAreBothFound) {
  using S = TypeParam;
  // A complex pair (2/5 - mu) +- 2i leaves at mu = 2/5 and a real
  // eigenvalue mu - 7/10 enters at 7/10, both between the grid points 0
  // and 1: the count goes 2 -> 1, which no single crossing does. Both are
  // reported (the bicycle's weave and capsize speeds on a coarse grid).
  const std::function<Mat<S>(const S&)> D = [](const S& mu) {
    Mat<S> M = Mat<S>::Zero(3, 3);
    M(0, 0) = M(1, 1) = S(2) / 5 - mu;
    M(0, 1) = S(2);
    M(1, 0) = S(-2);
    M(2, 2) = mu - S(7) / 10;
    return M;
  };
  const auto c = find_crossings<S>(D, grid<S>(S(0), S(1), 2));
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].kind, "complex pair");
  EXPECT_TRUE(near<S>(c[0].at, S(2) / 5, tight<S>()));
  EXPECT_EQ(c[0].unstable_before, 2);
  EXPECT_EQ(c[0].unstable_after, 0);
  EXPECT_EQ(c[1].kind, "real");
  EXPECT_TRUE(near<S>(c[1].at, S(7) / 10, tight<S>()));
  EXPECT_EQ(c[1].unstable_before, 0);
  EXPECT_EQ(c[1].unstable_after, 1);
}

TYPED_TEST(Linearization, CrossingOnAGridPoint) {
  using S = TypeParam;
  // The root 1/2 is the grid's middle point: found exactly there (a count
  // alone would stop where the eigenvalue is within the tolerance of 0).
  const std::function<Mat<S>(const S&)> D = [](const S& mu) {
    Mat<S> M(1, 1);
    M << S(1) / 2 - mu;
    return M;
  };
  const auto c = find_crossings<S>(D, grid<S>(S(0), S(1), 5));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].at, S(1) / 2);
  EXPECT_EQ(c[0].unstable_before, 1);
  EXPECT_EQ(c[0].unstable_after, 0);
}

TYPED_TEST(Linearization, CrossingOfAComplexPair) {
  using S = TypeParam;
  const std::function<Mat<S>(const S&)> D = [](const S& mu) {
    Mat<S> M = Mat<S>::Zero(3, 3);
    M(0, 0) = M(1, 1) = S(1) / 3 - mu;
    M(0, 1) = S(2);
    M(1, 0) = S(-2);
    M(2, 2) = S(-1);
    return M;
  };
  const auto c = find_crossings<S>(D, grid<S>(S(0), S(1), 5));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_TRUE(near<S>(c[0].at, S(1) / 3, tight<S>()));
  EXPECT_EQ(c[0].kind, "complex pair");
  EXPECT_EQ(c[0].method, "root of the real part");
  EXPECT_TRUE(near<S>(c[0].frequency, S(2), tight<S>()));
  EXPECT_EQ(c[0].unstable_before, 2);
  EXPECT_EQ(c[0].unstable_after, 0);
}

TYPED_TEST(Linearization, ReversiblePairTurningImaginary) {
  using S = TypeParam;
  // +-sqrt(2 - mu^2): real below sqrt 2, imaginary above; at sqrt 2 a
  // Jordan block, where the eigenvalues are computed to sqrt(epsilon) only.
  // c_0 = -(2 - mu^2) is smooth and changes sign there.
  const std::function<Mat<S>(const S&)> D = [](const S& mu) {
    Mat<S> M(2, 2);
    M << S(0), S(1), S(2) - mu * mu, S(0);
    return M;
  };
  using std::sqrt;
  const auto c = find_crossings<S>(D, grid<S>(S(1), S(2), 6));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_TRUE(near<S>(c[0].at, sqrt(S(2)), tight<S>()));
  EXPECT_EQ(c[0].kind, "real");
  EXPECT_EQ(c[0].method, "root of c_0");
}

TYPED_TEST(Linearization, ReversiblePairWithAnExtraZero) {
  using S = TypeParam;
  // The upright disc's structure (docs/linearization.md): on (theta,
  // theta', psi'), theta'' = a theta - b(mu) psi', psi'' = e(mu) theta', with
  // eigenvalues 0 and +-sqrt(a - b e); b = mu, e = mu: threshold mu^2 = a = 3/2.
  const std::function<Mat<S>(const S&)> D = [](const S& mu) {
    Mat<S> M = Mat<S>::Zero(3, 3);
    M(0, 1) = S(1);
    M(1, 0) = S(3) / 2;
    M(1, 2) = -mu;
    M(2, 1) = mu;
    return M;
  };
  using std::sqrt;
  const auto c = find_crossings<S>(D, grid<S>(S(1) / 2, S(3), 9));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_TRUE(near<S>(c[0].at, sqrt(S(3) / 2), tight<S>()));
  EXPECT_EQ(c[0].method, "root of c_1");
  EXPECT_EQ(c[0].unstable_before, 1);
  EXPECT_EQ(c[0].unstable_after, 0);
}

TYPED_TEST(Linearization, UnstableEigenvalueBesideAStiffMode) {
  using S = TypeParam;
  // diag(7/11) and a decoupled oscillator [0 1; -k 0] (eigenvalues +-i
  // sqrt k), mixed by an exact permutation: the unstable 7/11 is decided at
  // its own scale, whatever k (a tolerance at the scale of k hid it).
  for (const char* k_text : {"1e6", "1e10", "1e14"}) {
    const S k = from_string<S>(k_text);
    Mat<S> D = Mat<S>::Zero(3, 3);
    D(0, 2) = S(1);
    D(2, 0) = -k;
    D(1, 1) = S(7) / 11;
    const Spectrum<S> sp = decided_spectrum<S>(D);
    ASSERT_EQ(sp.eigenvalues.size(), 3u);
    EXPECT_EQ(sp.unstable, 1) << k_text;
    EXPECT_EQ(sp.marginal, 2) << k_text;
    EXPECT_EQ(sp.undecided, 0) << k_text;
    EXPECT_LE(abs(sp.eigenvalues[0].first - S(7) / 11), sp.bounds[0]) << k_text;
    EXPECT_LE(sp.bounds[0], S(1e-6) * S(7) / 11) << k_text;  // a tight bound: the value is known
    using std::sqrt;
    EXPECT_LE(abs(abs(sp.eigenvalues[1].second) - sqrt(k)), sp.bounds[1]) << k_text;
  }
}

TYPED_TEST(Linearization, NearlyDefectiveEigenvaluesAreUndecidedNotGuessed) {
  using S = TypeParam;
  // P (1e-7 I + N) P^-1, N the 3 x 3 nilpotent Jordan block: three
  // eigenvalues +1e-7 exactly, computed to about eps^(1/3) (6e-6 in
  // double, 2e-17 in mp50). Double cannot tell their sign; mp50 can.
  Mat<S> J = S(1) / S(10000000) * Mat<S>::Identity(3, 3), P = Mat<S>::Identity(3, 3);
  J(0, 1) = J(1, 2) = S(1);
  P(1, 0) = S(1) / 3;
  P(2, 0) = S(1) / 7;
  P(2, 1) = S(2) / 5;
  const Spectrum<S> sp = decided_spectrum<S>(Mat<S>(P * J * P.inverse()));
  ASSERT_EQ(sp.eigenvalues.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_LE(abs(sp.eigenvalues[i].first - S(1) / S(10000000)), sp.bounds[i]) << i;  // honest bounds
  if constexpr (std::is_same_v<S, double>) {
    EXPECT_GE(sp.undecided, 1);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_FALSE(sp.eigenvalues[i].first < -sp.bounds[i]) << i;
  } else {
    EXPECT_EQ(sp.unstable, 3);
  }
}

TYPED_TEST(Linearization, TangentsAtAnyScale) {
  using S = TypeParam;
  // The deflation of DeflatesTheFamilyAndRefusesWhatIsNotSteady with the
  // tangent written at 1e-8 and 1e12 times its size: the same motion.
  Mat<S> J = Mat<S>::Zero(3, 3);
  J(0, 1) = S(1);
  J(1, 1) = S(-12) / 5, J(1, 2) = S(6) / 5, J(2, 1) = S(6) / 5, J(2, 2) = S(-3) / 5;
  std::vector<char> d(9, 1);
  d[1 * 3 + 0] = d[2 * 3 + 0] = 0;
  Vec<S> f(3);
  f << S(7), S(0), S(0);
  const std::vector<std::string> names = {"q", "v1", "v2"};
  for (const char* scale : {"1e-8", "1e12"}) {
    Mat<S> t(3, 1);
    t << S(0), S(1), S(2);
    t *= from_string<S>(scale);
    const auto L = linearize<S>(J, f, d, 1, t, names);
    ASSERT_EQ(L.eigenvalues.size(), 1u) << scale;
    EXPECT_LE(abs(L.eigenvalues[0].first + 3), tight<S>() * 10) << scale;
    // Two tangents along one direction are still refused at that scale.
    Mat<S> t2(3, 2);
    t2 << t, S(3) * t;
    EXPECT_THROW((void)linearize<S>(J, f, d, 1, t2, names), UsageError) << scale;
  }
}

TYPED_TEST(Linearization, FrequencyOfThePairThatCrosses) {
  using S = TypeParam;
  // A pair (mu - 1/2) +- 2i crossing at 1/2, beside a pair +-7i on the
  // imaginary axis (nearer to it than the crossing pair at every grid
  // value) and a stable -1: the crossing is at 1/2, with frequency 2.
  const std::function<Mat<S>(const S&)> D = [](const S& mu) {
    Mat<S> M = Mat<S>::Zero(5, 5);
    M(0, 0) = M(1, 1) = mu - S(1) / 2;
    M(0, 1) = S(2);
    M(1, 0) = S(-2);
    M(2, 3) = S(7);
    M(3, 2) = S(-7);
    M(4, 4) = S(-1);
    return M;
  };
  const auto c = find_crossings<S>(D, grid<S>(S(0), S(1), 6));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_TRUE(near<S>(c[0].at, S(1) / 2, tight<S>()));
  EXPECT_EQ(c[0].kind, "complex pair");
  EXPECT_TRUE(near<S>(c[0].frequency, S(2), tight<S>()));
  EXPECT_EQ(c[0].unstable_before, 0);
  EXPECT_EQ(c[0].unstable_after, 2);
}

TYPED_TEST(Linearization, NoCrossingIsBracketedByAnUndecidedValue) {
  using S = TypeParam;
  // A real eigenvalue mu - 3/10 beside a nearly defective block whose
  // eigenvalues sit at +1e-7 (NearlyDefectiveEigenvaluesAreUndecidedNotGuessed)
  // only at mu = 1/2, a grid value: in double that value is undecided and
  // skipped, and the crossing at 3/10 is still found between decided
  // neighbours.
  const std::function<Mat<S>(const S&)> D = [](const S& mu) {
    Mat<S> M = Mat<S>::Zero(4, 4), P = Mat<S>::Identity(3, 3);
    M(0, 0) = mu - S(3) / 10;
    const S shift = mu == S(1) / 2 ? S(1) / S(10000000) : S(-1);
    Mat<S> J = shift * Mat<S>::Identity(3, 3);
    J(0, 1) = J(1, 2) = S(1);
    P(1, 0) = S(1) / 3;
    P(2, 0) = S(1) / 7;
    P(2, 1) = S(2) / 5;
    M.bottomRightCorner(3, 3) = P * J * P.inverse();
    return M;
  };
  std::vector<S> undecided;
  const auto c = find_crossings<S>(D, grid<S>(S(0), S(1), 5), &undecided);
  ASSERT_GE(c.size(), 1u);
  EXPECT_TRUE(near<S>(c[0].at, S(3) / 10, tight<S>()));
  EXPECT_EQ(c[0].unstable_before, 0);
  if constexpr (std::is_same_v<S, double>) {
    ASSERT_EQ(c.size(), 1u);  // 1/2 is skipped: nothing bracketed by it
    EXPECT_EQ(c[0].unstable_after, 1);
    EXPECT_EQ(undecided, std::vector<S>{S(1) / 2});
  } else {
    // mp50 decides the block at 1/2, where three more eigenvalues are
    // unstable: 0 -> 4 in one cell is not one crossing, so the cell is
    // split: the real eigenvalue's crossing at 3/10 (0 -> 1), then the
    // block's jump at 1/2 (1 -> 4), and its return just after (4 -> 1).
    ASSERT_EQ(c.size(), 3u);
    EXPECT_EQ(c[0].unstable_after, 1);
    EXPECT_TRUE(near<S>(c[1].at, S(1) / 2, tight<S>()));
    EXPECT_EQ(c[1].unstable_before, 1);
    EXPECT_EQ(c[1].unstable_after, 4);
    EXPECT_TRUE(near<S>(c[2].at, S(1) / 2, tight<S>()));
    EXPECT_EQ(c[2].unstable_before, 4);
    EXPECT_EQ(c[2].unstable_after, 1);
    EXPECT_TRUE(undecided.empty());
  }
}

}  // namespace
