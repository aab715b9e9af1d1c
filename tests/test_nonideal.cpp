// Non-ideal constraints (seed 003's vector C, delta W_c = C . delta q):
// Udwadia-Kalaba with the seed's term K (and K_A on the auxiliary M_A path)
// against the second kind and the KKT system, which take C as a generalized
// force, on a Chaplygin sleigh described here (non-diagonal g, C with a part
// along the constraint) and on examples/knife-edge-drag.toml.
// ctest-labels: unit cross
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/gauss.hpp"
#include "nhs/lagrange_multipliers.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/verification.hpp"
#include "nhs/udwadia_kalaba.hpp"

#include <Eigen/SVD>

#include <random>

#ifndef NHS_SOURCE_DIR
#define NHS_SOURCE_DIR ".."
#endif

namespace nhs {
namespace {

enum SleighParam { pm, pJ, pa, pc, pe, pk, pg };

// A Chaplygin sleigh: q = (x, y, theta) the blade's contact point and
// heading, the centre of mass at distance a ahead of it, so g has the
// off-diagonal terms -m a sin(theta), m a cos(theta); the blade allows no side
// slip, C = -x_dot sin(theta) + y_dot cos(theta) = 0; V = m g x_G (an incline
// along x). The non-ideal C is a drag -c qdot on the point, a rotational
// drag -e theta_dot and terms k (...) that are not along anything in
// particular, so that C has a part along the constraint normal (which the
// ideal reaction absorbs) and K != C.
struct NonIdealSleigh {
  static constexpr int n = 3;
  static SystemInfo info() {
    return {.name = "nonideal-sleigh",
            .title = "Chaplygin sleigh with a non-ideal blade",
            .source = "test",
            .coordinates = {"x", "y", "theta"},
            .parameters = {{"m", "1.3", ""}, {"J", "0.4", ""}, {"a", "0.6", ""}, {"c", "0.3", ""},
                           {"e", "0.2", ""}, {"k", "0.7", ""}, {"g", "0.9", ""}},
            .constraint_names = {"blade"},
            .linear_constraints = true};
  }
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    using std::cos;
    using std::sin;
    const T vx = qd[0] - qd[2] * sin(q[2]) * p[pa];
    const T vy = qd[1] + qd[2] * cos(q[2]) * p[pa];
    const T half = ratio<T>(1, 2);
    return (vx * vx + vy * vy) * p[pm] * half + qd[2] * qd[2] * p[pJ] * half;
  }
  template <class T>
  static T potential(const Params<T>& p, const Vec<T>& q) {
    using std::cos;
    return (q[0] + cos(q[2]) * p[pa]) * p[pm] * p[pg];
  }
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    using std::cos;
    using std::sin;
    C[0] = qd[1] * cos(q[2]) - qd[0] * sin(q[2]);
  }
  template <class S>
  static void nonideal_work(const Params<S>& p, const Vec<S>& q, const Vec<S>& qd, Vec<S>& C) {
    using std::cos;
    C[0] = -qd[0] * p[pc] + qd[2] * qd[2] * cos(q[2]) * p[pk];
    C[1] = -qd[1] * p[pc] + q[0] * qd[2] * p[pk];
    C[2] = -qd[2] * p[pe] + qd[0] * qd[1] * p[pk];
  }
};

/// The same sleigh with ideal constraints (no nonideal_work).
struct IdealSleigh {
  static constexpr int n = 3;
  static SystemInfo info() { return NonIdealSleigh::info(); }
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    return NonIdealSleigh::kinetic_energy(p, q, qd);
  }
  template <class T>
  static T potential(const Params<T>& p, const Vec<T>& q) {
    return NonIdealSleigh::potential(p, q);
  }
  template <class T>
  static void constraints(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    NonIdealSleigh::constraints(p, q, qd, C);
  }
};

template <class S>
class NonIdeal : public ::testing::Test {};
TYPED_TEST_SUITE(NonIdeal, TestScalars, ScalarNames);

/// The tolerance of the agreement: 1e-12 in double, 1e-40 in mp50 (issue 23).
template <class S>
S agreement_tolerance() {
  return std::numeric_limits<S>::digits10 > 40 ? S(1e-40) : S(1e-12);
}

template <class S>
S rel(const Vec<S>& a, const Vec<S>& b) {
  using std::max;
  return max_abs<S>(Vec<S>(a - b)) / max(max(max_abs<S>(a), max_abs<S>(b)), S(1));
}

