// A positive semidefinite metric g (massless parts): Udwadia-Kalaba with the
// auxiliary M_A = g + s A^+ A (seed 003; Udwadia and Phohomsiri 2006)
// against the formulations on C, which need only G = psi^T g psi (000 eq.
// 27); the printed forms M + A^+A and M + A^T A (docs/errata.md, 003); the
// rank-deficient case (the linear bipendulum at m0 = 0, docs/studies.md).
// ctest-labels: unit cross
#include "force_scale.hpp"
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/first_kind.hpp"
#include "nhs/formulation.hpp"
#include "nhs/lagrange_multipliers.hpp"
#include "nhs/manifold.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/semidefinite_mass.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/udwadia_kalaba.hpp"
#include "random_states.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include <iostream>
#include <limits>
#include <random>

namespace nhs {
namespace {

// The massless-trailer study (docs/studies.md): g = diag(m, m, 0) is
// singular everywhere, but the constraint fixes thetad, so [g; A] has full
// rank 3.
template <class S>
System<S> trailer() {
  const Study<S>& st = find_study<S>("massless-trailer");
  return st.build(st.default_parameters());
}

template <class S>
State<S> random_trailer_state(const System<S>& sys, std::mt19937_64& rng) {
  return find_study<S>("massless-trailer").random_state(sys, rng);
}

template <class S>
class SemidefiniteMass : public ::testing::Test {};
TYPED_TEST_SUITE(SemidefiniteMass, TestScalars, ScalarNames);

// UK with M_A against every formulation that applies, at 40 random states:
// qddot, and Q_c against g qddot - Q (the reaction the constraints must
// supply) and A^T lambda_KKT. The second kind refuses, by name.
TYPED_TEST(SemidefiniteMass, AuxiliaryMassAgreesWithTheFormulationsOnC) {
  using S = TypeParam;
  const System<S> sys = trailer<S>();
  std::mt19937_64 rng(20261124);
  const S tol = Tolerance<S>::cross;
  std::map<std::string, S> worst;
  for (int k = 0; k < 40; ++k) {
    const State<S> x = random_trailer_state(sys, rng);
    const UdwadiaKalabaField<S> U = udwadia_kalaba(sys, x.q, x.qdot);
    EXPECT_TRUE(U.auxiliary) << "state " << k;
    ASSERT_TRUE(U.multipliers.has_value()) << "state " << k;
    const auto keep = [&](const std::string& what, const S& d) {  // d relative
      EXPECT_LE(d, tol) << what << " at state " << k;
      if (d > worst[what]) worst[what] = d;
    };
    for (const char* name : {"first-kind", "maggi", "gibbs-appell", "lagrange-multipliers",
                             "voronec"}) {
      const Acceleration<S> a = find_formulation<S>(name).acceleration(sys, x.q, x.qdot);
      keep(std::string("qddot vs ") + name, relative_difference<S>(a.qddot, U.qddot));
    }
    // theta's row of g qddot = Q + Q_c is 0 = Q_theta + Q_c,theta.
    const Inertia<S> I = inertia(sys, x.q, x.qdot);
    const Vec<S> Q = active_force(sys, x.q, x.qdot) - I.gamma;
    using std::max;
    const Vec<S> gq = I.g * U.qddot;
    const S force = max(gq.cwiseAbs().maxCoeff(), Q.cwiseAbs().maxCoeff());
    keep("Q_c vs g qddot - Q", difference_over<S>(U.reaction, Vec<S>(gq - Q), force));
    const LagrangeMultipliersField<S> L = lagrange_multipliers(sys, x.q, x.qdot);
    keep("lambda vs KKT", relative_difference<S>(*U.multipliers, L.multipliers));
    EXPECT_EQ(singular_condition([&] { second_kind<S>(sys, x.q, x.qdot); }), "singular metric g");
  }
  for (const auto& [what, d] : worst)
    std::cout << ScalarName<S>::value << " massless-trailer, UK (M_A), " << what
              << ": worst relative difference " << to_string<S>(d) << '\n';
}

// docs/errata.md, 003: the printed auxiliary systems, by hand. Seed 003:
// M + A^+A with Q + A^+b; Udwadia-Phohomsiri: M + A^T A with Q + A^T b;
// each in Q_c' = M_A^{1/2} (A M_A^{-1/2})^+ (b - A M_A^{-1} Q_b),
// qddot = M_A^{-1} (Q_b + Q_c'). Both give qddot (against the first kind)
// and Q_c' = g qddot - Q. A mixed pair (M + A^+A with Q + A^T b) gives the
// same qddot (a force along A^T is absorbed by the ideal reaction) but a
// Q_c' off by (A^+ - A^T) b.
template <class S>
struct Printed {
  Vec<S> qddot, reaction;
};

template <class S>
Printed<S> printed_auxiliary(const Mat<S>& M_A, const Vec<S>& Q_b, const Mat<S>& A,
                             const Vec<S>& b) {
  const Eigen::SelfAdjointEigenSolver<Mat<S>> eig(M_A);
  const Mat<S>& V = eig.eigenvectors();
  const Vec<S> root = eig.eigenvalues().cwiseSqrt();
  const Mat<S> half = V * root.asDiagonal() * V.transpose();
  const Mat<S> inv_half = V * root.cwiseInverse().asDiagonal() * V.transpose();
  Eigen::JacobiSVD<Mat<S>> svd(Mat<S>(A * inv_half), Eigen::ComputeThinU | Eigen::ComputeThinV);
  const Vec<S> w = svd.solve(Vec<S>(b - A * (inv_half * (inv_half * Q_b))));
  const Vec<S> reaction = half * w;
  return {inv_half * (inv_half * (Q_b + reaction)), reaction};
}

TYPED_TEST(SemidefiniteMass, PrintedAuxiliaryFormsAgainstTheFirstKind) {
  using S = TypeParam;
  const System<S> sys = trailer<S>();
  std::mt19937_64 rng(20261125);
  const S tol = Tolerance<S>::cross;
  S seed_qdd(0), seed_Qc(0), paper_qdd(0), paper_Qc(0), mixed_qdd(0), mixed_Qc(0);
  for (int k = 0; k < 20; ++k) {
    const State<S> x = random_trailer_state(sys, rng);
    const ConstraintJacobians<S> J = constraint_jacobians(sys, x.q, x.qdot);
    const Inertia<S> I = inertia(sys, x.q, x.qdot);
    const Vec<S> Q = active_force(sys, x.q, x.qdot) - I.gamma;
    const Mat<S>& A = J.C_qdot;
    const Vec<S> b = -(J.C_q * x.qdot);
    const Mat<S> A_pinv = A.completeOrthogonalDecomposition().pseudoInverse();
    Vec<S> z(sys.m);
    sys.chart(x.q, x.qdot, z);
    const Vec<S> qdd = first_kind<S>(sys, x.q, z).qddot;
    const Vec<S> R = I.g * qdd - Q;  // the reaction the constraints supply
    const Printed<S> seed = printed_auxiliary<S>(I.g + A_pinv * A, Q + A_pinv * b, A, b);
    const Printed<S> paper =
        printed_auxiliary<S>(I.g + A.transpose() * A, Q + A.transpose() * b, A, b);
    const Printed<S> mixed = printed_auxiliary<S>(I.g + A_pinv * A, Q + A.transpose() * b, A, b);
    using std::max;
    seed_qdd = max(seed_qdd, relative_difference<S>(seed.qddot, qdd));
    seed_Qc = max(seed_Qc, relative_difference<S>(seed.reaction, R));
    paper_qdd = max(paper_qdd, relative_difference<S>(paper.qddot, qdd));
    paper_Qc = max(paper_Qc, relative_difference<S>(paper.reaction, R));
    mixed_qdd = max(mixed_qdd, relative_difference<S>(mixed.qddot, qdd));
    mixed_Qc = max(mixed_Qc, relative_difference<S>(mixed.reaction, R));
  }
  EXPECT_LE(seed_qdd, tol);
  EXPECT_LE(seed_Qc, tol);
  EXPECT_LE(paper_qdd, tol);
  EXPECT_LE(paper_Qc, tol);
  EXPECT_LE(mixed_qdd, tol);  // qddot cannot tell the pairs apart
  EXPECT_GT(mixed_Qc, S(1) / S(10));  // the reaction can
  std::cout << ScalarName<S>::value << " printed forms at 20 random states of massless-trailer "
            << "(worst relative difference from the first kind's qddot / from g qddot - Q):\n"
            << "  003 M + A^+A, Q + A^+b:   " << to_string<S>(seed_qdd) << " / "
            << to_string<S>(seed_Qc) << '\n'
            << "  U-P M + A^T A, Q + A^T b: " << to_string<S>(paper_qdd) << " / "
            << to_string<S>(paper_Qc) << '\n'
            << "  mixed M + A^+A, Q + A^T b: " << to_string<S>(mixed_qdd)
            << " / " << to_string<S>(mixed_Qc) << '\n';
}

// Where g is positive definite, M_A (forced) gives what M gives: qddot,
// Q_c and lambda at random regular states of every study (Q_c and lambda
// measured against the size of the forces they balance, force_scale.hpp:
// the rolling sphere's reaction vanishes).
TYPED_TEST(SemidefiniteMass, ForcedAuxiliaryAgreesWhereGIsPositiveDefinite) {
  using S = TypeParam;
  S worst(0);
  for_each_random_regular_state<S>(20261126, 4, [&](const Study<S>& st, const System<S>& sys,
                                                    const State<S>& x, int k) {
    const UdwadiaKalabaField<S> U = udwadia_kalaba(sys, x.q, x.qdot);
    const UdwadiaKalabaField<S> F =
        udwadia_kalaba(sys, x.q, x.qdot, UdwadiaKalabaMass::auxiliary);
    EXPECT_FALSE(U.auxiliary);
    EXPECT_TRUE(F.auxiliary);
    EXPECT_EQ(U.rank, F.rank) << st.info.name << " state " << k;
    using std::max;
    const ForceScale<S> fs = force_scale<S>(sys, x.q, x.qdot, second_kind<S>(sys, x.q, x.qdot));
    for (const S d : {relative_difference<S>(F.qddot, U.qddot),
                      difference_over<S>(F.reaction, U.reaction, fs.reaction)}) {
      EXPECT_LE(d, Tolerance<S>::cross) << st.info.name << " state " << k;
      worst = max(worst, d);
    }
    ASSERT_EQ(U.multipliers.has_value(), F.multipliers.has_value()) << st.info.name;
    if (U.multipliers) {
      const S d = difference_over<S>(*F.multipliers, *U.multipliers, fs.multipliers);
      EXPECT_LE(d, Tolerance<S>::cross) << st.info.name << " state " << k;
      worst = max(worst, d);
    }
  });
  std::cout << ScalarName<S>::value << " UK forced M_A vs M at random regular states of every "
            << "study: worst relative difference " << to_string<S>(worst) << '\n';
}

// The linear bipendulum at m0 = 0 (docs/studies.md): neither constraint
// contains y0d, so [g; A] has rank 4 and y0dd is free. UK says so by name
// with the direction; every other formulation refuses by its own name;
// the state is still admitted (projection_metric).
TYPED_TEST(SemidefiniteMass, LinearBipendulumAtZeroM0LeavesY0ddUndetermined) {
  using S = TypeParam;
  const Study<S>& st = find_study<S>("linear-bipendulum");
  const System<S> sys = st.build(parameters_with(st, {{"m0", "0"}}));
  std::mt19937_64 rng(20261127);
  for (int k = 0; k < 5; ++k) {
    State<S> x = k == 0 ? st.default_state(sys) : st.random_state(sys, rng);
    x.qdot = admit_state<S>(sys, x.q, x.qdot, default_manifold_tolerance<S>());
    try {
      udwadia_kalaba(sys, x.q, x.qdot);
      ADD_FAILURE() << "no SingularState at state " << k;
    } catch (const SingularState& e) {
      EXPECT_EQ(e.condition, "accelerations undetermined");
      const std::string what = e.what();
      EXPECT_NE(what.find("rank 4 < n = 5"), std::string::npos) << what;
      EXPECT_NE(what.find("the direction (y0 = 1)"), std::string::npos) << what;
    }
    for (const auto& f : formulations<S>()) {
      if (!f->not_applicable_reason(sys).empty()) continue;
      EXPECT_THROW(f->acceleration(sys, x.q, x.qdot), SingularState) << f->name();
    }
    EXPECT_EQ(singular_condition([&] { second_kind<S>(sys, x.q, x.qdot); }), "singular metric g");
    Vec<S> z(sys.m);
    sys.chart(x.q, x.qdot, z);
    EXPECT_EQ(singular_condition([&] { first_kind<S>(sys, x.q, z); }), "singular G = psi^T g psi");
  }
}

// Two free directions (T = m/2 xd^2, C = xd): the message names both; and a g that is not
// positive semidefinite stays "singular metric g".
struct TwoFree {
  static SystemInfo info() {
    return {"two-free", "test", "test", {"x", "y", "w"}, {{"m", "1", "mass"}}, {"C1"}, {}, true};
  }
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>&, const Vec<T>& qd) {
    return ratio<T>(1, 2) * p[0] * qd[0] * qd[0];
  }
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>&, const Vec<T>& qd, Vec<T>& C) {
    C[0] = qd[0];
  }
};
struct Indefinite {
  static SystemInfo info() {
    return {"indefinite", "test", "test", {"x", "y"}, {{"m", "1", "mass"}}, {"C1"}, {}, true};
  }
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>&, const Vec<T>& qd) {
    return ratio<T>(1, 2) * p[0] * (qd[0] * qd[0] - qd[1] * qd[1]);
  }
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>&, const Vec<T>& qd, Vec<T>& C) {
    C[0] = qd[0] - ratio<T>(2, 1) * qd[1];
  }
};

