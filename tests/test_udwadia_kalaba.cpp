// Udwadia-Kalaba (seed 003) vs the second kind (001 §8): qddot, Q_c = R, lambda; redundant constraints (001 eq. 9.11).
// ctest-labels: unit cross
#include "agreement.hpp"
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/lagrange_multipliers.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/udwadia_kalaba.hpp"

namespace nhs {
namespace {

template <class S>
class UdwadiaKalaba : public ::testing::Test {};
TYPED_TEST_SUITE(UdwadiaKalaba, TestScalars, ScalarNames);

TYPED_TEST(UdwadiaKalaba, AgreesWithSecondKindAtRandomRegularStates) {
  using S = TypeParam;
  const Formulation<S>& registered = find_formulation<S>("udwadia-kalaba");
  expect_agreement_at_random_regular_states<S>(
      "udwadia-kalaba", 20261123, 60, [&](Agreement<S>& a, const RandomState<S>& s) {
        const UdwadiaKalabaField<S> U = udwadia_kalaba(s.sys, s.x.q, s.x.qdot);
        EXPECT_EQ(U.rank, s.sys.r) << s.study.info.name;
        ASSERT_TRUE(U.multipliers.has_value())
            << s.study.info.name << " full row rank: lambda defined";
        expect_multiplier_formulation_agrees<S>(a, registered, s, U.qddot, *U.multipliers,
                                                U.reaction);
      });
}

// --- redundant constraints: the co-axial discs with a as a coordinate -------

enum DiscParam { dm, dR, dA, dB, dg };

// Two co-axial discs (001 §9.3) with q = (x, y, theta1, theta2, psi, a): the
// axle length a is a coordinate. Disc 1's centre is (x, y), disc 2's
// (x + a sin psi, y - a cos psi), with velocity (001 eq. 9.10)
//   (xd + a cos psi psid + sin psi ad, yd + a sin psi psid - cos psi ad).
// T = m/2 |v1|^2 + m/2 |v2|^2 + A/2 (theta1d^2 + theta2d^2) + B psid^2: the
// study's T plus m/2 ad^2 + m ad (xd sin psi - yd cos psi) (the ad psid
// cross terms cancel). Constraints: the four rolling conditions of 001 eq.
// 9.11 and, when Redundant, also adot = 0, which they imply:
// sin psi (C3 - C1) - cos psi (C4 - C2) = adot. So r = 5 with rank 4
// (rank 4 of the four needs a != 0). V as in the study, with a the
// coordinate: -m g x - m g (x + a sin psi).
template <bool Redundant>
struct CoaxialDiscsWithAxle {
  static SystemInfo info() {
    std::vector<std::string> names = {"C1", "C2", "C3", "C4"};
    if (Redundant) names.push_back("C5");
    return {Redundant ? "coaxial-discs-6-redundant" : "coaxial-discs-6",
            "co-axial discs with the axle length as a coordinate",
            "001 §9.3 eq. 9.11",
            {"x", "y", "theta1", "theta2", "psi", "a"},
            {{"m", "1", "mass of each disc"},
             {"R", "1", "radius of each disc"},
             {"A", "0.5", "moment of inertia about the axle"},
             {"B", "0.25", "moment of inertia about a diameter"},
             {"g", "0", "incline field along +x"}},
            names,
            {},
            true};
  }
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    using std::cos;
    using std::sin;
    const T c = cos(q[4]), s = sin(q[4]);
    const T x2d = qd[0] + q[5] * c * qd[4] + s * qd[5];
    const T y2d = qd[1] + q[5] * s * qd[4] - c * qd[5];
    T half = ratio<T>(1, 2);  // not const: Eigen's make_coherent resizes its derivatives
    return (qd[0] * qd[0] + qd[1] * qd[1] + x2d * x2d + y2d * y2d) * half * p[dm] +
           (qd[2] * qd[2] + qd[3] * qd[3]) * half * p[dA] + qd[4] * qd[4] * p[dB];
  }
  template <class T>
  static T potential(const Params<T>& p, const Vec<T>& q) {
    using std::sin;
    return -(q[0] * p[dm] * p[dg]) - (q[0] + sin(q[4]) * q[5]) * p[dm] * p[dg];
  }
  template <class T>
  static void constraints(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    using std::cos;
    using std::sin;
    const T c = cos(q[4]), s = sin(q[4]);
    C[0] = qd[0] - c * qd[2] * p[dR];
    C[1] = qd[1] - s * qd[2] * p[dR];
    C[2] = qd[0] + q[5] * c * qd[4] + s * qd[5] - c * qd[3] * p[dR];
    C[3] = qd[1] + q[5] * s * qd[4] - c * qd[5] - s * qd[3] * p[dR];
    if constexpr (Redundant) C[4] = qd[5];
  }
};

TYPED_TEST(UdwadiaKalaba, RedundantRollingConditionsOfCoaxialDiscs) {
  using S = TypeParam;
  const S tol = Tolerance<S>::cross;
  const Study<S>& st = find_study<S>("coaxial-discs");
  std::mt19937_64 rng(20261124);
  for (int k = 0; k < 60; ++k) {
    const System<S> sys5 = st.build(k % 2 ? randomized_parameters(st, rng) : st.default_parameters());
    const State<S> x = st.random_state(sys5, rng);
    const std::vector<S> p6 = {sys5.parameter("m"), sys5.parameter("R"), sys5.parameter("A"),
                               sys5.parameter("B"), sys5.parameter("g")};
    const System<S> redundant = describe<S, CoaxialDiscsWithAxle<true>>(p6);
    const System<S> rolling = describe<S, CoaxialDiscsWithAxle<false>>(p6);
    Vec<S> q(6), qd(6);
    q << x.q, sys5.parameter("a");
    qd << x.qdot, S(0);
    ASSERT_LE(constraint_residuals(redundant, q, qd).cwiseAbs().maxCoeff(),
              S(100) * epsilon<S>() * (S(1) + qd.cwiseAbs().maxCoeff()));

    // T's adot terms reach qddot only through the metric column of a: at
    // adot = 0 the 5x5 block of g and Gamma's first 5 entries are the study's,
    // g_{x a} = m sin psi, g_{y a} = -m cos psi, g_{a a} = m, the rest 0.
    const Inertia<S> I5 = inertia(sys5, x.q, x.qdot), I6 = inertia(redundant, q, qd);
    const S mass = sys5.parameter("m");
    using std::cos;
    using std::sin;
    Vec<S> g_a(6);
    g_a << mass * sin(q[4]), -mass * cos(q[4]), S(0), S(0), S(0), mass;
    EXPECT_LE((I6.g.topLeftCorner(5, 5) - I5.g).cwiseAbs().maxCoeff(),
              tol * I5.g.cwiseAbs().maxCoeff());
    EXPECT_LE(relative_difference<S>(Vec<S>(I6.g.col(5)), g_a), tol);
    EXPECT_LE(difference_over(Vec<S>(I6.gamma.head(5)), I5.gamma,
                              I5.g.cwiseAbs().maxCoeff() * x.qdot.squaredNorm()),
              tol);

    // Udwadia-Kalaba with 5 constraints of rank 4 = the study (3 constraints).
    const SecondKindField<S> D5 = second_kind(sys5, x.q, x.qdot);
    const UdwadiaKalabaField<S> U = udwadia_kalaba(redundant, q, qd);
    EXPECT_EQ(U.rank, 4);
    EXPECT_FALSE(U.multipliers.has_value());
    EXPECT_LE(relative_difference<S>(Vec<S>(U.qddot.head(5)), D5.qddot), tol) << "state " << k;
    using std::abs;
    EXPECT_LE(abs(U.qddot[5]), tol * D5.qddot.cwiseAbs().maxCoeff()) << "add, state " << k;
    // The reaction on (x, y, theta1, theta2, psi) is the study's: same
    // motion, same metric block, Gamma and forces there.
    const S f5 = force_scale(sys5, x.q, x.qdot, D5).reaction;
    EXPECT_LE(difference_over(Vec<S>(U.reaction.head(5)), D5.reaction, f5), tol) << "state " << k;
    // ... and all of Q_c is the reaction of the four rolling conditions alone
    // (full rank: second kind applies), including the push along the axle.
    const SecondKindField<S> D6 = second_kind(rolling, q, qd);
    EXPECT_LE(relative_difference<S>(U.qddot, D6.qddot), tol) << "state " << k;
    EXPECT_LE(difference_over(U.reaction, D6.reaction, force_scale(rolling, q, qd, D6).reaction),
              tol)
        << "state " << k;

    // Second kind and the KKT system cannot: dC/dqdot has rank 4 < 5.
    EXPECT_EQ(singular_condition([&] { second_kind(redundant, q, qd); }),
              "rank loss of dC/dqdot");
    EXPECT_EQ(singular_condition([&] { lagrange_multipliers(redundant, q, qd); }),
              "singular KKT matrix (rank loss of dC/dqdot or singular g)");
    const Formulation<S>& kkt = find_formulation<S>("lagrange-multipliers");
    EXPECT_EQ(singular_condition([&] { kkt.acceleration(redundant, q, qd); }),
              "singular KKT matrix (rank loss of dC/dqdot or singular g)");
  }
}

// --- inconsistent constraints and a singular metric ---------------------------

enum PointParam { pm };

// A point in the plane, C1 = xd, C2 = xd + y: both vanish at y = 0, xd = 0,
// but their time derivatives are xdd = 0 and xdd = -yd, inconsistent unless
// yd = 0.
struct Inconsistent {
  static SystemInfo info() {
    return {"inconsistent", "test point", "test", {"x", "y"}, {{"m", "1", "mass"}},
            {"C1", "C2"}, {}, false};  // affine in qdot (C2 = xd + y): not linear
  }
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>&, const Vec<T>& qd) {
    T half = ratio<T>(1, 2);
    return (qd[0] * qd[0] + qd[1] * qd[1]) * half * p[pm];
  }
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    C[0] = qd[0];
    C[1] = qd[0] + q[1];
  }
};

