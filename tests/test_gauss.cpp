// Gauss's principle of least constraint as a check (seed 003, "Definizione";
// Gauss 1829): at random regular states of every study (the massless-part
// study in M_A, nhs/gauss.hpp) the true qddot
// minimises Z over the accelerations with A qddot = b, growing exactly by
// eps^2 v^T g v along A v = 0; Hertz's least curvature on the force-free
// parallel points of unit mass (003, "Principio di minima curvatura di Hertz").
// ctest-labels: unit cross
#include "random_states.hpp"
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/gauss.hpp"
#include "nhs/regularity.hpp"
#include "nhs/udwadia_kalaba.hpp"

#include <Eigen/SVD>

#include <limits>
#include <random>

namespace nhs {
namespace {

template <class S>
class Gauss : public ::testing::Test {};
TYPED_TEST_SUITE(Gauss, TestScalars, ScalarNames);

/// An orthonormal basis of the null space of A (r x n), n x (n - rank),
/// from the full SVD with the library's rank threshold.
template <class S>
Mat<S> null_space(const Mat<S>& A) {
  const Eigen::Index n = A.cols();
  if (A.rows() == 0) return Mat<S>::Identity(n, n);
  Eigen::JacobiSVD<Mat<S>> svd(A, Eigen::ComputeFullV);
  svd.setThreshold(regularity_tolerance<S>());
  const Eigen::Index rank = svd.rank();
  return svd.matrixV().rightCols(n - rank);
}

template <class S>
Vec<S> random_vector(std::mt19937_64& rng, Eigen::Index size) {
  std::uniform_real_distribution<double> u(-1, 1);
  Vec<S> v(size);
  for (Eigen::Index i = 0; i < size; ++i) v[i] = S(u(rng));  // a double is exact in S
  return v;
}

TYPED_TEST(Gauss, TrueAccelerationsMinimiseZOnTheConstraints) {
  using S = TypeParam;
  using std::abs;
  using std::max;
  std::mt19937_64 rng(20261124);
  int perturbations = 0, decreases = 0;
  const int walked = for_each_random_regular_state<S>(
      20261124, 6, [&](const Study<S>& st, const System<S>& sys, const State<S>& x, int k) {
        const std::string where = st.info.name + " state " + std::to_string(k);
        const UdwadiaKalabaField<S> U = udwadia_kalaba(sys, x.q, x.qdot);
        const GaussFunction<S> G = gauss_function(sys, x.q, x.qdot, U.qddot);
        const Mat<S> A = constraint_jacobians(sys, x.q, x.qdot).C_qdot;
        const Mat<S> g = inertia(sys, x.q, x.qdot).g;
        const Mat<S> N = null_space<S>(A);
        const S scale = S(1) + max_abs<S>(U.qddot) + max_abs<S>(G.qddot_free);
        for (int j = 0; j < 3 && N.cols() > 0; ++j) {
          const Vec<S> c = random_vector<S>(rng, N.cols());
          const Vec<S> v = N * c / c.norm();
          const S eps = scale / S(4);
          const S z1 = gauss_z(sys, x.q, x.qdot, Vec<S>(U.qddot + eps * v));
          const S growth = eps * eps * v.dot(g * v);  // v^T M_A v = v^T g v where A v = 0
          // Z(qddot + eps v) - Z(qddot) = eps^2 v^T g v: the linear term vanishes
          // at the minimum; relative to the size of the terms (z1).
          EXPECT_LE(abs(z1 - G.z - growth), Tolerance<S>::cross * max(z1, S(1)))
              << where << ": Z " << to_string<S>(G.z) << " -> " << to_string<S>(z1) << ", growth "
              << to_string<S>(growth);
          EXPECT_GT(z1, G.z) << where;
          ++perturbations;
        }
        // The minimum is a constrained one: moving halfway to the free
        // acceleration leaves A qddot = b and lowers Z to a quarter (where
        // the constraints exert a force at all).
        if (G.z > Tolerance<S>::cross * scale * scale) {
          const Vec<S> off = U.qddot - (U.qddot - G.qddot_free) / S(2);
          const S z_off = gauss_z(sys, x.q, x.qdot, off);
          EXPECT_LT(z_off, G.z) << where;
          EXPECT_LE(abs(z_off - G.z / S(4)), Tolerance<S>::cross * max(G.z, S(1))) << where;
          const Vec<S> b = -(constraint_jacobians(sys, x.q, x.qdot).C_q * x.qdot);
          EXPECT_GT(max_abs<S>(Vec<S>(A * off - b)), S(1000) * Tolerance<S>::cross * scale) << where;
          ++decreases;
        }
      },
      [](const System<S>&) { return true; });  // massless-trailer too: Z in M_A
  EXPECT_GE(walked, 10);
  EXPECT_GE(perturbations, 100);
  EXPECT_GE(decreases, 20);
}

// Hertz: no forces, unit masses in Cartesian coordinates (parallel-points at
// its defaults: m1 = m2 = 1, g = 0). T is conserved, so the speed ds/dt =
// sqrt(2T) is constant and d^2 q/ds^2 = qddot/(2T): Z = |qddot|^2 = (2T)^2 K,
// K the squared curvature. Among the paths through the same state at the
// same speed that satisfy the constraint (qddot + v, A v = 0, qdot . v = 0)
// the true one has the least curvature.
TYPED_TEST(Gauss, HertzLeastCurvatureOnParallelPoints) {
  using S = TypeParam;
  using std::abs;
  using std::max;
  const Study<S>& st = find_study<S>("parallel-points");
  const System<S> sys = st.build(st.default_parameters());
  ASSERT_EQ(sys.parameter("m1"), S(1));
  ASSERT_EQ(sys.parameter("g"), S(0));
  std::mt19937_64 rng(20261125);
  int checked = 0;
  for (int k = 0; k < 20; ++k) {
    const State<S> x = st.random_state(sys, rng);
    const UdwadiaKalabaField<S> U = udwadia_kalaba(sys, x.q, x.qdot);
    const S twoT = S(2) * sys.kinetic_energy(x.q, x.qdot);
    const S size = U.qddot.norm() * x.qdot.norm();
    EXPECT_LE(abs(x.qdot.dot(U.qddot)), Tolerance<S>::cross * max(size, S(1))) << "speed constant, k = " << k;
    const S z = gauss_z(sys, x.q, x.qdot, U.qddot);
    EXPECT_LE(abs(z - U.qddot.squaredNorm()), Tolerance<S>::cross * max(z, S(1))) << "Z = |qddot|^2";
    const S K = z / (twoT * twoT);
    // v in the null space of A and orthogonal to qdot (A qdot = 2C = 0: qdot is in it).
    const Mat<S> A = constraint_jacobians(sys, x.q, x.qdot).C_qdot;
    Mat<S> AQ(A.rows() + 1, A.cols());
    AQ << A, x.qdot.transpose();
    const Mat<S> N = null_space<S>(AQ);
    ASSERT_GE(N.cols(), 1);
    for (int j = 0; j < 3; ++j) {
      const Vec<S> c = random_vector<S>(rng, N.cols());
      const Vec<S> v = N * c / c.norm() * (S(1) + U.qddot.norm()) / S(3);
      const Vec<S> trial = U.qddot + v;
      const S K_trial = trial.squaredNorm() / (twoT * twoT);
      EXPECT_GT(K_trial, K) << "k = " << k;
      // The excess is |v|^2 / (2T)^2 exactly: qddot is orthogonal to every such v.
      EXPECT_LE(abs(K_trial - K - v.squaredNorm() / (twoT * twoT)), Tolerance<S>::cross * max(K_trial, S(1)))
          << "k = " << k;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 60);
}

// Z is quadratic in the forces, so it overflows before qddot does: the
// parallel points with g = -1e308 have a finite qddot and an infinite Z,
// which is a NonFiniteValue, never an inf returned (the CLI fuzz test found
// `nhs accel parallel-points --formulation maggi --param g=-1e308` printing
// gauss_z = inf with exit 0).
TYPED_TEST(Gauss, OverflowingZIsANonFiniteValue) {
  using S = TypeParam;
  if (!std::numeric_limits<S>::is_iec559)  // MPFR's exponent range: about 1e(3e8)
    GTEST_SKIP() << "an IEC 559 overflow";
  const Study<S>& st = find_study<S>("parallel-points");
  const System<S> sys = st.build(parameters_with(st, {{"g", "-1e308"}}));
  const State<S> x = st.default_state(sys);
  const UdwadiaKalabaField<S> U = udwadia_kalaba(sys, x.q, x.qdot);
  ASSERT_TRUE(U.qddot.allFinite());
  EXPECT_THROW(gauss_z(sys, x.q, x.qdot, U.qddot), NonFiniteValue);
}

}  // namespace
}  // namespace nhs