/// UK with K against the second kind and KKT with C as a force at (q, qdot):
/// qddot, the total reaction and the multipliers; K and Q_c do C's virtual
/// work; the auxiliary M_A path (K_A) gives the same qddot and Q_c; Gauss's
/// Z (with C in the force) grows along A v = 0.
template <class S>
void expect_nonideal_agreement(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd,
                               const std::string& where, std::mt19937_64& rng) {
  const S tol = agreement_tolerance<S>();
  const UdwadiaKalabaField<S> U = udwadia_kalaba(sys, q, qd);
  const SecondKindField<S> D = second_kind(sys, q, qd);
  const LagrangeMultipliersField<S> L = lagrange_multipliers(sys, q, qd);
  EXPECT_FALSE(U.auxiliary) << where;
  EXPECT_LE(rel<S>(U.qddot, D.qddot), tol) << where << " qddot UK vs second kind";
  EXPECT_LE(rel<S>(L.qddot, D.qddot), tol) << where << " qddot KKT vs second kind";
  EXPECT_LE(rel<S>(U.reaction, D.reaction), tol) << where << " Q_c UK vs second kind";
  EXPECT_LE(rel<S>(L.reaction, D.reaction), tol) << where << " Q_c KKT vs second kind";
  ASSERT_TRUE(U.multipliers.has_value()) << where;
  EXPECT_LE(rel<S>(*U.multipliers, D.multipliers), tol) << where << " lambda UK vs second kind";

  const Vec<S> C = nonideal_constraint_force(sys, q, qd);
  const Mat<S> A = constraint_jacobians(sys, q, qd).C_qdot;
  const Inertia<S> I = inertia(sys, q, qd);
  // The total constraint force: g qddot + Gamma - applied = Q_c = A^T lambda + C.
  EXPECT_LE(rel<S>(Vec<S>(I.g * U.qddot + I.gamma - applied_force(sys, q, qd)), U.reaction), tol) << where;
  EXPECT_LE(rel<S>(Vec<S>(A.transpose() * D.multipliers + C), D.reaction), tol) << where;
  // K is not C here (C has a part along the constraint normal), yet both
  // do the same virtual work on A dq = 0 (seed 003: delta W_c = C . dq).
  EXPECT_GT(rel<S>(U.nonideal, C), S(1e-3)) << where << " K should differ from C";
  Eigen::JacobiSVD<Mat<S>> svd(A, Eigen::ComputeFullV);
  const Vec<S> v = svd.matrixV().col(2);  // A v = 0 (rank 1)
  using std::abs;
  EXPECT_LE(abs(U.nonideal.dot(v) - C.dot(v)), tol * (S(1) + max_abs<S>(C))) << where;
  EXPECT_LE(abs(U.reaction.dot(v) - C.dot(v)), tol * (S(1) + max_abs<S>(U.reaction))) << where;

  // M_A = g + s A^+ A (forced): the same qddot and Q_c; K_A is another split.
  const UdwadiaKalabaField<S> UA = udwadia_kalaba(sys, q, qd, UdwadiaKalabaMass::auxiliary);
  EXPECT_TRUE(UA.auxiliary);
  EXPECT_LE(rel<S>(UA.qddot, D.qddot), tol) << where << " qddot M_A";
  EXPECT_LE(rel<S>(UA.reaction, D.reaction), tol) << where << " Q_c M_A";
  EXPECT_LE(abs(UA.nonideal.dot(v) - C.dot(v)), tol * (S(1) + max_abs<S>(C))) << where;

  // Gauss with C in the force: the minimum on A qddot = b.
  const S z0 = gauss_z(sys, q, qd, U.qddot);
  std::uniform_real_distribution<double> u(0.1, 1);
  const S eps(u(rng));
  const S z1 = gauss_z(sys, q, qd, Vec<S>(U.qddot + eps * v));
  using std::max;
  EXPECT_LE(abs(z1 - z0 - eps * eps * v.dot(I.g * v)), Tolerance<S>::cross * max(z1, S(1))) << where;
}