// T = m/2 xd^2 on (x, y): g = diag(m, 0) is singular (semidefinite).
struct NoInertiaInY {
  static SystemInfo info() {
    return {"no-inertia", "test point", "test", {"x", "y"}, {{"m", "1", "mass"}}, {"C1"}, {}, true};
  }
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>&, const Vec<T>& qd) {
    T half = ratio<T>(1, 2);
    return qd[0] * qd[0] * half * p[pm];
  }
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>&, const Vec<T>& qd, Vec<T>& C) {
    C[0] = qd[0] - qd[1];
  }
};

TYPED_TEST(UdwadiaKalaba, InconsistentConstraintsAreReportedAndASemidefiniteMetricSolved) {
  using S = TypeParam;
  const System<S> sys = describe<S, Inconsistent>({from_string<S>("1.3")});
  Vec<S> q(2), qd(2);
  q << from_string<S>("0.3"), S(0);
  qd << S(0), from_string<S>("0.7");
  ASSERT_EQ(constraint_residuals(sys, q, qd).cwiseAbs().maxCoeff(), S(0));
  EXPECT_EQ(singular_condition([&] { udwadia_kalaba(sys, q, qd); }),
            "inconsistent constraints A qddot = b");
  // With yd = 0 the two rows agree (rank 1, consistent): xdd = 0, ydd = 0.
  qd[1] = S(0);
  const UdwadiaKalabaField<S> U = udwadia_kalaba(sys, q, qd);
  EXPECT_EQ(U.rank, 1);
  EXPECT_FALSE(U.multipliers.has_value());
  EXPECT_LE(U.qddot.cwiseAbs().maxCoeff(), S(10) * epsilon<S>());

  // g = diag(m, 0) is only positive semidefinite, but the constraint ties
  // y to x: [g; A] has rank 2, and M_A = g + s A^+ A gives qddot (0: no
  // force). test_semidefinite_mass.cpp has the cases it refuses.
  const System<S> flat = describe<S, NoInertiaInY>({S(1)});
  qd << S(1), S(1);
  const UdwadiaKalabaField<S> F = udwadia_kalaba(flat, q, qd);
  EXPECT_TRUE(F.auxiliary);
  EXPECT_LE(F.qddot.cwiseAbs().maxCoeff(), S(10) * epsilon<S>());
}

}  // namespace
}  // namespace nhs