TYPED_TEST(SemidefiniteMass, UndeterminedDirectionsAndIndefiniteMetricAreNamed) {
  using S = TypeParam;
  const System<S> two = describe<S, TwoFree>({S(1)});
  Vec<S> q = Vec<S>::Zero(3), qd(3);
  qd << S(1), S(2), S(2);
  try {
    udwadia_kalaba(two, q, qd);
    ADD_FAILURE() << "no SingularState";
  } catch (const SingularState& e) {
    EXPECT_EQ(e.condition, "accelerations undetermined");
    const std::string what = e.what();
    // null [g; A] = span{e_y, e_w}: y and w appear, x does not.
    EXPECT_NE(what.find("rank 1 < n = 3"), std::string::npos) << what;
    EXPECT_NE(what.find("2 directions"), std::string::npos) << what;
    EXPECT_NE(what.find("y = "), std::string::npos) << what;
    EXPECT_NE(what.find("w = "), std::string::npos) << what;
    EXPECT_EQ(what.find("x = "), std::string::npos) << what;
  }
  const System<S> bad = describe<S, Indefinite>({S(1)});
  Vec<S> q2 = Vec<S>::Zero(2), qd2(2);
  qd2 << S(2), S(1);
  EXPECT_EQ(singular_condition([&] { udwadia_kalaba(bad, q2, qd2); }), "singular metric g");
  EXPECT_EQ(singular_condition([&] { project_velocity<S>(bad, q2, qd2); }), "singular metric g");
}

