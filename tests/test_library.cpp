// Library behaviour independent of any study's physics: the AD-derived
// metric and Christoffel term against a hand-written T, singular and
// off-manifold states reported by name, the steppers, and integration
// failures that keep what was observed.
// ctest-labels: unit
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/first_kind.hpp"
#include "nhs/integrate.hpp"
#include "nhs/manifold.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/studies/all.hpp"

namespace nhs {
namespace {

// A particle in polar coordinates with a velocity-dependent constraint:
// T = m/2 (rd^2 + r^2 phid^2), C = rd - phid (non-linear in q through r^2 in
// T only). Hand-derived: g = diag(m, m r^2); Gamma(qd, qd) =
// (-m r phid^2, 2 m r rd phid).
enum PolarParam { pm };
struct Polar {
  static SystemInfo info() {
    return {"polar", "test particle", "test", {"r", "phi"}, {{"m", "1", "mass"}}, {"C1"}, {}, true};
  }
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    return ratio<T>(1, 2) * p[pm] * (qd[0] * qd[0] + q[0] * q[0] * qd[1] * qd[1]);
  }
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>&, const Vec<T>& qd, Vec<T>& C) {
    C[0] = qd[0] - qd[1];
  }
};

template <class S>
class Library : public ::testing::Test {};
TYPED_TEST_SUITE(Library, TestScalars, ScalarNames);

TYPED_TEST(Library, MetricAndChristoffelTermMatchHandDerivation) {
  using S = TypeParam;
  const S m = from_string<S>("1.7");
  const System<S> sys = describe<S, Polar>({m});
  Vec<S> q(2), qd(2);
  q << from_string<S>("0.8"), from_string<S>("-0.3");
  qd << from_string<S>("0.45"), from_string<S>("1.25");
  const Inertia<S> I = inertia(sys, q, qd);
  Mat<S> g(2, 2);
  g << m, S(0), S(0), m * q[0] * q[0];
  Vec<S> gamma(2);
  gamma << -m * q[0] * qd[1] * qd[1], S(2) * m * q[0] * qd[0] * qd[1];
  EXPECT_LE((I.g - g).cwiseAbs().maxCoeff(), S(10) * epsilon<S>());
  EXPECT_LE((I.gamma - gamma).cwiseAbs().maxCoeff(), S(10) * epsilon<S>());
  // A system without a parametrization: first kind refuses by name.
  EXPECT_FALSE(find_formulation<S>("first-kind").not_applicable_reason(sys).empty());
  EXPECT_THROW(find_formulation<S>("first-kind").require_applicable(sys), NotApplicable);
}

TYPED_TEST(Library, SingularStatesAreReportedByCondition) {
  using S = TypeParam;
  const Study<S>& pp = find_study<S>("parallel-points");
  const System<S> sys = pp.build(pp.default_parameters());
  Vec<S> q(4), qd = Vec<S>::Zero(4);
  q << S(1), S(2), S(3), S(4);
  // v1 = v2 = 0: dC/dqdot = (y2d, -x2d, -y1d, x1d) vanishes (001 §9.4).
  try {
    second_kind<S>(sys, q, qd);
    FAIL() << "no SingularState";
  } catch (const SingularState& e) {
    EXPECT_EQ(e.condition, "rank loss of dC/dqdot");
    EXPECT_NE(std::string(e.what()).find("qdot = (0, 0, 0, 0)"), std::string::npos) << e.what();
  }
  // First kind: psi_z loses rank at rho = sigma = 0 (third column vanishes).
  Vec<S> z(3);
  z << S(0), S(0), S(1);
  try {
    first_kind<S>(sys, q, z);
    FAIL() << "no SingularState";
  } catch (const SingularState& e) {
    EXPECT_EQ(e.condition, "rank loss of dpsi/dz");
  }
  // A metric that is not positive definite: the skate with I = 0.
  const Study<S>& sk = find_study<S>("skate");
  const System<S> flat = sk.build({S(1), S(0), S(0)});
  Vec<S> q3 = Vec<S>::Zero(3), qd3(3);
  qd3 << S(1), S(0), S(1);
  try {
    second_kind<S>(flat, q3, qd3);
    FAIL() << "no SingularState";
  } catch (const SingularState& e) {
    EXPECT_EQ(e.condition, "singular metric g");
  }
}

