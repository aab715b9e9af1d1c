// The rolling sphere (002, Lemos 2003; docs/errata.md 002): the true theta
// equation is Lemos' eq. 7/16, thetadd + phid psid sin theta = 0; both
// multipliers vanish; eq. 6 (the naive reduced Lagrangian) differs from the
// true thetadd by (5/7) sin theta psid (phid + psid cos theta); the metric is
// singular at sin theta = 0; the closed form of the constant-omega motion
// (docs/special-motions.md rolling-sphere) is a consistent rotation.
// ctest-labels: unit study
#include "euler_angles.hpp"
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/first_kind.hpp"
#include "nhs/formulation.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/studies/all.hpp"

namespace nhs {
namespace {

template <class S>
class RollingSphere : public ::testing::Test {};
TYPED_TEST_SUITE(RollingSphere, TestScalars, ScalarNames);

constexpr int kStates = 60;

// 002 eq. 6, the theta equation of the substituted Lagrangian (002 eq. 5):
// 7 thetadd - 5 psid^2 sin theta cos theta + 2 phid psid sin theta = 0.
template <class S>
S thetadd_naive_eq6(const Vec<S>& q, const Vec<S>& qd) {
  using std::cos;
  using std::sin;
  return (S(5) * qd[2] * qd[2] * sin(q[1]) * cos(q[1]) - S(2) * qd[0] * qd[2] * sin(q[1])) / S(7);
}

// 002 eqs. 7 and 16: thetadd = -phid psid sin theta.
template <class S>
S thetadd_lemos(const Vec<S>& q, const Vec<S>& qd) {
  using std::sin;
  return -(qd[0] * qd[2] * sin(q[1]));
}

// (a) Lemos' eq. 16 at random regular states, and with it the other two
// angular equations of the free sphere. With no reaction, omega is constant
// in space and in the body; d/dt of omega_z = phid + psid cos theta and of
// the body component phid cos theta + psid gives
//   phidd = thetad (psid - phid cos theta)/sin theta,
//   psidd = thetad (phid - psid cos theta)/sin theta,
// and xdd = ydd = 0 (derived here, not printed in 002).
TYPED_TEST(RollingSphere, ThetaEquationIsLemos16) {
  using S = TypeParam;
  using std::abs;
  using std::cos;
  using std::max;
  using std::sin;
  const Study<S>& st = find_study<S>("rolling-sphere");
  std::mt19937_64 rng(20261201);
  for (int k = 0; k < kStates; ++k) {
    const System<S> sys = st.build(k % 2 ? randomized_parameters(st, rng) : st.default_parameters());
    const State<S> x = st.random_state(sys, rng);
    const Vec<S>& q = x.q;
    const Vec<S>& qd = x.qdot;
    const Vec<S> qdd = second_kind(sys, q, qd).qddot;
    const S scale = max(max_abs(qdd), abs(thetadd_lemos(q, qd)));
    EXPECT_LE(abs(qdd[1] - thetadd_lemos(q, qd)), Tolerance<S>::cross * scale) << "state " << k;

    const S s = sin(q[1]), c = cos(q[1]);
    Vec<S> expected(5);
    expected << qd[1] * (qd[2] - qd[0] * c) / s, thetadd_lemos(q, qd),
        qd[1] * (qd[0] - qd[2] * c) / s, S(0), S(0);
    EXPECT_LE(relative_difference<S>(qdd, expected), Tolerance<S>::cross) << "state " << k;
  }
}

// (b) docs/errata.md 002, (7)/(16): both multipliers are zero, xdd = ydd = 0.
// Scale: the terms of the Lagrange equations g qddot + Gamma = A + R that a
// reaction would have to balance.
TYPED_TEST(RollingSphere, MultipliersVanish) {
  using S = TypeParam;
  using std::max;
  const Study<S>& st = find_study<S>("rolling-sphere");
  std::mt19937_64 rng(20261202);
  for (int k = 0; k < kStates; ++k) {
    const System<S> sys = st.build(k % 2 ? randomized_parameters(st, rng) : st.default_parameters());
    const State<S> x = st.random_state(sys, rng);
    const SecondKindField<S> D = second_kind(sys, x.q, x.qdot);
    const Inertia<S> I = inertia(sys, x.q, x.qdot);
    const S scale = max(max_abs<S>(I.g * D.qddot), max_abs(I.gamma));
    ASSERT_GT(scale, S(0)) << "state " << k;
    EXPECT_LE(max_abs(D.multipliers), Tolerance<S>::cross * scale) << "state " << k;
    EXPECT_LE(max_abs(D.reaction), Tolerance<S>::cross * scale) << "state " << k;
    EXPECT_LE(max_abs<S>(D.qddot.tail(2)), Tolerance<S>::cross * max_abs(D.qddot)) << "state " << k;
  }
}

// (c) The Euler-angle chart: the metric is singular at sin theta = 0
// (det g = (2 m R^2/5)^3 m^2 sin^2 theta). The second kind reports
// "singular metric g"; the first kind, which needs only G = psi^T g psi,
// "singular G = psi^T g psi" (psi reaches g's null direction: phid and
// psid turn about the same axis); every formulation refuses the state.
// Random states keep |sin theta| >= 1/5; the default state is regular.
TYPED_TEST(RollingSphere, SingularMetricAtSinThetaZero) {
  using S = TypeParam;
  using std::abs;
  using std::acos;
  using std::sin;
  const Study<S>& st = find_study<S>("rolling-sphere");
  const System<S> sys = st.build(st.default_parameters());
  for (const S theta : {S(0), acos(S(-1))}) {
    Vec<S> q(5), z(3), qd(5);
    q << from_string<S>("0.3"), theta, from_string<S>("-0.4"), from_string<S>("0.2"),
        from_string<S>("-0.1");
    z << from_string<S>("0.5"), from_string<S>("0.36"), from_string<S>("1.2");
    sys.parametrization(q, z, qd);
    EXPECT_EQ(singular_condition([&] { second_kind<S>(sys, q, qd); }), "singular metric g")
        << "theta = " << double(theta);
    EXPECT_EQ(singular_condition([&] { first_kind<S>(sys, q, z); }), "singular G = psi^T g psi")
        << "theta = " << double(theta);
    for (const auto& f : formulations<S>()) {
      if (!f->not_applicable_reason(sys).empty()) continue;
      EXPECT_THROW(f->acceleration(sys, q, qd), SingularState)
          << f->name() << " at theta = " << double(theta);
    }
  }
  std::mt19937_64 rng(20261203);
  for (int k = 0; k < 200; ++k) {
    const State<S> x = st.random_state(sys, rng);
    EXPECT_GE(abs(sin(x.q[1])), S(1) / S(5)) << "state " << k;
  }
  const State<S> x0 = st.default_state(sys);
  EXPECT_LE(max_abs(constraint_residuals(sys, x0.q, x0.qdot)), S(10) * epsilon<S>());
  EXPECT_NO_THROW(second_kind<S>(sys, x0.q, x0.qdot));
}

// (d) 002 eq. 6 against the true motion (docs/errata.md 002, (6)): the
// naive thetadd minus the true one is
//   (5 psid^2 s c - 2 phid psid s)/7 + phid psid s = (5/7) s psid (phid + psid c),
// zero exactly where psid (phid + psid cos theta) = 0 (s = sin theta != 0).
TYPED_TEST(RollingSphere, NaiveEquation6DiffersByPredictedTerm) {
  using S = TypeParam;
  using std::abs;
  using std::cos;
  using std::max;
  using std::sin;
  const auto predicted = [](const Vec<S>& q, const Vec<S>& qd) {
    return S(5) * sin(q[1]) * qd[2] * (qd[0] + qd[2] * cos(q[1])) / S(7);
  };
  const Study<S>& st = find_study<S>("rolling-sphere");
  std::mt19937_64 rng(20261204);
  int generic = 0;
  S largest = 0;
  for (int k = 0; k < kStates; ++k) {
    const System<S> sys = st.build(k % 2 ? randomized_parameters(st, rng) : st.default_parameters());
    const State<S> x = st.random_state(sys, rng);
    const Vec<S>& q = x.q;
    const Vec<S>& qd = x.qdot;
    const Vec<S> qdd = second_kind(sys, q, qd).qddot;
    const S naive = thetadd_naive_eq6(q, qd);
    const S diff = naive - qdd[1];
    const S scale = max(max(max_abs(qdd), abs(naive)), abs(predicted(q, qd)));
    EXPECT_LE(abs(diff - predicted(q, qd)), Tolerance<S>::cross * scale) << "state " << k;
    // O(1) wherever psid (phid + psid cos theta) is: |diff| >= (5/7)(1/5)|psid omega_z|.
    const S lever = abs(qd[2] * (qd[0] + qd[2] * cos(q[1])));
    if (lever >= S(1) / S(10)) {
      ++generic;
      EXPECT_GE(abs(diff), S(1) / S(70)) << "state " << k;
    }
    largest = max(largest, abs(diff));
  }
  EXPECT_GE(generic, kStates / 3);
  EXPECT_GE(largest, S(1) / S(5));

  // Where the lever vanishes the naive equation happens to agree.
  const System<S> sys = st.build(st.default_parameters());
  Vec<S> q(5), qd(5), z(3);
  q << from_string<S>("0.3"), from_string<S>("1.0"), from_string<S>("-0.4"), S(0), S(0);
  for (int which = 0; which < 2; ++which) {
    // psid = 0; then phid = -psid cos theta (omega_z = 0).
    const S psid = which == 0 ? S(0) : from_string<S>("0.8");
    z << (which == 0 ? from_string<S>("0.7") : -(psid * cos(q[1]))), from_string<S>("0.36"), psid;
    sys.parametrization(q, z, qd);
    const Vec<S> qdd = second_kind(sys, q, qd).qddot;
    EXPECT_LE(abs(thetadd_naive_eq6(q, qd) - qdd[1]), Tolerance<S>::cross * max_abs(qdd))
        << "lever zero, case " << which;
  }
  // The special motion's initial state: off by (5/7) sin 1 * 1.2 * 1.2 cos 1 = 0.463.
  const SpecialMotion<S> mo = st.special_motions().front();
  const System<S> msys = st.build(mo.parameters);
  const S off = thetadd_naive_eq6(mo.initial.q, mo.initial.qdot) -
                second_kind(msys, mo.initial.q, mo.initial.qdot).qddot[1];
  EXPECT_GE(abs(off), from_string<S>("0.46"));
  EXPECT_LE(abs(off - predicted(mo.initial.q, mo.initial.qdot)), Tolerance<S>::cross);
}

// The closed form of docs/special-motions.md rolling-sphere: the angles it returns
// give the rotation exp(t [omega]x) Rot0 (compared as matrices, which needs
// no unwrapping), they are continuous (samples 1/4 apart move by less than
// 1), sin theta stays >= 0.67 on [0, 20], the state stays on C, and the
// space angular velocity of (q(t), qdot(t)) is the initial one.
TYPED_TEST(RollingSphere, ClosedFormIsTheConstantOmegaRotation) {
  using S = TypeParam;
  using std::abs;
  using std::acos;
  using std::cos;
  using std::sin;
  using std::sqrt;
  using M3 = Eigen::Matrix<S, 3, 3>;
  const auto rz = [](const S& a) { return test::rot_z<S>(a); };
  const auto rx = [](const S& a) { return test::rot_x<S>(a); };
  const auto omega = [](const Vec<S>& q, const Vec<S>& qd) { return test::space_omega<S>(q, qd); };
  const Study<S>& st = find_study<S>("rolling-sphere");
  const std::vector<SpecialMotion<S>> motions = st.special_motions();
  ASSERT_EQ(motions.size(), 1u);
  const SpecialMotion<S>& mo = motions.front();
  EXPECT_EQ(mo.t_end, S(20));
  const System<S> sys = st.build(mo.parameters);
  const Eigen::Matrix<S, 3, 1> w = omega(mo.initial.q, mo.initial.qdot);
  const S wn = sqrt(w.squaredNorm());
  M3 K;
  K << S(0), -w[2], w[1], w[2], S(0), -w[0], -w[1], w[0], S(0);
  const M3 rot0 = rz(mo.initial.q[0]) * rx(mo.initial.q[1]) * rz(mo.initial.q[2]);
  const S tol = S(1000) * epsilon<S>();
  Vec<S> q_prev = mo.initial.q;
  for (int k = 0; k <= 80; ++k) {
    const S t = S(k) / S(4);
    const State<S> e = mo.exact(t);
    const M3 expected =
        (M3::Identity() + K * (sin(wn * t) / wn) + K * K * ((S(1) - cos(wn * t)) / (wn * wn))) *
        rot0;
    const M3 got = rz(e.q[0]) * rx(e.q[1]) * rz(e.q[2]);
    EXPECT_LE((got - expected).cwiseAbs().maxCoeff(), tol) << "t = " << double(t);
    EXPECT_LE((omega(e.q, e.qdot) - w).cwiseAbs().maxCoeff(), tol) << "t = " << double(t);
    EXPECT_LE(max_abs(constraint_residuals(sys, e.q, e.qdot)), tol) << "t = " << double(t);
    EXPECT_GE(sin(e.q[1]), from_string<S>("0.67")) << "t = " << double(t);
    EXPECT_LE(max_abs<S>(e.q.head(3) - q_prev.head(3)), S(1)) << "t = " << double(t);
    q_prev = e.q;
  }
  // psi winds once per period 2 pi/|omega| (the body turns once about omega).
  const S period = S(2) * acos(S(-1)) / wn;
  const S dpsi = mo.exact(S(2) * period).q[2] - mo.exact(S(0)).q[2];
  EXPECT_LE(abs(dpsi - S(4) * acos(S(-1))), tol);
}

}  // namespace
}  // namespace nhs
