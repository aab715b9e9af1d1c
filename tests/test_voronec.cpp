// Voronec's equations (002 eqs. 8-11) against the second kind (001 Thm 8.2):
// the same qddot at >= 50 random regular states of every study Voronec
// applies to, with random parameters and forces, in every precision; a and
// b against Lemos' eqs. 12-14 and theta's equation against eq. 16 on the
// rolling sphere; refusal where the constraints are non-linear or no
// dependent velocities are declared; the singular dependent block (the
// skate at cos theta = 0), the split's margin, the runs it stops, and the
// motions `nhs list` says Voronec cannot follow; the integration state
// (q, qdot_indep).
// ctest-labels: unit cross
#include "motion_error.hpp"
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/regularity.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/udwadia_kalaba.hpp"
#include "nhs/voronec.hpp"

#include <boost/math/constants/constants.hpp>

#include <algorithm>
#include <optional>

namespace nhs {
namespace {

template <class S>
class Voronec : public ::testing::Test {};
TYPED_TEST_SUITE(Voronec, TestScalars, ScalarNames);

constexpr int kStates = 60;

// A random regular state of the study; for the skate, whose dependent
// velocity ydot = tan(theta) xdot is singular at cos theta = 0, one with
// |cos theta| >= 1/10 (docs/special-motions.md, skate).
template <class S>
State<S> random_regular_state(const Study<S>& st, const System<S>& sys, std::mt19937_64& rng) {
  using std::abs;
  using std::cos;
  for (;;) {
    State<S> x = st.random_state(sys, rng);
    if (st.info.name != "skate" || abs(cos(x.q[2])) >= S(1) / S(10)) return x;
  }
}

TYPED_TEST(Voronec, AgreesWithSecondKindAtRandomRegularStates) {
  using S = TypeParam;
  const Formulation<S>& voronec_f = find_formulation<S>("voronec");
  std::mt19937_64 rng(20260318);
  std::vector<std::string> covered;
  for (const Study<S>& st : studies<S>()) {
    const System<S> sys0 = st.build(st.default_parameters());
    if (!voronec_f.not_applicable_reason(sys0).empty()) continue;
    covered.push_back(st.info.name);
    S worst = 0;
    for (int k = 0; k < kStates; ++k) {
      const System<S> sys = k % 2 ? st.build(randomized_parameters(st, rng)) : sys0;
      const State<S> x = random_regular_state(st, sys, rng);
      ASSERT_LE(constraint_residuals(sys, x.q, x.qdot).cwiseAbs().maxCoeff(),
                S(100) * epsilon<S>())
          << st.info.name;
      // The second kind; Udwadia-Kalaba (M_A) where g is only semidefinite.
      const Vec<S> reference = sys.info.semidefinite_metric
                                   ? udwadia_kalaba(sys, x.q, x.qdot).qddot
                                   : second_kind(sys, x.q, x.qdot).qddot;
      const Acceleration<S> acc = voronec_f.acceleration(sys, x.q, x.qdot);
      const S d = relative_difference<S>(acc.qddot, reference);
      using std::max;
      worst = max(worst, d);
      EXPECT_LE(d, Tolerance<S>::cross) << st.info.name << " state " << k;
      // The integration field: dq/dt = qdot, d(qdot_indep)/dt = qddot_indep.
      const Vec<S> xs = voronec_f.to_state(sys, x.q, x.qdot);
      ASSERT_EQ(xs.size(), 2 * sys.n - sys.r);
      const Vec<S> dx = voronec_f.field(sys, xs);
      EXPECT_LE(relative_difference<S>(Vec<S>(dx.head(sys.n)), x.qdot), Tolerance<S>::cross);
      // Relative to the whole qddot, as above (the independent part alone
      // may be rounding-level zeros, e.g. the rolling disc without forces).
      const Vec<S> ref_indep = reference(independent_velocities(sys.info));
      EXPECT_LE((dx.tail(sys.n - sys.r) - ref_indep).cwiseAbs().maxCoeff(),
                Tolerance<S>::cross * max(reference.cwiseAbs().maxCoeff(),
                                          std::numeric_limits<S>::min()))
          << st.info.name << " state " << k;
    }
    std::cout << "[ voronec  ] " << st.info.name << ": max relative difference from "
              << (sys0.info.semidefinite_metric ? "udwadia-kalaba (M_A) " : "second-kind ")
              << double(worst) << " over " << kStates << " states\n";
  }
  // The studies with linear constraints and declared dependent velocities.
  for (const char* name : {"skate", "rolling-disc", "coaxial-discs"})
    EXPECT_NE(std::find(covered.begin(), covered.end(), name), covered.end()) << name;
}

// b^nu_ij (eq. 11) is antisymmetric in (i, j); a solves the constraints.
TYPED_TEST(Voronec, CoefficientsSolveTheConstraintsAndAreAntisymmetric) {
  using S = TypeParam;
  std::mt19937_64 rng(7);
  for (const Study<S>& st : studies<S>()) {
    const System<S> sys = st.build(randomized_parameters(st, rng));
    if (!dependent_velocity_reason(sys.info).empty()) continue;
    for (int k = 0; k < 10; ++k) {
      const State<S> x = random_regular_state(st, sys, rng);
      const DependentVelocities<S> dv = dependent_velocities(sys, x.q);
      // C(q, P qdot_indep) = 0 for any qdot_indep.
      Vec<S> v(sys.n - sys.r);
      for (auto& e : v) e = uniform<S>(rng, -1, 1);
      EXPECT_LE(constraint_residuals(sys, x.q, full_velocity(dv, v)).cwiseAbs().maxCoeff(),
                S(100) * epsilon<S>() * (S(1) + dv.a.cwiseAbs().maxCoeff()))
          << st.info.name;
      for (const Mat<S>& b : voronec_coefficients(dv))
        EXPECT_LE((b + b.transpose()).cwiseAbs().maxCoeff(), S(100) * epsilon<S>() *
                  (S(1) + b.cwiseAbs().maxCoeff()))
            << st.info.name;
    }
  }
}

// The rolling sphere (002): q = (phi, theta, psi, x, y), x and y dependent.
// a as in eq. 12, b as in eqs. 13-14 (docs/errata.md: correct), and the
// theta component of Voronec's equations is eq. 16: thetadd + phid psid
// sin theta = 0 (eq. 15 reduces to it).
TYPED_TEST(Voronec, RollingSphereReproducesLemosEquations12To16) {
  using S = TypeParam;
  const Study<S>* st = nullptr;
  for (const Study<S>& s : studies<S>())
    if (s.info.name == "rolling-sphere") st = &s;
  if (!st) GTEST_SKIP() << "no rolling-sphere study in the registry";
  using std::abs;
  using std::cos;
  using std::sin;
  std::mt19937_64 rng(16);
  for (int k = 0; k < kStates; ++k) {
    const System<S> sys = st->build(randomized_parameters(*st, rng));
    const S R = sys.parameter("R");
    const State<S> x = st->random_state(sys, rng);
    const S phi = x.q[0], theta = x.q[1];
    const DependentVelocities<S> dv = dependent_velocities(sys, x.q);
    ASSERT_EQ(dv.independent, (std::vector<int>{0, 1, 2}));
    Mat<S> a12(2, 3), b1(3, 3), b2(3, 3);
    a12 << S(0), R * sin(phi), -R * sin(theta) * cos(phi),  //
        S(0), -R * cos(phi), -R * sin(theta) * sin(phi);
    const S b1_12 = -R * cos(phi), b1_13 = -R * sin(theta) * sin(phi),
            b1_23 = R * cos(theta) * cos(phi);
    const S b2_12 = -R * sin(phi), b2_13 = R * sin(theta) * cos(phi),
            b2_23 = R * cos(theta) * sin(phi);
    b1 << S(0), b1_12, b1_13, -b1_12, S(0), b1_23, -b1_13, -b1_23, S(0);
    b2 << S(0), b2_12, b2_13, -b2_12, S(0), b2_23, -b2_13, -b2_23, S(0);
    const S tol = S(100) * epsilon<S>() * (S(1) + R);
    EXPECT_LE((dv.a - a12).cwiseAbs().maxCoeff(), tol) << "eq. 12, state " << k;
    const std::vector<Mat<S>> b = voronec_coefficients(dv);
    EXPECT_LE((b[0] - b1).cwiseAbs().maxCoeff(), tol) << "eq. 13, state " << k;
    EXPECT_LE((b[1] - b2).cwiseAbs().maxCoeff(), tol) << "eq. 14, state " << k;

    const Vec<S> qdd = find_formulation<S>("voronec").acceleration(sys, x.q, x.qdot).qddot;
    const S eq16 = -x.qdot[0] * x.qdot[2] * sin(theta);
    EXPECT_LE(abs(qdd[1] - eq16), Tolerance<S>::cross * (S(1) + abs(eq16)))
        << "eq. 16, state " << k;
  }
}

TYPED_TEST(Voronec, RefusesNonLinearConstraintsAndUndeclaredSplits) {
  using S = TypeParam;
  const Formulation<S>& f = find_formulation<S>("voronec");
  const Study<S>& pp = find_study<S>("parallel-points");
  const System<S> sys = pp.build(pp.default_parameters());
  const State<S> x = pp.default_state(sys);
  EXPECT_NE(f.not_applicable_reason(sys).find("not linear"), std::string::npos)
      << f.not_applicable_reason(sys);
  EXPECT_THROW(f.acceleration(sys, x.q, x.qdot), NotApplicable);
  EXPECT_THROW(f.require_applicable(sys), NotApplicable);
  EXPECT_THROW(voronec<S>(sys, x.q, Vec<S>(Vec<S>::Zero(3))), NotApplicable);
  // No fallback: the formulation's own message names the reason.
  try {
    f.require_applicable(sys);
  } catch (const NotApplicable& e) {
    EXPECT_NE(std::string(e.what()).find("voronec"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not linear"), std::string::npos) << e.what();
  }

  // A linear system that declares no dependent velocities.
  const Study<S>& sk = find_study<S>("skate");
  System<S> undeclared = sk.build(sk.default_parameters());
  undeclared.info.dependent_velocities.clear();
  const State<S> y = sk.default_state(undeclared);
  EXPECT_NE(f.not_applicable_reason(undeclared).find("declares no dependent velocities"),
            std::string::npos);
  EXPECT_THROW(f.acceleration(undeclared, y.q, y.qdot), NotApplicable);
}

// The skate's dependent block dC/dydot = -cos theta vanishes at theta = pi/2.
TYPED_TEST(Voronec, SkateDependentBlockIsSingularAtCosThetaZero) {
  using S = TypeParam;
  using std::acos;
  const Study<S>& sk = find_study<S>("skate");
  const System<S> sys = sk.build(sk.default_parameters());
  Vec<S> q(3), qd(3);
  q << S(1) / S(3), S(-1) / S(2), acos(S(-1)) / S(2);
  qd << S(0), S(1), S(1) / S(4);  // on C: xd = 0, yd = s
  try {
    find_formulation<S>("voronec").acceleration(sys, q, qd);
    ADD_FAILURE() << "no SingularState at cos theta = 0";
  } catch (const SingularState& e) {
    EXPECT_EQ(e.condition, "singular dependent block of dC/dqdot") << e.what();
  }
  EXPECT_THROW(dependent_velocities<S>(sys, q), SingularState);
  // The second kind is regular there.
  EXPECT_NO_THROW(second_kind<S>(sys, q, qd));
}

TYPED_TEST(Voronec, ReducedStateRoundTripsAndRefusesStatesOffC) {
  using S = TypeParam;
  const Formulation<S>& f = find_formulation<S>("voronec");
  const Study<S>& st = find_study<S>("coaxial-discs");
  std::mt19937_64 rng(3);
  const System<S> sys = st.build(randomized_parameters(st, rng));
  const State<S> x = st.random_state(sys, rng);
  const Vec<S> xs = f.to_state(sys, x.q, x.qdot);
  EXPECT_EQ(xs.size(), 2 * 5 - 3);
  Vec<S> q, qd;
  f.from_state(sys, xs, q, qd);
  EXPECT_EQ(q, x.q);
  EXPECT_LE((qd - x.qdot).cwiseAbs().maxCoeff(), S(100) * epsilon<S>());
  Vec<S> off = x.qdot;
  off[4] += S(1) / S(1000);  // psid no longer (R/a)(theta2d - theta1d)
  EXPECT_THROW(f.to_state(sys, x.q, off), InvalidState);
}

// The conditioning of Voronec's split is watched like the system's margins
// (IntegrationOptions::singular_margin), at the same threshold in every
// precision (issue 33, finding 5). The skate's default motion (theta = t/2)
// reaches cos theta = 0 at t = pi; the linear bipendulum's default motion
// reaches x_1 = 0 before t = 3. The field's own checks are relative to the
// precision (100 eps): double and mp50 stepped over the skate's set and
// exited 0, 1e-7 (double) off the second kind, and the linear bipendulum
// stopped in long double only.
template <class S>
void expect_stops_at_the_split() {
  using std::max;
  for (const char* study : {"skate", "linear-bipendulum"}) {
    const Study<S>& st = find_study<S>(study);
    const System<S> sys = st.build(st.default_parameters());
    const State<S> x0 = st.default_state(sys);
    IntegrationOptions<S> o;
    o.t_end = S(study == std::string("skate") ? 5 : 3);
    o.dt_out = S(1) / S(2);
    // Any tolerance: what is tested is the watch (looser in mp for speed).
    o.rtol = o.atol = max(default_tolerance<S>(), from_string<S>("1e-20"));
    o.singular_margin = S(1) / S(1000000);
    S last(-1);
    try {
      integrate<S>(sys, find_formulation<S>("voronec"), x0.q, x0.qdot, o,
                   [&](const Sample<S>& s) { last = s.t; }, nullptr);
      ADD_FAILURE() << study << ": Voronec ran through its split's singular set";
    } catch (const SingularState& e) {
      const std::string what = e.what();
      EXPECT_EQ(e.condition, "singular dependent block of dC/dqdot") << what;
      EXPECT_NE(what.find("split_margin"), std::string::npos) << what;
      ASSERT_FALSE(e.time.empty()) << what;
      const S t = from_string<S>(e.time);
      if (study == std::string("skate")) {
        // |cos(t/2)| <= 1e-6 within 2e-6 of t = pi.
        using std::abs;
        EXPECT_LE(abs(t - boost::math::constants::pi<S>()), S(3) / S(1000000)) << what;
        EXPECT_EQ(last, S(3)) << what;
      } else {
        EXPECT_LT(t, S(3)) << what;
      }
    }
  }
}

TYPED_TEST(Voronec, StopsAtTheSplitsSingularSetInEveryPrecision) { expect_stops_at_the_split<TypeParam>(); }
TEST(VoronecStops, AtTheSplitsSingularSetInLongDoubleAndFloat128) {
  expect_stops_at_the_split<long double>();
  expect_stops_at_the_split<float128>();
}

// The split's margin (split_margin): 1/sqrt(1 + |a|^2) where a is defined,
// |cos theta| for the skate, 0 on the set; in [0, 1].
TYPED_TEST(Voronec, SplitMarginIsTheSplitsConditioning) {
  using S = TypeParam;
  using std::abs;
  using std::cos;
  using std::sqrt;
  const Study<S>& sk = find_study<S>("skate");
  const System<S> sys = sk.build(sk.default_parameters());
  for (const char* theta : {"0", "0.3", "1.2", "-2.5"}) {
    Vec<S> q(3);
    q << S(1), S(2), from_string<S>(theta);
    const Margin<S> m = split_margin<S>(sys, q);
    EXPECT_EQ(m.name, "split_margin");
    EXPECT_EQ(m.condition, "singular dependent block of dC/dqdot");
    EXPECT_LE(abs(m.value - abs(cos(q[2]))), S(100) * epsilon<S>()) << theta;
  }
  Vec<S> q(3);
  q << S(0), S(0), boost::math::constants::half_pi<S>();
  EXPECT_LE(split_margin<S>(sys, q).value, S(100) * epsilon<S>());
  // Every study Voronec applies to, at random states: 1/sqrt(1 + sigma_max(a)^2).
  std::mt19937_64 rng(11);
  int checked = 0;
  for (const Study<S>& st : studies<S>()) {
    const System<S> s0 = st.build(st.default_parameters());
    if (!find_formulation<S>("voronec").not_applicable_reason(s0).empty()) continue;
    for (int k = 0; k < 3; ++k) {
      const State<S> x = random_regular_state(st, s0, rng);
      const Mat<S> a = dependent_velocities<S>(s0, x.q).a;
      const Vec<S> sv = singular_values<S>(a);
      const S expected = S(1) / sqrt(S(1) + sv[0] * sv[0]);
      const S value = split_margin<S>(s0, x.q).value;
      EXPECT_LE(abs(value - expected), S(1000) * epsilon<S>() * (S(1) + sv[0] * sv[0]))
          << st.info.name;
      EXPECT_EQ(find_formulation<S>("voronec").singular_margins(s0, x.q, x.qdot).at(0).value, value);
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

// What `nhs list` and `nhs verify` say Voronec cannot follow
// (Study::default_run_excluded, SpecialMotion::excluded) is what the
// split's margin finds (double, verify's spans: the default motion to
// t = 20, each special motion to its end): an excluded default motion
// reaches the set, and no motion that verify runs with Voronec does.
TEST(VoronecFollows, ExactlyTheMotionsNotExcluded) {
  const Formulation<double>& f = find_formulation<double>("voronec");
  int runs = 0;
  for (const Study<double>& st : studies<double>()) {
    const System<double> sys0 = st.build(st.default_parameters());
    if (!f.not_applicable_reason(sys0).empty()) continue;
    const auto reaches_set = [&](const System<double>& sys, const State<double>& x0, double t_end,
                                 std::string* message) {
      IntegrationOptions<double> o;
      o.t_end = t_end;
      o.dt_out = 0.5;
      o.singular_margin = 1e-6;
      ++runs;
      try {
        integrate<double>(sys, f, x0.q, x0.qdot, o, [](const Sample<double>&) {}, nullptr);
        return false;
      } catch (const SingularState& e) {
        *message = e.what();
        return e.condition == "singular dependent block of dC/dqdot";
      }
    };
    std::string message;
    const bool excluded = st.default_run_excluded.count("voronec") > 0;
    EXPECT_EQ(reaches_set(sys0, st.default_state(sys0), 20.0, &message), excluded)
        << st.info.name << " default state: " << (excluded ? "excluded, but no crossing" : message);
    for (const SpecialMotion<double>& mo : st.special_motions()) {
      if (mo.excluded.count("voronec")) continue;
      message.clear();
      EXPECT_FALSE(reaches_set(st.build(mo.parameters), mo.initial, mo.t_end, &message))
          << st.info.name << " / " << mo.name << ": " << message;
    }
  }
  EXPECT_GT(runs, 3);
}

// docs/special-motions.md skate on an incline (g = 3, omega = 0.9, theta0 = 0.4):
// integrated in (q, xd, thetad) it matches the closed form while theta stays
// below pi/2 (t <= 1.2: theta <= 1.48; the dependent block is singular at
// t = (pi/2 - 0.4)/0.9 = 1.30).
TYPED_TEST(Voronec, SkateInclineMotionUntilTheSingularCrossing) {
  using S = TypeParam;
  const Study<S>& sk = find_study<S>("skate");
  const Formulation<S>& f = find_formulation<S>("voronec");
  std::optional<SpecialMotion<S>> motion;
  for (const SpecialMotion<S>& mo : sk.special_motions())
    if (mo.name.find("omega = 0.9") != std::string::npos) motion = mo;
  ASSERT_TRUE(motion);
  const System<S> sys = sk.build(motion->parameters);
  IntegrationOptions<S> opts;
  opts.t_end = S(6) / S(5);
  opts.dt_out = S(1) / S(10);
  opts.rtol = opts.atol = integration_tolerance<S>();
  const S err = motion_error<S>(sys, f, *motion, opts);
  EXPECT_LE(err, Tolerance<S>::analytic);
  std::cout << "[ voronec  ] skate incline to t = 1.2: error " << double(err) << "\n";
}

}  // namespace
}  // namespace nhs
