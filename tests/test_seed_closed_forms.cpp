// Compares the closed forms of 001 §9.1-9.4 and 000 §13 (as corrected in docs/errata.md) with the generic derivation at random regular states.
// ctest-labels: unit study
//
// Every oracle is transcribed from the seed (Benenti, SIGMA 3 (2007) 036,
// docs/references.md; the bipendulum from 000 §13) with the corrections of
// docs/errata.md and written with the seed's general Lagrangian forces A_i.
// The general forms (qddot, zdot, the study's forces) live in
// nhs/studies/closed_forms.hpp, shared with bench/bench_closed_form.cpp;
// the special cases (incline, equal masses, scaled variables) are here. The forces fed to it are
// hand-written too: the study's own (incline g, viscous torque k; all
// nonzero) plus, on every other state, a random constant force attached to
// the system as a non-conservative force, so the formulas are exercised for
// general A as printed. Parameters are random (defaults times U(0.5, 1.5),
// zero defaults U(0.5, 2)), states are random and regular, and agreement is
// required to Tolerance<S>::cross (relative, max-norm).
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/first_kind.hpp"
#include "nhs/lagrange_multipliers.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/closed_forms.hpp"

#include <string>
#include <vector>

namespace nhs {
namespace {

template <class S>
class SeedClosedForms : public ::testing::Test {};
// The scalars: TestScalars here; test_precision_closed_forms.cpp includes
// this file with NHS_SEED_CLOSED_FORM_SCALARS = ExtraScalars (long double,
// float128, mp100).
#ifndef NHS_SEED_CLOSED_FORM_SCALARS
#define NHS_SEED_CLOSED_FORM_SCALARS TestScalars
#endif
TYPED_TEST_SUITE(SeedClosedForms, NHS_SEED_CLOSED_FORM_SCALARS, ScalarNames);

constexpr int kStates = 24;

// A random state in the chart: q uniform in [-3, 3]^n (angles cover the
// circle), z uniform in [-1, 1]^m, qdot = psi(q, z).
template <class S>
struct ChartState {
  Vec<S> q, z, qd;
};
template <class S>
ChartState<S> random_chart_state(const System<S>& sys, std::mt19937_64& rng) {
  ChartState<S> s;
  s.q.resize(sys.n);
  for (auto& v : s.q) v = uniform<S>(rng, -3, 3);
  s.z.resize(sys.m);
  for (auto& v : s.z) v = uniform<S>(rng, -1, 1);
  s.qd.resize(sys.n);
  sys.parametrization(s.q, s.z, s.qd);
  return s;
}

// On odd k, attaches a random constant force F (entries in [-2, 2]) to sys,
// on top of its own forces, and returns F; on even k returns zero.
template <class S>
Vec<S> maybe_add_random_force(System<S>& sys, int k, std::mt19937_64& rng) {
  Vec<S> extra = Vec<S>::Zero(sys.n);
  if (k % 2 == 0) return extra;
  for (auto& v : extra) v = uniform<S>(rng, -2, 2);
  const auto own = sys.nonconservative_force;
  sys.nonconservative_force = [own, extra](const Vec<S>& q, const Vec<S>& qd, Vec<S>& F) {
    if (own) own(q, qd, F);
    F += extra;
  };
  return extra;
}

template <class S>
Vec<S> vec(std::initializer_list<S> values) {
  Vec<S> v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (const S& x : values) v[i++] = x;
  return v;
}

// The hand-written forces must be the system's (a check of the transcription
// of docs/studies.md, not of the seed).
template <class S>
void expect_forces(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd, const Vec<S>& A) {
  EXPECT_LE(relative_difference<S>(active_force(sys, q, qd), A), Tolerance<S>::cross)
      << sys.info.name << ": hand-written A differs from active_force";
}

// One random case of the tests below: the system of `st` for the parameters
// p, with, on odd k, a random constant force on top of its own
// (maybe_add_random_force), a state x = draw(sys, rng), the closed form's
// parameters P = Params::from(p) and its hand-written forces
// A = forces(P, x.q, x.qd) plus that random force, checked against the
// system's (expect_forces). The generator is drawn in that order.
template <class S, class Params>
struct SeedCase {
  std::vector<S> p;
  System<S> sys;
  ChartState<S> x;
  Params P;
  Vec<S> A;
};
template <class Params, class S, class Forces, class Draw>
SeedCase<S, Params> random_seed_case(const Study<S>& st, std::vector<S> p, int k,
                                     std::mt19937_64& rng, Forces&& forces, Draw&& draw) {
  System<S> sys = st.build(p);
  const Vec<S> extra = maybe_add_random_force(sys, k, rng);
  const ChartState<S> x = draw(sys, rng);
  const Params P = Params::from(p);
  const Vec<S> A = Vec<S>(forces(P, x.q, x.qd)) + extra;
  expect_forces(sys, x.q, x.qd, A);
  return {std::move(p), std::move(sys), x, P, A};
}

// ----------------------------------------------------------------------------
// 001 §9.1, the skate. q = (x, y, theta), z = (z1, z2) with
// xd = z1 cos theta, yd = z1 sin theta, thetad = z2. Incline: A = (m g, 0, 0).
// First method:  dz1/dt = (A1 cos theta + A2 sin theta)/m,  dz2/dt = A3/I.
// Second method: D1 = cos theta/m (A1 cos theta + A2 sin theta)
//                     - thetad (xd cos theta + yd sin theta) sin theta,
//                D2 = sin theta/m (A1 cos theta + A2 sin theta)
//                     + thetad (xd cos theta + yd sin theta) cos theta,
//                D3 = A3/I.
TYPED_TEST(SeedClosedForms, Skate_9_1_BothMethods) {
  using S = TypeParam;
  std::mt19937_64 rng(9001);
  const Study<S>& st = find_study<S>("skate");
  for (int k = 0; k < kStates; ++k) {
    const auto [p, sys, x, P, A] = random_seed_case<closed_form::SkateParameters<S>>(
        st, randomized_parameters(st, rng), k, rng, closed_form::skate_forces<S>,
        random_chart_state<S>);

    const Vec<S> zdot = closed_form::skate_zdot<S>(P, x.q, x.z, A);
    EXPECT_LE(relative_difference<S>(first_kind(sys, x.q, x.z).zdot, zdot), Tolerance<S>::cross)
        << "first kind, state " << k;

    const Vec<S> D = closed_form::skate_qddot<S>(P, x.q, x.qd, A);
    EXPECT_LE(relative_difference<S>(second_kind(sys, x.q, x.qd).qddot, D), Tolerance<S>::cross)
        << "second kind, state " << k;
  }
}

// ----------------------------------------------------------------------------
// 001 §9.2, the vertical rolling disc. q = (x, y, theta, psi), z = (thetad,
// psid). Forces: A = (m g, 0, -k thetad, 0). With M = m R^2 + A and
// W = A1 R cos psi + A2 R sin psi + A3:
//   (9.5) dz1/dt = W/M, dz2/dt = A4/B;
//   (9.6) D1 = R cos psi W/M - R thetad psid sin psi,
//         D2 = R sin psi W/M + R thetad psid cos psi, D3 = W/M, D4 = A4/B;
//   (9.7) in X = M x/R, Y = M y/R, Theta = M theta:
//         Xdd = cos psi W - Thetad psid sin psi, Ydd = sin psi W + Thetad psid cos psi,
//         Thetadd = W, psidd = A4/B;
//   (9.8) with Z1 = M z1: dX/dt = cos psi Z1, dY/dt = sin psi Z1,
//         dTheta/dt = Z1, dpsi/dt = z2, dZ1/dt = W, dz2/dt = A4/B.
TYPED_TEST(SeedClosedForms, RollingDisc_9_5_to_9_8) {
  using S = TypeParam;
  using std::cos;
  using std::sin;
  std::mt19937_64 rng(9002);
  const Study<S>& st = find_study<S>("rolling-disc");
  for (int k = 0; k < kStates; ++k) {
    const auto [p, sys, x, P, A] = random_seed_case<closed_form::RollingDiscParameters<S>>(
        st, randomized_parameters(st, rng), k, rng, closed_form::rolling_disc_forces<S>,
        random_chart_state<S>);
    const S m = p[0], R = p[1], Ath = p[2], B = p[3];
    const S c = cos(x.q[3]), s = sin(x.q[3]);
    const S thd = x.qd[2], psd = x.qd[3];
    const S M = m * R * R + Ath;
    const S W = A[0] * R * c + A[1] * R * s + A[2];

    const FirstKindField<S> Z = first_kind(sys, x.q, x.z);
    EXPECT_LE(relative_difference<S>(Z.zdot, Vec<S>(closed_form::rolling_disc_zdot<S>(P, x.q, x.z, A))),
              Tolerance<S>::cross)
        << "(9.5), state " << k;

    const Vec<S> qdd = second_kind(sys, x.q, x.qd).qddot;
    const Vec<S> D96 = closed_form::rolling_disc_qddot<S>(P, x.q, x.qd, A);
    EXPECT_LE(relative_difference<S>(qdd, D96), Tolerance<S>::cross) << "(9.6), state " << k;

    const S Thd = M * thd;
    const Vec<S> scaled = vec<S>({M / R * qdd[0], M / R * qdd[1], M * qdd[2], qdd[3]});
    const Vec<S> D97 = vec<S>({c * W - Thd * psd * s, s * W + Thd * psd * c, W, A[3] / B});
    EXPECT_LE(relative_difference<S>(scaled, D97), Tolerance<S>::cross) << "(9.7), state " << k;

    const S Z1 = M * x.z[0];
    const Vec<S> lhs98 = vec<S>({M / R * Z.qdot[0], M / R * Z.qdot[1], M * Z.qdot[2], Z.qdot[3],
                                 M * Z.zdot[0], Z.zdot[1]});
    const Vec<S> rhs98 = vec<S>({c * Z1, s * Z1, Z1, x.z[1], W, A[3] / B});
    EXPECT_LE(relative_difference<S>(lhs98, rhs98), Tolerance<S>::cross) << "(9.8), state " << k;
  }
}

// ----------------------------------------------------------------------------
// 001 §9.3, two co-axial discs, as corrected in docs/errata.md.
// q = (x, y, theta1, theta2, psi), z = (theta1d, theta2d). Forces (incline on
// both centres, V = -m g x - m g (x + a sin psi)): A = (2 m g, 0, 0, 0,
// m g a cos psi).
//   [g_ij]: g11 = g22 = 2m, g33 = g44 = A, g55 = m a^2 + 2B,
//           g15 = m a cos psi, g25 = m a sin psi (corrected; printed m a/2);
//   psi_1 = (R cos psi, R sin psi, 1, 0, -R/a), psi_2 = (0, 0, 0, 1, R/a) (q's order);
//   G11 = G22 = A + m R^2 + 2 B R^2/a^2, G12 = -2 B R^2/a^2,
//   det G = (A + m R^2)(A + m R^2 + 4 B R^2/a^2);
//   the printed Lagrange equations: Gamma(qdot, qdot) = (-m a sin psi psid^2,
//   m a cos psi psid^2, 0, 0, 0) (L1 = A1 + m a sin psi psid^2, ...);
//   zdot = G^-1 Z, Z1 = R (A_x cos psi + A_y sin psi) + A_theta1 - (R/a) A_psi,
//                  Z2 = A_theta2 + (R/a) A_psi;
//   on the incline alone, zdot1 = zdot2 = m g R cos psi/(A + m R^2).
TYPED_TEST(SeedClosedForms, CoaxialDiscs_9_3_Corrected) {
  using S = TypeParam;
  using std::cos;
  using std::sin;
  std::mt19937_64 rng(9003);
  const Study<S>& st = find_study<S>("coaxial-discs");
  for (int k = 0; k < kStates; ++k) {
    const auto [p, sys, x, Pc, A] = random_seed_case<closed_form::CoaxialDiscsParameters<S>>(
        st, randomized_parameters(st, rng), k, rng, closed_form::coaxial_discs_forces<S>,
        random_chart_state<S>);
    const S m = p[0], R = p[1], Ath = p[2], B = p[3], a = p[4], g = p[5];
    const S c = cos(x.q[4]), s = sin(x.q[4]);
    const S psd = x.qd[4];

    // The metric (corrected g15, g25) and the printed Lagrange equations.
    Mat<S> gm = Mat<S>::Zero(5, 5);
    gm(0, 0) = gm(1, 1) = S(2) * m;
    gm(2, 2) = gm(3, 3) = Ath;
    gm(4, 4) = m * a * a + S(2) * B;
    gm(0, 4) = gm(4, 0) = m * a * c;
    gm(1, 4) = gm(4, 1) = m * a * s;
    const Inertia<S> in = inertia(sys, x.q, x.qd);
    const Eigen::Map<const Vec<S>> g_lib(in.g.data(), 25), g_ref(gm.data(), 25);
    EXPECT_LE(relative_difference<S>(g_lib, g_ref), Tolerance<S>::cross) << "[g_ij], state " << k;
    const Vec<S> gamma = vec<S>({-m * a * s * psd * psd, m * a * c * psd * psd, S(0), S(0), S(0)});
    EXPECT_LE(relative_difference<S>(in.gamma, gamma), Tolerance<S>::cross)
        << "Lagrange equations, state " << k;

    // [psi^i_alpha] in q's order and G.
    Mat<S> psi_z(5, 2);
    psi_z << R * c, S(0), R * s, S(0), S(1), S(0), S(0), S(1), -R / a, R / a;
    const ParametrizationJacobians<S> P = parametrization_jacobians(sys, x.q, x.z);
    const Eigen::Map<const Vec<S>> pz_lib(P.psi_z.data(), 10), pz_ref(psi_z.data(), 10);
    EXPECT_LE(relative_difference<S>(pz_lib, pz_ref), Tolerance<S>::cross)
        << "[psi^i_alpha], state " << k;
    const S br = S(2) * B * R * R / (a * a);
    const S G11 = Ath + m * R * R + br, G12 = -br;
    const Mat<S> G = P.psi_z.transpose() * in.g * P.psi_z;
    const Vec<S> G_lib = vec<S>({G(0, 0), G(0, 1), G(1, 0), G(1, 1)});
    EXPECT_LE(relative_difference<S>(G_lib, vec<S>({G11, G12, G12, G11})), Tolerance<S>::cross)
        << "[G_ab], state " << k;
    const S det = G11 * G11 - G12 * G12;
    const S det_printed = (Ath + m * R * R) * (Ath + m * R * R + S(2) * br);
    EXPECT_LE(relative_difference<S>(vec<S>({det}), vec<S>({det_printed})), Tolerance<S>::cross)
        << "det G, state " << k;

    // The corrected final system zdot = G^-1 Z.
    const Vec<S> zdot = closed_form::coaxial_discs_zdot<S>(Pc, x.q, x.z, A);
    const FirstKindField<S> F = first_kind(sys, x.q, x.z);
    EXPECT_LE(relative_difference<S>(F.zdot, zdot), Tolerance<S>::cross)
        << "zdot = G^-1 Z, state " << k;
    if (k % 2 == 0) {  // incline only
      const S incline = m * g * R * c / (Ath + m * R * R);
      EXPECT_LE(relative_difference<S>(F.zdot, vec<S>({incline, incline})), Tolerance<S>::cross)
          << "incline zdot, state " << k;
    }
    // The same motion from the second kind, and its closed-form lift to TQ.
    const Vec<S> qdd = second_kind(sys, x.q, x.qd).qddot;
    EXPECT_LE(relative_difference<S>(qdd, F.qddot), Tolerance<S>::cross)
        << "second kind, state " << k;
    EXPECT_LE(relative_difference<S>(
                  qdd, Vec<S>(closed_form::coaxial_discs_qddot<S>(Pc, x.q, x.qd, A))),
              Tolerance<S>::cross)
        << "closed-form qddot, state " << k;
  }
}

// ----------------------------------------------------------------------------
// 001 §9.4, two points with parallel velocities, first method.
// q = (x1, y1, x2, y2), z = (rho, sigma, theta) (9.15).
//   (9.17) drho/dt = (A1 cos theta + A2 sin theta)/m1,
//          dsigma/dt = (A3 cos theta + A4 sin theta)/m2,
//          dtheta/dt = (rho (A2 cos theta - A1 sin theta) + sigma (A4 cos theta - A3 sin theta))
//                      / (m1 rho^2 + m2 sigma^2);
//   (9.18) incline, A = (m1 g, 0, m2 g, 0): drho/dt = dsigma/dt = g cos theta,
//          dtheta/dt = -g sin theta (m1 rho + m2 sigma)/(m1 rho^2 + m2 sigma^2);
//   (9.19) m1 = m2: dtheta/dt = -g sin theta (rho + sigma)/(rho^2 + sigma^2).
// A chart state of parallel-points away from the zero section.
template <class S>
ChartState<S> random_parallel_state(const System<S>& sys, std::mt19937_64& rng) {
  using std::abs;
  for (;;) {
    ChartState<S> x = random_chart_state(sys, rng);
    if (abs(x.z[0]) >= S(1) / S(4) || abs(x.z[1]) >= S(1) / S(4)) return x;
  }
}

// One random case of the parallel-points tests below (random_seed_case):
// randomized parameters (m2 = m1 when equal_masses), the study's forces and
// a chart state away from the zero section.
template <class S>
using ParallelCase = SeedCase<S, closed_form::ParallelPointsParameters<S>>;
template <class S>
ParallelCase<S> random_parallel_case(const Study<S>& st, int k, bool equal_masses,
                                     std::mt19937_64& rng) {
  std::vector<S> p = randomized_parameters(st, rng);
  if (equal_masses) p[1] = p[0];
  return random_seed_case<closed_form::ParallelPointsParameters<S>>(
      st, std::move(p), k, rng, closed_form::parallel_points_forces<S>, random_parallel_state<S>);
}

// Calls body(case, k, equal_masses) for k = 0 .. kStates - 1, each with
// unequal and with equal masses, drawn from one generator seeded with `seed`.
template <class S, class Body>
void for_each_parallel_case(std::uint64_t seed, Body&& body) {
  std::mt19937_64 rng(seed);
  const Study<S>& st = find_study<S>("parallel-points");
  for (int k = 0; k < kStates; ++k)
    for (const bool equal_masses : {false, true})
      body(random_parallel_case(st, k, equal_masses, rng), k, equal_masses);
}

TYPED_TEST(SeedClosedForms, ParallelPoints_9_17_to_9_19) {
  using S = TypeParam;
  using std::cos;
  using std::sin;
  for_each_parallel_case<S>(9004, [&](const ParallelCase<S>& pc, int k, bool equal_masses) {
    const auto& [p, sys, x, P, A] = pc;
    const S m1 = p[0], m2 = p[1], g = p[2];
    const Vec<S> zdot = first_kind(sys, x.q, x.z).zdot;
    EXPECT_LE(relative_difference<S>(zdot, Vec<S>(closed_form::parallel_points_zdot<S>(P, x.q, x.z, A))),
              Tolerance<S>::cross)
        << "(9.17), state " << k;
    if (k % 2 != 0) return;  // (9.18), (9.19) are for the incline alone
    const S c = cos(x.z[2]), s = sin(x.z[2]), rho = x.z[0], sigma = x.z[1];
    const Vec<S> z918 = vec<S>({g * c, g * c,
                                -g * s * (m1 * rho + m2 * sigma) /
                                    (m1 * rho * rho + m2 * sigma * sigma)});
    EXPECT_LE(relative_difference<S>(zdot, z918), Tolerance<S>::cross) << "(9.18), state " << k;
    if (equal_masses) {
      const Vec<S> z919 =
          vec<S>({g * c, g * c, -g * s * (rho + sigma) / (rho * rho + sigma * sigma)});
      EXPECT_LE(relative_difference<S>(zdot, z919), Tolerance<S>::cross)
          << "(9.19), state " << k;
    }
  });
}

// 001 §9.4, second method. With 2K = m1 (x1d^2 + y1d^2) + m2 (x2d^2 + y2d^2):
//   D1 = (A1 (m1 v1^2 + m2 x2d^2)/m1 + A2 m2 x2d y2d/m1 + A3 y1d y2d - A4 x1d y2d)/2K,
//   D2 = (A1 m2 x2d y2d/m1 + A2 (m1 v1^2 + m2 y2d^2)/m1 - A3 x2d y1d + A4 x1d x2d)/2K,
//   D3 = (A1 y1d y2d - A2 x2d y1d + A3 (m2 v2^2 + m1 x1d^2)/m2 + A4 m1 x1d y1d/m2)/2K,
//   D4 = (-A1 x1d y2d + A2 x1d x2d + A3 m1 x1d y1d/m2 + A4 (m2 v2^2 + m1 y1d^2)/m2)/2K;
// on the inclined plane (A = (m1 g, 0, m2 g, 0)):
//   D1 = g (m1 v1^2 + m2 (x2d^2 + y1d y2d))/2K,  D2 = g m2 x2d (y2d - y1d)/2K,
//   D3 = g (m2 v2^2 + m1 (x1d^2 + y1d y2d))/2K,  D4 = g m1 x1d (y1d - y2d)/2K;
// and for m1 = m2 the same with the masses cancelled.
TYPED_TEST(SeedClosedForms, ParallelPoints_SecondKind_D1_to_D4) {
  using S = TypeParam;
  for_each_parallel_case<S>(9005, [&](const ParallelCase<S>& pc, int k, bool equal_masses) {
    const auto& [p, sys, x, P, A] = pc;
    const S m1 = p[0], m2 = p[1], g = p[2];
    const S x1d = x.qd[0], y1d = x.qd[1], x2d = x.qd[2], y2d = x.qd[3];
    const S v1sq = x1d * x1d + y1d * y1d, v2sq = x2d * x2d + y2d * y2d;
    const S twoK = m1 * v1sq + m2 * v2sq;
    const Vec<S> D = closed_form::parallel_points_qddot<S>(P, x.q, x.qd, A);
    const Vec<S> qdd = second_kind(sys, x.q, x.qd).qddot;
    EXPECT_LE(relative_difference<S>(qdd, D), Tolerance<S>::cross)
        << "D (general A), state " << k;
    if (k % 2 != 0) return;  // the incline forms are for the incline alone
    const Vec<S> Dg = vec<S>({g * (m1 * v1sq + m2 * (x2d * x2d + y1d * y2d)) / twoK,
                              g * m2 * x2d * (y2d - y1d) / twoK,
                              g * (m2 * v2sq + m1 * (x1d * x1d + y1d * y2d)) / twoK,
                              g * m1 * x1d * (y1d - y2d) / twoK});
    EXPECT_LE(relative_difference<S>(qdd, Dg), Tolerance<S>::cross)
        << "D (inclined plane), state " << k;
    if (equal_masses) {
      const S den = v1sq + v2sq;
      const Vec<S> De = vec<S>({g * (v1sq + x2d * x2d + y1d * y2d) / den,
                                g * x2d * (y2d - y1d) / den,
                                g * (v2sq + x1d * x1d + y1d * y2d) / den,
                                g * x1d * (y1d - y2d) / den});
      EXPECT_LE(relative_difference<S>(qdd, De), Tolerance<S>::cross)
          << "D (inclined plane, m1 = m2), state " << k;
    }
  });
}

// 001 §9.4 (ii): v1 = v2 = 0 is a singular state for every configuration
// ([C_i] = (y2d, -x2d, -y1d, x1d) vanishes; so does the third column of
// [psi^i_alpha]). The second kind, the first kind and the inverse chart all
// refuse it by condition.
TYPED_TEST(SeedClosedForms, ParallelPoints_ZeroSectionIsSingular) {
  using S = TypeParam;
  const Study<S>& st = find_study<S>("parallel-points");
  const System<S> sys = st.build(st.default_parameters());
  const Vec<S> q = vec<S>({S(1), S(-2), S(3), S(1) / S(2)}), qd = Vec<S>::Zero(4);
  try {
    second_kind(sys, q, qd);
    ADD_FAILURE() << "second kind: no SingularState";
  } catch (const SingularState& e) {
    EXPECT_EQ(e.condition, "rank loss of dC/dqdot");
  }
  try {
    Vec<S> z(3);
    sys.chart(q, qd, z);
    ADD_FAILURE() << "chart: no SingularState";
  } catch (const SingularState& e) {
    EXPECT_EQ(e.condition, "rank loss of dpsi/dz");
    EXPECT_NE(std::string(e.what()).find("qdot = (0, 0, 0, 0)"), std::string::npos) << e.what();
  }
  try {
    first_kind(sys, q, vec<S>({S(0), S(0), S(1)}));
    ADD_FAILURE() << "first kind: no SingularState";
  } catch (const SingularState& e) {
    EXPECT_EQ(e.condition, "rank loss of dpsi/dz");
  }
}

// ----------------------------------------------------------------------------
// 000 §13, the bipendulum: (80)-(82) for general forces (with the correction
// of (79) in docs/errata.md) and the incline (91)-(92), against the generic
// second kind and the KKT system.
//
// Forces: the study's (incline g, harmonic pull k; both nonzero on odd
// states, k = 0 on even states so that (91)-(92) apply) plus, on odd states,
// a random constant force. States: the study's random regular states.
TYPED_TEST(SeedClosedForms, Bipendulum_80_to_82_and_91_92) {
  using S = TypeParam;
  std::mt19937_64 rng(9007);
  const Study<S>& st = find_study<S>("bipendulum");
  for (int k = 0; k < kStates; ++k) {
    for (const bool equal_masses : {false, true}) {
      std::vector<S> p = randomized_parameters(st, rng);  // (m1, m2, g, k), all nonzero
      if (equal_masses) p[1] = p[0];
      if (k % 2 == 0) p[3] = S(0);  // the incline alone on even states
      const auto [params, sys, x, P, A] = random_seed_case<closed_form::BipendulumParameters<S>>(
          st, std::move(p), k, rng, closed_form::bipendulum_forces<S>,
          [&st](const System<S>& s, std::mt19937_64& r) {
            const State<S> s0 = st.random_state(s, r);
            return ChartState<S>{s0.q, Vec<S>(), s0.qdot};
          });
      const Vec<S> D = closed_form::bipendulum_qddot<S>(P, x.q, x.qd, A);
      EXPECT_LE(relative_difference<S>(second_kind(sys, x.q, x.qd).qddot, D), Tolerance<S>::cross)
          << "(80)-(82) against second kind, state " << k;
      EXPECT_LE(relative_difference<S>(lagrange_multipliers(sys, x.q, x.qd).qddot, D),
                Tolerance<S>::cross)
          << "(80)-(82) against the KKT system, state " << k;
      if (k % 2 != 0) continue;  // (91)-(92) are for the incline alone
      EXPECT_LE(relative_difference<S>(
                    D, Vec<S>(closed_form::bipendulum_qddot_incline<S>(P, x.q, x.qd))),
                Tolerance<S>::cross)
          << "(91)-(92), state " << k;
    }
  }
}

// ----------------------------------------------------------------------------
// 001 eq. 3.11 and Thm 8.1: the multipliers of the second kind give the
// reactive forces R_i = lambda_a dC^a/dqdot^i, R is what the Lagrange
// equations g qddot + Gamma(qdot, qdot) = A + R leave over, qddot keeps the
// state on C (d/dt C^a = 0), and R has zero power, R . qdot = 0 (C^a is
// homogeneous in qdot, so qdot . dC^a/dqdot = deg(C^a) C^a = 0 on C).
TYPED_TEST(SeedClosedForms, MultipliersGiveIdealReactions) {
  using S = TypeParam;
  using std::abs;
  std::mt19937_64 rng(9006);
  for (const Study<S>& st : studies<S>()) {
    if (st.info.semidefinite_metric) continue;  // no second kind: test_semidefinite_mass
    for (int k = 0; k < kStates; ++k) {
      const System<S> sys = st.build(randomized_parameters(st, rng));
      const State<S> x = st.random_state(sys, rng);
      const SecondKindField<S> D = second_kind(sys, x.q, x.qdot);
      const ConstraintJacobians<S> J = constraint_jacobians(sys, x.q, x.qdot);
      const Inertia<S> in = inertia(sys, x.q, x.qdot);
      const Vec<S> A = active_force(sys, x.q, x.qdot);

      const Vec<S> from_multipliers = J.C_qdot.transpose() * D.multipliers;
      const Vec<S> from_lagrange = in.g * D.qddot + in.gamma - A;
      // Relative to the size of the Lagrange equation's terms, not of R: the
      // rolling sphere's reaction vanishes (002), so R alone has no scale.
      using std::max;
      const S force_scale = max(max((in.g * D.qddot).cwiseAbs().maxCoeff(),
                                    in.gamma.cwiseAbs().maxCoeff()),
                                max(A.cwiseAbs().maxCoeff(), D.reaction.cwiseAbs().maxCoeff()));
      EXPECT_LE((D.reaction - from_multipliers).cwiseAbs().maxCoeff(),
                Tolerance<S>::cross * force_scale)
          << st.info.name << " R = lambda dC/dqdot, state " << k;
      EXPECT_LE((from_lagrange - from_multipliers).cwiseAbs().maxCoeff(),
                Tolerance<S>::cross * force_scale)
          << st.info.name << " g qddot + Gamma - A = lambda dC/dqdot, state " << k;

      // d/dt C^a = C^a_i qddot^i + dC^a/dq^i qdot^i = 0, relative to its terms.
      const Vec<S> Cdot = J.C_qdot * D.qddot + J.C_q * x.qdot;
      const Vec<S> Cdot_scale =
          (J.C_qdot.cwiseAbs() * D.qddot.cwiseAbs() + J.C_q.cwiseAbs() * x.qdot.cwiseAbs());
      for (Eigen::Index a = 0; a < Cdot.size(); ++a)
        EXPECT_LE(abs(Cdot[a]), Tolerance<S>::cross * Cdot_scale[a])
            << st.info.name << " dC/dt, constraint " << a << ", state " << k;

      // Ideal constraints homogeneous in qdot do no work (001 Remark 3.3);
      // an affine one, A(q) qdot + a0(q) = 0 (a moving support), does
      // R . qdot = lambda_a A^a qdot = -lambda_a a0^a, with a0 = C(q, 0)
      // (docs/affine-constraints.md, A4). a0 = 0 for every homogeneous study.
      Vec<S> a0(D.multipliers.size());
      sys.constraints(x.q, Vec<S>::Zero(x.qdot.size()), a0);
      const S power = D.reaction.dot(x.qdot) + D.multipliers.dot(a0);
      const S power_scale = force_scale * x.qdot.cwiseAbs().sum() +
                            D.multipliers.cwiseAbs().dot(a0.cwiseAbs());
      EXPECT_LE(abs(power), Tolerance<S>::cross * power_scale)
          << st.info.name << " R . qdot + lambda . C(q, 0), state " << k;
    }
  }
}

}  // namespace
}  // namespace nhs
