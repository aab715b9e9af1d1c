// The ball on a turntable (docs/affine-constraints.md): the first system
// with affine constraints, A(q) qdot + a0(q) = 0.
//  (a) from random states and parameters, the integrated centre moves on the
//      circle (T3) at nu = 2 Omega/7 about c = r0 + J v0/nu, to
//      Tolerance<S>::analytic (1e-9 double, 1e-40 mp50);
//  (b) the closed form of the centred orbit is the rotation (T4), satisfies
//      C and keeps |sin theta| >= 0.71;
//  (c) examples/turntable-ball.toml is the built-in study: the same
//      accelerations and invariants at random states (Tolerance<S>::cross);
//  (d) the energy is not conserved, and its rate is the reaction's power
//      -lambda_a a0^a (A4), with dT/dt from the accelerations of another
//      formulation;
//  (e) a state off C is refused with its residuals; the classification
//      reports both constraints affine and skips the Frobenius test by name;
//  (f) Voronec's affine split (A6-A7) solved for (xd, yd): a0 = Omega (-y, x)
//      and b0 = Omega (a_y, -a_x), written out by hand from (A7) (a depends
//      on the angles only, a0 on the centre only).
// The cross-formulation agreement and the special motion in every
// formulation are the generic tests' (every study of the registry).
// ctest-labels: unit study
#include "euler_angles.hpp"
#include "file_is_study.hpp"
#include "scalar_test.hpp"

#include "nhs/constraint_classification.hpp"
#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/manifold.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/chart_state.hpp"
#include "nhs/voronec.hpp"

#include <iostream>
#include <random>
#include <string>
#include <type_traits>

#ifndef NHS_SOURCE_DIR
#define NHS_SOURCE_DIR ".."
#endif

