// The fast derivations bound by describe() (System::derivations: fixed-size
// AD for the studies whose n is fixed at compile time, inline AD for the
// N-trailer while 2n <= 16) against the dynamic AD1/AD2 binding of the same
// derivatives: g_ij, Gamma_ij,k qdot^i qdot^j, T at a dense second-order
// jet (Maggi, Voronec), -dV/dq, C with dC/dqdot and dC/dq, psi with
// dpsi/dz and dpsi/dq, the bodies' kinematics (Gibbs-Appell: positions,
// their q-derivatives, omega with its Jacobians, J), at random regular
// states of every
// study (default and randomized parameters), in double, long double and
// float128. Catches a wrong size, seed or padding slot, or a parameter
// bound to the wrong derivation; which path a system takes is asserted too.
// ctest-labels: unit
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/gibbs_appell.hpp"
#include "nhs/studies/all.hpp"

#include <iostream>
#include <random>
#include <string>

namespace nhs {
namespace {

// Relative max-norm difference of two results of equal shape, against
// max(1, |b|): the derivatives mix scales (lengths, masses, angles).
template <class S, class M>
S difference(const M& a, const M& b) {
  EXPECT_EQ(a.rows(), b.rows());
  EXPECT_EQ(a.cols(), b.cols());
  if (a.size() == 0 || a.rows() != b.rows() || a.cols() != b.cols()) return S(0);
  using std::max;
  return (a - b).cwiseAbs().maxCoeff() / max(S(1), b.cwiseAbs().maxCoeff());
}

// Largest difference between sys's fast derivations and those of dyn, the
// same system bound to the dynamic AD types, at (q, qdot) (and at
// z = chart(q, qdot) for psi).
template <class S>
S fast_against_dynamic(const System<S>& sys, const System<S>& dyn, const Vec<S>& q,
                       const Vec<S>& qd) {
  EXPECT_EQ(dyn.derivations.ad_type, "dynamic");
  using std::max;
  S worst(0);
  const Inertia<S> fi = inertia(sys, q, qd), di = inertia(dyn, q, qd);
  worst = max(worst, difference<S>(fi.g, di.g));
  worst = max(worst, difference<S>(fi.gamma, di.gamma));
  worst = max(worst, difference<S>(active_force(sys, q, qd), active_force(dyn, q, qd)));
  const ConstraintJacobians<S> fc = constraint_jacobians(sys, q, qd),
                               dc = constraint_jacobians(dyn, q, qd);
  worst = max(worst, difference<S>(fc.C, dc.C));
  worst = max(worst, difference<S>(fc.C_qdot, dc.C_qdot));
  worst = max(worst, difference<S>(fc.C_q, dc.C_q));
  // T at a dense second-order jet (every seed entry nonzero), as Maggi and
  // Voronec use it with sparser seeds.
  const Eigen::Index n = sys.n;
  KineticEnergySeed<S> seed;
  seed.outer = 2 * n;
  seed.inner = n;
  seed.q = q;
  seed.qd = qd;
  const auto filled = [&](Eigen::Index rows, Eigen::Index cols, int salt) {
    Mat<S> a(rows, cols);
    for (Eigen::Index i = 0; i < rows; ++i)
      for (Eigen::Index j = 0; j < cols; ++j)
        a(i, j) = S(((i + 1) * 7 + (j + 1) * 3 + salt) % 11 - 5) / S(4);
    return a;
  };
  seed.q_inner = filled(n, n, 1);
  seed.qd_inner = filled(n, n, 2);
  seed.q_outer = filled(n, 2 * n, 3);
  seed.qd_outer = filled(n, 2 * n, 4);
  for (Eigen::Index i = 0; i < n; ++i)
    seed.qd_outer_inner.push_back(filled(2 * n, n, 5 + static_cast<int>(i)));
  const KineticEnergyJet<S> fj = kinetic_energy_jet(sys, seed), dj = kinetic_energy_jet(dyn, seed);
  worst = max(worst, difference<S>(Vec<S>::Constant(1, fj.T), Vec<S>::Constant(1, dj.T)));
  worst = max(worst, difference<S>(fj.T_inner, dj.T_inner));
  worst = max(worst, difference<S>(fj.T_outer, dj.T_outer));
  worst = max(worst, difference<S>(fj.T_outer_inner, dj.T_outer_inner));
  if (sys.has_parametrization()) {
    Vec<S> z(sys.m);
    sys.chart(q, qd, z);
    const ParametrizationJacobians<S> fp = parametrization_jacobians(sys, q, z),
                                      dp = parametrization_jacobians(dyn, q, z);
    worst = max(worst, difference<S>(fp.psi, dp.psi));
    worst = max(worst, difference<S>(fp.psi_z, dp.psi_z));
    worst = max(worst, difference<S>(fp.psi_q, dp.psi_q));
  }
  if (sys.has_bodies()) {
    const BodyKinematics<S> fk = body_kinematics(sys, q, qd), dk = body_kinematics(dyn, q, qd);
    const auto point = [&](const PointKinematics<S>& a, const PointKinematics<S>& b) {
      worst = max(worst, difference<S>(Vec<S>::Constant(1, a.mass), Vec<S>::Constant(1, b.mass)));
      worst = max(worst, difference<S>(a.r, b.r));
      worst = max(worst, difference<S>(a.r_q, b.r_q));
      worst = max(worst, difference<S>(a.r_qq, b.r_qq));
    };
    EXPECT_EQ(fk.points.size(), dk.points.size());
    EXPECT_EQ(fk.rigid_bodies.size(), dk.rigid_bodies.size());
    for (std::size_t k = 0; k < fk.points.size() && k < dk.points.size(); ++k)
      point(fk.points[k], dk.points[k]);
    for (std::size_t k = 0; k < fk.rigid_bodies.size() && k < dk.rigid_bodies.size(); ++k) {
      const RigidKinematics<S>&a = fk.rigid_bodies[k], &b = dk.rigid_bodies[k];
      point(a.centre, b.centre);
      worst = max(worst, difference<S>(Vec<S>(a.omega), Vec<S>(b.omega)));
      worst = max(worst, difference<S>(a.omega_q, b.omega_q));
      worst = max(worst, difference<S>(a.omega_qd, b.omega_qd));
      worst = max(worst, difference<S>(Mat<S>(a.inertia), Mat<S>(b.inertia)));
    }
  }
  return worst;
}

using HardwareScalars = ::testing::Types<double, long double, float128>;

template <class S>
class FastDerivations : public ::testing::Test {};
TYPED_TEST_SUITE(FastDerivations, HardwareScalars, ScalarNames);

TYPED_TEST(FastDerivations, AgreeWithDynamicADAtRandomRegularStates) {
  using S = TypeParam;
  std::mt19937_64 rng(20261123);
  // Same arithmetic in the same order: a few ulps at most (FMA contraction
  // may differ between the unrolled and the looped code).
  const S bound = S(64) * epsilon<S>();
  for (const Study<S>& st : studies<S>()) {
    S worst(0);
    for (int k = 0; k < 20; ++k) {
      const std::vector<S> p = k % 2 ? randomized_parameters(st, rng) : st.default_parameters();
      const System<S> sys = st.build(p), dyn = st.build(p, AdBinding::dynamic);
      ASSERT_NE(sys.derivations.ad_type, "dynamic") << st.info.name;
      const auto& d = sys.derivations;
      ASSERT_TRUE(d.inertia && d.kinetic_energy_jet && d.minus_potential_gradient &&
                  d.constraint_jacobians)
          << st.info.name;
      ASSERT_EQ(static_cast<bool>(d.parametrization_jacobians), sys.has_parametrization())
          << st.info.name;
      ASSERT_EQ(static_cast<bool>(d.body_kinematics), sys.has_bodies()) << st.info.name;
      const State<S> x = st.random_state(sys, rng);
      using std::max;
      worst = max(worst, fast_against_dynamic(sys, dyn, x.q, x.qdot));
    }
    EXPECT_LE(worst, bound) << st.info.name;
    std::cout << "[ fast     ] " << ScalarName<S>::value << " " << st.info.name << " ("
              << st.build(st.default_parameters()).derivations.ad_type << "): max difference "
              << static_cast<double>(worst / epsilon<S>()) << " eps\n";
  }
}

TYPED_TEST(FastDerivations, NTrailerInlineUpToEightCoordinatesThenDynamic) {
  using S = TypeParam;
  std::mt19937_64 rng(7);
  for (int N : {1, 5, 6}) {
    const Study<S> st = n_trailer_study<S>(N);
    const std::vector<S> p = randomized_parameters(st, rng);
    const System<S> sys = st.build(p);
    EXPECT_EQ(sys.derivations.ad_type, N <= 5 ? "inline" : "dynamic") << "N = " << N;
    EXPECT_TRUE(static_cast<bool>(sys.derivations.inertia)) << "N = " << N;
    if (N <= 5) {
      const State<S> x = st.random_state(sys, rng);
      EXPECT_LE(fast_against_dynamic(sys, st.build(p, AdBinding::dynamic), x.q, x.qdot),
                S(64) * epsilon<S>())
          << "N = " << N;
    }
  }
}

TEST(FastDerivationsMp50, MpfrKeepsTheDynamicTypes) {
  for (const Study<mp50>& st : studies<mp50>()) {
    const System<mp50> sys = st.build(st.default_parameters());
    EXPECT_EQ(sys.derivations.ad_type, "dynamic") << st.info.name;
    EXPECT_TRUE(static_cast<bool>(sys.derivations.inertia)) << st.info.name;
  }
}

// A description whose compile-time n disagrees with its coordinate names.
struct Wrong {
  static constexpr int n = 3;
  static SystemInfo info() {
    SystemInfo info;
    info.name = "wrong";
    info.coordinates = {"x", "y"};
    info.constraint_names = {"C1"};
    return info;
  }
  template <class T>
  static T kinetic_energy(const Params<T>&, const Vec<T>&, const Vec<T>& qd) {
    return qd.squaredNorm();
  }
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>&, const Vec<T>& qd, Vec<T>& C) {
    C[0] = qd[0];
  }
};
TEST(FastDerivationsErrors, DeclaredSizeMustMatchTheCoordinates) {
  try {
    describe<double, Wrong>({});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("declares n = 3 but names 2 coordinates"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace nhs