TYPED_TEST(NonIdeal, UdwadiaKalabaKAgreesWithCAsAForceOnASleigh) {
  using S = TypeParam;
  const System<S> sys = describe<S, NonIdealSleigh>(
      {from_string<S>("1.3"), from_string<S>("0.4"), from_string<S>("0.6"), from_string<S>("0.3"),
       from_string<S>("0.2"), from_string<S>("0.7"), from_string<S>("0.9")});
  ASSERT_TRUE(static_cast<bool>(sys.nonideal_constraint_force));
  std::mt19937_64 rng(20261126);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int k = 0; k < 20; ++k) {
    Vec<S> q(3), qd(3);
    q << S(u(rng)), S(u(rng)), S(3 * u(rng));
    const S s(2 * u(rng)), w(2 * u(rng));
    using std::cos;
    using std::sin;
    qd << s * cos(q[2]), s * sin(q[2]), w;  // on the blade's constraint
    expect_nonideal_agreement<S>(sys, q, qd, "sleigh state " + std::to_string(k), rng);
  }
}

TYPED_TEST(NonIdeal, WithoutCTheSystemIsIdeal) {
  // The same sleigh without its nonideal_work: K = 0 and Q_c = A^T lambda,
  // and the qddot differs (C does act).
  using S = TypeParam;
  std::vector<S> values;
  for (const char* v : {"1.3", "0.4", "0.6", "0.3", "0.2", "0.7", "0.9"}) values.push_back(from_string<S>(v));
  const System<S> ideal = describe<S, IdealSleigh>(values);
  const System<S> nonideal = describe<S, NonIdealSleigh>(values);
  EXPECT_FALSE(static_cast<bool>(ideal.nonideal_constraint_force));
  Vec<S> q(3), qd(3);
  q << S(0.25), S(-0.5), S(0.75);
  using std::cos;
  using std::sin;
  qd << S(0.5) * cos(q[2]), S(0.5) * sin(q[2]), S(-0.75);
  const UdwadiaKalabaField<S> U = udwadia_kalaba(ideal, q, qd);
  EXPECT_EQ(max_abs<S>(U.nonideal), S(0));
  EXPECT_GT(rel<S>(U.qddot, udwadia_kalaba(nonideal, q, qd).qddot), S(1e-3));
}

TYPED_TEST(NonIdeal, KnifeEdgeDragExample) {
  using S = TypeParam;
  const Study<S>& st = find_study<S>(std::string(NHS_SOURCE_DIR) + "/examples/knife-edge-drag.toml");
  const System<S> sys0 = st.build(st.default_parameters());
  ASSERT_TRUE(static_cast<bool>(sys0.nonideal_constraint_force));
  EXPECT_FALSE(st.energy_is_conserved(sys0));
  const S tol = agreement_tolerance<S>();
  std::mt19937_64 rng(20261127);
  int states = 0;
  for_each_random_state<S>(st, sys0, rng, 20, [&](int k, const System<S>& sys, const State<S>& x) {
    const std::string where = "knife-edge-drag state " + std::to_string(k);
    const UdwadiaKalabaField<S> U = udwadia_kalaba(sys, x.q, x.qdot);
    const SecondKindField<S> D = second_kind(sys, x.q, x.qdot);
    const LagrangeMultipliersField<S> L = lagrange_multipliers(sys, x.q, x.qdot);
    EXPECT_LE(rel<S>(U.qddot, D.qddot), tol) << where;
    EXPECT_LE(rel<S>(L.qddot, D.qddot), tol) << where;
    EXPECT_LE(rel<S>(U.reaction, D.reaction), tol) << where;
    EXPECT_LE(rel<S>(*U.multipliers, D.multipliers), tol) << where;
    // Every formulation (first kind, Maggi, Gibbs-Appell, Voronec where its split is regular) agrees.
    for (const auto& f : formulations<S>()) {
      if (f->is_negative_control() || !f->not_applicable_reason(sys).empty()) continue;
      try {
        EXPECT_LE(rel<S>(f->acceleration(sys, x.q, x.qdot).qddot, D.qddot), tol) << where << " " << f->name();
      } catch (const SingularState&) {  // Voronec's split at cos(theta) = 0
      }
    }
    // C lies along the blade: K = C, and the drag's power is -c s^2.
    const Vec<S> C = nonideal_constraint_force(sys, x.q, x.qdot);
    EXPECT_LE(rel<S>(U.nonideal, C), tol) << where;
    using std::cos;
    using std::sin;
    const S s = x.qdot[0] * cos(x.q[2]) + x.qdot[1] * sin(x.q[2]);
    using std::abs;
    EXPECT_LE(abs(C.dot(x.qdot) + sys.parameter("c") * s * s), tol * (S(1) + s * s)) << where;
    ++states;
  });
  EXPECT_EQ(states, 20);
}

}  // namespace
}  // namespace nhs