namespace nhs {
namespace {

template <class S>
class TurntableBall : public ::testing::Test {};
TYPED_TEST_SUITE(TurntableBall, TestScalars, ScalarNames);

const std::string kFile = std::string(NHS_SOURCE_DIR) + "/examples/turntable-ball.toml";

template <class S>
using V3 = Eigen::Matrix<S, 3, 1>;

// Space angular velocity from the z-x-z Euler rates (euler_angles.hpp).
template <class S>
V3<S> omega_of(const Vec<S>& q, const Vec<S>& qd) {
  return test::space_omega<S>(q, qd);
}

TYPED_TEST(TurntableBall, CentreMovesOnTheTwoSeventhsCircle) {
  using S = TypeParam;
  using std::abs;
  using std::cos;
  using std::sin;
  using std::sqrt;
  const Study<S>& st = find_study<S>("turntable-ball");
  const Formulation<S>& f = find_formulation<S>("second-kind");
  // Two launches off the centred orbit (c != 0) whose Euler-angle chart
  // stays regular to t = 20 (|sin theta| >= 0.45 and 0.26 along them, from
  // `nhs run`'s smallest margin_sin_theta): a random state may pass near
  // sin theta = 0, where the integration slows to a crawl.
  const System<S> sys = st.build({from_string<S>("1.3"), from_string<S>("0.6"), from_string<S>("0.9")});
  Vec<S> q(5);
  q << from_string<S>("0.3"), S(1), from_string<S>("-0.4"), from_string<S>("0.5"), from_string<S>("-0.2");
  const std::vector<State<S>> launches = {
      state_from_chart<S>(sys, q, {from_string<S>("0.2"), from_string<S>("0.3"), from_string<S>("-0.4")}),
      state_from_chart<S>(sys, q, {from_string<S>("-0.4"), from_string<S>("0.6"), from_string<S>("0.3")})};
  // Both launches in double, the first in mp50 (its run takes about a minute).
  const std::size_t runs = std::is_same_v<S, double> ? launches.size() : 1;
  for (std::size_t k = 0; k < runs; ++k) {
    const State<S> x0 = launches[k];
    const S nu = S(2) * sys.parameter("Omega") / S(7);
    // c = r0 + J v0 / nu, J (a, b) = (-b, a).
    const S cx = x0.q[3] - x0.qdot[4] / nu, cy = x0.q[4] + x0.qdot[3] / nu;
    IntegrationOptions<S> opts;
    opts.t_end = S(20);
    opts.dt_out = S(1);
    opts.rtol = opts.atol = integration_tolerance<S>();
    S worst = 0;
    int samples = 0;
    integrate<S>(sys, f, x0.q, x0.qdot, opts,
                 [&](const Sample<S>& s) {
                   const S c = cos(nu * s.t), sn = sin(nu * s.t);
                   const S dx = x0.q[3] - cx, dy = x0.q[4] - cy;
                   const S x = cx + c * dx - sn * dy, y = cy + sn * dx + c * dy;
                   const S u = c * x0.qdot[3] - sn * x0.qdot[4], w = sn * x0.qdot[3] + c * x0.qdot[4];
                   Vec<S> e(4);
                   e << s.q[3] - x, s.q[4] - y, s.qdot[3] - u, s.qdot[4] - w;
                   const S scale = S(1) + abs(dx) + abs(dy);
                   if (max_abs(e) / scale > worst) worst = max_abs(e) / scale;
                   ++samples;
                 },
                 nullptr);
    EXPECT_EQ(samples, 21);
    EXPECT_LE(worst, Tolerance<S>::analytic) << "state " << k << ", nu = " << double(nu);
    EXPECT_GT(sqrt((cx * cx + cy * cy)), S(1) / S(10)) << "state " << k;  // not the centred orbit
    std::cout << "[ circle   ] " << ScalarName<S>::value << " state " << k << ": nu = " << double(nu)
              << ", radius " << double(sqrt((x0.q[3] - cx) * (x0.q[3] - cx) + (x0.q[4] - cy) * (x0.q[4] - cy)))
              << ", worst relative error " << double(worst) << "\n";
  }
}

TYPED_TEST(TurntableBall, CentredOrbitIsTheTurningRotation) {
  using S = TypeParam;
  using std::abs;
  using std::sqrt;
  using std::cos;
  using std::sin;
  using M3 = Eigen::Matrix<S, 3, 3>;
  const auto rz = [](const S& a) { return test::rot_z<S>(a); };
  const auto rx = [](const S& a) { return test::rot_x<S>(a); };
  const Study<S>& st = find_study<S>("turntable-ball");
  const std::vector<SpecialMotion<S>> motions = st.special_motions();
  ASSERT_EQ(motions.size(), 1u);
  const SpecialMotion<S>& mo = motions.front();
  const System<S> sys = st.build(mo.parameters);
  const S nu = S(2) * mo.parameters[2] / S(7);
  const V3<S> w0 = omega_of(mo.initial.q, mo.initial.qdot);
  // (5/7)(Omega/R) r0 and omega_z = -0.6 (docs/special-motions.md).
  EXPECT_LE(abs(w0[0] - S(5) / S(6)) + abs(w0[1] + S(1) / S(3)) + abs(w0[2] + from_string<S>("0.6")),
            S(100) * epsilon<S>());
  // The rate in the frame turning at nu, and Rodrigues' exponential of it.
  V3<S> b = w0;
  b[2] -= nu;
  const S bn = sqrt(b.squaredNorm());
  M3 K;
  K << S(0), -b[2], b[1], b[2], S(0), -b[0], -b[1], b[0], S(0);
  const M3 rot0 = rz(mo.initial.q[0]) * rx(mo.initial.q[1]) * rz(mo.initial.q[2]);
  const S tol = S(1000) * epsilon<S>();
  for (int k = 0; k <= 80; ++k) {
    const S t = S(k) / S(4);
    const State<S> e = mo.exact(t);
    const M3 expected =
        rz(nu * t) * (M3::Identity() + K * (sin(bn * t) / bn) + K * K * ((S(1) - cos(bn * t)) / (bn * bn))) * rot0;
    const M3 got = rz(e.q[0]) * rx(e.q[1]) * rz(e.q[2]);
    EXPECT_LE((got - expected).cwiseAbs().maxCoeff(), tol) << "t = " << double(t);
    EXPECT_LE((omega_of(e.q, e.qdot) - rz(nu * t) * w0).cwiseAbs().maxCoeff(), tol) << "t = " << double(t);
    EXPECT_LE(max_abs(constraint_residuals(sys, e.q, e.qdot)), tol) << "t = " << double(t);
    EXPECT_GE(sin(e.q[1]), from_string<S>("0.71")) << "t = " << double(t);
    // The centre on the circle of radius |r0| about the axis.
    EXPECT_LE(abs(e.q[3] * e.q[3] + e.q[4] * e.q[4] - from_string<S>("0.29")), tol) << "t = " << double(t);
  }
}

TYPED_TEST(TurntableBall, ExampleFileIsTheBuiltInStudy) {
  using S = TypeParam;
  using std::abs;
  const Study<S>& builtin = find_study<S>("turntable-ball");
  const Study<S>& file = find_study<S>(kFile);
  ASSERT_EQ(file.info.coordinates, builtin.info.coordinates);
  ASSERT_FALSE(file.info.linear_constraints);
  ASSERT_TRUE(file.info.affine_constraints);
  ASSERT_EQ(file.info.affine_constraints, builtin.info.affine_constraints);
  ASSERT_EQ(file.info.dependent_velocities, builtin.info.dependent_velocities);  // Voronec's split (x, y)
  ASSERT_FALSE(file.energy_is_conserved(file.build(file.default_parameters())));
  test::expect_file_is_the_study(builtin, file, 7);
}

// (A4): dT/dt = -lambda_a a0^a, with a0 = C(q, 0), lambda from KKT (the
// multipliers are the same in every formulation) and dT/dt = m v . a +
// (2/5) m R^2 omega . omega_dot from Udwadia-Kalaba's qddot, omega_dot by
// differentiating omega_of along (qdot, qddot) (it is linear in qdot).
TYPED_TEST(TurntableBall, EnergyRateIsThePowerOfTheMovingSupport) {
  using S = TypeParam;
  using std::abs;
  using std::cos;
  using std::sin;
  const Study<S>& st = find_study<S>("turntable-ball");
  const Formulation<S>& kkt = find_formulation<S>("lagrange-multipliers");
  const Formulation<S>& uk = find_formulation<S>("udwadia-kalaba");
  std::mt19937_64 rng(11);
  S largest_rate = 0;
  for (int k = 0; k < 20; ++k) {
    const System<S> sys = st.build(randomized_parameters(st, rng));
    const State<S> x = st.random_state(sys, rng);
    const Acceleration<S> with_lambda = kkt.acceleration(sys, x.q, x.qdot);
    ASSERT_TRUE(with_lambda.multipliers.has_value());
    const Vec<S> a0 = constraint_residuals(sys, x.q, Vec<S>(Vec<S>::Zero(5)));
    const S power = -with_lambda.multipliers->dot(a0);
    const Vec<S> qdd = uk.acceleration(sys, x.q, x.qdot).qddot;
    // omega_dot: the time derivative of omega_of along (qdot, qddot).
    const S ph = x.q[0], th = x.q[1], pd = x.qdot[0], td = x.qdot[1], sd = x.qdot[2];
    V3<S> wd;
    wd << qdd[1] * cos(ph) - td * sin(ph) * pd + qdd[2] * sin(th) * sin(ph) + sd * cos(th) * td * sin(ph) +
              sd * sin(th) * cos(ph) * pd,
        qdd[1] * sin(ph) + td * cos(ph) * pd - qdd[2] * sin(th) * cos(ph) - sd * cos(th) * td * cos(ph) +
            sd * sin(th) * sin(ph) * pd,
        qdd[0] + qdd[2] * cos(th) - sd * sin(th) * td;
    const S m = sys.parameter("m"), R = sys.parameter("R");
    const S dT = m * (x.qdot[3] * qdd[3] + x.qdot[4] * qdd[4]) + S(2) * m * R * R * omega_of(x.q, x.qdot).dot(wd) / S(5);
    EXPECT_LE(abs(dT - power), Tolerance<S>::cross * (S(1) + abs(power))) << "state " << k;
    if (abs(power) > largest_rate) largest_rate = abs(power);
  }
  EXPECT_GT(largest_rate, S(1) / S(10));  // T is not conserved: the support does work
}

// (A7) for the turntable: u = (x, y), s = (phi, theta, psi), a0 = Omega (-y,
// x). da/du = 0 and da0/ds = 0 leave b0_nu,i = -sum_mu a_mu,i da0_nu/du_mu:
// b0_x,i = Omega a_y,i, b0_y,i = -Omega a_x,i.
TYPED_TEST(TurntableBall, VoronecAffineSplitByHand) {
  using S = TypeParam;
  const Study<S>& st = find_study<S>("turntable-ball");
  std::mt19937_64 rng(36);
  for (int k = 0; k < 10; ++k) {
    const System<S> sys = st.build(randomized_parameters(st, rng));
    const State<S> x = st.random_state(sys, rng);
    const S table = sys.parameter("Omega");
    const DependentVelocities<S> dv = dependent_velocities(sys, x.q);
    ASSERT_EQ(dv.a0.size(), 2);
    Vec<S> a0(2);
    a0 << -(table * x.q[4]), table * x.q[3];
    EXPECT_LE(max_abs<S>(dv.a0 - a0), Tolerance<S>::cross * (S(1) + max_abs(a0))) << "a0, state " << k;
    Mat<S> b0(2, 3);
    b0.row(0) = table * dv.a.row(1);
    b0.row(1) = -table * dv.a.row(0);
    const Mat<S> got = voronec_affine_coefficients(dv);
    EXPECT_LE(max_abs<S>(Vec<S>((got - b0).reshaped())), Tolerance<S>::cross * (S(1) + max_abs<S>(Vec<S>(b0.reshaped()))))
        << "b0, state " << k;
    // The split reproduces qdot on C.
    EXPECT_LE(max_abs<S>(full_velocity(dv, Vec<S>(x.qdot.head(3))) - x.qdot), Tolerance<S>::cross * (S(1) + max_abs(x.qdot)))
        << "qdot = P qdot_indep + a0, state " << k;
  }
}

TEST(TurntableBall, StateOffTheManifoldIsRefusedWithItsResiduals) {
  const Study<double>& st = find_study<double>("turntable-ball");
  const System<double> sys = st.build(st.default_parameters());
  State<double> x = st.default_state(sys);
  x.qdot[3] += 0.25;  // C1 = 0.25: the centre slides on the table
  try {
    admit_state(sys, x.q, x.qdot, 1e-9);
    ADD_FAILURE() << "a state off C was admitted";
  } catch (const InvalidState& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("off the constraint manifold"), std::string::npos) << what;
    EXPECT_NE(what.find("C = "), std::string::npos) << what;
    EXPECT_NE(what.find("0.25"), std::string::npos) << what;
  }
}

TEST(TurntableBall, ClassificationReportsAffineConstraints) {
  const Study<mp100>& st = find_study<mp100>("turntable-ball");
  const System<mp100> sys = st.build(st.default_parameters());
  const ConstraintClassification c = classify_constraints(sys, st.default_state(sys).q);
  ASSERT_EQ(c.constraints.size(), 2u);
  for (const ConstraintKind& k : c.constraints) {
    EXPECT_TRUE(k.affine) << k.name;
    EXPECT_FALSE(k.linear) << k.name;
    EXPECT_FALSE(k.homogeneous) << k.name;
  }
  EXPECT_FALSE(c.frobenius_done);
  EXPECT_NE(c.frobenius_skipped.find("constraint C1 is affine"), std::string::npos) << c.frobenius_skipped;
  // With Omega = 0 it is the rolling sphere: linear, and the test runs.
  const System<mp100> still = st.build({mp100(1), mp100(1), mp100(0)});
  const ConstraintClassification c0 = classify_constraints(still, st.default_state(still).q);
  for (const ConstraintKind& k : c0.constraints) {
    EXPECT_TRUE(k.linear) << k.name;
    EXPECT_FALSE(k.affine) << k.name;
  }
  EXPECT_TRUE(c0.frobenius_done) << c0.frobenius_skipped;
  EXPECT_EQ(c0.growth, (std::vector<int>{3, 5}));
}

}  // namespace
}  // namespace nhs