TYPED_TEST(Library, StatesOffTheManifoldAreRefusedAndNearbyOnesProjected) {
  using S = TypeParam;
  const Study<S>& sk = find_study<S>("skate");
  const System<S> sys = sk.build(sk.default_parameters());
  Vec<S> q(3), qd(3);
  q << S(0), S(0), S(0);
  qd << S(1), from_string<S>("0.001"), S(1);  // C = -0.001: sliding sideways
  EXPECT_THROW(admit_state<S>(sys, q, qd, default_manifold_tolerance<S>()), InvalidState);
  qd[1] = from_string<S>("1e-12");  // within the admission tolerance: projected onto C
  const Vec<S> v = admit_state<S>(sys, q, qd, default_manifold_tolerance<S>());
  EXPECT_LE(constraint_residuals(sys, q, v).cwiseAbs().maxCoeff(), S(10) * epsilon<S>());
  EXPECT_LE((v - qd).cwiseAbs().maxCoeff(), from_string<S>("2e-12"));
  EXPECT_THROW(admit_state<S>(sys, Vec<S>(Vec<S>::Zero(2)), qd, default_manifold_tolerance<S>()),
               UsageError);
}

TYPED_TEST(Library, EveryStepperReachesTheClosedForm) {
  using S = TypeParam;
  const Study<S>& sk = find_study<S>("skate");
  const SpecialMotion<S> mo = sk.special_motions().front();
  const System<S> sys = sk.build(mo.parameters);
  for (const Stepper stepper : kSteppers) {
    IntegrationOptions<S> opts;
    opts.t_end = S(2);
    opts.dt_out = S(1) / S(2);
    opts.stepper = stepper;
    // Accuracies each stepper reaches in reasonable time (docs/numerics.md):
    // dopri5 is a double-precision method (1e-13 beyond double); Fehlberg
    // 7(8) beyond double is held to 1e-30 (at the 1e-40 of
    // Tolerance<mp50>::analytic it would need ~10^6 RHS calls for these
    // two time units); Bulirsch-Stoer reaches Tolerance<S>::analytic.
    const bool dbl = std::is_same_v<S, double>;
    // Verner 8(7) (verner87), of the same order as Fehlberg's, likewise.
    const bool order8 = stepper == Stepper::fehlberg78 || stepper == Stepper::verner87;
    const S target = stepper == Stepper::dopri5 && !dbl ? from_string<S>("1e-13")
                     : order8 && !dbl                   ? from_string<S>("1e-30")
                                                        : Tolerance<S>::analytic;
    opts.rtol = opts.atol = stepper == Stepper::bulirsch_stoer   ? integration_tolerance<S>()
                            : stepper == Stepper::dopri5 && !dbl ? from_string<S>("1e-16")
                                                                 : target / S(10000);
    S err = 0;
    int samples = 0;
    integrate<S>(
        sys, find_formulation<S>("first-kind"), mo.initial.q, mo.initial.qdot, opts,
        [&](const Sample<S>& s) {
          using std::max;
          err = max(err, (s.q - mo.exact(s.t).q).cwiseAbs().maxCoeff());
          ++samples;
        },
        nullptr);
    EXPECT_EQ(samples, 5) << stepper_name(stepper);
    EXPECT_LE(err, target) << stepper_name(stepper);
  }
}

TYPED_TEST(Library, FailedIntegrationKeepsTheObservedSamples) {
  using S = TypeParam;
  const Study<S>& sk = find_study<S>("skate");
  const System<S> sys = sk.build(sk.default_parameters());
  const State<S> x0 = sk.default_state(sys);
  IntegrationOptions<S> opts;
  opts.t_end = S(100);
  opts.dt_out = S(1) / S(10);
  opts.max_rhs_calls = 2000;
  int samples = 0;
  IntegrationStats stats;
  EXPECT_THROW(integrate<S>(sys, find_formulation<S>("second-kind"), x0.q, x0.qdot, opts,
                            [&](const Sample<S>&) { ++samples; }, &stats),
               IntegrationFailure);
  EXPECT_GT(samples, 1);
  EXPECT_EQ(stats.rhs_calls, 2001u);
  EXPECT_THROW(parse_stepper("euler"), UsageError);
  for (const Stepper s : {Stepper::automatic, Stepper::dopri5, Stepper::fehlberg78,
                          Stepper::verner87, Stepper::bulirsch_stoer})
    EXPECT_EQ(parse_stepper(stepper_name(s)), s);
}

TYPED_TEST(Library, NumbersParseExactlyAndRoundTrip) {
  using S = TypeParam;
  EXPECT_THROW(from_string<S>("1.2.3"), MalformedNumber);
  EXPECT_THROW(from_string<S>("abc"), MalformedNumber);
  EXPECT_THROW(from_string<S>(""), MalformedNumber);
  const S third = S(1) / S(3);
  EXPECT_EQ(from_string<S>(to_string<S>(third)), third);
  // "0.1" is the S nearest 1/10, not a widened double.
  EXPECT_LE(abs(from_string<S>("0.1") * S(10) - S(1)), S(2) * epsilon<S>());
}

}  // namespace
}  // namespace nhs