// A mass near the largest finite value: M_A = g + s A^+ A overflows (s is
// g's largest eigenvalue). That is an overflow (NonFiniteValue, exit 4),
// not "accelerations undetermined" with an infinite eigenvalue.
TYPED_TEST(SemidefiniteMass, OverflowOfTheAuxiliaryMassIsNotASingularState) {
  using S = TypeParam;
  const Study<S>& st = find_study<S>("massless-trailer");
  if (!std::numeric_limits<S>::is_iec559)  // MPFR's exponent range: about 1e(3e8)
    GTEST_SKIP() << "an IEC 559 overflow; mp50 and mp100 reach about 1e(3e8)";
  std::vector<S> p = st.default_parameters();
  p[0] = std::numeric_limits<S>::max();  // m: g finite, M_A_xx = m (1 + P_xx) is not
  const System<S> sys = st.build(p);
  const State<S> x = st.default_state(sys);
  EXPECT_THROW(udwadia_kalaba(sys, x.q, x.qdot), NonFiniteValue);
  // Just below: M_A may be finite (m (1 + P_xx) < max) and the
  // eigen-solver still overflow (m = 1e308 in double, the reviewer's case),
  // or everything stay finite. Either an overflow or a finite answer, never
  // a singular state.
  for (const double f : {0.56, 0.5, 0.25}) {
    p[0] = std::numeric_limits<S>::max() * S(f);
    const System<S> big = st.build(p);
    try {
      const UdwadiaKalabaField<S> U = udwadia_kalaba(big, x.q, x.qdot);
      EXPECT_TRUE(U.qddot.allFinite()) << "m = " << f << " max";
    } catch (const NonFiniteValue&) {
    }
  }
}

}  // namespace
}  // namespace nhs
