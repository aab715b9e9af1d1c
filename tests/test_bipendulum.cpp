// The bipendulum (000 §13) and the linear bipendulum (000 §13.7) as a
// researcher would check them: singular sets reported by name, the inverse
// chart (eq. 75) against psi, Voronec's refusal of the non-linear eq. 73,
// energy separation (eqs. 85-86) for two kinds of separate potentials (more
// in test_energy_separation.cpp), the special motions that need more than a
// closed form (spontaneous motions, the printed eq. 90, the epsilon-limit of
// the circle of eq. 89) and Hertz's limit. The closed-form special motions
// (b)-(e) run in test_special_motions*.cpp with every other study's.
// ctest-labels: study
#include "scalar_test.hpp"

#include "nhs/formulation.hpp"
#include "nhs/derivatives.hpp"
#include "nhs/integrate.hpp"
#include "nhs/regularity.hpp"
#include "nhs/singular_set.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/bipendulum_findings.hpp"
#include "nhs/voronec.hpp"

#include <cmath>
#include <iostream>

namespace nhs {
namespace {

template <class S>
class Bipendulum : public ::testing::Test {};
TYPED_TEST_SUITE(Bipendulum, TestScalars, ScalarNames);

template <class S>
IntegrationOptions<S> options(const S& t_end) {
  IntegrationOptions<S> io;
  io.t_end = t_end;
  io.dt_out = S(1) / S(4);
  io.rtol = io.atol = tight_tolerance<S>();
  return io;
}

TYPED_TEST(Bipendulum, SingularSetsAreReportedByName) {
  using S = TypeParam;
  const Study<S>& st = find_study<S>("bipendulum");
  const System<S> sys = st.build(st.default_parameters());
  const Formulation<S>& second = find_formulation<S>("second-kind");
  const Formulation<S>& first = find_formulation<S>("first-kind");
  const S tol = regularity_tolerance<S>();
  // 72a: both points on the y axis; on C with y1d = 0, y2d != 0, where
  // dC/dqdot = (0, (y1 - y2) y2d, 0, 0) != 0.
  {
    const Vec<S> q = bipendulum_vector<S>(S(0), S(1), S(0), S(-1));
    const Vec<S> qd =
        bipendulum_vector<S>(S(1), S(0), from_string<S>("0.5"), from_string<S>("0.7"));
    EXPECT_EQ(max_abs<S>(constraint_residuals(sys, q, qd)), S(0));
    EXPECT_GT(regularity_margins(sys, q, qd).front().value, S(1));
    EXPECT_EQ(singular_condition([&] { require_margins(sys, q, qd, tol); }),
              "P0 undefined (000 eq. 72a: x1 = x2 = 0)");
  }
  // 72b: y1d = y2d = 0 with x's nonzero (dC/dqdot = (0, -x2 x2d, 0, x1 x1d) != 0).
  {
    const Vec<S> q = bipendulum_vector<S>(S(1), S(1), S(2), S(-1)),
                 qd = bipendulum_vector<S>(S(1), S(0), from_string<S>("0.5"), S(0));
    EXPECT_GT(regularity_margins(sys, q, qd).front().value, S(1) / S(2));
    EXPECT_EQ(singular_condition([&] { require_margins(sys, q, qd, tol); }),
              "P0 undefined (000 eq. 72b: y1d = y2d = 0)");
    EXPECT_EQ(singular_condition([&] { first.acceleration(sys, q, qd); }),
              "P0 undefined (000 eq. 72b: y1d = y2d = 0)");
  }
  // docs/errata.md: dC/dqdot vanishes with P2 at rest at P0 (x2 = 0, v2 = 0,
  // (P1 - P2) . v1 = 0), a state eq. 72 omits.
  {
    const Vec<S> q =
        bipendulum_vector<S>(S(1), from_string<S>("0.5"), S(0), from_string<S>("-0.4"));
    const Vec<S> qd =
        bipendulum_vector<S>(from_string<S>("-0.81"), from_string<S>("0.9"), S(0), S(0));
    EXPECT_EQ(max_abs<S>(constraint_residuals(sys, q, qd)), S(0));
    EXPECT_EQ(singular_condition([&] { second.acceleration(sys, q, qd); }),
              "rank loss of dC/dqdot");
    EXPECT_EQ(singular_condition([&] { require_margins(sys, q, qd, tol); }),
              "rank loss of dC/dqdot");
  }
  // Random regular states pass.
  std::mt19937_64 rng(7);
  for (int k = 0; k < 10; ++k) {
    const State<S> x = st.random_state(sys, rng);
    EXPECT_NO_THROW(require_margins(sys, x.q, x.qdot, tol));
  }
}

// The inverse chart (eq. 75 and w_k = v_k . J(P_k - P0) / |P_k - P0|^2)
// against the parametrization psi: at the study's random regular states
// psi(q, chart(q, qdot)) = qdot, and at random (q, z) away from the chart's
// singular sets (P0 defined: max(|y1d|, |y2d|) >= 1/4; each w_k defined:
// |P_k - P0| >= 1/4) chart(q, psi(q, z)) = z, to cross tolerance relative
// to 1 + the largest component.
TYPED_TEST(Bipendulum, InverseChartRoundTrip) {
  using S = TypeParam;
  using std::abs;
  using std::max;
  const Study<S>& st = find_study<S>("bipendulum");
  const System<S> sys = st.build(st.default_parameters());
  std::mt19937_64 rng(11);
  const S tol = Tolerance<S>::cross;
  S worst_qdot(0), worst_z(0);  // relative errors, reported
  for (int k = 0; k < 20; ++k) {
    const State<S> x = st.random_state(sys, rng);
    Vec<S> z(3), qd(4);
    sys.chart(x.q, x.qdot, z);
    sys.parametrization(x.q, z, qd);
    const S err = max_abs<S>(qd - x.qdot) / (S(1) + max_abs<S>(x.qdot));
    worst_qdot = max(worst_qdot, err);
    EXPECT_LE(err, tol) << "state " << k;
  }
  int checked = 0;
  while (checked < 20) {
    Vec<S> q(4), z(3), qd(4), back(3);
    for (int i = 0; i < 4; ++i) q[i] = uniform<S>(rng, -3, 3);
    for (int i = 0; i < 3; ++i) z[i] = uniform<S>(rng, -2, 2);
    sys.parametrization(q, z, qd);
    bool regular = max(abs(qd[1]), abs(qd[3])) >= S(1) / S(4);
    for (int j = 0; j < 2; ++j) {
      const S dy = q[2 * j + 1] - z[0];
      regular = regular && q[2 * j] * q[2 * j] + dy * dy >= S(1) / S(16);
    }
    if (!regular) continue;
    sys.chart(q, qd, back);
    const S err = max_abs<S>(back - z) / (S(1) + max_abs<S>(z));
    worst_z = max(worst_z, err);
    EXPECT_LE(err, tol) << "draw " << checked;
    ++checked;
  }
  std::cout << "[ chart    ] max relative error: psi(q, chart(q, qdot)) " << double(worst_qdot)
            << ", chart(q, psi(q, z)) " << double(worst_z) << "\n";
}

// Voronec's equations need linear constraints solved for the dependent
// velocities (002 eq. 8); the bipendulum's eq. 73 is quadratic in qdot, and
// the formulation refuses it with NotApplicable naming the non-linearity
// (as test_voronec.cpp checks for parallel-points), at the system, at a
// state and when integrating.
TYPED_TEST(Bipendulum, VoronecRefusesTheNonLinearConstraint) {
  using S = TypeParam;
  const Study<S>& st = find_study<S>("bipendulum");
  const System<S> sys = st.build(st.default_parameters());
  const State<S> x = st.default_state(sys);
  const Formulation<S>& f = find_formulation<S>("voronec");
  EXPECT_NE(f.not_applicable_reason(sys).find("not linear"), std::string::npos)
      << f.not_applicable_reason(sys);
  const auto message = [](auto&& call) -> std::string {
    try {
      call();
    } catch (const NotApplicable& e) {
      return e.what();
    }
    return "(no NotApplicable thrown)";
  };
  IntegrationOptions<S> io;
  io.t_end = S(1);
  for (const std::string& what :
       {message([&] { f.require_applicable(sys); }),
        message([&] { f.acceleration(sys, x.q, x.qdot); }),
        message([&] {
          integrate<S>(sys, f, x.q, x.qdot, io, [](const Sample<S>&) {}, nullptr);
        })}) {
    EXPECT_NE(what.find("not linear"), std::string::npos) << what;
    EXPECT_NE(what.find("bipendulum"), std::string::npos) << what;
  }
  EXPECT_THROW(voronec<S>(sys, x.q, Vec<S>(Vec<S>::Zero(3))), NotApplicable);
}

// A run approaching the singular set stops with SingularState before it is
// reached, keeping the samples it delivered: the symmetric motion meets
// v = 0 (eq. 72c) at its turning point t = T/4.
TYPED_TEST(Bipendulum, RunStopsBeforeTheTurningPoint) {
  using S = TypeParam;
  const SpecialMotion<S> mo = symmetric_pendulum_motion<S>(S(2));  // past T/4
  const Study<S>& st = find_study<S>("bipendulum");
  const System<S> sys = st.build(mo.parameters);
  IntegrationOptions<S> io = options<S>(mo.t_end);
  io.dt_out = S(1) / S(100);
  io.singular_margin = S(1) / S(100);
  S t_last(0);
  const std::string cond = singular_condition([&] {
    integrate<S>(sys, find_formulation<S>("second-kind"), mo.initial.q, mo.initial.qdot, io,
                 [&](const Sample<S>& s) { t_last = s.t; }, nullptr);
  });
  EXPECT_TRUE(cond == "rank loss of dC/dqdot" || cond.rfind("P0 undefined", 0) == 0) << cond;
  const S quarter = mo.t_end / S(2);
  EXPECT_GT(t_last, quarter * S(9) / S(10));
  EXPECT_LT(t_last, quarter);
}

// Energy separation (000 eqs. 85-86): with separate potentials, T1 + V1 and
// T2 + V2 are each constant, for the incline (eq. 91) and for a harmonic
// pull on each point (our second case), with unequal masses: the incline
// from the state of docs/special-motions.md (a) to t = 2 (verified there), the
// harmonic pull k = 1 from P1 = (1.5, 0), P2 = (0.5, 1), z = (0, 1, -1) to
// t = 20 (a motion that stays 0.1 away from the singular sets; most
// harmonic motions we tried reach eq. 72b, y1d = y2d = 0, within a few
// time units).
TYPED_TEST(Bipendulum, EnergiesSeparate) {
  using S = TypeParam;
  const Study<S>& st = find_study<S>("bipendulum");
  struct Case {
    const char* name;
    BipendulumSetup setup;
    S t_end;
  };
  const std::vector<Case> cases = {{"incline g = 2.2", bipendulum_setup_a("2.2"), S(2)},
                                   {"harmonic k = 1", bipendulum_setup_harmonic(), S(20)}};
  for (const Case& c : cases) {
    const State<S> x0 = setup_state<S>(c.setup);
    const System<S> sys = st.build(setup_parameters<S>(c.setup));
    const auto inv = st.invariants(sys);
    ASSERT_EQ(inv[0].name, "E1");
    ASSERT_EQ(inv[1].name, "E2");
    const S E10 = inv[0].value(x0.q, x0.qdot), E20 = inv[1].value(x0.q, x0.qdot);
    S d1(0), d2(0), exchanged(0), t_last(0);
    IntegrationOptions<S> io = options<S>(c.t_end);
    io.singular_margin = S(1) / S(20);
    integrate<S>(
        sys, find_formulation<S>("second-kind"), x0.q, x0.qdot, io,
        [&](const Sample<S>& s) {
          using std::abs;
          using std::max;
          const S e1 = inv[0].value(s.q, s.qdot) - E10, e2 = inv[1].value(s.q, s.qdot) - E20;
          d1 = max(d1, abs(e1));
          d2 = max(d2, abs(e2));
          // What each point would exchange if the energies did not separate:
          // the work of the reaction is not zero by accident (the points do move).
          exchanged = max(exchanged, abs(sys.kinetic_energy(s.q, s.qdot) -
                                         sys.kinetic_energy(x0.q, x0.qdot)));
          t_last = s.t;
        },
        nullptr);
    EXPECT_EQ(t_last, c.t_end) << c.name;
    EXPECT_LE(d1, Tolerance<S>::analytic) << c.name;
    EXPECT_LE(d2, Tolerance<S>::analytic) << c.name;
    EXPECT_GT(exchanged, S(1) / S(10)) << c.name << ": the forces do work";
    std::cout << "[ separate ] " << c.name << ": max |E1 - E1(0)| = " << double(d1)
              << ", max |E2 - E2(0)| = " << double(d2) << "\n";
  }
}

// (a) Spontaneous motions (g = 0): |v1| and |v2| constant (000 eqs. 87-88),
// although the velocities turn.
TYPED_TEST(Bipendulum, SpontaneousMotionsKeepSpeeds) {
  using S = TypeParam;
  const Study<S>& st = find_study<S>("bipendulum");
  const System<S> sys = st.build(setup_parameters<S>(bipendulum_setup_a("0")));
  const State<S> x0 = setup_state<S>(bipendulum_setup_a("0"));
  const S v1 = x0.qdot.head(2).squaredNorm(), v2 = x0.qdot.tail(2).squaredNorm();
  S drift(0), turned(0);
  integrate<S>(
      sys, find_formulation<S>("first-kind"), x0.q, x0.qdot, options<S>(S(3)),
      [&](const Sample<S>& s) {
        using std::abs;
        using std::max;
        drift = max(drift, max(abs(s.qdot.head(2).squaredNorm() - v1),
                               abs(s.qdot.tail(2).squaredNorm() - v2)));
        turned = max(turned, (s.qdot - x0.qdot).cwiseAbs().maxCoeff());
      },
      nullptr);
  EXPECT_LE(drift, Tolerance<S>::analytic);
  EXPECT_GT(turned, S(1) / S(10));
}

// (c) The printed eq. 90 does not give a uniform motion; the corrected
// condition y1d v2^2 = y2d v1^2 does (docs/errata.md).
TYPED_TEST(Bipendulum, PrintedEquation90IsNotUniform) {
  using S = TypeParam;
  const Study<S>& st = find_study<S>("bipendulum");
  const System<S> sys = st.build({from_string<S>("1.1"), from_string<S>("0.7"), S(0), S(0)});
  const Formulation<S>& f = find_formulation<S>("second-kind");
  const State<S> good = bipendulum_uniform_state<S>(false);
  const State<S> printed = bipendulum_uniform_state<S>(true);
  EXPECT_LE(max_abs<S>(constraint_residuals(sys, printed.q, printed.qdot)),
            S(100) * epsilon<S>());
  using std::abs;
  EXPECT_LT(abs(printed.qdot.head(2).norm() - from_string<S>("0.34319")), from_string<S>("1e-5"));
  EXPECT_LT(abs(good.qdot.head(2).norm() - from_string<S>("0.49969")), from_string<S>("1e-5"));
  EXPECT_LE(max_abs<S>(f.acceleration(sys, good.q, good.qdot).qddot), Tolerance<S>::cross);
  EXPECT_GT(max_abs<S>(f.acceleration(sys, printed.q, printed.qdot).qddot), S(1) / S(100));
}

// (b) The circle of eq. 89 is the epsilon -> 0 limit of regular motions
// (x2 = 0, P2 = P0, v2 = (0, epsilon)): at t = 3, P1's distance from the
// uniform circular motion of eq. 89 is proportional to epsilon, and so is
// the margin sigma_min(dC/dqdot) (~1.35 epsilon, as in docs/special-motions.md).
// Measured here: distance / epsilon = 3.1586, 3.12509, 3.12476 for epsilon
// = 1e-2, 1e-4, 1e-6 (docs/special-motions.md quotes ~3.06 epsilon without
// saying how the distance is measured; the radial distance from the circle
// is 2.75 epsilon). Asserted: linearity (the ratio settles as O(epsilon))
// and the constant within [3, 3.2].
TYPED_TEST(Bipendulum, CircleIsTheEpsilonLimit) {
  using S = TypeParam;
  if (!std::is_same_v<S, mp50>) GTEST_SKIP() << "the epsilon sweep runs in mp50";
  // Distances of 1e-6 are needed to ~1e-8 relative: 1e-25 is ample.
  const FindingSettings<S> fs{from_string<S>("1e-25")};
  std::vector<S> ratios;
  for (const char* e : {"1e-2", "1e-4", "1e-6"}) {
    const S eps = from_string<S>(e);
    const CircleLimit<S> c = circle_limit<S>(eps, S(3), S(1) / S(2), fs);
    const S ratio = c.distance / eps;
    ratios.push_back(ratio);
    std::cout << "[ circle   ] epsilon " << e << ": distance " << double(c.distance) << " ("
              << double(ratio) << " epsilon), radial " << double(c.radial_distance / eps)
              << " epsilon, min sigma " << double(c.min_sigma) << "\n";
    EXPECT_GT(ratio, S(3)) << e;
    EXPECT_LT(ratio, from_string<S>("3.2")) << e;
    EXPECT_GT(c.min_sigma / eps, from_string<S>("1.3")) << e;
    EXPECT_LT(c.min_sigma / eps, from_string<S>("1.4")) << e;
  }
  using std::abs;
  // Linear in epsilon: the ratio changes by O(epsilon) from one epsilon to the next.
  EXPECT_LT(abs(ratios[1] / ratios[0] - S(1)), from_string<S>("0.05"));
  EXPECT_LT(abs(ratios[2] / ratios[1] - S(1)), from_string<S>("1e-3"));
}

// Accuracy near the singular set: the symmetric motion approaching its
// turning point (sigma_min(dC/dqdot) -> 0 like 1 - t/(T/4)). Measured with
// second-kind (`nhs findings`, bipendulum_near_singular.csv): at
// 1 - t/(T/4) = 0.1 / 1e-5 the error is 8.4e-13 / 7.2e-9 in double
// (rtol 1e-13) and 7.4e-43 / 1.2e-39 in mp50 (rtol 1e-42, the 16-column
// Bulirsch-Stoer; Odeint's dense 8-column one gave 6.3e-42 / 3.9e-35 at
// rtol 1e-40, where the 16-column one gives 3.0e-40 / 3.3e-37): each
// precision loses 3 to 4 digits on the way; mp50 keeps 38 digits where
// double keeps 8. Asserted with a decade of margin.
TYPED_TEST(Bipendulum, DigitsKeptNearTheTurningPoint) {
  using S = TypeParam;
  const bool dbl = std::is_same_v<S, double>;
  const FindingSettings<S> fs{dbl ? S(1e-13) : from_string<S>("1e-42")};
  const NearSingular<S> far = symmetric_near_turning_point<S>(from_string<S>("0.9"), fs);
  const NearSingular<S> near = symmetric_near_turning_point<S>(S(1) - from_string<S>("1e-5"), fs);
  std::cout << "[ near     ] error at 0.9 T/4: " << double(far.error) << ", at (1 - 1e-5) T/4: "
            << double(near.error) << " (sigma_min " << double(near.sigma_min) << ")\n";
  EXPECT_LT(near.sigma_min, from_string<S>("1e-4"));
  EXPECT_GT(near.error, S(100) * far.error) << "digits are lost near the singular set";
  EXPECT_LT(near.error, dbl ? from_string<S>("1e-7") : from_string<S>("1e-38"));
  EXPECT_LT(far.error, dbl ? from_string<S>("1e-11") : from_string<S>("1e-41"));
}

// Hertz's limit (docs/errata.md §13.7): the linear bipendulum's motion does
// not depend on m0, y0 moves uniformly, and it does not approach the
// bipendulum (figures of docs/special-motions.md, verified there at 40 digits).
TYPED_TEST(Bipendulum, LinearModelIgnoresM0AndMissesTheBipendulum) {
  using S = TypeParam;
  const FindingSettings<S> fs{tight_tolerance<S>()};
  const auto ref = hertz_comparison<S>(S(1), S(2), S(1), fs);
  ASSERT_EQ(ref.size(), 3u);
  for (const char* m0 : {"1e-4", "1e-8"}) {
    const auto h = hertz_comparison<S>(from_string<S>(m0), S(2), S(1), fs);
    ASSERT_EQ(h.size(), ref.size());
    for (std::size_t i = 0; i < h.size(); ++i) {
      using std::abs;
      EXPECT_LE(abs(h[i].y0_linear - ref[i].y0_linear), Tolerance<S>::analytic) << m0;
      EXPECT_LE(abs(h[i].distance_P1 - ref[i].distance_P1), Tolerance<S>::analytic) << m0;
      EXPECT_LE(abs(h[i].distance_P2 - ref[i].distance_P2), Tolerance<S>::analytic) << m0;
    }
  }
  // y0 uniform: y0(2) - y0(1) = y0(1) - y0(0).
  using std::abs;
  EXPECT_LE(abs(ref[2].y0_linear - S(2) * ref[1].y0_linear + ref[0].y0_linear),
            Tolerance<S>::analytic);
  // docs/special-motions.md (5-6 digits): y0(1), y0(2) of both models; P1 apart.
  const S five = from_string<S>("1e-5");
  EXPECT_LT(abs(ref[1].y0_bipendulum - from_string<S>("1.50495")), five);
  EXPECT_LT(abs(ref[2].y0_bipendulum - from_string<S>("2.58339")), five);
  EXPECT_LT(abs(ref[1].y0_linear - from_string<S>("1.57303")), five);
  EXPECT_LT(abs(ref[2].y0_linear - from_string<S>("2.74607")), five);
  EXPECT_LT(abs(ref[1].distance_P1 - from_string<S>("0.013")), from_string<S>("5e-4"));
  EXPECT_LT(abs(ref[2].distance_P1 - from_string<S>("0.055")), from_string<S>("5e-4"));
}

}  // namespace
}  // namespace nhs
